"""What the tests expect of the content, read from where it is written once (the tests pin no page, slug or
number of the prose):

- the pages and their order: `nav` in mkdocs.yml (`nav_pages`), the languages: its i18n plugin;
- which page holds which widgets, with which presets: the pages' own ```calculator fences (`wiki.embed`);
- a page's URL and built file in each language: the i18n plugin's layout (the default language at `/`,
  the others at `/<lang>/`).

An editor who adds an article (its two files and its nav line), renames one, or moves a widget to another
page changes what these return, not a test.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wiki import languages
from wiki.embed import Embed, find_embeds

ROOT = Path(__file__).resolve().parent.parent.parent


def _flatten(entries: list[Any]) -> list[str]:
    """The Markdown files of a (nested) MkDocs nav, in reading order."""
    found: list[str] = []
    for entry in entries or []:
        if isinstance(entry, str):
            found.append(entry)
        elif isinstance(entry, dict):
            for value in entry.values():
                found += _flatten(value) if isinstance(value, list) else [value] if isinstance(value, str) else []
    return [page for page in found if page.endswith(".md")]


@dataclass(frozen=True)
class DocPage:
    """One page of the nav, in every language of the site (`doc` is its default-language file under docs/)."""

    doc: str
    langs: tuple[str, ...]
    root: Path = ROOT

    @property
    def slug(self) -> str:
        """`scale-out`, `metode/vram-fit`, `index`."""
        return self.doc.removesuffix(".md")

    def source(self, lang: str) -> Path:
        """The page's source file in `lang` (the default language's file has no language suffix)."""
        name = self.doc if lang == self.langs[0] else f"{self.slug}.{lang}.md"
        return self.root / "docs" / name

    def rel_source(self, lang: str) -> str:
        """The source's path as the build and the checks name it: `docs/<file>`."""
        return self.source(lang).relative_to(self.root).as_posix()

    def url(self, lang: str) -> str:
        """The page's URL path relative to the site root: `scale-out/`, `fr/scale-out/`, `` and `fr/`."""
        prefix = "" if lang == self.langs[0] else f"{lang}/"
        path = "" if self.slug == "index" else self.slug.removesuffix("/index") + "/"
        return prefix + path

    def built(self, lang: str) -> str:
        """The built file relative to the site root: `scale-out/index.html`."""
        return self.url(lang) + "index.html"

    def meta(self, lang: str) -> dict[str, Any]:
        """The page's front matter in `lang`."""
        from wiki.checks.project import front_matter

        return front_matter(self.source(lang).read_text(encoding="utf-8"))[0]

    @property
    def is_calculator_page(self) -> bool:
        """A calculator's own page (front matter `method:`, `wiki/methods.py`), not an article."""
        return bool(self.meta(self.langs[0]).get("method"))

    def embeds(self, lang: str) -> list[Embed]:
        """The page's calculator and table embeds in `lang`, in the page's order."""
        path = self.source(lang)
        return [embed for _start, _end, embed in find_embeds(path.read_text(encoding="utf-8"), str(path))]

    def widgets(self, lang: str) -> list[Embed]:
        """The page's calculator widgets in `lang`, in the page's order."""
        return [embed for embed in self.embeds(lang) if embed.kind == "calculator"]

    def presets(self, name: str, lang: str, index: int = 0) -> dict[str, Any]:
        """The presets of the page's `index`-th widget of calculator `name` (as its fence writes them)."""
        return dict([embed for embed in self.widgets(lang) if embed.name == name][index].presets)


@functools.cache
def site_languages(root: Path = ROOT) -> tuple[str, ...]:
    """The site's languages, the default first (mkdocs.yml's i18n plugin)."""
    return languages.read(root / "mkdocs.yml").all


def nav_pages(root: Path = ROOT) -> list[DocPage]:
    """Every page of mkdocs.yml's nav, in its order (the home page included)."""
    config = languages.read_config(root / "mkdocs.yml")
    langs = site_languages(root)
    return [DocPage(doc, langs, root) for doc in _flatten(config.get("nav", []))]


def articles(root: Path = ROOT) -> list[DocPage]:
    """The nav's articles: its pages other than the home page and the calculators' own pages (as the home
    page lists them, `overrides/home.html`)."""
    return [page for page in nav_pages(root) if page.slug != "index" and not page.is_calculator_page]


def home(root: Path = ROOT) -> DocPage:
    """The home page."""
    return next(page for page in nav_pages(root) if page.slug == "index")


def page_with(*calculators: str, root: Path = ROOT) -> DocPage:
    """The first page of the nav that embeds a widget of every one of `calculators`, in every language.

    The browser tests drive widgets: they open the page that has them, whichever article that is.
    """
    wanted = set(calculators)
    for page in nav_pages(root):
        if all(page.source(lang).exists() and wanted <= {w.name for w in page.widgets(lang)} for lang in page.langs):
            return page
    raise LookupError(f"no page of the nav embeds all of {sorted(wanted)}")


def most_widgets(root: Path = ROOT) -> DocPage:
    """The nav's page with the most widgets (the first such page): where widgets meet each other."""
    pages = nav_pages(root)
    langs = site_languages(root)
    return max(pages, key=lambda page: (len(page.widgets(langs[0])) if page.source(langs[0]).exists() else 0,
                                        -pages.index(page)))


def urls(page: DocPage) -> dict[str, str]:
    """The page's URL path per language."""
    return {lang: page.url(lang) for lang in page.langs}


def built_pages(root: Path = ROOT) -> set[str]:
    """The URL path of every page the build writes from docs/ (every source file, in each of its languages)."""
    from wiki.checks.project import Project

    project = Project(root=root)
    langs = project.languages
    found = set()
    for page in project.pages():
        doc = DocPage(f"{page.slug}.md", langs, root)
        for lang in langs:
            found.add(doc.url(lang))
    return found
