"""What the checkers look at: the repository (or a test fixture laid out like it) and its pages.

A `Project` names the folders; `pages()` pairs each page with its translations by the suffix
structure of mkdocs-static-i18n (`docs/name.md` is the default language, `docs/name.fr.md` French).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from wiki import languages
from wiki.embed import FRONT_MATTER

ROOT = Path(__file__).resolve().parent.parent.parent


def front_matter(text: str) -> tuple[dict[str, Any], int]:
    """A page's YAML front matter and the number of lines it takes (0 without front matter)."""
    match = FRONT_MATTER.match(text)
    if not match:
        return {}, 0
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError:
        meta = {}
    return (meta if isinstance(meta, dict) else {}), text.count("\n", 0, match.end())


@dataclass(frozen=True)
class Page:
    """One page in every language: `files[lang]` is its source, when that language has one."""

    slug: str
    files: dict[str, Path] = field(default_factory=dict)


@dataclass(frozen=True)
class Project:
    """A site's sources: `root` holds `docs/`, `mkdocs.yml` and `claims.yml`; findings are relative to it."""

    root: Path = ROOT
    config_file: Path | None = None

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def claims_file(self) -> Path:
        return self.root / "claims.yml"

    @property
    def mkdocs_yml(self) -> Path:
        """The MkDocs configuration: the project's own, else the repository's (for language settings)."""
        if self.config_file:
            return self.config_file
        own = self.root / "mkdocs.yml"
        return own if own.exists() else ROOT / "mkdocs.yml"

    @cached_property
    def config(self) -> dict[str, Any]:
        """mkdocs.yml as plain data (MkDocs' own loader)."""
        return languages.read_config(self.mkdocs_yml)

    @cached_property
    def i18n(self) -> dict[str, Any]:
        """The options of the mkdocs-static-i18n plugin."""
        return languages.i18n_options(self.config)

    @cached_property
    def languages(self) -> tuple[str, ...]:
        """Every language, the default first (`da`, `fr`), as the i18n plugin declares them."""
        return languages.from_plugin(self.i18n.get("languages", [])).all

    @property
    def default_language(self) -> str:
        return self.languages[0]

    @property
    def translations(self) -> tuple[str, ...]:
        return self.languages[1:]

    def rel(self, path: Path) -> str:
        """A path as findings show it: relative to the project root, with forward slashes."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()

    def pages(self) -> list[Page]:
        """Every page of `docs/`, sorted by slug, with its file in each language that has one."""
        suffix = re.compile(r"\.(" + "|".join(map(re.escape, self.translations)) + r")\.md$") \
            if self.translations else None
        found: dict[str, dict[str, Path]] = {}
        for path in sorted(self.docs.rglob("*.md")):
            rel = path.relative_to(self.docs).as_posix()
            match = suffix.search(rel) if suffix else None
            slug, lang = (rel[:match.start()], match.group(1)) if match else (rel[:-3], self.default_language)
            found.setdefault(slug, {})[lang] = path
        return [Page(slug, files) for slug, files in sorted(found.items())]

    def page_file(self, slug: str, lang: str) -> Path:
        """Where the page `slug` of `lang` lives (whether or not it exists)."""
        name = f"{slug}.md" if lang == self.default_language else f"{slug}.{lang}.md"
        return self.docs / name
