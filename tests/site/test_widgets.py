"""Prerendered calculators on the built article: the numbers a reader sees without JavaScript."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import calculators
from tests.conftest import ROOT, build_site
from tests.support.html import Page
from harness.site import copy_project
from widgets import numbers, view
from wiki.catalogs import check
from wiki.embed import find_embeds

ARTICLE = {"da": ("scale-out/index.html", "docs/scale-out.md"), "fr": ("fr/scale-out/index.html", "docs/scale-out.fr.md")}
NNBSP, NBSP = "\u202f", "\u00a0"


def outputs(page: Page, root_id: str) -> dict[str, str]:
    """The text of every data-output element inside one widget (by parsing the page's source)."""
    start = page.source.index(f'id="{root_id}"')
    end = page.source.index('data-copy-link', start)
    chunk = page.source[start:end]
    found = {}
    for key, inner in re.findall(r'data-output="([\w]+)"[^>]*>(.*?)</(?:dd|strong|p)>', chunk, re.S):
        found[key] = re.sub(r"<[^>]+>", "", inner)
    return {k: html.unescape(v) for k, v in found.items()}


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_every_embed_is_prerendered_from_calculators_run(site_dir: Path, lang: str) -> None:
    built, source = ARTICLE[lang]
    page = Page(site_dir / built)
    embeds = [e for _, _, e in find_embeds((ROOT / source).read_text(encoding="utf-8"), source)]
    widgets = [e for e in embeds if e.kind == "calculator"]
    assert {e.name for e in widgets} >= {"vram_fit", "scaling"}  # the two the tests below look at
    roots = page.find("div", **{"data-state": "static"})
    assert [r["data-calculator"] for r in roots] == [e.name for e in widgets]  # the source's order
    for embed, root in zip(widgets, roots, strict=True):
        result = calculators.run(embed.name, embed.presets)
        assert result["ok"]
        expected = view(embed.name, embed.presets, lang)
        shown = outputs(page, root["id"])
        assert shown["verdict"] == expected["verdict_text"] and expected["verdict"] == result["verdict"]
        for key, text in expected["outputs"].items():
            assert shown[key] == text, (embed.name, key)
        assert shown["explanation"] == expected["explanation"]


@pytest.mark.parametrize(("lang", "expected"), [
    ("da", {"vram_gb": "768 GB", "weights_gb": "406 GB", "weights_share": f"52,8{NBSP}%",
            "kv_bytes_per_token": "516,1 kB", "kv_gb": "541 GB", "kv_budget_gb": "310 GB", "max_concurrency": "18 anmodninger",
            "max_context": "18.769 tokens"}),
    ("fr", {"vram_gb": f"768{NNBSP}Go", "weights_gb": f"406{NNBSP}Go", "weights_share": f"52,8{NBSP}%",
            "kv_bytes_per_token": f"516,1{NNBSP}ko", "kv_gb": f"541{NNBSP}Go", "kv_budget_gb": f"310{NNBSP}Go",
            "max_concurrency": f"18{NBSP}requêtes", "max_context": f"18{NNBSP}769{NBSP}tokens"}),
])
def test_405b_fp8_fits_the_weights_not_the_workload(site_dir: Path, lang: str, expected: dict[str, str]) -> None:
    page = Page(site_dir / ARTICLE[lang][0])
    root = page.find("div", **{"data-calculator": "vram_fit"})[0]
    shown = outputs(page, root["id"])
    assert {k: shown[k] for k in expected} == expected
    # the requested load (32 requests of 32k) does not fit: the verdict says so (issue #12), not "tight"
    assert page.find("strong", **{"data-output": "verdict", "data-verdict": "does_not_fit"})
    # the explanation cites the numbers: weights fit, KV cache for the target does not
    for number in (expected["weights_gb"], expected["kv_gb"], expected["kv_budget_gb"]):
        assert number in shown["explanation"]


@pytest.mark.parametrize(("lang", "efficiency"), [("da", f"45,9{NBSP}%"), ("fr", f"45,9{NBSP}%")])
def test_scaling_widget_shows_the_case_its_paragraph_warns_about(site_dir: Path, lang: str, efficiency: str) -> None:
    """TP across 2 x 8 GPUs on IB 200: below the 60 % line, "restructure" (the paragraph above it)."""
    page = Page(site_dir / ARTICLE[lang][0])
    root = page.find("div", **{"data-calculator": "scaling"})[0]
    assert outputs(page, root["id"])["efficiency"] == efficiency
    assert page.find("strong", **{"data-output": "verdict", "data-verdict": "restructure"})


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_missing_tables_are_filled_and_labelled(site_dir: Path, lang: str) -> None:
    page = Page(site_dir / ARTICLE[lang][0])
    assert "<!-- placeholder" not in page.source
    scaling = page.source[page.source.index('data-table="scaling_efficiency"'):]
    scaling = scaling[: scaling.index("</table>")]
    cells = re.findall(r"<td data-efficiency>([^<]*)</td>", scaling)
    rows = calculators.table({})
    assert cells == [numbers.percent(r["efficiency"], lang, 0) for r in rows]
    assert cells[3] == f"73{NBSP}%" and cells[5] == f"65{NBSP}%"  # the article's two data points
    caption = re.search(r"<caption[^>]*>(.*?)</caption>", scaling, re.S)[1]
    assert {"da": "Projektion", "fr": "Projection"}[lang] in caption
    build = page.source[page.source.index('data-table="single_node_build"'):]
    build = build[: build.index("</table>")]
    assert "RTX Pro 6000 Blackwell" in build and numbers.gigabytes(768, lang) in build


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_form_fields_come_from_the_spec_with_localized_presets(site_dir: Path, lang: str) -> None:
    page = Page(site_dir / ARTICLE[lang][0])
    root_id = page.find("div", **{"data-calculator": "vram_fit"})[0]["id"]
    names = [a["name"] for t, a in page.tags if t in {"input", "select"} and a.get("id", "").startswith(root_id)]
    assert names == [f["name"] for f in calculators.CALCULATORS["vram_fit"]["inputs"]]
    context = page.find("input", id=f"{root_id}-context")[0]
    assert context["value"] == {"da": "32.768", "fr": f"32{NNBSP}768"}[lang]
    assert page.find("input", id=f"{root_id}-weights_limit")[0]["value"] == f"70{NBSP}%"  # a share, as its help says


def test_catalogs_are_complete() -> None:
    assert check(("da", "fr")) == []


@pytest.mark.parametrize(("block", "message"), [
    ("```calculator vram_fitt\n```", "docs/scale-out.fr.md:{line}: unknown calculator 'vram_fitt'"),
    ("```calculator vram_fit\nmodell: llama-3.1-405b\n```", "docs/scale-out.fr.md:{line}: vram_fit: input 'modell': unknown_input"),
    ("```calculator vram_fit\nmodel: llama-9\n```", "docs/scale-out.fr.md:{line}: vram_fit: input 'model': unknown_choice"),
    ("```calculator vram_fit\ngpus: many\n```", "docs/scale-out.fr.md:{line}: vram_fit: input 'gpus': not_a_number"),
])
def test_a_broken_embed_fails_the_build_with_page_and_line(tmp_path: Path, block: str, message: str) -> None:
    copy_project(tmp_path)
    page = tmp_path / "docs" / "scale-out.fr.md"
    text = page.read_text(encoding="utf-8")
    line = text.count("\n") + 2
    page.write_text(text + "\n" + block + "\n", encoding="utf-8")
    result = build_site(tmp_path / "out", tmp_path / "mkdocs.yml")
    assert result.returncode != 0
    assert message.format(line=line) in result.stdout + result.stderr


@pytest.mark.parametrize("msgstr", ["{value par an", "{value!r} par an", "{value.__class__} par an",
                                    "{value:>50000} par an"])
def test_a_bad_placeholder_in_a_catalog_stops_the_build_at_its_po_line(tmp_path: Path, msgstr: str) -> None:
    copy_project(tmp_path)
    po = tmp_path / "i18n" / "fr" / "LC_MESSAGES" / "messages.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    index = lines.index('msgid "{value} per year"')
    lines[index + 1] = f'msgstr "{msgstr}"'
    po.write_text("\n".join(lines), encoding="utf-8")
    result = build_site(tmp_path / "out", tmp_path / "mkdocs.yml")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"i18n/fr/LC_MESSAGES/messages.po:{index + 1}: translation '{msgstr}'" in output
    assert "Traceback" not in output and "docs/scale-out" not in output


def test_a_widget_title_takes_the_level_below_the_last_heading() -> None:
    """The outline skips no level (axe heading-order): under the page's title h2, under a ## section h3."""
    from wiki.embed import heading_level
    assert heading_level(["# Title", "text"]) == 2
    assert heading_level(["# Title", "## Section", "```bash", "# a comment, not a heading", "```"]) == 3
    assert heading_level(["# Title", "## Section", "### Sub"]) == 4
