"""What a page's content may carry into the built HTML, and front matter made safe for the theme.

Markdown passes raw HTML through, so a page (or a pull request to it) could add a script, an event
handler, a `javascript:` link, a `<meta http-equiv="refresh">` that sends readers elsewhere, a `<base>`
that re-points every relative URL, or a frame. The site's CSP blocks most of these in the browser;
the build refuses all of them, with the Markdown file and line, so that nothing depends on the host
sending the policy.

Front matter reaches the theme's templates (header, navigation, `<title>`, `<meta name="description">`,
the home page's list), many of which print it unescaped, as MkDocs' own titles are HTML. Its strings
are therefore HTML-escaped once, as `Markup`, before any template sees them: printed raw they are
inert text, and `| e` in a template does not escape them twice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser

from markupsafe import Markup, escape

from wiki.csp import EXECUTABLE_TYPES

# Elements that run code, load other documents or change how the page's URLs resolve.
FORBIDDEN_ELEMENTS = {"script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta",
                      "link", "portal"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcdoc"}
SCRIPT_URL = re.compile(r"^\s*(javascript|vbscript|data\s*:\s*text/html)", re.IGNORECASE)


@dataclass(frozen=True)
class Finding:
    """One piece of active content: what it is and the text to look for in the Markdown source."""

    what: str
    needle: str


class _ActiveContent(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.findings: list[Finding] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k.lower(): (v or "") for k, v in attrs}
        if tag == "script" and named.get("type", "").strip().lower() not in EXECUTABLE_TYPES and "src" not in named:
            pass  # data, not code (application/json, ...)
        elif tag in FORBIDDEN_ELEMENTS:
            self.findings.append(Finding(f"a <{tag}> element", f"<{tag}"))
        for name, value in named.items():
            if name.startswith("on"):
                self.findings.append(Finding(f"an event-handler attribute {name}=", name))
            elif name in URL_ATTRIBUTES and SCRIPT_URL.match(value):
                self.findings.append(Finding(f"a script URL in {name}=", value.strip()[:20]))

    handle_startendtag = handle_starttag


def active_content(html: str) -> list[Finding]:
    """Every element or attribute of a page's content HTML that could run code or leave the page."""
    parser = _ActiveContent()
    parser.feed(html)
    parser.close()
    return parser.findings


def source_line(markdown: str, needle: str, first_line: int = 1) -> int:
    """The line of the Markdown file (front matter counted) where `needle` first stands, else its first line."""
    for number, line in enumerate(markdown.splitlines(), start=first_line):
        if needle.lower() in line.lower():
            return number
    return first_line


def escaped(value: object) -> object:
    """Front-matter data with every string HTML-escaped as `Markup` (lists and mappings followed)."""
    if isinstance(value, str):
        return escape(value) if not isinstance(value, Markup) else value
    if isinstance(value, Mapping):
        return {key: escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [escaped(item) for item in value]
    return value
