"""Links and anchors: every internal link of the built site resolves, in every language.

For every HTML file of the built site, every `href` and `src` is resolved against the page's URL:

- internal (relative, root-relative, or absolute under `site_url`, as the hreflang alternates are):
  the target file must exist (`x/` is `x/index.html`), and a `#fragment` must be the `id` (or `name`)
  of an element in the target page;
- external `http(s)` links in `<a>` (the repository, its edit buttons) are not fetched; but a resource
  the browser loads by itself (`<script>`, `<link rel=stylesheet|icon|preload|modulepreload>`, `<img>`,
  `<iframe>`, `<source>`...) must come from the site itself: no CDN, no third-party request;
- `mailto:`, `tel:`, `data:` and `javascript:` are left alone.
"""

from __future__ import annotations

from functools import cache
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

from wiki.checks.finding import Finding
from wiki.checks.project import Project

NAME = "links"
IGNORED_SCHEMES = ("mailto:", "tel:", "data:", "javascript:", "blob:")
FETCHED = {"script", "img", "iframe", "source", "audio", "video", "embed", "track", "input"}
FETCHED_REL = {"stylesheet", "icon", "preload", "modulepreload", "prefetch", "manifest", "apple-touch-icon"}
BASE = "http://site.invalid"  # the built site's root, to resolve relative URLs


class _Links(HTMLParser):
    """Collects the ids of a page and its links: (tag, attribute, url, fetched by the browser, line)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str, bool, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.ids.add(values[key])
        rel = set(values.get("rel", "").lower().split())
        fetched = tag in FETCHED or (tag == "link" and bool(rel & FETCHED_REL))
        for key in ("href", "src"):
            if values.get(key):
                self.links.append((tag, key, values[key].strip(), fetched, self.getpos()[0]))


@cache
def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser


def site_path(project: Project) -> str:
    """The path part of `site_url` (`/` for https://wiki.kentino.com/), where the site's root is served."""
    path = urlsplit(str(project.config.get("site_url") or "/")).path or "/"
    return path if path.endswith("/") else path + "/"


def page_url(site: Path, page: Path, root: str) -> str:
    """The URL a built file is served at, under `BASE`."""
    rel = page.relative_to(site).as_posix()
    return BASE + root + rel


def target_file(site: Path, path: str, root: str) -> Path | None:
    """The file a URL path points at in the built site, or None when it is outside the site."""
    if not path.startswith(root):
        return None
    rel = unquote(path[len(root):])
    candidate = site / PurePosixPath(rel)
    if rel == "" or rel.endswith("/") or candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate


def edit_prefix(project: Project) -> str:
    """The start of every edit button's URL: `https://github.com/<owner>/<repo>/edit/main/docs/`."""
    repo = str(project.config.get("repo_url") or "").rstrip("/")
    return f"{repo}/{str(project.config.get('edit_uri') or '').strip('/')}/"


def edit_target(project: Project, page: Path) -> str | None:
    """The `docs/`-relative file a built page's edit button opens, or None without an edit button."""
    prefix = edit_prefix(project)
    for tag, attribute, url, _fetched, _line in _parse(page).links:
        if tag == "a" and attribute == "href" and url.startswith(prefix):
            return unquote(url[len(prefix):].split("#")[0])
    return None


def _source_line(project: Project, source: str | None, url: str) -> tuple[str | None, int | None]:
    """The Markdown file (and, when the link can be found in it, the line) a built page came from."""
    if source is None:
        return None, None
    path = project.docs / source
    if not path.is_file():
        return None, None
    needle = "#" + urlsplit(url).fragment if urlsplit(url).fragment else url.rstrip("/").rsplit("/", 1)[-1]
    hits = [n for n, text in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle and needle in text]
    if not hits:
        return None, None  # not written in the Markdown: the theme or a template wrote it
    return project.rel(path), hits[0] if len(hits) == 1 else None


def check(project: Project, site: Path) -> list[Finding]:
    """Broken internal links and anchors, and third-party resources, in every page of the built `site`."""
    _parse.cache_clear()
    site_url = str(project.config.get("site_url") or "").rstrip("/") + "/"
    root = site_path(project)
    findings = []
    for page in sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        source = edit_target(project, page)

        def found(line: int, url: str, message: str, rel: str = rel, source: str | None = source) -> Finding:
            file, source_line = _source_line(project, source, url)
            if file is None:
                return Finding(NAME, f"site/{rel}", line, message)
            return Finding(NAME, file, source_line, f"{message} (in site/{rel})", other=f"site/{rel}:{line}")

        for tag, attribute, url, fetched, line in _parse(page).links:
            if url.lower().startswith(IGNORED_SCHEMES) or url == "#":
                continue
            if site_url != "/" and url.startswith(site_url):
                url = root + url[len(site_url):]
            absolute = urljoin(page_url(site, page, root), url)
            parts = urlsplit(absolute)
            if f"{parts.scheme}://{parts.netloc}" != BASE:
                if fetched:
                    findings.append(found(line, url, (
                        f"<{tag} {attribute}=\"{url}\"> loads a file from another host: the site must make no "
                        "third-party request; serve the file from the site itself")))
                continue
            target = target_file(site, parts.path, root)
            if target is None or not target.is_file():
                findings.append(found(line, url, (
                    f"<{tag} {attribute}=\"{url}\"> points at a page that does not exist: correct the link in "
                    "the page's Markdown (or the template that writes it)")))
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html" and fragment not in _parse(target).ids:
                shown = target.relative_to(site).as_posix()
                findings.append(found(line, url, (
                    f"<{tag} {attribute}=\"{url}\">: site/{shown} has no anchor #{fragment}: link to one of "
                    "the page's heading ids ({ #id } in the Markdown)")))
    return findings
