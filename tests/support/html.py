"""Tiny HTML readers for tests (standard library only)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

SKIP_TEXT_IN = {"script", "style", "template", "svg"}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self._skip = 0
        self._article = 0
        self.article_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag in SKIP_TEXT_IN:
            self._skip += 1
        if tag == "article":
            self._article += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_TEXT_IN and self._skip:
            self._skip -= 1
        if tag == "article" and self._article:
            self._article -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)
            if self._article:
                self.article_text.append(data)


class Page:
    """A parsed built page: its tags with attributes and its visible text."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.source = path.read_text(encoding="utf-8")
        collector = _Collector()
        collector.feed(self.source)
        self.tags = collector.tags
        self.text = normalize("".join(collector.text))
        self.article_text = normalize("".join(collector.article_text))

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        """Attributes of every `tag` whose attributes include all of `attrs`."""
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())]

    @property
    def lang(self) -> str:
        return self.find("html")[0].get("lang", "")


def normalize(text: str) -> str:
    """Collapse every run of whitespace to one space (pilcrows from permalinks removed)."""
    return re.sub(r"\s+", " ", text.replace("¶", " ")).strip()


def html_pages(site: Path) -> list[Path]:
    """Every HTML page of the built site except the error page."""
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def url_paths(site: Path) -> list[str]:
    """The URL path (relative to the site root) of every HTML page of the built site, error page included."""
    paths = []
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        paths.append(rel[: -len("index.html")] if rel.endswith("index.html") else rel)
    return paths
