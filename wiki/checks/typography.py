"""Units and typography, per language, in the prose and in the widgets' catalogs (hence their tables).

Both languages:

- a range of numbers takes an en dash, not a hyphen: `60–70 %`, `1,2–1,5 TB` (not `60-70`);
- link speeds are written `Gbit/s` (not `Gbps` or `Gb/s`);
- × between two quantities is an operator, spaced with no-break spaces on both sides: `8 × Pro 6000`,
  `8 × 96 GB` (Danish U+00A0, French U+202F); × glued to a number is a factor (`0,65×`, `2× på IB`), as the
  widgets write it, and is left alone.

Danish:

- a percentage is written as the widgets write it (Babel/CLDR): `60 %`, with a no-break space
  (U+00A0, `&nbsp;` in the Markdown), not `60%` or `60 %` with a plain space.

French (one convention, the one the review of 2026-12-02 asked for; `CONTRIBUTING.md` states it):

- units are French: `Go`, `To`, `Go/s`, `Mo`, `Kio` (not `GB`, `TB`, `GB/s`, `MB`, `KiB`);
- a narrow no-break space (U+202F, `&#8239;` in the Markdown) before `;`, `:`, `!`, `?` and `%` and inside
  `« »`; a plain space or a full no-break space (U+00A0) is a finding. One exception, in the catalogs only:
  before `%` they may keep U+00A0, the space CLDR puts before `%` in the numbers the widgets format, so that
  a widget's help text and its values look alike;
- in running prose (not the catalogs, whose tables and help texts keep the compact forms): a range reads
  `de 60 à 70 %`, not `60–70 %`; "about" is `environ 50 Go/s`, not `~50 Go/s`; a token count is `32 k`
  (U+202F) or the whole number (`32 768`), not `32k`.

"trillion" (English 10^12) is a glossary entry (`billioner`, `billions`), see `wiki.checks.glossary`.
Every finding names the line, what is written, and what to write.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from wiki.checks.finding import Finding
from wiki.checks.project import Project
from wiki.checks.texts import Text, texts

NAME = "typography"
NBSP, NNBSP = "\u00a0", "\u202f"
NUMBER = r"\d+(?:[.,]\d+)*"
RANGE = re.compile(rf"(?<![\w.,\-–]){NUMBER}[A-Za-z]{{0,2}}-{NUMBER}[A-Za-z]{{0,2}}")
LINK_SPEED = re.compile(r"(?<![A-Za-z])(?:Gbps|Gb/s)(?![\w/])")
PERCENT = re.compile(rf"(?P<number>{NUMBER})(?P<space>[ {NBSP}{NNBSP}]?)%")
ENGLISH_UNITS = {"GB": "Go", "TB": "To", "MB": "Mo", "KB": "ko", "PB": "Po",
                 "GiB": "Gio", "TiB": "Tio", "MiB": "Mio", "KiB": "Kio"}
FRENCH_UNIT = re.compile(r"(?<![A-Za-z])(" + "|".join(ENGLISH_UNITS) + r")(?![\w])")
# A sign that takes a narrow no-break space before it in French, written with no space, a breaking space
# or a full no-break space (Python's \s covers U+00A0 and U+202F).
FRENCH_SIGN = re.compile(rf"(?P<before>[^\s]|(?<=\S)[ {NBSP}])(?P<sign>[;:!?])(?=\s|[»)\"]|$)")
GUILLEMET = re.compile(rf"«(?P<after>[ {NBSP}]?)(?!{NNBSP})|(?<!{NNBSP})(?P<before>[ {NBSP}]?)»")
# × between a number and what it counts (a digit, or a capitalised name: 8 × 96 GB, 8 × Pro 6000).
TIMES = re.compile(rf"(?P<number>\d)(?P<before>[ {NBSP}{NNBSP}]?)×(?P<after>[ {NBSP}{NNBSP}]?)(?=\d|[A-Z])")
# A French number: decimals after a comma, thousands grouped by U+202F (2 000, 32 768).
FRENCH_NUMBER = rf"\d+(?:[.,]\d+|{NNBSP}\d{{3}})*"
NOT_INSIDE_A_NUMBER = rf"(?<![\w.,])(?<!\d{NNBSP})"
EN_DASH_RANGE = re.compile(rf"{NOT_INSIDE_A_NUMBER}(?P<low>{FRENCH_NUMBER}[A-Za-z]{{0,2}})–(?P<high>{FRENCH_NUMBER})")
TILDE = re.compile(rf"~[ {NBSP}{NNBSP}]?(?=\d)")
K_SUFFIX = re.compile(rf"{NOT_INSIDE_A_NUMBER}(?P<number>{FRENCH_NUMBER})k(?![\w])")
SPACE_NAMES = {"": "no space", " ": "a breaking space", NBSP: "a no-break space (U+00A0)",
               NNBSP: "a narrow no-break space (U+202F)"}

Rule = Callable[[str], Iterator[str]]


def ranges(text: str) -> Iterator[str]:
    """`60-70`: a range with a hyphen."""
    for match in RANGE.finditer(text):
        written = match.group(0)
        yield f"'{written}' is a range: write {written.replace('-', '–')} with an en dash (–)"


def link_speeds(text: str) -> Iterator[str]:
    """`Gbps`, `Gb/s`: write Gbit/s."""
    for match in LINK_SPEED.finditer(text):
        yield f"'{match.group(0)}' is written Gbit/s"


def times_sign(space: str, name: str) -> Rule:
    """`8× Pro`, `8 ×96`: × between two quantities takes `space` on both sides."""
    def rule(text: str) -> Iterator[str]:
        for match in TIMES.finditer(text):
            if match["before"] != space or match["after"] != space:
                yield (f"'{match.group(0)}…' uses × between two quantities: write {match['number']}{space}×{space}… "
                       f"with {name} on both sides of ×")
    rule.__doc__ = f"× between two quantities, spaced with {name}."
    return rule


def danish_percent(text: str) -> Iterator[str]:
    """`60%`, `60 %` with a breaking space: the widgets write `60 %` with a no-break space."""
    for match in PERCENT.finditer(text):
        if match["space"] != NBSP:
            yield (f"'{match.group(0)}': write {match['number']} % with a no-break space (U+00A0, &nbsp; "
                   "in Markdown) before %, as the widgets do")


def french_units(text: str) -> Iterator[str]:
    """`GB`, `TB`, `GB/s`: the French units are Go, To, Go/s."""
    for match in FRENCH_UNIT.finditer(text):
        unit = match.group(1)
        yield f"'{unit}' is an English unit: write {ENGLISH_UNITS[unit]} in French"


def french_signs(text: str) -> Iterator[str]:
    """No space, a breaking space or a full no-break space before ; : ! ?, or inside « »."""
    for match in FRENCH_SIGN.finditer(text):
        sign, before = match["sign"], match["before"]
        if sign == ":" and re.match(r"\d", before) and re.match(r"\d", text[match.end():match.end() + 1]):
            continue  # 16:9
        what = SPACE_NAMES.get(before, "no space")
        yield (f"'{sign}' has {what} before it: write a narrow no-break space (U+202F, &#8239; in Markdown) "
               f"before {sign}")
    for match in GUILLEMET.finditer(text):
        opening = match.group(0).startswith("«")
        what = SPACE_NAMES[match["after"] if opening else match["before"]]
        yield (f"'{match.group(0).strip()}' has {what} {'after' if opening else 'before'} it: write a narrow "
               "no-break space (U+202F, &#8239; in Markdown) inside « »")


def french_percent(accepted: tuple[str, ...]) -> Rule:
    """A percentage with one of the `accepted` spaces before %."""
    def rule(text: str) -> Iterator[str]:
        for match in PERCENT.finditer(text):
            if match["space"] not in accepted:
                yield (f"'{match.group(0)}' has {SPACE_NAMES[match['space']]} before %: write {match['number']} % "
                       "with a narrow no-break space (U+202F, &#8239; in Markdown)")
    rule.__doc__ = "A percentage spaced as the French convention wants it."
    return rule


def french_prose(text: str) -> Iterator[str]:
    """Running French prose: ranges in words, environ for ~, token counts without a glued k."""
    for match in EN_DASH_RANGE.finditer(text):
        low, high = match["low"], match["high"]
        yield f"'{match.group(0)}' is a range in running French: write de {low} à {high} (or {low} à {high})"
    for match in TILDE.finditer(text):
        yield f"'{match.group(0)}' means about: write environ (or ≈) in running French"
    for match in K_SUFFIX.finditer(text):
        number = match["number"]
        yield (f"'{match.group(0)}' glues k to the number: write {number} k with a narrow no-break space (U+202F) "
               "or the whole number")


# Rules for every text of a language, then the ones for its prose only and its catalogs only.
RULES: dict[str, tuple[Rule, ...]] = {
    "da": (ranges, link_speeds, danish_percent, times_sign(NBSP, "a no-break space (U+00A0)")),
    "fr": (ranges, link_speeds, french_units, french_signs,
           times_sign(NNBSP, "a narrow no-break space (U+202F)")),
}
PROSE_RULES: dict[str, tuple[Rule, ...]] = {
    "fr": (french_percent((NNBSP,)), french_prose),
}
CATALOG_RULES: dict[str, tuple[Rule, ...]] = {
    "fr": (french_percent((NNBSP, NBSP)),),
}


def is_catalog(text: Text) -> bool:
    """Whether the text is a catalog translation (a widget string) rather than a page's prose."""
    return text.file.endswith(".po")


def findings_in(text: Text) -> list[Finding]:
    """The typography findings of one line of text in its language."""
    rules = RULES.get(text.lang, (ranges, link_speeds))
    rules += (CATALOG_RULES if is_catalog(text) else PROSE_RULES).get(text.lang, ())
    return [Finding(NAME, text.file, text.line, message) for rule in rules for message in rule(text.text)]


def check(project: Project) -> list[Finding]:
    """Typography findings in the prose of every page and in every catalog of `project`'s languages."""
    return [finding for text in texts(project) for finding in findings_in(text)]
