"""The site's Content-Security-Policy: on every page as a `<meta>` element, and in `_headers`.

The policy allows only this origin. Inline scripts are allowed by their sha256 hash, and only the
scripts the theme and this project put there: the hashes come from rendering the theme's inline-script
partials (`THEME_SCRIPTS`) for a page's `base_url`, never from the built pages, so a `<script>` that
content smuggles in is not in the policy (and `wiki/content_policy.py` fails the build on it).
Material's `__md_scope` script names the relative site root, so the hashes differ per page depth.

Two sources beyond 'self':
- script-src 'wasm-unsafe-eval': Pyodide compiles WebAssembly; this allows that and not JS eval.
- img-src data: Material's icons in its CSS (search, admonitions, toggles) are SVG data URIs.
No 'unsafe-inline' or 'unsafe-eval': styles come from stylesheets only (Material and the page script
set element styles through the CSSOM, which a policy does not restrict).

A `<meta>` policy cannot carry `frame-ancestors` (browsers ignore it there and log an error), so that
directive is only in `_headers` (Netlify, Cloudflare Pages); on hosts without custom headers (GitHub
Pages, a plain nginx) the page can be framed, the rest of the policy holds.

`site/_headers` (Netlify / Cloudflare Pages format) holds, for `/*`: the policy (all depths' hashes)
and `X-Content-Type-Options: nosniff`; for `/*.wasm`: `Content-Type: application/wasm`; for
`/pyodide/*` (versioned paths: `pyodide/<version>/`, `pyodide/app-<digest>/`): `Cache-Control: public,
max-age=31536000, immutable`.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping
from html.parser import HTMLParser
from pathlib import Path

from jinja2 import Environment

# Script types a browser executes; anything else (application/json, ...) is data, not code.
EXECUTABLE_TYPES = {"", "module", "text/javascript", "application/javascript"}
IMMUTABLE = "public, max-age=31536000, immutable"
# Every theme partial that writes an inline script (Material's and ours); rendered, never read from output.
THEME_SCRIPTS = (
    "partials/javascripts/kw-js-class.html",
    "partials/javascripts/kw-worker.html",
    "partials/javascripts/base.html",
    "partials/javascripts/palette.html",
    "partials/javascripts/content.html",
    "partials/javascripts/announce.html",
    "partials/javascripts/outdated.html",
)
HEADER_ONLY = {"frame-ancestors"}


class _InlineScripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[tuple[int, str]] = []
        self._line: int | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "script":
            return
        named = {k: (v or "") for k, v in attrs}
        executable = "src" not in named and named.get("type", "").strip().lower() in EXECUTABLE_TYPES
        self._line = self.getpos()[0] if executable else None
        self._text = []

    def handle_data(self, data: str) -> None:
        if self._line is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._line is not None:
            self.scripts.append((self._line, "".join(self._text)))
            self._line = None


def located_inline_scripts(html: str) -> list[tuple[int, str]]:
    """(line, text) of every executable inline `<script>` of an HTML document, text exactly as written."""
    parser = _InlineScripts()
    parser.feed(html)
    parser.close()
    return parser.scripts


def inline_scripts(html: str) -> list[str]:
    """The text of every executable inline `<script>` of an HTML document, exactly as written."""
    return [text for _line, text in located_inline_scripts(html)]


def script_hash(source: str) -> str:
    """The CSP source expression of one inline script: `'sha256-<base64>'`."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode() + "'"


def theme_script_hashes(env: Environment, context: Mapping[str, object]) -> frozenset[str]:
    """The hashes of the inline scripts the theme writes into a page rendered with `context`.

    Renders each partial of `THEME_SCRIPTS` on its own (they read `config`, `base_url` and the
    features, never the page's content).
    """
    config = context["config"]
    values = {**context, "features": config.theme.get("features") or []}
    hashes = set()
    for name in THEME_SCRIPTS:
        hashes |= {script_hash(s) for s in inline_scripts(env.get_template(name).render(values))}
    return frozenset(hashes)


def policy(hashes: Iterable[str], *, meta: bool = False) -> str:
    """The Content-Security-Policy allowing these inline-script hashes (`meta`: the `<meta>` form)."""
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'wasm-unsafe-eval'", *sorted(hashes)],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items()
                     if not (meta and name in HEADER_ONLY))


def headers(hashes: Iterable[str]) -> str:
    """The text of `_headers`, its policy allowing these hashes."""
    return (
        "/*\n"
        f"  Content-Security-Policy: {policy(hashes)}\n"
        "  X-Content-Type-Options: nosniff\n"
        "/*.wasm\n"
        "  Content-Type: application/wasm\n"
        "/pyodide/*\n"
        f"  Cache-Control: {IMMUTABLE}\n"
    )


def write_headers(site_dir: Path, hashes: Iterable[str]) -> Path:
    """Write `site_dir/_headers` and return its path."""
    target = site_dir / "_headers"
    target.write_text(headers(hashes), encoding="utf-8")
    return target


def read_headers(text: str) -> list[tuple[str, dict[str, str]]]:
    """Parse a `_headers` file into (path pattern, headers) rules, in order."""
    rules: list[tuple[str, dict[str, str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), {}))
        elif rules:
            name, _, value = line.strip().partition(":")
            rules[-1][1][name.strip()] = value.strip()
    return rules
