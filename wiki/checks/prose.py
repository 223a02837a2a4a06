"""A page's prose as the checkers read it: headings, sections, calculator embeds and the numbers in the text.

Reading rules (shared by `parity`, `numbers_lint` and `claims`):

- Prose is the Markdown body plus the front matter's `title` and `description`. Left out: fenced
  blocks (calculator presets are source code: `0.7` stays), inline code, link targets and URLs, e-mail
  addresses, HTML tags and comments, attribute lists such as `{ #anchor }`, ordered-list markers (`1.`).
- Sections are cut at `#` and `##` headings and named by their anchor id; text before the first heading
  belongs to the front matter section `FRONT`.
- A number is a run of digits, with `.`/`,` between digit groups, and, in a language that groups
  thousands with a space (French), a narrow no-break, no-break or plain space before each group of
  three (`2 000`). A unit glued after it is fine (`405B`, `8×`, `100k`, `15T`).
- Not numbers: digits glued after a letter (identifiers and versions: `K07`, `Gen5`, `FP8`, `H100`,
  `Qwen2.5`), a dotted version after a product name (`Llama 3.1`, see `VERSIONED`) and `3.x`.
- A number's value is read in the page's language with CLDR (`widgets.numbers.Numbers.parse`: Danish `2.000`
  and `1,5`, French `2 000` and `1,5`). English-style seeds still read as the English writer meant
  them, so that parity compares values while `numbers_lint` asks for the local form: `1.5` is 1.5 and
  a comma before exactly three digits after a 1–3 digit integer part (`2,000`) is a thousands comma.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path

from babel import Locale

from widgets import numbers
from wiki.checks.project import front_matter
from wiki.embed import Embed, EmbedError, find_embeds

FRONT = "(front matter)"
# Product names followed by a dotted version number that is a name, not a quantity.
VERSIONED = ("Llama", "Qwen", "Gemma", "Mistral", "Phi", "DeepSeek", "Python", "CUDA", "PyTorch", "NCCL",
             "NVLink", "PCIe", "Ubuntu", "Debian", "MkDocs", "Babel")
VERSION_BEFORE = re.compile(r"\b(?:" + "|".join(VERSIONED) + r")[ \t\u00a0]*$")
HEADING = re.compile(r"^(?P<marks>#{1,6})[ \t]+(?P<text>.*?)[ \t#]*$")
ANCHOR = re.compile(r"\{[^}]*#(?P<id>[A-Za-z][\w\-:.]*)[^}]*\}\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ENGLISH_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+")
SPACES = "\u00a0\u202f "
CLEANERS = [
    (re.compile(r"<!--.*?-->"), " "),
    (re.compile(r"`[^`]*`"), " "),
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r" \1 "),
    (re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$"), " "),
    (re.compile(r"<https?://[^>]*>|https?://\S+|\S+@\S+\.\w+"), " "),
    (re.compile(r"<[^>]+>"), " "),
    (re.compile(r"\{[^}]*\}"), " "),
    (re.compile(r"^(\s*)\d+[.)](?=\s)"), r"\1 "),
]


@dataclass(frozen=True)
class Number:
    """A number as written (`text`), its value, its line, and whether it is written in English style."""

    text: str
    value: Decimal
    line: int
    english: bool = False


@dataclass
class Heading:
    """A `#`–`######` heading: its level, text, explicit anchor id (None without one) and line."""

    level: int
    text: str
    id: str | None
    line: int


@dataclass
class Section:
    """The text from one `#`/`##` heading to the next, named by the heading's anchor id."""

    id: str
    line: int
    lines: list[tuple[int, str]] = field(default_factory=list)  # (line number, prose text)
    embeds: list[Embed] = field(default_factory=list)


@dataclass
class Document:
    """One page in one language, read for the checkers."""

    path: Path
    lang: str
    meta: dict
    headings: list[Heading]
    sections: list[Section]

    def section(self, anchor: str) -> Section | None:
        """The section named `anchor`, if there is one."""
        return next((s for s in self.sections if s.id == anchor), None)

    def numbers(self, section: Section) -> list[Number]:
        """Every number of a section's prose, in order."""
        return [n for line, text in section.lines for n in find_numbers(text, self.lang, line)]


def squeeze(text: str) -> str:
    """Collapse blanks (spaces, tabs, newlines, no-break and narrow no-break spaces) into one space."""
    return re.sub(r"[\s\u00a0\u202f]+", " ", text).strip()


def clean(line: str) -> str:
    """A line of Markdown with everything that is not prose blanked out (see the module's rules)."""
    for pattern, replacement in CLEANERS:
        line = pattern.sub(replacement, line)
    return html.unescape(line)


def read(path: Path, lang: str) -> Document:
    """Read a page: front matter, headings, sections with their prose lines and calculator embeds."""
    text = path.read_text(encoding="utf-8")
    meta, front_lines = front_matter(text)
    lines = text.split("\n")
    front = Section(FRONT, 1)
    for number in range(1, front_lines + 1):
        key, _, value = lines[number - 1].partition(":")
        if key.strip() in ("title", "description"):
            front.lines.append((number, clean(value)))
    sections, headings = [front], []
    body = "\n".join(lines[front_lines:])
    try:
        found = find_embeds(body, str(path), front_lines + 1)
    except EmbedError:
        found = []  # the strict build reports a broken embed with its line
    embeds = {start: embed for start, _end, embed in found}
    skip = {i for start, end, _embed in found for i in range(start, end + 1)}
    fence: str | None = None
    for index, raw in enumerate(lines[front_lines:]):
        number = front_lines + index + 1
        if index in embeds:
            sections[-1].embeds.append(embeds[index])
        if index in skip:
            continue
        opening = FENCE.match(raw)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        heading = HEADING.match(raw)
        if heading:
            anchor = ANCHOR.search(heading["text"])
            level = len(heading["marks"])
            title = clean(heading["text"]).strip()
            headings.append(Heading(level, title, anchor["id"] if anchor else None, number))
            if level <= 2:
                sections.append(Section(anchor["id"] if anchor else f"(heading at line {number})", number))
            sections[-1].lines.append((number, title))
            continue
        sections[-1].lines.append((number, clean(raw)))
    return Document(path, lang, meta, headings, sections)


@cache
def symbols(lang: str) -> tuple[str, str]:
    """CLDR's decimal and group symbols of `lang` (`(',', '.')` in Danish, `(',', '\u202f')` in French)."""
    table = Locale.parse(lang).number_symbols["latn"]
    return table["decimal"], table["group"]


@cache
def number_pattern(lang: str) -> re.Pattern[str]:
    """The regular expression of a number token in `lang` (space-grouped thousands where CLDR uses them)."""
    _decimal, group = symbols(lang)
    spaced = r"\d{1,3}(?:[\u00a0\u202f ]\d{3})+(?:,\d+)?(?!\d)|" if group in SPACES else ""
    return re.compile(r"(?<![\w.,])(?:" + spaced + r"\d+(?:[.,]\d+)*)")


def is_english(token: str, lang: str) -> bool:
    """Whether `token` is written the English way where `lang` writes numbers otherwise (`2,000`, `1.5`)."""
    decimal, group = symbols(lang)
    if decimal == ".":
        return False
    if ENGLISH_THOUSANDS.fullmatch(token):
        return True
    if "." not in token:
        return False
    # In Danish a dot before groups of exactly three digits is the thousands separator: 2.000 is fine.
    return group != "." or not re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", token)


def value_of(token: str, lang: str) -> Decimal:
    """The value of a number token written in `lang` (English-style seeds read as the writer meant them)."""
    if ENGLISH_THOUSANDS.fullmatch(token):
        return Decimal(token.replace(",", ""))
    try:
        parsed = numbers.of(lang).parse(token)
    except numbers.NotANumber:
        parsed = float(token.replace(",", ".")) if token.count(",") + token.count(".") == 1 else 0
    return Decimal(str(parsed)).normalize()


def number_matches(text: str, lang: str, line: int = 0) -> Iterator[tuple[re.Match[str], Number]]:
    """Every number of a piece of prose in `lang`, with the match that found it (its place in `text`)."""
    for match in number_pattern(lang).finditer(text):
        token = match.group(0)
        after, before = text[match.end():match.end() + 2], text[:match.start()]
        if re.match(r"\.[A-Za-z]", after):
            continue  # 3.x
        if "." in token and VERSION_BEFORE.search(before):
            continue  # Llama 3.1
        yield match, Number(token, value_of(token, lang), line, is_english(token, lang))


def find_numbers(text: str, lang: str, line: int = 0) -> list[Number]:
    """Every number of a piece of prose in `lang`, with its value (see the module's rules)."""
    return [number for _match, number in number_matches(text, lang, line)]


def localize(text: str, lang: str) -> str:
    """`text` with its English-style numbers written as `lang` writes them (`1.5` → `1,5`, `2,000` → `2.000`)."""
    parts, last = [], 0
    for match, number in number_matches(text, lang):
        if number.english:
            parts += [text[last:match.start()], local_form(number.value, lang)]
            last = match.end()
    return "".join(parts) + text[last:]


def local_form(value: Decimal, lang: str) -> str:
    """How CLDR writes `value` in `lang`, for suggestions (`2.000`, `2 000`, `1,5`)."""
    return numbers.of(lang).decimal(float(value) if value != value.to_integral_value() else int(value), digits=6)
