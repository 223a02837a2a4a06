"""The service worker (wiki/offline.py, wiki/sw.js): after one visit both languages read offline and
calculate offline, a second visit asks the host for nothing but the worker's update check, a new
build replaces the old cache, two sites on one origin keep their own caches, and a failed install is
tried again later, says so on the page, and fetches only what it missed.

The site is served by the bench host without its `_headers` (every file revalidated, as on a host with
no cache lifetimes): what the browser does not ask the host for, the service worker answered."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from harness.chromium import ARGS as CHROMIUM_ARGS
from harness.host import Fault, Host
from harness.site import runtime_config
from tests.support.browser import offline_mark, search, served_copy, title_word
from tests.support.live import ARTICLE, form_values, set_value, wait_for_output, widget
from widgets import strings, view
from widgets.locale import locale_of
from wiki import offline
from wiki.runtime import SPARSE_MAGIC, Runtime

pytestmark = pytest.mark.browser

READY_OR_ERROR = '[data-calculator="vram_fit"]:is([data-state="ready"], [data-state="error"])'


@pytest.fixture
def reader(browser, tmp_path: Path) -> Iterator[object]:
    """A reader's browser: a profile on disk (an off-the-record context keeps little), service workers on."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS,
        bypass_csp=True)
    context.set_default_timeout(20000)
    yield context
    context.close()


def live_result(page, url: str, lang: str) -> None:
    """Open an article, check its prerendered numbers, and get a live result for 16 GPUs."""
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == lang
    prerendered = view("vram_fit", form_values(page, "vram_fit"), lang)
    for key, text in prerendered["outputs"].items():
        assert widget(page, "vram_fit").locator(f'[data-output="{key}"]').text_content() == text, key
    page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
    page.wait_for_selector(READY_OR_ERROR, timeout=60000)
    assert widget(page, "vram_fit").get_attribute("data-state") == "ready"
    set_value(page, "vram_fit", "gpus", "16")
    expected = view("vram_fit", form_values(page, "vram_fit"), lang)
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    assert widget(page, "vram_fit").locator('[data-output="verdict"]').text_content() == expected["verdict_text"]


def cached_head(page, url: str, size: int, timeout_s: float = 30) -> bytes:
    """The first `size` bytes of what the service worker's caches hold for `url`, once they hold it (the worker
    keeps a runtime file after the boot that fetched it: on a loaded machine, a while after)."""
    script = ("async ([url, size]) => { const hit = await caches.match(url);"
              " return hit ? [...new Uint8Array(await hit.arrayBuffer(), 0, size)] : null; }")
    deadline = time.monotonic() + timeout_s
    while (head := page.evaluate(script, [url, size])) is None:
        assert time.monotonic() < deadline, f"the service worker's caches do not hold {url} after {timeout_s:g} s"
        page.wait_for_timeout(200)
    return bytes(head)


def cache_name(scope_path: str, site: Path) -> str:
    """The name of the service worker's cache of the build in `site`, served at `scope_path` (sw.js)."""
    return f"kw:{scope_path}:{build_data(site)['cache']}"


def test_after_one_visit_both_languages_read_and_calculate_offline(browser, reader, site_dir: Path,
                                                                    tmp_path: Path) -> None:
    page = reader.new_page()
    with Host(served_copy(site_dir, tmp_path / "site")) as host:
        base = host.url
        live_result(page, base + ARTICLE["da"], "da")
        offline_mark(page, "runtime")
    reader.set_offline(True)  # and the host is gone
    for path, lang in (("fr/", "fr"), ("", "da")):
        page.goto(base + path)
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("article h1").count() == 1
    # A page this build does not have: the error page of the language whose folder the address is in.
    for folder, lang in (("fr/", "fr"), ("", "da")):
        error_page = (site_dir / folder / "404.html").read_text(encoding="utf-8")
        page.goto(base + folder + "no-such-page/")
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("h1").first.inner_text() in error_page
    live_result(page, base + ARTICLE["fr"], "fr")  # never opened online: the other language's article
    assert page.locator("html").get_attribute("data-kw-boot") == "snapshot"


def test_a_second_visit_asks_the_host_for_nothing_but_the_workers_update(reader, site_dir: Path,
                                                                          tmp_path: Path) -> None:
    with Host(served_copy(site_dir, tmp_path / "site")) as host:
        first = reader.new_page()
        live_result(first, host.url + ARTICLE["fr"], "fr")
        offline_mark(first, "runtime")
        assert any(p.startswith("/pyodide/") for p in host.counter.requests)
        first.close()
        host.counter.reset()
        second = reader.new_page()
        live_result(second, host.url + ARTICLE["da"], "da")
        assert second.locator("html").get_attribute("data-kw-boot") == "snapshot"
        assert set(host.counter.requests) <= {"/sw.js"}, host.counter.requests
        # The page came from the cache by the worker's static route, not through its script (which a
        # later visit would first have to start): no worker time in the navigation's timing.
        assert second.evaluate("performance.getEntriesByType('navigation')[0].workerStart") == 0
        # The snapshot came gzipped; the cache keeps it decompressed, so that this boot did not inflate it.
        snapshot = host.url + runtime_config(site_dir)["snapshot"]
        assert cached_head(second, snapshot, 8) == SPARSE_MAGIC


def test_the_install_and_the_keeping_wait_for_a_pause_in_typing(reader, site_dir: Path, tmp_path: Path) -> None:
    """Installing the worker (the shell over the network) and keeping the runtime (the snapshot
    decompressed) wait until the reader has not typed for a while (offline.js, PAUSE_MS)."""
    with Host(served_copy(site_dir, tmp_path / "site")) as host:
        page = reader.new_page()
        # A pause of 6 s (2 s on the site): a test machine busy for 2 s between the first result and the
        # first key (CI, once) is not a pause in typing; the keys below still come 24 times as often.
        page.add_init_script("globalThis.kwLimits = {typingPause: 6000};")
        page.goto(host.url + ARTICLE["da"])
        page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()  # the boot: the install waits for it
        page.wait_for_selector(READY_OR_ERROR, timeout=60000)
        host.counter.reset()
        # Typing from the first result on (a key every 0.25 s for 4 s): no gap as long as the pause.
        for i in range(16):
            set_value(page, "vram_fit", "context", str(4000 + 100 * i))
            page.wait_for_timeout(250)
        assert "/sw.js" not in host.counter.requests, host.counter.requests
        assert page.locator("html").get_attribute("data-kw-offline") is None
        expected = view("vram_fit", form_values(page, "vram_fit"), "da")
        wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
        offline_mark(page, "runtime")  # once the typing stops


def test_the_service_worker_downloads_and_copies_nothing_while_a_page_of_the_origin_boots(
        reader, site_dir: Path, tmp_path: Path) -> None:
    """A page that boots holds the boot lock (calculator-worker.js BOOT_LOCK) until its first answer; the
    service worker's install (the shell over the line) and its keeping of the runtime (3.5 MB of .wasm
    written to disk) wait while any page of the origin holds it, and go on once none does."""
    with Host(served_copy(site_dir, tmp_path / "site")) as host:
        booting = reader.new_page()  # another tab of the origin, its boot not over
        booting.goto(host.url + ARTICLE["fr"])
        booting.evaluate("""() => new Promise((held) => navigator.locks.request("kw-boot", { mode: "shared" },
            () => { held(); return new Promise((release) => { window.releaseBoot = release; }); }))""")
        page = reader.new_page()
        live_result(page, host.url + ARTICLE["da"], "da")
        page.wait_for_timeout(5000)  # the typing pause (2 s) and more: the install and the keeping would be over
        assert page.locator("html").get_attribute("data-kw-offline") is None
        host.counter.reset()
        booting.evaluate("window.releaseBoot()")
        offline_mark(page, "runtime", host)
        assert len([p for p in host.counter.asked if p.endswith("/")]) > 2, host.counter.asked  # the shell's pages


def test_search_is_downloaded_by_a_first_search_not_by_the_install_and_then_works_offline(
        reader, site_dir: Path, tmp_path: Path) -> None:
    """Waits for the install's mark (`data-kw-offline="pages"`), then 0.5 s for any request the install still makes."""
    page = reader.new_page()
    with Host(served_copy(site_dir, tmp_path / "site")) as host:
        base = host.url
        page.goto(base + ARTICLE["fr"])
        offline_mark(page, "pages", host)
        page.wait_for_timeout(500)  # the install is done: anything it fetched has been asked for
        assert [p for p in host.counter.requests if p.endswith("search_index.json") or "/lunr/" in p] == []
        assert any(urlparse(href).path == "/" + ARTICLE["fr"] for href in search(page, title_word("fr")))
    reader.set_offline(True)  # and the host is gone
    page.goto(base + ARTICLE["fr"])
    assert any(urlparse(href).path == "/" + ARTICLE["fr"] for href in search(page, title_word("fr")))


def rebuilt(site: Path) -> str:
    """A new build of `site`: one page's text changed and `sw.js` written again by the build's own
    function; returns the new cache name."""
    article = site / ARTICLE["fr"] / "index.html"
    article.write_text(article.read_text(encoding="utf-8").replace(
        "</article>", '<p id="kw-new-build">nouvelle version</p></article>', 1), encoding="utf-8")
    config = runtime_config(site)
    version = config["pyodide"].strip("/").split("/")[-1]
    digest = config["lock"].split("/")[-2].removeprefix("app-")
    offline.write_service_worker(site, Runtime(version, digest, site / "pyodide" / f"app-{digest}"), ("da", "fr"))
    return build_data(site)["cache"]


def build_data(site: Path) -> dict:
    first = (site / "sw.js").read_text(encoding="utf-8").split("\n", 1)[0]
    return json.loads(first.removeprefix("const BUILD = ").removesuffix(";"))


CACHES = "async () => await caches.keys()"
# The service workers' caches: all but where a worker keeps the snapshot it made (`kw:<scope>:made`), which
# a boot judged slow (plain) leaves and one judged fast (the build's snapshot) does not.
BUILD_CACHES = "async () => (await caches.keys()).filter((name) => !name.endsWith(':made'))"


def test_a_new_build_replaces_the_old_cache_and_keeps_the_runtime_without_downloading_it(
        reader, site_dir: Path, tmp_path: Path) -> None:
    site = served_copy(site_dir, tmp_path / "site")
    old = build_data(site)["cache"]
    with Host(site) as host:
        page = reader.new_page()
        live_result(page, host.url + ARTICLE["fr"], "fr")
        offline_mark(page, "runtime")
        assert page.evaluate(BUILD_CACHES) == [f"kw:/:{old}"]
        new = f"kw:/:{rebuilt(site)}"
        assert new != f"kw:/:{old}"
        host.counter.reset()
        page.goto(host.url + ARTICLE["da"])  # a navigation: the browser checks sw.js and finds the new build
        for _ in range(100):
            if page.evaluate(BUILD_CACHES) == [new]:
                break
            page.wait_for_timeout(300)
        assert page.evaluate(BUILD_CACHES) == [new], host.counter.requests
        assert not any(p.startswith("/pyodide/") for p in host.counter.requests), host.counter.requests
        page.goto(host.url + ARTICLE["fr"])
        assert page.locator("#kw-new-build").count() == 1
        snapshot = host.url + runtime_config(site)["snapshot"]
        assert page.evaluate("async ([name, url]) => Boolean(await (await caches.open(name)).match(url))",
                             [new, snapshot])


SAVE_DATA = """Object.defineProperty(Navigator.prototype, "connection", {
  get: () => ({ saveData: true, effectiveType: "4g", addEventListener() {} }) });"""


@pytest.mark.parametrize("encoded_by_host", [False, True], ids=["as-built", "host-content-encoding"])
def test_under_save_data_nothing_is_downloaded_for_the_cache_and_the_calculators_still_work_offline(
        reader, site_dir: Path, tmp_path: Path, encoded_by_host: bool) -> None:
    """A reader who asks to save data gets a plain boot and no snapshot download, now or for later: the
    worker makes one of that boot's interpreter instead, and the service worker keeps what the boot fetched,
    so the next visit calculates offline from that snapshot. Waits for the keeping's mark
    (`data-kw-offline="runtime"`), then 1 s for any download the worker would still start.
    The trimmed standard library is built gzipped and kept decompressed, also from a host that declares the
    gzip as its own `Content-Encoding` (the browser then decodes it before the worker sees it)."""
    config = runtime_config(site_dir)
    stdlib = [config["stdlib"], config["stdlib_later"]]  # relative to the site root
    assert all((site_dir / path).read_bytes()[:2] == b"\x1f\x8b" for path in stdlib)
    reader.add_init_script(SAVE_DATA)
    page = reader.new_page()
    with Host(served_copy(site_dir, tmp_path / "site")) as host:
        base = host.url
        if encoded_by_host:
            host.headers.update({"/" + path: {"Content-Encoding": "gzip"} for path in stdlib})
        live_result(page, base + ARTICLE["da"], "da")
        assert page.locator("html").get_attribute("data-kw-boot") == "plain"
        offline_mark(page, "runtime")
        page.wait_for_timeout(1000)  # anything the worker would still fetch
        served = list(host.counter.requests)
    assert "/" + config["snapshot"] not in served, served  # what a worker that downloads to keep would fetch
    assert page.locator("html").get_attribute("data-kw-runtime-snapshot") == "made"
    for path in stdlib:  # a zip, not its gzip: a later boot does not inflate it again
        assert cached_head(page, base + path, 4) == b"PK\x03\x04", path
    reader.set_offline(True)
    live_result(page, base + ARTICLE["fr"], "fr")
    assert page.locator("html").get_attribute("data-kw-boot-reason") == "made"


def linked_copy(site_dir: Path, target: Path) -> Path:
    """A copy of the built site without `_headers`, its runtime (the large files) hard-linked."""
    def copy(source: str, destination: str) -> None:
        if "/pyodide/" in source:
            os.link(source, destination)
        else:
            shutil.copy2(source, destination)

    shutil.copytree(site_dir, target, copy_function=copy)
    (target / "_headers").unlink()
    return target


def test_two_sites_on_one_origin_keep_their_own_caches_and_each_reads_offline(
        reader, site_dir: Path, tmp_path: Path) -> None:
    """Two builds served at /a/ and /b/ of one origin (two GitHub Pages project sites of one account): the
    second one's service worker does not delete the first one's cache, which still calculates offline."""
    origin = tmp_path / "origin"
    first = linked_copy(site_dir, origin / "a")
    second = linked_copy(site_dir, origin / "b")
    rebuilt(second)  # another build: another cache name
    page = reader.new_page()
    with Host(origin) as host:
        live_result(page, host.url + "a/" + ARTICLE["da"], "da")
        offline_mark(page, "runtime")
        live_result(page, host.url + "b/" + ARTICLE["fr"], "fr")
        offline_mark(page, "runtime")
        assert sorted(page.evaluate(BUILD_CACHES)) == sorted([cache_name("/a/", first), cache_name("/b/", second)])
        assert set(page.evaluate(CACHES)) <= {cache_name("/a/", first), cache_name("/b/", second), "kw:/a/:made",
                                              "kw:/b/:made"}
        base = host.url
    reader.set_offline(True)
    live_result(page, base + "a/" + ARTICLE["fr"], "fr")
    assert page.locator("html").get_attribute("data-kw-boot") == "snapshot"
    assert page.locator("#kw-new-build").count() == 0  # the first site's own page, from its own cache


def test_a_failed_install_is_tried_again_later_says_so_and_fetches_only_what_it_missed(
        reader, site_dir: Path, tmp_path: Path) -> None:
    """One shell file refused at install: the page says that offline reading is not set up (in its
    language, from the catalogs), a page opened before the retry's time does not install again, and the
    retry fetches the file it missed, not the whole shell again."""
    reader.add_init_script("globalThis.kwLimits = {installRetry: [5000]};")
    page = reader.new_page()
    with Host(served_copy(site_dir, tmp_path / "site")) as host:
        host.faults["/fr/"] = Fault("refuse", times=1)  # the French home page, one of the shell's files
        page.goto(host.url + ARTICLE["da"])
        offline_mark(page, "retrying", host)
        notice = page.locator("#kw-offline-notice")
        notice.wait_for(timeout=10000)
        assert notice.text_content() == locale_of("da").text(strings.UI["offline_install_failed"])
        assert "/fr/" in page.locator("html").get_attribute("data-kw-offline-error")
        page.goto(host.url + ARTICLE["fr"])  # before the retry's time
        page.wait_for_load_state("networkidle")
        host.counter.reset()
        page.locator("#kw-offline-notice").wait_for(timeout=10000)
        wanted = locale_of("fr").text(strings.UI["offline_install_failed"])
        assert page.locator("#kw-offline-notice").text_content() == wanted
        assert "/sw.js" not in host.counter.asked
        offline_mark(page, "pages", host)
        assert page.locator("#kw-offline-notice").count() == 0
        assert "/fr/" in host.counter.asked
        assert set(host.counter.asked) <= {"/sw.js", "/fr/", "/offline-messages.json"}, host.counter.asked
        assert page.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('kw-offline-retry'))") == []
