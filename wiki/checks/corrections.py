"""Corrections record: every entry's new text of `CORRECTIONS.md` is what the page says now.

`CORRECTIONS.md` lists each change of meaning (see its header): under a `## <date> — `<page>`: …`
heading, one `### <title>` entry per change with `- **Page:** …`, `- **Old (da):** "…"`,
`- **New (da):** "…"` (and the same for `fr`). The page is the slug in backticks of the `##` heading, or
the `docs/<page>.md` named on the `Page:` line. Each `New (<lang>)` text must still be in that page's
prose in that language (blanks, `**` emphasis and typographic quotes ignored; `…` marks a cut: each
piece must be there). A finding says which entry to update when the page was reworded since.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wiki.checks.finding import Finding
from wiki.checks.project import Project
from wiki.checks.prose import read, squeeze

NAME = "corrections"
FILE = "CORRECTIONS.md"
DATE_HEADING = re.compile(r"^##\s+(?P<text>.*)$")
ENTRY_HEADING = re.compile(r"^###\s+(?P<title>.*?)\s*$")
FIELD = re.compile(r"^-\s+\*\*(?P<name>[^*]+?):?\*\*:?\s*(?P<value>.*)$")
NEW = re.compile(r"^New \((?P<lang>[a-z]{2})\)$")
DOC_PATH = re.compile(r"`docs/(?P<slug>[\w./-]+?)(?:\.(?P<lang>[a-z]{2}))?\.md`")
SLUG = re.compile(r"`(?P<slug>[\w./-]+)`")


@dataclass
class NewText:
    """The new text of one entry in one language, where it is written, and the page it belongs to."""

    title: str
    lang: str
    text: str
    line: int
    slug: str | None


def comparable(text: str) -> str:
    """Text as compared: blanks squeezed (none before punctuation), emphasis, links and quotation marks left out."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = squeeze(re.sub(r"\*\*|[\"“”«»]", " ", text))
    return re.sub(r" (?=[.,;:!?)])|(?<=\() ", "", text)


def parse(text: str, slugs: set[str]) -> list[NewText]:
    """Every `New (<lang>)` text of the record, with its entry, line and page slug (None when unknown)."""
    found: list[NewText] = []
    lines = text.split("\n")
    date_slug: str | None = None
    title, entry_slug = "", None
    index = 0
    while index < len(lines):
        line = lines[index]
        if heading := DATE_HEADING.match(line):
            named = [m["slug"] for m in SLUG.finditer(heading["text"]) if m["slug"] in slugs]
            date_slug, title, entry_slug = (named[0] if named else None), "", None
        elif entry := ENTRY_HEADING.match(line):
            title, entry_slug = entry["title"], None
        elif field := FIELD.match(line):
            value, start = field["value"], index + 1
            while index + 1 < len(lines) and lines[index + 1].startswith("  ") and not FIELD.match(lines[index + 1]):
                index += 1
                value += " " + lines[index].strip()
            name = field["name"].strip()
            if name == "Page":
                paths = [m["slug"] for m in DOC_PATH.finditer(value) if m["slug"] in slugs]
                entry_slug = paths[0] if paths else None
            elif new := NEW.match(name):
                quoted = re.match(r"\s*\"(?P<text>.*)\"", value)  # a note may follow the quoted text
                found.append(NewText(title, new["lang"], quoted["text"] if quoted else value, start,
                                     entry_slug or date_slug))
        index += 1
    return found


def check(project: Project) -> list[Finding]:
    """A finding for each new text of `CORRECTIONS.md` that its page no longer says."""
    path = project.root / FILE
    if not path.exists():
        return []
    pages = {page.slug: page for page in project.pages()}
    findings = []
    for new in parse(path.read_text(encoding="utf-8"), set(pages)):
        where = f"entry “{new.title}”"
        if new.slug is None:
            findings.append(Finding(NAME, FILE, new.line, (
                f"{where}: no page named: put the page's slug in backticks in the `##` heading or "
                "`docs/<page>.md` on its `- **Page:**` line")))
            continue
        source = pages[new.slug].files.get(new.lang)
        if source is None:
            continue  # parity reports a missing translation
        doc = read(source, new.lang)
        prose = comparable(" ".join(text for section in doc.sections for _line, text in section.lines))
        missing = [piece for piece in map(comparable, new.text.split("…")) if piece and piece not in prose]
        if missing:
            findings.append(Finding(NAME, FILE, new.line, (
                f"{where}: its new text ({new.lang}) “{missing[0]}” is not in {project.rel(source)}: if the page "
                "was reworded since, update the entry's new text (same meaning) or record the new change; "
                "else restore the page")))
    return findings
