"""The Content-Security-Policy of `site/_headers`: computed from the build, and the site works under it.

The browser tests serve the built site with the headers of the shipped `_headers` file (the test
server's own `.wasm` type is removed: the file's type is the one the browser sees) and
collect violations three ways: `securitypolicyviolation` events in the page, CSP errors on the
console (uncaught page errors too), and the reports the browser posts to a `report-uri` the test
server adds (the only way to see a violation inside the calculator's worker).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from harness.server import Handler, StaticServer
from tests.support import hosts
from tests.support.browser import search, title_word
from tests.support.hosts import HeadersHandler
from tests.support.html import url_paths
from tests.support.live import ARTICLE, CHANGES, set_value, widget
from widgets import view
from wiki import csp

REPORT_PATH = "/__csp-report"
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(
  `${e.violatedDirective} blocked ${e.blockedURI} in ${e.sourceFile}:${e.lineNumber} ${e.sample}`));
"""


def test_only_executable_inline_scripts_are_hashed() -> None:
    html = ('<script>a()</script><script type="application/json" id="c">{"x": 1}</script>'
            '<script src="b.js"></script><script type="module">import "./m.js"</script>')
    assert csp.inline_scripts(html) == ["a()", 'import "./m.js"']
    # the CSP hash of "alert(1)", as browsers compute it
    assert csp.script_hash("alert(1)") == "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"


def test_headers_file_is_shipped_with_a_strict_policy(site_dir: Path) -> None:
    rules = dict(csp.read_headers((site_dir / "_headers").read_text(encoding="utf-8")))
    policy = rules["/*"]["Content-Security-Policy"]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"][:2] == ["'self'", "'wasm-unsafe-eval'"]
    hashes = directives["script-src"][2:]
    assert hashes and all(h.startswith("'sha256-") for h in hashes)
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy and "*" not in policy
    assert rules["/*"]["X-Content-Type-Options"] == "nosniff"
    assert rules["/*.wasm"] == {"Content-Type": "application/wasm"}
    assert rules["/pyodide/*"] == {"Cache-Control": "public, max-age=31536000, immutable"}
    # every inline script of every page is covered, Material's three and our "js" class switch included,
    # by the header's policy and by the page's own <meta> policy (the same, less frame-ancestors)
    for page in site_dir.rglob("*.html"):
        source = page.read_text(encoding="utf-8")
        found = {csp.script_hash(s) for s in csp.inline_scripts(source)}
        meta = html.unescape(re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', source)[1])
        meta_directives = {d.split()[0]: d.split()[1:] for d in meta.split("; ")}
        assert found <= set(hashes) and found <= set(meta_directives["script-src"])
        assert meta_directives.keys() == directives.keys() - {"frame-ancestors"}
        assert source.index("Content-Security-Policy") < source.index("<script")  # before what it governs
    # the js class, Material's scope and storage helpers, its palette and a first visit's, content tabs
    assert len(csp.inline_scripts((site_dir / "index.html").read_text(encoding="utf-8"))) == 5


def headers_handler(site_dir: Path, reports: list[dict]) -> type[HeadersHandler]:
    """A handler that sends the headers of `site_dir/_headers` and records CSP reports."""
    # no .wasm type of its own: the _headers file gives it
    shipped = hosts.headers_handler(site_dir, {**Handler.extensions_map, ".wasm": "application/octet-stream"})

    class ShippedHeaders(shipped):
        def header_value(self, name: str, value: str) -> str:
            return value + f"; report-uri {REPORT_PATH}" if name == "Content-Security-Policy" else value

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path == REPORT_PATH:
                reports.append(json.loads(body or b"{}"))
            self.send_response(204)
            self.end_headers()

    return ShippedHeaders


@pytest.fixture
def strict(browser, site_dir: Path) -> Iterator[object]:
    """A page on the site served with the shipped headers; `.violations()` lists every violation seen."""
    reports: list[dict] = []
    with StaticServer(site_dir, headers_handler(site_dir, reports)) as served:
        context = browser.new_context(service_workers="block")
        tab = context.new_page()
        tab.set_default_timeout(15000)
        tab.add_init_script(RECORD_VIOLATIONS)
        console: list[str] = []
        tab.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
        tab.on("pageerror", lambda e: console.append(str(e)))
        tab.served = served

        def violations() -> list[str]:
            tab.wait_for_timeout(500)  # reports are posted asynchronously
            seen = [] if tab.url.startswith("about:") else tab.evaluate("window.__cspViolations || []")
            return seen + console + [json.dumps(r) for r in reports]

        tab.violations = violations
        yield tab
        context.close()


def test_every_page_and_the_live_calculators_work_under_the_policy(strict, site_dir: Path) -> None:
    page = strict
    policy = dict(csp.read_headers((site_dir / "_headers").read_text(encoding="utf-8")))["/*"]
    seen = []
    for path in url_paths(site_dir):
        response = page.goto(page.served.url + path)
        assert response.headers["content-security-policy"].startswith(policy["Content-Security-Policy"])
        page.wait_for_load_state("networkidle")
        seen += page.evaluate("window.__cspViolations")
    assert seen == []
    # Material's search runs in its own worker (lunr and the index loaded there)
    page.goto(page.served.url + ARTICLE["da"])
    assert any(urlparse(href).path.endswith("/" + ARTICLE["da"]) for href in search(page, title_word("da")))
    for lang in ("da", "fr"):
        page.goto(page.served.url + ARTICLE[lang])
        page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
        # waits by selector: a string predicate (wait_for_function) would itself be an eval the policy blocks
        page.wait_for_selector('[data-calculator="vram_fit"]:is([data-state="ready"], [data-state="error"])',
                               timeout=60000)
        assert widget(page, "vram_fit").get_attribute("data-state") == "ready", page.violations()
        for name, (field, values) in CHANGES.items():
            set_value(page, name, field, values[lang])
            inputs = {f: page.locator(f'[data-calculator="{name}"] form [name="{f}"]').input_value()
                      for f in page.locator(f'[data-calculator="{name}"] form [name]').evaluate_all(
                          "(fs) => fs.map((f) => f.name)")}
            expected = view(name, inputs, lang)["explanation"]
            explanation = widget(page, name).locator('[data-output="explanation"]')
            explanation.filter(has_text=expected).wait_for(timeout=10000)
            assert explanation.text_content() == expected
        assert widget(page, "vram_fit").get_attribute("data-state") == "ready"
    assert page.violations() == []


def test_a_violation_is_blocked_and_seen(strict) -> None:
    page = strict
    page.goto(page.served.url)
    page.evaluate("""() => { const s = document.createElement("script");
        s.textContent = "window.__ran = 1"; document.head.append(s); }""")
    assert page.evaluate("window.__ran") is None
    violations = page.violations()
    assert any(v.startswith("script-src") for v in violations if not v.startswith("{"))
    assert any('"csp-report"' in v for v in violations)
