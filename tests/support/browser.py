"""What the browser tests share beyond the widgets: tabs kept across tests, the requests a page made, Material's
search, the line judgement a page remembers, a copy of the site for a host, and axe."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urlparse

from harness.site import ROOT
from tests.support.live import FIRST
from wiki.checks.prose import read

LINE_KEY = "kw-line"  # where the page script (boot.js) remembers its judgement of the line (localStorage)
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


TIMEOUT_MS = 15000  # a browser test's default wait


def watched(tab):
    """`tab` with the suite's default timeout, recording its page errors in `kw_errors` and the URLs it requests
    in `requested_urls`."""
    tab.set_default_timeout(TIMEOUT_MS)
    tab.kw_errors, tab.requested_urls = [], []
    tab.on("pageerror", lambda error: tab.kw_errors.append(str(error)))
    tab.on("request", lambda request: tab.requested_urls.append(request.url))
    return tab


class KeptTabs:
    """Tabs a test process keeps open across its tests, one per set of context options.

    A new context is a new renderer process. Measured on this 2-core machine (2026-12-05, loopback): a fresh
    context with an article page costs 1.1-1.4 s of CPU, the same tab navigated to it 0.4-0.5 s; a live boot
    in a fresh context 2.2-2.5 s, in a kept tab 1.2-1.6 s. For tests whose subject is not a first visit: no
    init scripts, clocks, downloads held or refused, or counts of what the host sent (the tab's HTTP cache is
    warm, and a test that held the .wasm in one once waited 30 s for a progress it never showed; the requests
    the page makes are in `requested_urls`, its errors in `kw_errors`). Between two tests the tab drops its routes and
    permissions, the site's local and session storage are emptied and its document (with the document's
    workers) is closed.
    """

    def __init__(self, browser) -> None:
        self.browser = browser
        self.free: dict[tuple[tuple[str, str], ...], list] = {}
        self.contexts: list = []

    def open(self, **options):
        """A kept tab whose context has `options` (Playwright's `new_context` arguments), at about:blank."""
        key = tuple(sorted((name, repr(value)) for name, value in options.items()))
        free = self.free.setdefault(key, [])
        if free:
            tab = free.pop()
        else:
            context = self.browser.new_context(service_workers="block", bypass_csp=True, **options)
            self.contexts.append(context)
            tab = watched(context.new_page())
            tab.kw_key = key
        tab.set_default_timeout(TIMEOUT_MS)  # as a new tab, whatever the last test set
        tab.kw_errors, tab.requested_urls = [], []
        return tab

    def release(self, tab) -> None:
        """Leave `tab` as a new one would be and keep it; a tab that cannot be reset is closed instead."""
        try:
            tab.unroute_all(behavior="ignoreErrors")
            tab.context.clear_permissions()
            if tab.url.startswith("http"):
                tab.evaluate("localStorage.clear(); sessionStorage.clear()")
            tab.goto("about:blank")
        except Exception:  # a crashed or stuck page: closed, and the next test gets a new context
            self.contexts.remove(tab.context)
            tab.context.close()
        else:
            self.free[tab.kw_key].append(tab)

    def close(self) -> None:
        """Close every kept tab's context."""
        for context in self.contexts:
            context.close()


def settle(page) -> None:
    """Wait until the page is laid out as a reader sees it: its load event (its stylesheets, its deferred
    scripts, KaTeX's typesetting among them) and its web fonts. Not Playwright's "networkidle", which
    waits 500 ms more after the last request on every page, for requests these checks do not need."""
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => document.fonts.status)")


OFFLINE_STATE = """async () => {
  const html = document.documentElement, registration = await navigator.serviceWorker?.getRegistration();
  const state = (worker) => worker?.state ?? null;
  return {offline: html.dataset.kwOffline ?? null, error: html.dataset.kwOfflineError ?? null,
    document: document.readyState, visibility: document.visibilityState,
    booting: document.querySelectorAll('[data-calculator][data-state="loading"]').length,
    controlled: Boolean(navigator.serviceWorker?.controller),
    worker: registration && {installing: state(registration.installing), waiting: state(registration.waiting),
                             active: state(registration.active)}};
}"""


def offline_mark(page, mark: str | None = None, host=None, timeout: int = 60000) -> None:
    """Wait until offline.js marks `<html data-kw-offline>` (`mark`, or any); if it does not, fail saying how far
    the page and its service worker got (and, given the `host`, the last paths it was asked for)."""
    selector = f'html[data-kw-offline="{mark}"]' if mark else "html[data-kw-offline]"
    try:
        page.wait_for_selector(selector, state="attached", timeout=timeout)
    except Exception as error:  # Playwright's TimeoutError: said again with what the page knows
        state = page.evaluate(OFFLINE_STATE)
        asked = host.counter.asked[-8:] if host is not None else "(no host given)"
        raise AssertionError(f"no {selector} after {timeout} ms: {state}; last asked: {asked}") from error


def only_local(urls: list[str]) -> list[str]:
    """The requested URLs that leave 127.0.0.1 (data: and blob: URLs stay in the page)."""
    return [u for u in urls if urlparse(u).scheme not in {"data", "blob", "about"}
            and urlparse(u).hostname != "127.0.0.1"]


def title_word(lang: str) -> str:
    """The longest word of the article's title in `lang` (the title weighs most in the search index)."""
    return max(re.findall(r"[^\W\d_]{4,}", str(read(FIRST.source(lang), lang).meta["title"])), key=len).lower()


def search(page, query: str, timeout: int = 15000) -> list[str]:
    """Type a query in Material's search box and return the result links (absolute URLs); waits up to
    `timeout` ms for the first result (the index is fetched and built on the first search)."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("")
    box.press_sequentially(query, delay=20)
    results = page.locator(".md-search-result__item a.md-search-result__link")
    results.first.wait_for(timeout=timeout)
    return [page.evaluate("(a) => a.href", handle) for handle in results.element_handles()]


def remembered_line(fast: bool, age_s: float = 0) -> str:
    """An init script that leaves the page a judgement of the line made `age_s` ago (as calculators.js writes
    it), once per context: pages after the first keep what the page itself wrote since."""
    line = json.dumps({"fast": fast, "rate": 1, "from": "test"})
    return f"""if (!sessionStorage.getItem("kw-test-line")) {{
  sessionStorage.setItem("kw-test-line", "1");
  localStorage.setItem("{LINE_KEY}", JSON.stringify({{...{line}, at: Date.now() - {age_s * 1000},
    type: navigator.connection?.effectiveType ?? null}}));
}}"""


def served_copy(site_dir: Path, target: Path) -> Path:
    """The built site without `_headers`: the host then asks browsers to revalidate every file."""
    shutil.copytree(site_dir, target)
    (target / "_headers").unlink()
    return target


def report(where: str, violations: list[dict]) -> list[str]:
    """One line per axe violation: where, rule, impact, target and axe's failure summary."""
    lines = []
    for rule in violations:
        for node in rule["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"{where}: {rule['id']} ({rule['impact']}) {node['target']}: {summary}")
    return lines
