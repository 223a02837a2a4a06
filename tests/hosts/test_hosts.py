"""The site on the hosts people use (README, "Hosting"): real nginx and Apache as Debian ships them,
`python3 -m http.server`, GitHub Pages' types without headers, `_headers` hosts; at the root and under a
sub-path; the live calculators in both languages (one at the root, the other under the sub-path: a host
serves both languages' files alike), under the policy each page carries."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import offline_mark
from tests.support.hosts import HOSTS, readable_copy, serve
from tests.support.live import ARTICLE, form_values, set_value, wait_for_output, widget
from widgets import view

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent.parent
SUB_PATH = "kentino-wiki"  # GitHub project pages serve at /<repository>/
JS_TYPES = ("text/javascript", "application/javascript")
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(
  `${e.violatedDirective} blocked ${e.blockedURI} ${e.sample}`));
"""


@pytest.fixture(scope="module")
def docroots(site_dir: Path) -> Iterator[dict[str, Path]]:
    """The built site copied as a deploy would copy it (modes kept), at a root and under a sub-path."""
    parent = Path(tempfile.mkdtemp(prefix="kw-hosts-"))
    parent.chmod(0o755)  # the servers' own user (www-data) must reach the document roots
    yield {"": readable_copy(site_dir, parent), SUB_PATH: readable_copy(site_dir, parent, SUB_PATH)}
    shutil.rmtree(parent)


def hosted_page(browser):
    """A fresh page that records responses, console errors and CSP violations (service workers on)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(20000)
    page.add_init_script(RECORD_VIOLATIONS)
    page.responses = {}
    page.errors = []
    page.on("response", lambda r: page.responses.setdefault(r.url, (r.status, r.headers.get("content-type", ""))))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


LANGS = list(ARTICLE)


@pytest.mark.parametrize(("sub_path", "lang"), [("", LANGS[0]), (SUB_PATH, LANGS[-1])], ids=["root", "sub-path"])
@pytest.mark.parametrize("host", list(HOSTS))
def test_the_live_calculators_work_on_the_host(browser, site_dir: Path, docroots, host: str, sub_path: str,
                                               lang: str) -> None:
    with serve(host, docroots[sub_path], site_dir, sub_path) as base:
        context, page = hosted_page(browser)
        try:
            page.goto(base + ARTICLE[lang])
            page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
            page.wait_for_selector('[data-calculator="vram_fit"]:is([data-state="ready"], [data-state="error"])',
                                   timeout=60000)
            assert widget(page, "vram_fit").get_attribute("data-state") == "ready", page.errors
            set_value(page, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(page, "vram_fit"), lang)
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
            assert widget(page, "vram_fit").locator('[data-output="verdict"]').text_content() == \
                expected["verdict_text"]
            assert page.evaluate("window.__cspViolations") == []
            # The service worker (sw.js at the site root) registered under the policy, its scope the
            # site's own path, at the root or under the sub-path.
            offline_mark(page)
            assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)") == base
            assert page.evaluate("window.__cspViolations") == []
            failed = {url: status for url, (status, _type) in page.responses.items() if status >= 400}
            assert failed == {}
            scripts = {url: kind for url, (_status, kind) in page.responses.items() if url.endswith(".js")}
            assert any("/pyodide/" in url for url in scripts), scripts
            assert all(kind.startswith(JS_TYPES) for kind in scripts.values()), scripts
            assert all(url.startswith(base) for url in page.responses), "a request left the site's own path"
            assert page.errors == []
        finally:
            context.close()


def test_the_policy_travels_with_the_page_where_the_host_sends_no_headers(browser, site_dir: Path, docroots) -> None:
    with serve("github-pages", docroots[SUB_PATH], site_dir, SUB_PATH) as base:
        context, page = hosted_page(browser)
        try:
            response = page.goto(base + ARTICLE["fr"])
            assert "content-security-policy" not in response.headers
            page.evaluate("""() => { const s = document.createElement("script");
                s.textContent = "window.__ran = 1"; document.head.append(s); }""")
            assert page.evaluate("window.__ran") is None
            assert any(v.startswith("script-src") for v in page.evaluate("window.__cspViolations"))
        finally:
            context.close()


def test_every_file_of_the_site_is_readable_by_the_servers_user(site_dir: Path) -> None:
    for path in [site_dir, *site_dir.rglob("*")]:
        mode = path.stat().st_mode
        wanted = 0o005 if path.is_dir() else 0o004
        assert mode & wanted == wanted, f"{path.relative_to(site_dir)}: mode {oct(mode & 0o777)}"


def test_nginx_as_debian_ships_it_refuses_what_the_build_must_not_ship(site_dir: Path, docroots) -> None:
    """The two ways the site used to fail on nginx, shown on that nginx itself: this is why the build
    sets the modes and ships `.js`, not `.mjs`."""
    docroot = docroots[""]
    private = docroot / "private-folder"
    private.mkdir(mode=0o700)
    (private / "a.html").write_text("secret")
    (docroot / "module.mjs").write_text("export const a = 1;")
    try:
        with serve("nginx", docroot, site_dir) as base:
            with pytest.raises(urllib.request.HTTPError) as refused:
                urllib.request.urlopen(base + "private-folder/a.html")
            with urllib.request.urlopen(base + "module.mjs") as response:
                mjs_type = response.headers["Content-Type"]
    finally:
        shutil.rmtree(private)
        (docroot / "module.mjs").unlink()
    if os.geteuid() == 0:  # as root, nginx's workers run as www-data: a 0700 folder is theirs to refuse
        assert refused.value.code == 403
    assert not mjs_type.startswith(JS_TYPES)


def test_the_readme_hosting_table_is_the_tested_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Hosting", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE)
    assert rows and sorted(rows) == sorted(HOSTS)
