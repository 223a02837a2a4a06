"""The glossary and typography rules on single strings, and the glossary file's own errors as findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from wiki.checks import glossary, typography
from wiki.checks.project import Project
from wiki.checks.texts import Text

NBSP, NNBSP = "\u00a0", "\u202f"


def messages(lang: str, text: str, file: str = "x.md") -> list[str]:
    return [finding.message for finding in typography.findings_in(Text(lang, file, 1, text))]


@pytest.mark.parametrize(("lang", "text"), [
    ("da", f"60–70{NBSP}% af VRAM, 1,2–1,5 TB, 200 Gbit/s, 8-GPU-node, H100-klassen, TP=8{NBSP}×{NBSP}PP=2, "
           "2026-standarder"),
    ("da", f"0,65× med TP, 2× på IB, 8{NBSP}×{NBSP}Pro 6000, 8{NBSP}×{NBSP}96 GB, ~50 GB/s, 32k tokens"),
    ("fr", f"768{NNBSP}Go, 1{NNBSP}792{NNBSP}Go/s, GB200, 100{NNBSP}GbE, « oui »".replace("« ", f"«{NNBSP}")
     .replace(" »", f"{NNBSP}»")),
    ("fr", f"Verdict{NNBSP}: 52,8{NNBSP}%{NNBSP}; non{NNBSP}? oui{NNBSP}!"),
    ("fr", f"0,65× en TP, 2× sur IB, 8{NNBSP}×{NNBSP}96{NNBSP}Go, de 60 à 70{NNBSP}%, environ 50{NNBSP}Go/s, "
           f"32{NNBSP}k tokens, 32{NNBSP}768 tokens, 405B / 671B, Llama 3.x"),
    ("fr", "un rapport 16:9, https://example.com/?q=1, TP=4"),
])
def test_what_is_written_right_gives_nothing(lang: str, text: str) -> None:
    assert messages(lang, text) == []


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("da", "32-64 anmodninger", "'32-64' is a range: write 32–64 with an en dash (–)"),
    ("da", "7B-72B-modeller", "'7B-72B' is a range: write 7B–72B with an en dash (–)"),
    ("da", "80% af kunderne", "'80%': write 80 % with a no-break space (U+00A0, &nbsp; in Markdown) before %, "
                              "as the widgets do"),
    ("da", "200 Gbps IB", "'Gbps' is written Gbit/s"),
    ("fr", "96 TB", "'TB' is an English unit: write To in French"),
    ("fr", f"50{NNBSP}GB/s", "'GB' is an English unit: write Go in French"),
    ("fr", f"Verdict{NBSP}: oui", "':' has a no-break space (U+00A0) before it: write a narrow no-break space "
                                  "(U+202F, &#8239; in Markdown) before :"),
    ("fr", f"«{NBSP}oui{NNBSP}»", "'«' has a no-break space (U+00A0) after it: write a narrow no-break space (U+202F, "
                                  "&#8239; in Markdown) inside « »"),
    ("fr", f"53{NBSP}% de la VRAM", f"'53{NBSP}%' has a no-break space (U+00A0) before %: write 53 % with a narrow "
                                    "no-break space (U+202F, &#8239; in Markdown)"),
    ("fr", f"60–70{NNBSP}% de la VRAM", "'60–70' is a range in running French: write de 60 à 70 (or 60 à 70)"),
    ("fr", f"de 500–2{NNBSP}000 tok/s", f"'500–2{NNBSP}000' is a range in running French: write de 500 à 2{NNBSP}000 "
                                        f"(or 500 à 2{NNBSP}000)"),
    ("fr", f"~50{NNBSP}Go/s", "'~' means about: write environ (or ≈) in running French"),
    ("fr", "32k tokens", "'32k' glues k to the number: write 32 k with a narrow no-break space (U+202F) or the "
                         "whole number"),
    ("fr", "8× RTX Pro 6000", f"'8× …' uses × between two quantities: write 8{NNBSP}×{NNBSP}… with a narrow "
                               "no-break space (U+202F) on both sides of ×"),
    ("da", "8× RTX Pro 6000", f"'8× …' uses × between two quantities: write 8{NBSP}×{NBSP}… with a no-break space "
                              "(U+00A0) on both sides of ×"),
    ("da", "8 × 96 GB", f"'8 × …' uses × between two quantities: write 8{NBSP}×{NBSP}… with a no-break space "
                        "(U+00A0) on both sides of ×"),
    ("fr", "Hypothèses: aucune", "':' has no space before it: write a narrow no-break space (U+202F, &#8239; in "
                                 "Markdown) before :"),
    ("fr", "Vraiment !", "'!' has a breaking space before it: write a narrow no-break space (U+202F, &#8239; in "
                         "Markdown) before !"),
])
def test_each_rule_says_what_to_write(lang: str, text: str, expected: str) -> None:
    assert messages(lang, text) == [expected]


def test_the_catalogs_keep_their_compact_forms_and_cldr_percent() -> None:
    """Widget strings keep 60–70 %, ~50 and 128k (help texts, tables) and U+00A0 before % as CLDR writes it;
    the same text in running prose is four findings."""
    text = f"60–70{NBSP}% de la VRAM, ~50{NNBSP}Go/s, 128k"
    assert messages("fr", text, "i18n/fr/LC_MESSAGES/messages.po") == []
    assert len(messages("fr", text)) == 4


def test_a_catalog_string_still_takes_the_narrow_space_before_a_colon() -> None:
    assert messages("fr", f"Verdict{NBSP}: oui", "i18n/fr/LC_MESSAGES/messages.po") == [
        "':' has a no-break space (U+00A0) before it: write a narrow no-break space (U+202F, &#8239; in Markdown) "
        "before :"]


def project_with_glossary(tmp_path: Path, text: str) -> Project:
    (tmp_path / "docs").mkdir()
    (tmp_path / "i18n").mkdir()
    (tmp_path / "i18n" / "glossary.yml").write_text(text, encoding="utf-8")
    return Project(root=tmp_path)


@pytest.mark.parametrize(("text", "message"), [
    ("terms: {}", "expected a list under `terms:`: fix the glossary (its header explains the format)"),
    ("terms:\n  - concept: fabric\n    da: {forbidden: [struktur]}\n",
     "concept 'fabric' (line 2): `da:` needs a `preferred:` term: fix the glossary (its header explains the format)"),
    ("terms:\n  - concept: fabric\n    da: {preferred: fabric, forbidden: struktur}\n",
     "concept 'fabric' (line 2): `da: forbidden:` must be a list of words: fix the glossary (its header explains "
     "the format)"),
    ("terms: [", None),
])
def test_a_broken_glossary_is_one_finding_on_its_file(tmp_path: Path, text: str, message: str | None) -> None:
    (finding,) = glossary.check(project_with_glossary(tmp_path, text))
    assert (finding.check, finding.file) == ("glossary", "i18n/glossary.yml")
    if message:
        assert finding.message == message
    else:
        assert finding.message.startswith("not valid YAML")


def test_a_forbidden_variant_matches_whole_words_and_endings_only() -> None:
    term = glossary.Term("fabric", "da", "fabric", ("struktur*", "load balancer"), 1)
    found = [m.group(0) for m in term.pattern.finditer(
        "SXM-struktur, strukturspørgsmål, omstrukturer, infrastruktur, en Load  Balancer")]
    assert found == ["struktur", "strukturspørgsmål", "Load  Balancer"]
