"""The four edits editors and translators make, in a copy of the project: each passes the suite's content checks.

A copy of the project gets, at once:

1. an editor's wording change in each language (one word of a prose line of the first article);
2. a translator's rewording of a catalog string in each language (the runtime's "could not start" notice);
3. a new article pair (`docs/<slug>.md`, `docs/<slug>.fr.md`, with a widget) and its line in mkdocs.yml's nav;
4. a new GPU in the catalogue (`calculators/catalog/gpus.py`).

Then, in the copy, exactly what CI's content job runs: the strict build (once, kept), the editors' checks on it
(`test_the_real_repository_has_no_finding`) and every test that reads the content (`-m "content and not browser"`:
the pages, claims.yml, the catalogs, the calculators' contract), which take their expectations from the copy's
own sources. Nothing in the suite pins the old wording, the old catalog text, the list of pages or of GPUs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from tests.conftest import KEEP_ENV, ROOT
from tests.support.content import articles, home, nav_pages
from tests.support.html import Page
from tests.support.project import full_copy
from widgets import strings
from wiki.checks.prose import read

REPLACEMENT = {"da": "ordskifte", "fr": "motchangé"}
# The translator's rewording: a sentence added to the notice shown when the live calculator cannot start.
REWORDED = {"da": "Prøv igen senere.", "fr": "Réessayez plus tard."}
MSGID = strings.UI["state_error"]
SLUG = "ny-artikel"
ARTICLE = """---
title: {title}
description: {description}
---

# {title} {{ #ny-artikel }}

{intro}

## {section} {{ #memory }}

{body}

```calculator vram_fit
model: llama-3.1-70b
precision: fp8
gpu: h100-pcie
```
"""
NEW_ARTICLE = {
    "da": ARTICLE.format(title="Hukommelse pr. node", description="Hvad en node kan rumme af vægte og KV-cache.",
                         intro="En kort artikel, som en redaktør tilføjer.", section="Hukommelsen",
                         body="Beregneren viser, om modellen passer i noden."),
    "fr": ARTICLE.format(title="Mémoire par nœud", description="Ce qu'un nœud peut contenir de poids et de cache KV.",
                         intro="Un court article qu'un rédacteur ajoute.", section="La mémoire",
                         body="Le calculateur montre si le modèle tient dans le nœud."),
}
# H100 PCIe, NVIDIA H100 datasheet (https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet):
# 80 GB HBM2e, 2 TB/s, "BFLOAT16 Tensor Core 1,513 teraFLOPS*" and "FP8 Tensor Core 3,026 teraFLOPS*" (* with
# sparsity: 756.5 and 1,513 dense), PCIe Gen5 128 GB/s, "Max thermal design power (TDP) 300-350W".
NEW_GPU = '''    Gpu("h100-pcie", "H100 PCIe", 80.0, 2000.0, "pcie5", "PCIe 5.0 x16",
        756.5, "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
        board_w=350.0, power_source="https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
        fp8_tflops=1513.0),
'''


def change_a_word(root: Path, lang: str) -> tuple[str, str]:
    """Replace the longest word of the first article's first long prose line that no number, claim or correction
    quotes; return the word and its line as now written."""
    page = articles(root)[0].source(lang)
    quoted = (root / "claims.yml").read_text(encoding="utf-8") + (root / "CORRECTIONS.md").read_text(encoding="utf-8")
    lines = page.read_text(encoding="utf-8").split("\n")
    for section in read(page, lang).sections[1:]:
        for number, line in section.lines:
            raw = lines[number - 1]
            words = [w for w in re.findall(r"[^\W\d_]{6,}", raw) if w not in quoted]
            if len(line.split()) > 8 and not re.search(r"\d", raw) and not raw.startswith(("#", " ", "|")) and words:
                word = max(words, key=len)
                lines[number - 1] = raw.replace(word, REPLACEMENT[lang], 1)
                page.write_text("\n".join(lines), encoding="utf-8")
                return word, lines[number - 1]
    raise AssertionError(f"no prose line to edit in {page}")


def reword(root: Path, lang: str) -> str:
    """A translator's new text for `MSGID` in `lang`'s catalog; returns it."""
    path = root / "i18n" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    catalog[MSGID].string = f"{catalog[MSGID].string} {REWORDED[lang]}"
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)
    return catalog[MSGID].string


def add_article(root: Path) -> None:
    """The article pair and its nav line, after the last article (README, "Adding an article")."""
    (root / "docs" / f"{SLUG}.md").write_text(NEW_ARTICLE["da"], encoding="utf-8")
    (root / "docs" / f"{SLUG}.fr.md").write_text(NEW_ARTICLE["fr"], encoding="utf-8")
    config = root / "mkdocs.yml"
    last = articles(root)[-1].doc
    text = config.read_text(encoding="utf-8")
    assert text.count(f"  - {last}\n") == 1
    config.write_text(text.replace(f"  - {last}\n", f"  - {last}\n  - {SLUG}.md\n"), encoding="utf-8")


def add_gpu(root: Path) -> None:
    """A GPU entry, after the last one of the catalogue."""
    path = root / "calculators" / "catalog" / "gpus.py"
    text = path.read_text(encoding="utf-8")
    end = text.index("\n)\n", text.index("GPU_LIST"))
    path.write_text(text[:end + 1] + NEW_GPU + text[end + 1:], encoding="utf-8")


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, subprocess.CompletedProcess[str]]:
    """The copy with the four edits, and the run of the content tests in it (which builds it into `site/`)."""
    root = tmp_path_factory.mktemp("edited")
    full_copy(root)
    made = {"words": {lang: change_a_word(root, lang) for lang in ("da", "fr")},
            "reworded": {lang: reword(root, lang) for lang in ("da", "fr")}}
    add_article(root)
    add_gpu(root)
    env = {**os.environ, KEEP_ENV: str(root / "site"), "PYTHONPATH": str(root)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "-m", "content and not browser", "tests"],
                         cwd=root, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return root, made, run


def test_the_content_tests_and_the_checks_pass_on_the_edited_copy(edited) -> None:
    _root, _made, run = edited
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert re.search(r"\b\d+ passed\b", run.stdout) and "test_the_real_repository_has_no_finding" not in run.stdout


def test_the_edits_are_what_the_built_copy_shows(edited) -> None:
    root, made, _run = edited
    site = root / "site"
    assert (site / "index.html").exists(), "the content run did not build the copy"
    first = articles(root)[0]
    for lang, (_word, _line) in made["words"].items():
        text = Page(site / first.built(lang)).article_text
        assert REPLACEMENT[lang] in text
    for lang, reworded in made["reworded"].items():
        source = (site / first.built(lang)).read_text(encoding="utf-8")
        assert reworded.replace("'", "&#39;") in source or reworded in source  # data-text-error of each widget
    new = next(page for page in nav_pages(root) if page.slug == SLUG)
    for lang in ("da", "fr"):
        page = Page(site / new.built(lang))
        assert page.find("div", **{"data-calculator": "vram_fit"})
        assert '<option value="h100-pcie" selected>H100 PCIe</option>' in page.source  # the new GPU, preset
        assert new.url("da") in Page(site / home(root).built(lang)).source  # listed on the home page
    assert ROOT != root
