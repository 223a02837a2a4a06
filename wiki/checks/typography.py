"""Units and typography, per language, in the prose and in the widgets' catalogs (hence their tables).

Both languages:

- a range of numbers takes an en dash: `60–70 %`, `1,2–1,5 TB` (not `60-70`);
- link speeds are written `Gbit/s` (not `Gbps` or `Gb/s`).

Danish:

- a percentage is written as the widgets write it (Babel/CLDR): `60 %`, with a no-break space
  (U+00A0, `&nbsp;` in the Markdown), not `60%` or `60 %` with a plain space.

French:

- units are French: `Go`, `To`, `Go/s`, `Mo`, `Kio` (not `GB`, `TB`, `GB/s`, `MB`, `KiB`);
- a no-break space before `;`, `:`, `!`, `?` and `%`, and inside `« »`: a narrow one (U+202F,
  `&#8239;` in the Markdown) is the rule; the widgets' `60 %` (CLDR) and `:` with a full no-break
  space (U+00A0) are accepted too.

"trillion" (English 10^12) is a glossary entry (`billioner`, `billions`), see `wiki.checks.glossary`.
Every finding names the line, what is written, and what to write.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from wiki.checks import Finding
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
# A sign that takes a space before it in French, written without one or after a breaking space.
FRENCH_SIGN = re.compile(rf"(?P<before>[^\s{NBSP}{NNBSP}]|(?<=\S) )(?P<sign>[;:!?])(?=[\s{NBSP}{NNBSP}»)]|$)")
GUILLEMET = re.compile(rf"«(?![{NBSP}{NNBSP}])|(?<![{NBSP}{NNBSP}])»")

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


def french_spaces(text: str) -> Iterator[str]:
    """No space, or a breaking one, before ; : ! ? % and inside « »."""
    for match in FRENCH_SIGN.finditer(text):
        sign, before = match["sign"], match["before"]
        if sign == ":" and re.match(r"\d", before) and re.match(r"\d", text[match.end():match.end() + 1]):
            continue  # 16:9
        what = "a breaking space" if before == " " else "no space"
        yield (f"'{sign}' has {what} before it: write a narrow no-break space (U+202F, &#8239; in Markdown) "
               f"before {sign}")
    for match in PERCENT.finditer(text):
        if match["space"] not in (NBSP, NNBSP):
            yield (f"'{match.group(0)}': write {match['number']} % with a narrow no-break space (U+202F, "
                   "&#8239; in Markdown) before %")
    for match in GUILLEMET.finditer(text):
        yield (f"'{match.group(0)}' needs a narrow no-break space (U+202F, &#8239; in Markdown) "
               + ("after it" if match.group(0) == "«" else "before it"))


RULES: dict[str, tuple[Rule, ...]] = {
    "da": (ranges, link_speeds, danish_percent),
    "fr": (ranges, link_speeds, french_units, french_spaces),
}


def findings_in(text: Text) -> list[Finding]:
    """The typography findings of one line of text in its language."""
    return [Finding(NAME, text.file, text.line, message)
            for rule in RULES.get(text.lang, (ranges, link_speeds)) for message in rule(text.text)]


def check(project: Project) -> list[Finding]:
    """Typography findings in the prose of every page and in every catalog of `project`'s languages."""
    return [finding for text in texts(project) for finding in findings_in(text)]
