"""`build.py check --fix-claims` (wiki/checks/claims_fix.py): an editor corrects a number in the prose of both
languages, and the ledger's text follows, but only when the languages and the calculator agree.

Each case edits a copy of the `clean` fixture's pages; the expected texts are read from the edited pages, and
the values the calculators give are read from the calculators, not written here."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

import calculators
from tests.checks.projects import FIXTURES
from wiki.checks import claims, claims_fix
from wiki.checks.project import Project
from wiki.checks.prose import find_numbers

CLEAN = FIXTURES / "clean"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A copy of the clean fixture (pages and ledger)."""
    shutil.copytree(CLEAN, tmp_path / "project")
    return Project(root=tmp_path / "project")


def edit(project: Project, lang: str, old: str, new: str) -> None:
    """Replace `old` by `new` once in the article of `lang`; a blank of `old` stands for any blank (a page writes
    no-break and narrow no-break spaces), and the page keeps its own."""
    path = project.page_file("article", lang)
    text = path.read_text(encoding="utf-8")
    pattern = re.escape(old).replace(r"\ ", " ").replace(" ", "[ \u00a0\u202f]")
    found = list(re.finditer(pattern, text))
    assert len(found) == 1, (path, old)
    blanks = iter(re.findall("[ \u00a0\u202f]", found[0].group()))
    written = re.sub(" ", lambda _m: next(blanks, " "), new)
    path.write_text(text[:found[0].start()] + written + text[found[0].end():], encoding="utf-8")


def ledger(project: Project) -> dict[str, dict]:
    """The ledger's claims by id."""
    return {claim["id"]: claim for claim in yaml.safe_load(project.claims_file.read_text(encoding="utf-8"))}


def value(claim_id: str, project: Project) -> float:
    """What the claim's calculator gives."""
    calc = ledger(project)[claim_id]["calculator"]
    return calculators.run(calc["name"], calc["inputs"])["values"][calc["value"]]


def test_a_rounded_number_in_both_languages_is_written_into_the_ledger(project: Project) -> None:
    efficiency = value("tp-8-box", project)
    rounded = f"{efficiency:.1f}".replace(".", ",")
    assert rounded != "0,73"
    old = ledger(project)["tp-8-box"]["text"]
    for lang in ("da", "fr"):
        edit(project, lang, "0,73×", f"{rounded}×")
    before = project.claims_file.read_text(encoding="utf-8")
    assert any("tp-8-box" in f.message and "--fix-claims` writes it" in f.message for f in claims_fix.check(project))

    made = claims_fix.apply(project)

    assert [(p.claim, bool(p.texts)) for p in made] == [("tp-8-box", True)]
    texts = ledger(project)["tp-8-box"]["text"]
    assert texts == {lang: text.replace("0,73×", f"{rounded}×") for lang, text in old.items()}
    assert claims.check(project) == []
    # Only that claim's two texts changed: every other line of the file is as it was.
    after = project.claims_file.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]
    assert len(changed) == 1 and "0,73×" in changed[0][0] and f"{rounded}×" in changed[0][1]


def test_french_thousands_keep_their_narrow_no_break_space_in_the_ledger(project: Project) -> None:
    low, high = 500, 2000
    rate = value("node-tokens", project)
    assert low <= rate <= high
    new_high = high + 500
    edit(project, "da", "500–2.000 tok/s", f"500–{new_high // 1000}.{new_high % 1000:03d} tok/s")
    edit(project, "fr", "2 000 tok/s", f"{new_high // 1000} {new_high % 1000:03d} tok/s")

    (made,) = claims_fix.apply(project)

    assert made.texts and not made.reason
    assert "\\u202f" in project.claims_file.read_text(encoding="utf-8").split("node-tokens")[1].split("\n- id")[0]
    french = ledger(project)["node-tokens"]["text"]["fr"]
    assert [n.value for n in find_numbers(french, "fr")] == [500, new_high]
    assert claims.check(project) == []


@pytest.mark.parametrize("case", ["calculator disagrees", "one language only", "languages differ", "unchecked",
                                  "ambiguous", "a number of another sentence"])
def test_the_ledger_is_left_alone_when_the_languages_or_the_calculator_do_not_agree(project: Project,
                                                                                    case: str) -> None:
    if case == "calculator disagrees":
        wrong = f"{value('tp-8-box', project) + 0.2:.2f}".replace(".", ",")
        for lang in ("da", "fr"):
            edit(project, lang, "0,73×", f"{wrong}×")
        claim, reason = "tp-8-box", "scaling gives"
    elif case == "one language only":
        edit(project, "da", "0,73×", "0,7×")
        claim, reason = "tp-8-box", "French text still says the old number"
    elif case == "languages differ":
        edit(project, "da", "0,73×", "0,7×")
        edit(project, "fr", "0,73×", "0,72×")
        claim, reason = "tp-8-box", "different numbers"
    elif case == "unchecked":
        for lang in ("da", "fr"):
            edit(project, lang, "0,65×", "0,6×")
        claim, reason = "tp-2x4", "no calculator compares this number"
    elif case == "ambiguous":  # "768 GB" with another number reads as "96 GB" too
        for lang in ("da", "fr"):
            edit(project, lang, "768 G", "786 G")
        claim, reason = "node-768-gb", "2 times with other numbers"
    else:
        for lang in ("da", "fr"):
            edit(project, lang, "8 × RTX", "4 × RTX")
        claim, reason = None, None  # the claim's own text ("768 GB") is still there: nothing to propose
    before = project.claims_file.read_bytes()

    made = claims_fix.apply(project)

    assert project.claims_file.read_bytes() == before
    if claim is None:
        assert made == []
        return
    assert [p.claim for p in made] == [claim] and not made[0].texts
    assert reason in made[0].reason
    # The claims check says the same, so a plain `check` tells the editor why.
    assert any(reason in f.message for f in claims_fix.check(project) if claim in f.message)


def test_a_changed_number_beside_the_compared_one_is_not_written(project: Project) -> None:
    # The claim's text grows to the whole sentence, whose other numbers (8 GPUs of 96 GB) the calculator does
    # not compare: it compares 768 GB, the sentence's last number.
    sentences = {}
    for lang in ("da", "fr"):
        page = project.page_file("article", lang).read_text(encoding="utf-8")
        sentences[lang] = next(line for line in page.splitlines() if "RTX Pro 6000" in line and "VRAM" in line)
    entries = ledger(project)
    entries["node-768-gb"]["text"] = sentences
    entries["node-768-gb"]["calculator"]["number"] = len(find_numbers(sentences["da"], "da")) - 1
    project.claims_file.write_text(yaml.safe_dump(list(entries.values()), allow_unicode=True), encoding="utf-8")
    assert claims.check(project) == []
    ledger_text = project.claims_file.read_text(encoding="utf-8")
    for lang in ("da", "fr"):
        edit(project, lang, "(96 G", "(95 G")

    (made,) = claims_fix.apply(project)

    assert not made.texts and "does not compare changed" in made.reason
    assert project.claims_file.read_text(encoding="utf-8") == ledger_text
