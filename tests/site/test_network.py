"""The live calculators on links that are slow, stall or break: a boot is given up only when it stops
moving, shows its progress, and a failed worker script is an error at once, not a spinner."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from harness.chromium import ARGS as CHROMIUM_ARGS
from harness.host import Host
from harness.link import Link
from tests.site.test_live import form_values, set_value, wait_for_output, widget
from harness.site import runtime_config
from widgets import view

pytestmark = pytest.mark.browser

READY_OR_ERROR = '[data-calculator="vram_fit"]:is([data-state="ready"], [data-state="error"])'


def start_live(page, url: str) -> None:
    page.goto(url)
    page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()


def test_a_boot_slower_than_the_old_20_s_limit_finishes_and_shows_its_progress(browser, site_dir: Path) -> None:
    """A plain boot's ~5 MB at 2 Mbit/s take ~22 s: the boot keeps moving, so it is not given up."""
    context = browser.new_context(service_workers="block", bypass_csp=True)
    page = context.new_page()
    try:
        with Host(site_dir) as host:
            host.link = Link(2, 40)
            started = time.monotonic()
            start_live(page, host.url + "scale-out/")
            seen = set()
            while page.locator(READY_OR_ERROR).count() == 0 and time.monotonic() - started < 120:
                value = widget(page, "vram_fit").get_attribute("data-progress")
                if value is not None:
                    seen.add(int(value))
                page.wait_for_timeout(250)
            took = time.monotonic() - started
            assert widget(page, "vram_fit").get_attribute("data-state") == "ready"
            assert page.locator("html").get_attribute("data-kw-boot") == "plain"  # a slow line: no snapshot now
            assert took > 20, f"the line was not slow enough to test anything ({took:.1f} s)"
            assert len(seen) >= 5 and max(seen) >= 50, sorted(seen)  # progress moved while it loaded
            assert widget(page, "vram_fit").get_attribute("data-progress") is None
            set_value(page, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(page, "vram_fit"), "da")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    finally:
        context.close()


def test_a_stalled_download_is_an_error_and_the_next_input_recovers(page, server, site_dir: Path) -> None:
    snapshot = server.url + runtime_config(site_dir)["snapshot"]
    held = []
    page.route(snapshot, lambda route: held.append(route) if not held else route.continue_())
    started = time.monotonic()
    start_live(page, server.url + "scale-out/")
    page.wait_for_selector(READY_OR_ERROR, timeout=40000)
    assert widget(page, "vram_fit").get_attribute("data-state") == "error"
    assert 14 < time.monotonic() - started < 30  # given up after the stall, not after a fixed clock
    assert len(held) == 1
    set_value(page, "vram_fit", "gpus", "16")  # the next input starts a new boot, which gets its snapshot
    expected = view("vram_fit", form_values(page, "vram_fit"), "da")
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    assert widget(page, "vram_fit").get_attribute("data-state") == "ready"


def test_a_worker_script_that_does_not_load_is_an_error_at_once(page, server) -> None:
    page.route("**/calculator-worker.js", lambda route: route.fulfill(status=404, body="not found"))
    started = time.monotonic()
    start_live(page, server.url + "scale-out/")
    page.wait_for_selector(READY_OR_ERROR, timeout=20000)
    assert widget(page, "vram_fit").get_attribute("data-state") == "error"
    assert time.monotonic() - started < 5
    status = widget(page, "vram_fit").locator("[data-status]")
    assert status.text_content() == status.get_attribute("data-text-error")


def test_a_slow_line_boots_plain_keeps_the_snapshot_and_the_next_visit_starts_from_it(
        browser, site_dir: Path, tmp_path: Path) -> None:
    # A profile on disk, as a reader's: an off-the-record context's memory cache is too small to keep 7 MB.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS,
        service_workers="block", bypass_csp=True)
    page = context.new_page()
    snapshot = "/" + runtime_config(site_dir)["snapshot"]
    try:
        with Host(site_dir) as host:
            host.link = Link(10, 40)
            start_live(page, host.url + "fr/scale-out/")
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert page.locator("html").get_attribute("data-kw-boot") == "plain"
            page.wait_for_selector('html[data-kw-runtime="kept"]', timeout=60000)  # fetched after the result
            # Asked for once, after the result: the line was judged on the .wasm, no snapshot byte was spent on it.
            assert host.counter.asked.count(snapshot) == 1
            assert host.counter.requests.count(snapshot) == 1
            host.counter.reset()
            start_live(page, host.url + "scale-out/")  # the next page: the snapshot from the HTTP cache
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert page.locator("html").get_attribute("data-kw-boot") == "snapshot"
            # Nothing of the runtime asked for again (the snapshot boot's empty standard library included).
            assert not [p for p in host.counter.asked if p.startswith("/pyodide/")], host.counter.asked
            set_value(page, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(page, "vram_fit"), "da")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    finally:
        context.close()


def test_a_call_that_needs_more_of_the_standard_library_than_the_trimmed_one_gets_it(
        page, server, site_dir: Path) -> None:
    """A plain boot carries only the modules our code imports (stdlib.zip); a call that needs another
    one makes the worker fetch the whole library and answer all the same."""
    from tests.site.test_faults import calculator_worker, open_live

    page.route(server.url + runtime_config(site_dir)["snapshot"], lambda route: route.fulfill(status=404))
    open_live(page, server.url + "scale-out/")
    assert page.locator("html").get_attribute("data-kw-boot") == "plain"
    assert not any(u.endswith("/python_stdlib.zip") for u in page.requested_urls)
    # A view that imports a module stdlib.zip does not have (as a future calculator might).
    calculator_worker(page).evaluate("""() => pyodide.runPython(`
import widgets.protocol as protocol
_view = protocol.view
def _needs_more(*args, **kwargs):
    import xml.dom.minidom
    return _view(*args, **kwargs)
protocol.view = _needs_more
`)""")
    set_value(page, "vram_fit", "gpus", "16")
    expected = view("vram_fit", form_values(page, "vram_fit"), "da")
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    assert widget(page, "vram_fit").get_attribute("data-state") == "ready"
    assert any(u.endswith("/python_stdlib.zip") for u in page.requested_urls)


def test_a_first_answer_slower_than_the_request_timeout_is_waited_for(page, server) -> None:
    """A worker's first answer may still import or fetch part of the standard library (seconds on a slow
    phone): it gets the boot's 15 s, not the 5 s of later answers, and the result is shown, not an error."""
    from tests.site.test_faults import calculator_worker, open_live

    open_live(page, server.url + "scale-out/")
    calculator_worker(page).evaluate("""() => pyodide.runPython(`
import time
import widgets.protocol as protocol
_view = protocol.view
def _slow_first(*args, **kwargs):
    protocol.view = _view
    time.sleep(7)
    return _view(*args, **kwargs)
protocol.view = _slow_first
`)""")
    started = time.monotonic()
    set_value(page, "vram_fit", "gpus", "16")
    expected = view("vram_fit", form_values(page, "vram_fit"), "da")
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    assert time.monotonic() - started > 6.5  # it did wait past the 5 s of a later answer
    assert widget(page, "vram_fit").get_attribute("data-state") == "ready"


def test_a_shared_link_starts_the_wasm_download_from_the_head_once_and_a_plain_visit_does_not(
        browser, site_dir: Path) -> None:
    """early.js: a link that sets a widget's values needs the live calculator at once, so the .wasm is
    asked for before the page's scripts run (while the stylesheets still load), once; the live result is
    the link's. An article opened without such a link asks for no runtime file before an interaction."""
    context = browser.new_context(service_workers="block", bypass_csp=True)
    page = context.new_page()
    wasm = "/" + runtime_config(site_dir)["wasm"]
    try:
        with Host(site_dir) as host:
            host.link = Link(10, 40)
            page.goto(host.url + "fr/scale-out/", wait_until="domcontentloaded")
            page.wait_for_timeout(1500)
            assert not [p for p in host.counter.asked if p.startswith("/pyodide/")]
            page.goto("about:blank")
            host.counter.reset()
            page.goto(host.url + "fr/scale-out/#kw-vram-fit-1/gpus=16")
            gpus = '[data-calculator="vram_fit"] [name="gpus"]'
            # The link's value, written into the field once Python has read it.
            page.wait_for_function(f"document.querySelector('{gpus}').value === '16'", timeout=60000)
            expected = view("vram_fit", form_values(page, "vram_fit"), "fr")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
            asked = host.counter.asked
            assert asked.count(wasm) == 1
            assert asked.index(wasm) < asked.index("/assets/javascripts/calculators.js"), asked
            assert page.locator("html").get_attribute("data-kw-boot") == "plain"  # 10 Mbit/s: judged slow
    finally:
        context.close()
