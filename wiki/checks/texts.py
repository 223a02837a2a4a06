"""The texts a reader sees, in each language, with where they come from: the pages' prose and the catalogs.

`texts(project)` yields one `Text` per prose line of every page (read by `wiki.checks.prose`: fenced
blocks, inline code, link targets and HTML left out) and one per translation in every language's gettext
catalog (the line of its `msgid`; placeholders such as `{value}` blanked out). The glossary and the
typography checkers read the same texts, so a rule holds for the article and for the widgets beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from wiki import catalogs
from wiki.checks.project import Project
from wiki.checks.prose import FRONT, read

PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Text:
    """One line of text in `lang`, found at `file:line` (relative to the project or repository root)."""

    lang: str
    file: str
    line: int
    text: str


def catalog_rel(path: Path) -> str:
    """A catalog's path as findings show it (relative to the repository, like the `catalogs` checker)."""
    try:
        return path.relative_to(catalogs.ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def prose_texts(project: Project) -> Iterator[Text]:
    """Every prose line of every page, in the page's own language."""
    for page in project.pages():
        for lang, path in page.files.items():
            doc = read(path, lang)
            for section in doc.sections:
                for line, text in section.lines:
                    if section.id == FRONT:
                        text = text.strip().strip("\"'")  # YAML quotes around the title
                    if text.strip():
                        yield Text(lang, project.rel(path), line, text)


def catalog_texts(langs: tuple[str, ...]) -> Iterator[Text]:
    """Every translation (each plural form) of every catalog of `langs` that exists and parses."""
    for lang in langs:
        path = catalogs.po_path(lang)
        if not path.exists():
            continue  # the catalogs checker reports it
        try:
            catalog = catalogs.read(path, lang)
        except Exception:  # noqa: BLE001 - a broken catalog is the catalogs checker's finding
            continue
        for message in catalog:
            if not message.id:
                continue
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                if form:
                    yield Text(lang, catalog_rel(path), message.lineno, PLACEHOLDER.sub(" ", form))


def texts(project: Project) -> Iterator[Text]:
    """The prose of every page, then every catalog translation, of the project's languages."""
    yield from prose_texts(project)
    yield from catalog_texts(project.languages)
