"""Prerendered calculators on the built article: the numbers a reader sees without JavaScript."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
import yaml

import calculators
from calculators.catalog.gpus import GPU_BY_ID, training_tflops
from harness.site import copy_project
from tests.conftest import ROOT, build_site
from tests.support.content import DocPage, nav_pages, page_with
from tests.support.html import Page
from tests.support.markdown import rendered_page
from widgets import strings, view
from widgets.locale import locale_of
from wiki import catalogs as catalog_module
from wiki.catalogs import check
from wiki.render import BUILD_TABLE_GPUS

PAGE = page_with("vram_fit", "scaling")  # the nav's first page with the widgets the tests below look at
ARTICLE = {lang: (PAGE.built(lang), PAGE.rel_source(lang)) for lang in PAGE.langs}
WITH_WIDGETS = [(page, lang) for page in nav_pages() for lang in page.langs if page.widgets(lang)]


def outputs(page: Page, root_id: str) -> dict[str, str]:
    """The text of every data-output element inside one widget (by parsing the page's source)."""
    start = page.source.index(f'id="{root_id}"')
    end = page.source.index('data-copy-link', start)
    chunk = page.source[start:end]
    found = {}
    for key, inner in re.findall(r'data-output="([\w]+)"[^>]*>(.*?)</(?:dd|strong|p)>', chunk, re.S):
        found[key] = re.sub(r"<[^>]+>", "", inner)
    return {k: html.unescape(v) for k, v in found.items()}


@pytest.mark.parametrize(("doc", "lang"), WITH_WIDGETS, ids=[f"{d.slug}-{lang}" for d, lang in WITH_WIDGETS])
def test_every_embed_is_prerendered_from_calculators_run(site_dir: Path, doc: DocPage, lang: str) -> None:
    page = Page(site_dir / doc.built(lang))
    widgets = doc.widgets(lang)
    roots = page.find("div", **{"data-state": "static"})
    assert [r["data-calculator"] for r in roots] == [e.name for e in widgets]  # the source's order
    for embed, root in zip(widgets, roots, strict=True):
        result = calculators.run(embed.name, embed.presets)
        assert result["ok"]
        expected = view(embed.name, embed.presets, lang)
        shown = outputs(page, root["id"])
        assert shown["verdict"] == expected["verdict_text"] and expected["verdict"] == result["verdict"]
        for key, value in expected["outputs"].items():
            assert shown[key] == value, (embed.name, key)
        assert shown["explanation"] == expected["explanation"]


def placed_widgets(doc: DocPage, lang: str) -> list[tuple[str, str]]:
    """(section anchor id, calculator) of every widget of a page's source, in the page's order."""
    from wiki.checks.prose import read

    return [(section.id, embed.name) for section in read(doc.source(lang), lang).sections
            for embed in section.embeds if embed.kind == "calculator"]


LEDGER = [claim for claim in yaml.safe_load((ROOT / "claims.yml").read_text(encoding="utf-8")) if claim.get("widget")]


@pytest.mark.parametrize("claim", LEDGER, ids=[claim["id"] for claim in LEDGER])
def test_a_widget_shows_the_verdict_the_ledger_states(site_dir: Path, claim: dict) -> None:
    """claims.yml states what the widget of a claim's section concludes with its presets: the built page shows
    that verdict, with the explanation Python writes for it."""
    doc = DocPage(f"{claim['page']}.md", PAGE.langs)
    for lang in doc.langs:
        placed = placed_widgets(doc, lang)
        name = claim["widget"].get("name") or next(n for section, n in placed if section == claim["section"])
        position = placed.index((claim["section"], name))
        index = sum(1 for _section, n in placed[:position] if n == name)  # its rank among the page's `name` widgets
        page = Page(site_dir / doc.built(lang))
        root = page.find("div", **{"data-calculator": name})[index]
        expected = view(name, doc.presets(name, lang, index), lang)
        assert expected["verdict"] == claim["widget"]["verdict"], (lang, name)
        chunk = page.source[page.source.index(f'id="{root["id"]}"'):]
        assert f'data-verdict="{claim["widget"]["verdict"]}"' in chunk[:chunk.index("data-copy-link")]
        assert outputs(page, root["id"])["explanation"] == expected["explanation"]


@pytest.mark.parametrize("lang", PAGE.langs)
def test_missing_tables_are_filled_and_labelled(site_dir: Path, lang: str) -> None:
    loc = locale_of(lang)
    page = Page(site_dir / ARTICLE[lang][0])
    assert "<!-- placeholder" not in page.source
    scaling = page.source[page.source.index('data-table="scaling_efficiency"'):]
    scaling = scaling[: scaling.index("</table>")]
    cells = re.findall(r"<td data-efficiency>([^<]*)</td>", scaling)
    rows = calculators.table({})
    assert cells == [loc.numbers.percent(r["efficiency"], 0) for r in rows]
    caption = html.unescape(re.search(r"<caption[^>]*>(.*?)</caption>", scaling, re.S)[1])
    assert caption.startswith(loc.text(strings.UI["projection"]).split("{assumptions}")[0])  # says: a projection
    build = html.unescape(page.source[page.source.index('data-table="single_node_build"'):])
    build = build[: build.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", build, re.S)[1:]
    for gpu_id, row in zip(BUILD_TABLE_GPUS, rows, strict=True):  # a node of eight of each
        gpu = calculators.GPUS[gpu_id]
        assert gpu["name"] in row and loc.numbers.gigabytes(8 * gpu["memory_gb"]) in row
        # dense BF16 as it runs, with FP32 accumulation: the RTX 5090 at half its FP16-accumulate headline
        assert loc.numbers.decimal(training_tflops(GPU_BY_ID[gpu_id], "bf16"), 0) in row


@pytest.mark.parametrize("lang", PAGE.langs)
def test_an_output_that_counts_every_copy_says_so(site_dir: Path, lang: str) -> None:
    """`vram_fit` counts the requests one copy over the node holds, `throughput` those of all its copies:
    the same output name, two labels (strings.OUTPUT_LABELS), each the catalog's."""
    loc = locale_of(lang)
    page = Page(site_dir / ARTICLE[lang][0])

    def label(name: str) -> str:
        block = html.unescape(page.source[page.source.index(f'data-calculator="{name}"'):])
        return re.search(r'<dt[^>]*>([^<]*)</dt>\s*<dd[^>]*data-output="max_concurrency"', block)[1].strip()

    assert label("vram_fit") == loc.text(strings.OUTPUTS["max_concurrency"])
    assert label("throughput") == loc.text(strings.output_label("throughput", "max_concurrency"))
    assert label("vram_fit") != label("throughput")


@pytest.mark.parametrize("lang", PAGE.langs)
def test_form_fields_come_from_the_spec_with_localized_presets(site_dir: Path, lang: str) -> None:
    page = Page(site_dir / ARTICLE[lang][0])
    root_id = page.find("div", **{"data-calculator": "vram_fit"})[0]["id"]
    names = [a["name"] for t, a in page.tags if t in {"input", "select"} and a.get("id", "").startswith(root_id)]
    assert names == [f["name"] for f in calculators.CALCULATORS["vram_fit"]["inputs"]]
    shown = view("vram_fit", PAGE.presets("vram_fit", lang), lang)["inputs"]  # the presets, as the form writes them
    for field in ("context", "weights_limit"):
        assert page.find("input", id=f"{root_id}-{field}")[0]["value"] == shown[field]
    assert "%" in shown["weights_limit"]  # a share, as its help says


def test_catalogs_are_complete() -> None:
    assert check(("da", "fr")) == []


BROKEN = [
    ("```calculator vram_fitt\n```", "{page}:{line}: unknown calculator 'vram_fitt'"),
    ("```calculator vram_fit\nmodell: llama-3.1-405b\n```", "{page}:{line}: vram_fit: input 'modell': unknown_input"),
    ("```calculator vram_fit\nmodel: llama-9\n```", "{page}:{line}: vram_fit: input 'model': unknown_choice"),
    ("```calculator vram_fit\ngpus: many\n```", "{page}:{line}: vram_fit: input 'gpus': not_a_number"),
]


@pytest.mark.parametrize(("block", "message"), BROKEN)
def test_a_broken_embed_is_reported_with_page_and_line(block: str, message: str) -> None:
    """What the build says (its Markdown and fences, wiki/fences.py) of a broken fence at the end of a real page.
    The build stopping on it, end to end: the fixture `build-broken-calculator-embed` of
    tests/checks/test_checks.py."""
    lang = PAGE.langs[-1]
    source = PAGE.source(lang).read_text(encoding="utf-8") + "\n" + block + "\n"
    line = source.count("\n") - block.count("\n")
    _html, _widgets, problems = rendered_page(source, lang, PAGE.rel_source(lang))
    expected = message.format(page=PAGE.rel_source(lang), line=line)
    (problem,) = problems
    assert str(problem).startswith(expected.replace(f":{line}: ", f":{line}: Broken calculator embed: ", 1))


BAD_PLACEHOLDERS = ["{value par an", "{value!r} par an", "{value.__class__} par an", "{value:>50000} par an"]


def with_translation(i18n: Path, lang: str, msgid: str, msgstr: str) -> int:
    """Set one translation in a copy of the catalogs; return the line of its msgstr."""
    po = i18n / lang / "LC_MESSAGES" / "messages.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    index = lines.index(f'msgid "{msgid}"')
    lines[index + 1] = f'msgstr "{msgstr}"'
    po.write_text("\n".join(lines), encoding="utf-8")
    return index + 1


@pytest.mark.parametrize("msgstr", BAD_PLACEHOLDERS)
def test_a_bad_placeholder_in_a_catalog_is_reported_at_its_po_line(tmp_path: Path, msgstr: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog check the build runs first (`on_config`), on a copy of the catalogs."""
    i18n = tmp_path / "i18n"
    shutil.copytree(ROOT / "i18n", i18n, ignore=shutil.ignore_patterns("*.mo"))
    line = with_translation(i18n, "fr", "{value} per year", msgstr)
    monkeypatch.setattr(catalog_module, "ROOT", tmp_path)
    monkeypatch.setattr(catalog_module, "I18N", i18n)
    monkeypatch.setattr(catalog_module, "TEMPLATE", i18n / "messages.pot")
    found = [str(problem) for problem in check(PAGE.langs)]
    assert [p for p in found if p.startswith(f"i18n/fr/LC_MESSAGES/messages.po:{line}: translation '{msgstr}'")]


def test_a_bad_placeholder_in_a_catalog_stops_the_build_at_its_po_line(tmp_path: Path) -> None:
    """End to end, once: the build of a copy stops with the catalog's file and line, no traceback, no page."""
    copy_project(tmp_path)
    msgstr = BAD_PLACEHOLDERS[0]
    line = with_translation(tmp_path / "i18n", "fr", "{value} per year", msgstr)
    result = build_site(tmp_path / "out", tmp_path / "mkdocs.yml")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"i18n/fr/LC_MESSAGES/messages.po:{line}: translation '{msgstr}'" in output
    assert "Traceback" not in output and "docs/" not in output


def test_a_widget_title_takes_the_level_below_the_last_heading() -> None:
    """The outline skips no level (axe heading-order): under the page's title h2, under a ## section h3."""
    from wiki.embed import heading_level
    assert heading_level(["# Title", "text"]) == 2
    assert heading_level(["# Title", "## Section", "```bash", "# a comment, not a heading", "```"]) == 3
    assert heading_level(["# Title", "## Section", "### Sub"]) == 4
