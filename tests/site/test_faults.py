"""Hostile input and faults: a catalog with markup, a killed or hung worker (restarted, the request sent
again once), a Python exception (its widget alone says so), a runtime that never loads, and no request to
another host on any page, with and without interaction."""

from __future__ import annotations

import gzip
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from harness.server import StaticServer
from harness.site import copy_project, runtime_config
from tests.conftest import build_site
from tests.support.browser import only_local, remembered_line, search, title_word
from tests.support.html import Page, url_paths
from tests.support.live import (
    ALL_READY,
    ARTICLE,
    CHANGES,
    PAGE,
    calculator_worker,
    form_values,
    open_live,
    set_value,
    wait_for_output,
    widget,
)
from widgets import strings, view
from widgets.locale import locale_of

pytestmark = pytest.mark.browser

HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
# French strings of the vram_fit widget: its title (static only), the explanations of the preset
# ("does_not_fit_kv") and of 16 GPUs ("fits"), and the SVG's titles (built by Python, set with innerHTML
# live): the preset's, over capacity, and that of 16 GPUs.
POISONED = [strings.TITLES["vram_fit"], strings.EXPLANATIONS[("vram_fit", "does_not_fit_kv")],
            strings.EXPLANATIONS[("vram_fit", "fits")], strings.UI["figure_vram_over"], strings.UI["figure_vram"]]


def gigabytes(lang: str, gpus: int) -> str:
    """The VRAM the article's first VRAM widget shows with `gpus` GPUs (its other presets kept)."""
    return view("vram_fit", {**PAGE.presets("vram_fit", lang), "gpus": gpus}, lang)["outputs"]["vram_gb"]


def watch_errors(page) -> list[str]:
    """Collect uncaught page errors and console errors from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def assert_error_state(page, lang: str, after_boot: bool = False) -> None:
    """Every widget in the error state; one that had run says it stopped, not that it could not start."""
    key, attribute = ("state_failed", "data-text-failed") if after_boot else ("state_error", "data-text-error")
    for name in CHANGES:
        root = widget(page, name)
        assert root.get_attribute("data-state") == "error"
        status = root.locator("[data-status]")
        assert status.text_content() == status.get_attribute(attribute) == locale_of(lang).text(strings.UI[key])


# --- a catalog translation containing markup -------------------------------------------------------------


def poison_french_catalog(project: Path) -> None:
    """Prefix the French translation of every string in `POISONED` with `HOSTILE`."""
    path = project / "i18n" / "fr" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        catalog = read_po(source)
    for msgid in POISONED:
        catalog[msgid].string = f"{HOSTILE} {catalog[msgid].string}"
    with path.open("wb") as target:
        write_po(target, catalog)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """A copy of the project built with the poisoned French catalog, served on 127.0.0.1."""
    project = tmp_path_factory.mktemp("hostile")
    config = copy_project(project)
    poison_french_catalog(project)
    # Its own runtime cache: a new catalog is a new runtime digest, and preparing one prunes the others.
    (project / "build").unlink()
    (project / "build").mkdir()
    target = project / "site"
    with StaticServer(target) as running:
        result = build_site(target, config, site_url=running.url)
        assert result.returncode == 0, f"build failed:\n{result.stdout}\n{result.stderr}"
        yield running


def test_catalog_markup_is_text_in_the_static_html(hostile_site) -> None:
    page = Page(hostile_site.root / ARTICLE["fr"] / "index.html")
    assert HOSTILE in page.text  # shown as text (the parser unescapes it) ...
    assert "<img" not in page.source and "window.__pwned=2</script>" not in page.source  # ... never as markup
    assert page.source.count("&lt;img src=x onerror=") >= 3  # title, explanation, SVG title
    assert page.find("img") == []


def test_catalog_markup_never_executes_static_or_live(browser, hostile_site) -> None:
    # bypass_csp: what is tested is that nothing runs even where the page's policy would not stop it
    context = browser.new_context(service_workers="block", bypass_csp=True)
    try:
        page = context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        errors = watch_errors(page)
        root = widget(page, "vram_fit")
        page.goto(hostile_site.url + ARTICLE["fr"])
        assert root.locator(".kw-calc__title").text_content().startswith(HOSTILE)
        assert root.locator('[data-output="explanation"]').text_content().startswith(HOSTILE)
        assert root.locator("svg title").text_content().startswith(HOSTILE)
        assert page.locator("img").count() == 0 and root.locator("script").count() == 0
        assert page.evaluate("window.__pwned") is None
        open_live(page, page.url)
        set_value(page, "vram_fit", "gpus", "16")
        number = gigabytes("fr", 16).split("\u202fGo")[0]  # the live figure's title names the new VRAM
        page.wait_for_function("""(number) => document.querySelector('[data-calculator="vram_fit"] svg title')
            .textContent.includes(number)""", arg=number, timeout=10000)
        explanation = root.locator('[data-output="explanation"]').text_content()
        assert explanation.startswith(HOSTILE) and gigabytes("fr", 16) in explanation  # the live "fits" sentence
        assert root.locator("svg title").text_content().startswith(HOSTILE)
        assert page.locator("img").count() == 0 and root.locator("script").count() == 0
        assert page.evaluate("window.__pwned") is None
        assert dialogs == [] and errors == []
    finally:
        context.close()


# --- the worker killed, hung or failing mid-session -------------------------------------------------------

# Shorter limits for the page (scripts/calculators/boot.js LIMITS): a later answer's, the boot's, the first answer's.
SHORT_LIMITS = "globalThis.kwLimits = {request: 1000, stall: 8000};"


def no_error_but(page, failed: set[str]) -> None:
    """Every widget but those of `failed` is live and has no failure recorded (`data-error`)."""
    for name in CHANGES:
        if name in failed:
            continue
        root = widget(page, name)
        assert root.get_attribute("data-state") == "ready", name
        assert root.get_attribute("data-error") is None, name


def test_a_killed_worker_is_restarted_and_the_request_answered_without_typing(page, server) -> None:
    """The worker thread ends without a word: the request goes unanswered, the page starts another worker
    and sends it the request again; the reader sees the answer and no failure."""
    errors = watch_errors(page)
    page.context.add_init_script(SHORT_LIMITS)
    open_live(page, server.url + ARTICLE["da"])
    set_value(page, "vram_fit", "gpus", "16")
    wait_for_output(page, "vram_fit", "vram_gb", gigabytes("da", 16))
    killed = calculator_worker(page)
    killed.evaluate("self.close()")
    set_value(page, "vram_fit", "gpus", "24")
    expected = view("vram_fit", form_values(page, "vram_fit"), "da")
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])  # nothing typed since
    assert widget(page, "vram_fit").locator('[data-output="vram_gb"]').text_content() == expected["outputs"]["vram_gb"]
    page.wait_for_function(ALL_READY.format("ready"), timeout=10000)
    no_error_but(page, set())
    assert calculator_worker(page) is not killed
    assert page.locator("html").get_attribute("data-kw-worker-restarts") == "1"
    assert page.locator("html").get_attribute("data-kw-worker-error").startswith("timeout")
    assert errors == []


def test_a_hung_worker_is_restarted_and_the_request_answered_without_typing(page, server) -> None:
    """A worker busy forever on one request (a Python call that never returns) is replaced the same way."""
    page.context.add_init_script(SHORT_LIMITS)
    open_live(page, server.url + ARTICLE["fr"])
    set_value(page, "vram_fit", "gpus", "16")
    expected = view("vram_fit", form_values(page, "vram_fit"), "fr")
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    hung = calculator_worker(page)
    closed: list[object] = []
    hung.on("close", lambda worker: closed.append(worker))
    hung.evaluate("""() => pyodide.runPython(`
import time
import widgets.worker as worker
worker.view = lambda *args, **kwargs: time.sleep(3600)
`)""")
    set_value(page, "scaling", "fabric", "eth-25")
    expected = view("scaling", form_values(page, "scaling"), "fr")
    wait_for_output(page, "scaling", "explanation", expected["explanation"])
    page.wait_for_function(ALL_READY.format("ready"), timeout=10000)
    no_error_but(page, set())
    for _ in range(100):  # the terminated thread's close event may arrive after the new worker's answer
        if closed:
            break
        page.wait_for_timeout(100)
    assert closed == [hung]
    assert calculator_worker(page) is not hung


# Appended to the worker's script (served so to every worker the page starts): a vram_fit request for 24
# GPUs never returns, in the first worker and in the one that replaces it.
HANG_ON_24 = """
const kwView = view;
view = (request) => {
  if (request.name === "vram_fit" && request.inputs.gpus === "24") for (;;);
  return kwView(request);
};
"""


def test_a_request_unanswered_twice_fails_its_own_widget_only_and_the_others_go_on(page, server) -> None:
    page.context.add_init_script(SHORT_LIMITS)
    page.route("**/calculator-worker.js", lambda route: route.fulfill(response=(answer := route.fetch()),
                                                                       body=answer.text() + HANG_ON_24))
    open_live(page, server.url + ARTICLE["da"])
    set_value(page, "vram_fit", "gpus", "16")
    wait_for_output(page, "vram_fit", "vram_gb", gigabytes("da", 16))
    root = widget(page, "vram_fit")
    set_value(page, "vram_fit", "gpus", "24")  # unanswered, restarted, sent again, unanswered again
    page.wait_for_selector('[data-calculator="vram_fit"][data-state="error"]', timeout=30000)
    assert root.get_attribute("data-error") == "timeout"
    status = root.locator("[data-status]")
    failed = locale_of("da").text(strings.UI["state_failed"])
    assert status.text_content() == status.get_attribute("data-text-failed") == failed
    assert root.get_attribute("data-stale") == ""
    assert root.locator('[data-output="vram_gb"]').text_content() == gigabytes("da", 16)  # the last result stays
    no_error_but(page, {"vram_fit"})
    # The others are answered (by a third worker: the second one still hangs on the 24).
    set_value(page, "scaling", "fabric", "eth-25")
    wait_for_output(page, "scaling", "explanation", view("scaling", form_values(page, "scaling"), "da")["explanation"])
    assert root.get_attribute("data-state") == "error"  # until its own next input
    set_value(page, "vram_fit", "gpus", "12")
    wait_for_output(page, "vram_fit", "vram_gb", gigabytes("da", 12))
    assert root.get_attribute("data-state") == "ready"


# --- a Python exception inside a calculator ---------------------------------------------------------------

BREAK_VRAM_FIT = """
import calculators.registry as _registry
_kw_calc = _registry._BY_NAME["vram_fit"]
_kw_compute = _kw_calc.compute
def _kw_broken(inputs, raw):
    raise ZeroDivisionError("injected by the fault test")
object.__setattr__(_kw_calc, "compute", _kw_broken)  # Calculator is a frozen dataclass
"""
REPAIR_VRAM_FIT = 'object.__setattr__(_kw_calc, "compute", _kw_compute)'


def test_a_python_exception_shows_the_localized_message_and_the_next_input_recovers(page, server) -> None:
    errors = watch_errors(page)
    open_live(page, server.url + ARTICLE["fr"])
    root = widget(page, "vram_fit")
    status = root.locator("[data-status]")
    before = root.locator('[data-output="vram_gb"]').text_content()
    worker = calculator_worker(page)
    worker.evaluate("(code) => pyodide.runPython(code)", BREAK_VRAM_FIT)
    failed = locale_of("fr").text(strings.ERRORS["internal_error"])  # the catalog's words, whatever they become
    assert failed and failed != strings.ERRORS["internal_error"]  # translated
    set_value(page, "vram_fit", "gpus", "16")
    status.filter(has_text=failed).wait_for(timeout=10000)
    assert status.text_content() == failed
    assert root.get_attribute("data-stale") == ""
    assert root.locator('[data-output="vram_gb"]').text_content() == before  # the last good result stays
    assert widget(page, "scaling").get_attribute("data-state") == "ready"  # the other widgets are unaffected
    worker.evaluate("(code) => pyodide.runPython(code)", REPAIR_VRAM_FIT)
    set_value(page, "vram_fit", "gpus", "12")
    wait_for_output(page, "vram_fit", "vram_gb", gigabytes("fr", 12))
    assert root.get_attribute("data-stale") is None
    assert status.text_content() == locale_of("fr").text(strings.UI["state_ready"])
    assert errors == []


# The view itself raising (not a calculator's error, which the view turns into its message): the worker
# answers with an error, and only the widget that asked says so.
BREAK_THE_VIEW = """
import widgets.worker as worker
_kw_view = worker.view
def _kw_broken(name, *args, **kwargs):
    if name == "vram_fit":
        raise RuntimeError("injected by the fault test")
    return _kw_view(name, *args, **kwargs)
worker.view = _kw_broken
"""


def test_a_request_that_raises_in_python_marks_its_own_widget_only(page, server) -> None:
    errors = watch_errors(page)
    open_live(page, server.url + ARTICLE["da"])
    worker = calculator_worker(page)
    worker.evaluate("(code) => pyodide.runPython(code)", BREAK_THE_VIEW)
    root = widget(page, "vram_fit")
    before = root.locator('[data-output="vram_gb"]').text_content()
    set_value(page, "vram_fit", "gpus", "16")
    page.wait_for_selector('[data-calculator="vram_fit"][data-state="error"]', timeout=30000)
    assert root.get_attribute("data-error") == "python"
    assert "injected by the fault test" in root.get_attribute("data-error-detail")
    assert root.locator('[data-output="vram_gb"]').text_content() == before
    no_error_but(page, {"vram_fit"})
    set_value(page, "scaling", "fabric", "eth-25")  # the same worker answers the others
    wait_for_output(page, "scaling", "explanation", view("scaling", form_values(page, "scaling"), "da")["explanation"])
    assert calculator_worker(page) is worker
    assert page.locator("html").get_attribute("data-kw-worker-restarts") is None
    assert errors == []


# --- a runtime that never finishes loading ----------------------------------------------------------------


def test_a_runtime_that_stops_loading_is_given_up_leaves_the_page_usable_and_recovers(page, server, site_dir) -> None:
    held: list[str] = []
    snapshot = server.url + runtime_config(site_dir)["snapshot"]
    page.route("**/*.wasm", lambda route: held.append(route.request.url))  # never fulfilled
    page.route(snapshot, lambda route: held.append(route.request.url))
    page.clock.install()
    page.goto(server.url + ARTICLE["da"])
    root = widget(page, "vram_fit")
    root.locator('[name="gpus"]').focus()
    page.wait_for_function(ALL_READY.format("loading"))
    for _ in range(100):  # until the worker has asked for both held files
        if snapshot in held and any(u.endswith("/pyodide.asm.wasm") for u in held):
            break
        page.wait_for_timeout(50)
    assert snapshot in held and any(u.endswith("/pyodide.asm.wasm") for u in held), held
    started = time.monotonic()
    page.clock.run_for("00:13")  # the page clock also runs in real time: 13 s + the time above < 15 s
    assert widget(page, "vram_fit").get_attribute("data-state") == "loading"  # not before 15 s without progress
    page.clock.run_for("00:03")
    page.wait_for_function(ALL_READY.format("error"), timeout=5000)
    assert time.monotonic() - started < 5  # 16 s of page time passed in a moment
    assert_error_state(page, "da")
    prerendered = view("vram_fit", PAGE.presets("vram_fit", "da"), "da")["outputs"]["vram_gb"]
    assert root.locator('[data-output="vram_gb"]').text_content() == prerendered  # the prerendered numbers intact
    assert root.locator('[data-output="verdict"]').text_content() == view(
        "vram_fit", form_values(page, "vram_fit"), "da")["verdict_text"]
    assert any(ARTICLE["da"] in href for href in search(page, title_word("da")))  # the rest of the page works
    page.keyboard.press("Escape")
    page.unroute_all(behavior="ignoreErrors")  # the network is back: the next input boots a new worker
    set_value(page, "vram_fit", "gpus", "16")
    page.wait_for_function(ALL_READY.format("ready"), timeout=60000)
    wait_for_output(page, "vram_fit", "vram_gb", gigabytes("da", 16))
    page.locator(".md-header__button.md-logo").click()
    page.wait_for_url(server.url)
    assert page.locator("h1").is_visible()


# --- a snapshot that cannot be used -------------------------------------------------------------------------

NOT_A_SNAPSHOT = gzip.compress(b"KWSPARSE" + struct.pack("<III", 64, 1, 0) + struct.pack("<I", 64) + bytes(64))


@pytest.mark.parametrize(("status", "body"), [
    (404, b"not found"),
    (200, b"corrupt, not even gzip"),
    (200, NOT_A_SNAPSHOT),  # well formed, but not a Pyodide memory image (another build's would fail alike)
], ids=["missing", "corrupt", "not-pyodide"])
def test_an_unusable_snapshot_falls_back_to_a_plain_boot_with_the_same_results(
        page, server, site_dir, status: int, body: bytes) -> None:
    errors = watch_errors(page)
    snapshot = server.url + runtime_config(site_dir)["snapshot"]
    page.route(snapshot, lambda route: route.fulfill(status=status, body=body,
                                                     content_type="application/octet-stream"))
    open_live(page, server.url + ARTICLE["da"])
    # The plain boot is the one that loads the (trimmed) standard library and the wheels (the snapshot has them).
    loaded = [u.rsplit("/", 1)[1] for u in page.requested_urls]
    assert {"stdlib.zip", "babel-2.19.0-py3-none-any.whl"} <= set(loaded), loaded
    assert any(name.startswith("kentino_wiki_runtime-") for name in loaded), loaded
    for name, (field, values) in CHANGES.items():
        set_value(page, name, field, values["da"])
        expected = view(name, form_values(page, name), "da")
        wait_for_output(page, name, "explanation", expected["explanation"])
        for key, value in expected["outputs"].items():
            assert widget(page, name).locator(f'[data-output="{key}"]').text_content() == value
    assert errors == []


# --- no request leaves 127.0.0.1 --------------------------------------------------------------------------


def test_no_request_leaves_127_0_0_1_on_any_page_with_interaction(page, server, site_dir: Path) -> None:
    """Every page; its search and its language menu, and the live calculators, on the first page (with
    widgets) of each language and folder depth: what they fetch is resolved from the page's folder and
    language, and every page's own requests are checked on its load."""
    paths = url_paths(site_dir)
    assert {"", "fr/", *ARTICLE.values(), "404.html"} <= set(paths)
    interacted: set[tuple[str, int]] = set()
    searched: set[tuple[str, int]] = set()
    changed: set[tuple[str, str]] = set()
    for path in paths:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        lang = page.locator("html").get_attribute("lang")
        where = (lang, path.count("/"))
        assert only_local(page.requested_urls) == [], path
        if page.locator("[data-calculator]").count() and where not in interacted:
            interacted.add(where)
            open_live(page, page.url)
            shown = page.eval_on_selector_all("[data-calculator]", "(ws) => ws.map((w) => w.dataset.calculator)")
            changed |= {(lang, name) for name in shown}
            for name, (field, values) in CHANGES.items():
                if name not in shown or not widget(page, name).locator(f'[name="{field}"]').is_enabled():
                    continue  # a method page's example may hold a field the others' choices leave unused
                set_value(page, name, field, values[lang])
                wait_for_output(page, name, "explanation", view(name, form_values(page, name), lang)["explanation"])
        if where not in searched:
            searched.add(where)
            search(page, "GPU")
            page.keyboard.press("Escape")
            page.locator(".md-header .md-select").first.hover()  # the language menu
            page.wait_for_load_state("networkidle")
            assert only_local(page.requested_urls) == [], path
    assert any(u.endswith("/pyodide.asm.wasm") for u in page.requested_urls)
    assert any(u.endswith("search_index.json") for u in page.requested_urls)
    assert {(lang, name) for lang in ARTICLE for name in CHANGES} <= changed  # every calculator, both languages
    assert {("da", 0), ("fr", 1)} <= searched  # the search of each language, from the root and from a folder


def test_after_a_snapshot_boot_python_still_grows_its_heap(page, server) -> None:
    """The build zeroes the heap's free memory under a footprint limit (wiki/snapshot.mjs); the limit is in
    the snapshot, so it must be lifted before: a large allocation after the restore grows the heap."""
    # A snapshot boot whatever the line judgement makes of this machine's loopback (a busy machine once
    # measured Pyodide's JavaScript arriving slowly and booted plain): the page remembers a fast line.
    page.context.add_init_script(remembered_line(fast=True))
    open_live(page, server.url + ARTICLE["da"])
    assert page.locator("html").get_attribute("data-kw-boot") == "snapshot"
    size = calculator_worker(page).evaluate("() => pyodide.runPython('len(bytearray(256 * 2**20))')")
    assert size == 256 * 2**20
