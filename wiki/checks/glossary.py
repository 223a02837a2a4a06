"""Glossary: one word per concept and language, in the prose and in the widgets' catalogs.

`i18n/glossary.yml` lists each concept with its preferred term per language and the variants that
must not be used for it (see the file's header). Every forbidden variant found in a page's prose or in
a catalog translation of that language is one finding: where it is, and the preferred term.

A project (a test fixture) may carry its own `i18n/glossary.yml`; otherwise the repository's is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import yaml

from wiki import catalogs
from wiki.checks.finding import Finding
from wiki.checks.project import Project
from wiki.checks.texts import texts

NAME = "glossary"
GLOSSARY = Path("i18n") / "glossary.yml"


@dataclass(frozen=True)
class Term:
    """A concept's preferred term in one language and the variants forbidden for it."""

    concept: str
    lang: str
    preferred: str
    forbidden: tuple[str, ...]
    line: int  # of the concept in the glossary file

    @cached_property
    def pattern(self) -> re.Pattern[str] | None:
        """Whole words, case-insensitive; `*` at the end of a variant matches any ending."""
        if not self.forbidden:
            return None
        words = []
        for variant in self.forbidden:
            stem, star = (variant[:-1], r"\w*") if variant.endswith("*") else (variant, "")
            words.append(r"\s+".join(map(re.escape, stem.split())) + star)
        return re.compile(r"(?<!\w)(?:" + "|".join(words) + r")(?!\w)", re.IGNORECASE)


def glossary_file(project: Project) -> Path:
    """The project's own glossary, else the repository's."""
    own = project.root / GLOSSARY
    return own if own.exists() else catalogs.I18N / GLOSSARY.name


def load(path: Path) -> list[Term]:
    """Every (concept, language) entry of a glossary file; raise ValueError on a malformed file."""
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as error:
        raise ValueError(f"not valid YAML: {error}") from None
    entries = data.get("terms") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError("expected a list under `terms:`")
    concept_lines = [n for n, line in enumerate(text.split("\n"), 1) if re.match(r"\s*- concept:", line)]
    terms = []
    for index, entry in enumerate(entries):
        line = concept_lines[index] if index < len(concept_lines) else 1
        if not isinstance(entry, dict) or not entry.get("concept"):
            raise ValueError(f"entry {index + 1} (line {line}) has no `concept:`")
        for lang, spec in entry.items():
            if lang in ("concept", "note"):
                continue
            if not isinstance(spec, dict) or not spec.get("preferred"):
                raise ValueError(f"concept {entry['concept']!r} (line {line}): `{lang}:` needs a `preferred:` term")
            forbidden = spec.get("forbidden") or []
            words = isinstance(forbidden, list) and all(isinstance(w, str) and w.strip("*") for w in forbidden)
            if not words:
                raise ValueError(f"concept {entry['concept']!r} (line {line}): `{lang}: forbidden:` "
                                 "must be a list of words")
            terms.append(Term(str(entry["concept"]), lang, str(spec["preferred"]), tuple(forbidden), line))
    return terms


def check(project: Project) -> list[Finding]:
    """A finding for every forbidden variant in the prose and the catalogs of `project`'s languages."""
    path = glossary_file(project)
    shown = project.rel(path) if path.is_relative_to(project.root) else path.relative_to(catalogs.ROOT).as_posix()
    if not path.exists():
        return [Finding(NAME, shown, None, "the glossary is missing: restore i18n/glossary.yml")]
    try:
        terms = load(path)
    except ValueError as error:
        return [Finding(NAME, shown, None, f"{error}: fix the glossary (its header explains the format)")]
    by_lang: dict[str, list[Term]] = {}
    for term in terms:
        if term.pattern:
            by_lang.setdefault(term.lang, []).append(term)
    findings = []
    for text in texts(project):
        for term in by_lang.get(text.lang, []):
            for match in term.pattern.finditer(text.text):
                findings.append(Finding(NAME, text.file, text.line, (
                    f"'{match.group(0)}' is not the glossary's word for {term.concept}: write "
                    f"'{term.preferred}' ({shown}:{term.line})")))
    return findings
