"""The site's Content-Security-Policy and the `_headers` file a static host serves it from.

`site/_headers` (Netlify / Cloudflare Pages format) holds, for `/*`: the policy below and
`X-Content-Type-Options: nosniff`; for `/*.wasm`: `Content-Type: application/wasm`; for `/pyodide/*`
(versioned paths: `pyodide/<version>/`, `pyodide/app-<digest>/`): `Cache-Control: public,
max-age=31536000, immutable`.

The policy allows only this origin. Inline scripts are allowed by their sha256 hash, taken from the
built HTML (Material's three small head/body scripts; the hash differs per page depth because one of
them names the relative site root). Two sources beyond 'self':
- script-src 'wasm-unsafe-eval': Pyodide compiles WebAssembly; this allows that and not JS eval.
- img-src data: Material's icons in its CSS (search, admonitions, toggles) are SVG data URIs.
No 'unsafe-inline' or 'unsafe-eval': styles come from stylesheets only (Material and the page script
set element styles through the CSSOM, which a policy does not restrict).
"""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from pathlib import Path

# Script types a browser executes; anything else (application/json, ...) is data, not code.
EXECUTABLE_TYPES = {"", "module", "text/javascript", "application/javascript"}
IMMUTABLE = "public, max-age=31536000, immutable"


class _InlineScripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[str] = []
        self._inline: bool = False
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "script":
            return
        named = {k: (v or "") for k, v in attrs}
        self._inline = "src" not in named and named.get("type", "").strip().lower() in EXECUTABLE_TYPES
        self._text = []

    def handle_data(self, data: str) -> None:
        if self._inline:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._inline:
            self.scripts.append("".join(self._text))
            self._inline = False


def inline_scripts(html: str) -> list[str]:
    """The text of every executable inline `<script>` of an HTML document, exactly as written."""
    parser = _InlineScripts()
    parser.feed(html)
    parser.close()
    return parser.scripts


def script_hash(source: str) -> str:
    """The CSP source expression of one inline script: `'sha256-<base64>'`."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode() + "'"


def script_hashes(site_dir: Path) -> list[str]:
    """The sorted, distinct hashes of the inline scripts of every built HTML file."""
    hashes = {script_hash(s) for page in site_dir.rglob("*.html")
              for s in inline_scripts(page.read_text(encoding="utf-8"))}
    return sorted(hashes)


def policy(site_dir: Path) -> str:
    """The Content-Security-Policy for the built site in `site_dir`."""
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'wasm-unsafe-eval'", *script_hashes(site_dir)],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def headers(site_dir: Path) -> str:
    """The text of `_headers` for the built site."""
    return (
        "/*\n"
        f"  Content-Security-Policy: {policy(site_dir)}\n"
        "  X-Content-Type-Options: nosniff\n"
        "/*.wasm\n"
        "  Content-Type: application/wasm\n"
        "/pyodide/*\n"
        f"  Cache-Control: {IMMUTABLE}\n"
    )


def write_headers(site_dir: Path) -> Path:
    """Write `site_dir/_headers` (call after every HTML file is final) and return its path."""
    target = site_dir / "_headers"
    target.write_text(headers(site_dir), encoding="utf-8")
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
