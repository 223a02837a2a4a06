"""The pull request's summary (`python3 build.py summary --base REF`, wiki/checks/summary.py) on a fixture change:
a copy of the project whose first article's VRAM widget gets another preset in both languages."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from harness.site import copy_project
from tests.conftest import ROOT
from tests.support.content import page_with
from widgets import strings, view
from widgets.locale import locale_of
from wiki.checks import summary

PAGE = page_with("vram_fit")


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict, dict[str, int]]:
    """The pages as read in a copy of the project (before) and in one with the VRAM widget's GPUs doubled (after)."""
    read = {}
    doubled = {}
    for state in ("before", "after"):
        root = tmp_path_factory.mktemp(state)
        copy_project(root)
        shutil.copy(ROOT / "claims.yml", root / "claims.yml")
        if state == "after":
            for lang in PAGE.langs:
                path = root / PAGE.rel_source(lang)
                source = path.read_text(encoding="utf-8")
                start = source.index("```calculator vram_fit\n")
                fence = source[start:source.index("```\n", start + 4) + 4]
                gpus = int(PAGE.presets("vram_fit", lang).get("gpus", 8))
                doubled[lang] = 2 * gpus
                edited = re.sub(r"^gpus: .*\n", "", fence.split("\n", 1)[1], flags=re.MULTILINE)
                path.write_text(source.replace(fence, f"```calculator vram_fit\ngpus: {2 * gpus}\n{edited}", 1),
                                encoding="utf-8")
        read[state] = summary.read_tree(root)
    return read["before"], read["after"], doubled


def test_a_changed_preset_lists_its_page_and_the_widgets_old_and_new_values_in_the_pages_language(trees) -> None:
    before, after, doubled = trees
    found = summary.changes(before, after)
    assert set(found) == {PAGE.rel_source(lang) for lang in PAGE.langs}  # that page, in each language; no other
    for lang in PAGE.langs:
        old = view("vram_fit", PAGE.presets("vram_fit", lang), lang)
        new = view("vram_fit", {**PAGE.presets("vram_fit", lang), "gpus": doubled[lang]}, lang)
        rows = {what: (was, now) for what, was, now in found[PAGE.rel_source(lang)]}
        label = next(what for what in rows if what.endswith(locale_of(lang).text(strings.OUTPUTS["vram_gb"])))
        assert locale_of(lang).text(strings.TITLES["vram_fit"]) in label  # the widget, named in the page's language
        assert rows[label] == (old["outputs"]["vram_gb"], new["outputs"]["vram_gb"])
        changed = {key for key in old["outputs"] if old["outputs"][key] != new["outputs"][key]}
        assert len([what for what in rows if "(vram_fit" in what]) == len(changed) + (old["verdict"] != new["verdict"])
    report = summary.markdown(found, before, after, "main")
    assert f"### `{PAGE.rel_source('da')}` (da)" in report and "| before | after |" in report


def test_no_change_says_so(trees) -> None:
    before, _after, _doubled = trees
    assert summary.changes(before, before) == {}
    assert "No widget value, verdict or claim of any page changes." in summary.markdown({}, before, before, "main")


def test_the_base_is_read_from_git(tmp_path: Path) -> None:
    tree = summary.tree_at("HEAD", tmp_path)
    assert (tree / "docs" / PAGE.doc).exists() and (tree / "mkdocs.yml").exists()
