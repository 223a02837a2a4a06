"""The calculator pages' build-time parts (wiki/methods.py) and their checker (wiki/checks/methods.py).

The checker runs on a copy of the real pages with one edit each: a number typed by hand, a placeholder
that names nothing, a placeholder one language lacks, a decimal in a formula, a missing validation table.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import calculators
from calculators import reference as R
from tests.conftest import ROOT
from widgets import numbers, strings
from widgets.locale import locale_of
from wiki import katex, methods, offline
from wiki.checks import methods as checker
from wiki.checks.project import Project

PAGES = ROOT / "docs" / methods.FOLDER


def project_with(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Project:
    """A project holding the real calculator pages and ledger, with `edits` (file name -> (old, new)) made."""
    docs = tmp_path / "docs" / methods.FOLDER
    docs.mkdir(parents=True)
    for page in PAGES.glob("*.md"):
        shutil.copy(page, docs / page.name)
    shutil.copy(ROOT / "claims.yml", tmp_path / "claims.yml")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    for name, (old, new) in edits.items():
        page = docs / name
        source = page.read_text(encoding="utf-8")
        assert source.count(old) >= 1, f"{old!r} is not in {name}"
        page.write_text(source.replace(old, new, 1), encoding="utf-8")
    return Project(root=tmp_path)


def line_of(project: Project, name: str, needle: str) -> int:
    """The line of `needle` in the copied page `name`."""
    lines = (project.docs / methods.FOLDER / name).read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_every_calculator_has_its_page_in_every_language() -> None:
    project = Project()
    for name in calculators.CALCULATORS:
        for lang in project.languages:
            path = ROOT / "docs" / methods.page_file(name, lang, project.default_language)
            assert path.exists(), path
            assert re.search(rf"^method: {name}$", path.read_text(encoding="utf-8"), re.MULTILINE)


def test_the_real_pages_have_no_finding() -> None:
    assert [str(f) for f in checker.check(Project())] == []


def test_a_number_typed_by_hand_is_refused(tmp_path: Path) -> None:
    from calculators import assumptions as A

    placeholder = "{{ assumptions.DEFAULT_WEIGHTS_LIMIT | percent }}"
    typed = numbers.of("da").percent(A.DEFAULT_WEIGHTS_LIMIT, 1)  # the same value, typed instead of taken from the code
    project = project_with(tmp_path, {"vram-fit.md": (placeholder, typed)})
    found = [f for f in checker.check(project) if f.file.endswith("vram-fit.md")]
    line = line_of(project, "vram-fit.md", typed)
    assert any(f.line == line and "written by hand" in f.message for f in found), found


def test_a_placeholder_that_names_nothing_is_refused(tmp_path: Path) -> None:
    edit = ("serving_memory.CUDA_GRAPHS_GIB }}", "serving_memory.NO_SUCH }}")
    project = project_with(tmp_path, {"vram-fit.fr.md": edit})
    found = [f for f in checker.check(project) if f.file.endswith("vram-fit.fr.md")]
    assert any("has no constant NO_SUCH" in f.message for f in found), found
    # ... and the languages no longer fill in the same values in that section
    assert any("the languages fill in the same values" in f.message for f in found), found


def test_a_decimal_in_a_formula_must_come_from_the_code(tmp_path: Path) -> None:
    project = project_with(tmp_path, {"vram-fit.md": ("\\[ k = 2 \\cdot L", "\\[ k = 2,5 \\cdot L")})
    found = [f for f in checker.check(project) if f.file.endswith("vram-fit.md")]
    assert any("'2,5' in a formula is a constant" in f.message for f in found), found


def test_a_page_without_its_validation_table_is_refused(tmp_path: Path) -> None:
    project = project_with(tmp_path, {"scaling.md": ("{{ validation }}", "")})
    found = [f for f in checker.check(project) if f.file.endswith("scaling.md")]
    assert any("{{ validation }}" in f.message for f in found), found


def test_a_range_the_page_does_not_explain_is_refused(tmp_path: Path) -> None:
    project = project_with(tmp_path, {"throughput.md": ("{{ label node_tokens_per_s_range }}", "Spændet")})
    found = [f for f in checker.check(project) if f.file.endswith("throughput.md")]
    assert any("{{ label node_tokens_per_s_range }}" in f.message for f in found), found


def test_a_missing_page_is_named(tmp_path: Path) -> None:
    project = project_with(tmp_path, {})
    (project.docs / methods.FOLDER / "compare.md").unlink()
    found = [str(f) for f in checker.check(project)]
    assert any(f.startswith("docs/metode/compare.md: methods: compare has no page") for f in found), found


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_placeholders_are_filled_from_the_code_in_the_pages_language(lang: str) -> None:
    loc = locale_of(lang)
    from calculators import assumptions as A
    from calculators import serving_memory as S

    def prose(written: str) -> str:  # French prose sets U+202F before %, where CLDR writes U+00A0
        return written.replace("\u00a0%", "\u202f%") if lang == "fr" else written

    assert methods.fill("assumptions.DEFAULT_WEIGHTS_LIMIT | percent", lang) == prose(loc.numbers.percent(
        A.DEFAULT_WEIGHTS_LIMIT, 1))
    assert methods.fill("serving_memory.ENGINES[vllm].utilization | percent(0)", lang) == prose(loc.numbers.percent(
        S.ENGINES["vllm"].utilization, 0))
    low, high = A.TRAINING_MFU_RANGE
    assert methods.fill("assumptions.TRAINING_MFU_RANGE | percent(0)", lang) == prose(loc.text(
        strings.UNITS["range"], low=loc.numbers.decimal(low * 100, 0), high=loc.numbers.percent(high, 0)))
    assert methods.fill("label efficiency_range", lang) == loc.text(strings.OUTPUTS["efficiency_range"])
    assert methods.fill("verdict one_node", lang) == loc.text(strings.VERDICTS["one_node"])
    tex = methods.fill("assumptions.DEFAULT_MFU | tex", lang)
    assert "{,}" in tex and tex.replace("{,}", ",") == loc.numbers.decimal(A.DEFAULT_MFU, 4)
    for wrong in ("assumptions.NOPE", "nomodule.X", "assumptions.DEFAULT_MFU | bold", "assumptions.PRECISIONS",
                  "label no_such_output", "validation"):
        with pytest.raises(methods.PlaceholderError):
            methods.fill(wrong, lang)


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_a_range_of_ours_writes_its_unit_once(lang: str) -> None:
    """`22–32 GB/s`, not `22 GB/s–32 GB/s` (the second Danish read), in every row of every table."""
    def unit(name: str) -> str:  # the unit as the page writes it: "GB/s", "Go/s", "GPU-timer"
        return methods.quantity(1, name, lang).replace("1", "", 1).strip("\u00a0\u202f ")

    assert methods.quantity_range(22, 32, "GB/s", lang).count(unit("GB/s")) == 1
    assert methods.quantity_range(22, 32, "GB/s", lang).endswith(unit("GB/s"))
    refs = [ref for ref in calculators.reference.REFERENCES if ref.unit not in {"MFU", "×"}]
    assert all(methods.row(ref, lang)["ours"].count(unit(ref.unit)) == 1 for ref in refs)


def test_every_reference_belongs_to_a_calculator() -> None:
    assert {ref.calculator for ref in R.REFERENCES} <= set(calculators.CALCULATORS)
    for ref in R.REFERENCES:
        if "run" in ref.call:
            assert ref.calculator == ref.call["run"], ref.id


def test_a_calculator_without_figures_of_its_own_shows_those_it_is_built_on() -> None:
    for name in calculators.CALCULATORS:
        if methods.references(name):
            continue
        bases = methods.builds_on(name)
        assert bases and any(methods.references(base) for base in bases), name
    assert "throughput" in methods.builds_on("workload")
    assert "vram_fit" in methods.builds_on("decision")


def test_katex_ships_its_woff2_fonts_only_and_names_no_other(tmp_path: Path) -> None:
    target = katex.install(tmp_path)
    css = (target / katex.STYLESHEET).read_text(encoding="utf-8")
    named = set(re.findall(r"url\((fonts/[^)]+)\)", css))
    assert named and all(name.endswith(".woff2") for name in named)
    assert all((target / name).is_file() for name in named)
    assert not list(target.rglob("*.ttf")) and not list(target.rglob("*.woff"))
    for script in katex.SCRIPTS:
        assert (target / script).is_file()


def test_the_service_worker_keeps_katex_on_first_use_not_at_install(tmp_path: Path) -> None:
    katex.install(tmp_path)
    (tmp_path / "index.html").write_text("<p>home</p>", encoding="utf-8")
    data = offline.build_data(tmp_path, None, ("da", "fr"))
    assert not [path for path in data["shell"] if path.startswith(katex.TARGET)]
    assert f"{katex.TARGET}/katex.min.js" in data["later"]
