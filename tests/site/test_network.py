"""The live calculators on links that are slow, stall or break: a boot is given up only when it stops
moving, shows its progress, and a failed worker script is an error at once, not a spinner; the line is
judged on bytes that crossed it and remembered with its age; a page never waits for a snapshot it does
not have; a snapshot that stalls falls back to the plain boot, and one cut off is resumed, not restarted."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from harness.chromium import ARGS as CHROMIUM_ARGS
from harness.host import Fault, Host
from harness.link import Link
from harness.site import runtime_config
from tests.support.browser import LINE_KEY, remembered_line
from tests.support.live import (
    ARTICLE,
    CHANGES,
    calculator_worker,
    form_values,
    open_live,
    set_value,
    wait_for_output,
    widget,
)
from widgets import view

pytestmark = pytest.mark.browser

READY_OR_ERROR = '[data-calculator="vram_fit"]:is([data-state="ready"], [data-state="error"])'
LINE_MAX_AGE_S = 30 * 60
SNAPSHOT_IMAGE = "/assets/javascripts/snapshot-image.js"  # imported by a worker that makes a snapshot


def start_live(page, url: str) -> None:
    page.goto(url)
    page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()


def limits(context, **values: object) -> None:
    """Shorter limits for the page scripts (LIMITS of scripts/calculators/boot.js, offline.js), set before they run."""
    context.add_init_script(f"globalThis.kwLimits = {json.dumps(values)};")


def range_starts(host: Host, path: str) -> list[int]:
    """Where each range the host was asked for of `path` starts (`Range: bytes=N-`)."""
    return [int(asked.split("=")[1].split("-")[0]) for at, asked in host.counter.ranges if at == path]


def keeps_by_download(host: Host) -> None:
    """Make the pages keep the build's snapshot by downloading it, as where a worker cannot make one: the host
    lacks the module that writes a made snapshot (calculator-worker.js keepSnapshot)."""
    host.missing.add(SNAPSHOT_IMAGE)


def html_data(page, name: str) -> str | None:
    return page.locator("html").get_attribute(f"data-{name}")


def reader_context(browser, tmp_path: Path, service_workers: str = "block"):
    """A reader's profile on disk (an off-the-record context's memory cache is too small to keep 7 MB, and
    keeps no download that was cut off), service workers off unless asked: the HTTP cache alone."""
    return browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS,
        service_workers=service_workers, bypass_csp=True)


def test_a_boot_slower_than_its_stall_limit_finishes_and_shows_its_progress(browser, site_dir: Path) -> None:
    """A plain boot's ~5 MB at 4 Mbit/s take ~11 s, well over the page's stall limit (shortened to 6 s here;
    15 s on the site): the boot keeps moving, so it is not given up (a boot once had 20 s in all). The limit
    also covers Python's start after the last byte, which on this machine under the whole suite (four
    processes on two cores) once took over 4 s: 6 s leaves it room."""
    stall_s = 6
    context = browser.new_context(service_workers="block", bypass_csp=True)
    limits(context, stall=stall_s * 1000)
    page = context.new_page()
    try:
        with Host(site_dir) as host:
            host.link = Link(4, 40)
            started = time.monotonic()
            start_live(page, host.url + ARTICLE["da"])
            seen = set()
            while page.locator(READY_OR_ERROR).count() == 0 and time.monotonic() - started < 120:
                value = widget(page, "vram_fit").get_attribute("data-progress")
                if value is not None:
                    seen.add(int(value))
                page.wait_for_timeout(250)
            took = time.monotonic() - started
            state = widget(page, "vram_fit").get_attribute("data-state")
            assert state == "ready", (state, widget(page, "vram_fit").get_attribute("data-error"), took)
            assert page.locator("html").get_attribute("data-kw-boot") == "plain"  # a slow line: no snapshot now
            assert took > 1.5 * stall_s, f"the line was not slow enough to test anything ({took:.1f} s)"
            assert len(seen) >= 5 and max(seen) >= 50, sorted(seen)  # progress moved while it loaded
            assert widget(page, "vram_fit").get_attribute("data-progress") is None
            set_value(page, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(page, "vram_fit"), "da")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    finally:
        context.close()


def test_a_plain_boot_asks_for_the_standard_library_while_the_wasm_still_arrives(browser, site_dir: Path) -> None:
    """On a slow line the plain boot asks for its standard library during the .wasm's last part (boot.js
    WASM_TAIL), not a round trip after it, and for the rest of it and the wheels once both are in."""
    files = {key: "/" + path for key, path in runtime_config(site_dir).items()
             if key in ("wasm", "stdlib", "stdlib_later")}
    context = browser.new_context(service_workers="block", bypass_csp=True)
    context.add_init_script(remembered_line(fast=False))
    page = context.new_page()
    try:
        with Host(site_dir) as host:
            host.link = Link(10, 40)
            start_live(page, host.url + ARTICLE["da"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert html_data(page, "kw-boot") == "plain"
            events = host.counter.events
            assert events.index(("asked", files["stdlib"])) < events.index(("sent", files["wasm"])), events
            assert events.index(("sent", files["wasm"])) < events.index(("asked", files["stdlib_later"])), events
            set_value(page, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(page, "vram_fit"), "da")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    finally:
        context.close()


def test_a_stalled_snapshot_falls_back_to_the_plain_boot_and_is_resumed_by_a_range_request(
        browser, site_dir: Path, tmp_path: Path) -> None:
    """A line judged fast fetches the snapshot; the host stops sending it after 300 KB: the worker drops it
    after its stall limit and boots plain (not an error at the page's 15 s); keeping it afterwards asks the
    host for the rest only (the HTTP cache kept the 300 KB)."""
    context = reader_context(browser, tmp_path)
    limits(context, snapshotStall=1500)
    context.add_init_script(remembered_line(fast=True))
    page = context.new_page()
    snapshot = "/" + runtime_config(site_dir)["snapshot"]
    try:
        with Host(site_dir) as host:
            keeps_by_download(host)
            host.faults[snapshot] = Fault("stall", after=300_000, times=1)
            start_live(page, host.url + ARTICLE["da"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert widget(page, "vram_fit").get_attribute("data-state") == "ready"
            assert html_data(page, "kw-boot") == "plain"
            assert html_data(page, "kw-boot-reason") == "fallback"
            assert "stalled" in html_data(page, "kw-snapshot-error")
            set_value(page, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(page, "vram_fit"), "da")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
            page.wait_for_selector('html[data-kw-runtime="kept"]', state="attached", timeout=60000)
            resumed = range_starts(host, snapshot)
            assert resumed and min(resumed) >= 300_000, host.counter.ranges
            assert host.counter.asked.count(snapshot) == 1 + len(resumed)  # never asked whole again
    finally:
        context.close()


def test_the_line_is_judged_on_bytes_that_crossed_it_and_remembered_with_its_age(
        browser, site_dir: Path, tmp_path: Path) -> None:
    """At 10 Mbit/s the first page judges the line slow on Pyodide's JavaScript, which crossed it, and
    remembers that. The next pages read that JavaScript from the HTTP cache (the app's files are served
    `no-store` here, as a new build's would be missing): they use the remembered judgement while it is
    young, and judge nothing on cached bytes once it is too old; a remembered fast line gets the snapshot."""
    context = reader_context(browser, tmp_path)
    page = context.new_page()
    config = runtime_config(site_dir)
    snapshot = "/" + config["snapshot"]
    try:
        with Host(site_dir) as host:
            host.link = Link(10, 40)
            for path in (config["stdlib"], config["stdlib_later"], *config["wheels"]):
                host.headers["/" + path] = {"Cache-Control": "no-store"}
            host.missing.add(snapshot)  # nothing to keep: every page must judge or remember anew...
            keeps_by_download(host)  # ...nor to make
            started = time.time()
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=16")
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("plain", "measured")
            line = page.evaluate(f"JSON.parse(localStorage.getItem('{LINE_KEY}'))")
            assert line["fast"] is False and line["from"] == "javascript", line
            assert started * 1000 - 1000 <= line["at"] <= time.time() * 1000, line

            def next_page() -> tuple[str | None, str | None]:
                page.goto("about:blank")
                page.goto(host.url + ARTICLE["da"] + "#kw-vram-fit-1/gpus=16")
                page.wait_for_selector(READY_OR_ERROR, timeout=60000)
                assert widget(page, "vram_fit").get_attribute("data-state") == "ready"
                return html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")

            assert next_page() == ("plain", "remembered")
            # Made longer ago than the page keeps a judgement: Pyodide's JavaScript came from the cache now,
            # so the line is not judged on it (a cached download would pass for a fast line).
            page.evaluate(f"""() => {{ const line = JSON.parse(localStorage.getItem('{LINE_KEY}'));
                line.at -= {(LINE_MAX_AGE_S + 60) * 1000};
                localStorage.setItem('{LINE_KEY}', JSON.stringify(line)); }}""")
            assert next_page() == ("plain", "unknown")
            # A young judgement that says fast: the snapshot is fetched (here missing: the plain boot follows).
            page.evaluate(f"""() => localStorage.setItem('{LINE_KEY}', JSON.stringify({{fast: true, rate: 9999,
                from: "test", at: Date.now(), type: navigator.connection?.effectiveType ?? null}}))""")
            host.counter.reset()
            assert next_page() == ("plain", "fallback")
            assert "404" in html_data(page, "kw-snapshot-error")
    finally:
        context.close()


def test_a_snapshot_download_cut_off_by_the_next_page_is_resumed_there_not_restarted(
        browser, site_dir: Path, tmp_path: Path) -> None:
    """At 10 Mbit/s the first page boots plain and starts keeping the snapshot after its first answer; the
    reader moves on while it downloads. The next page boots plain from the cached files (it never waits for
    the snapshot) and, after its own first answer, asks the host for the rest of the snapshot only."""
    context = reader_context(browser, tmp_path)
    page = context.new_page()
    snapshot = "/" + runtime_config(site_dir)["snapshot"]
    try:
        with Host(site_dir) as host:
            keeps_by_download(host)
            host.link = Link(10, 40)
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=16")
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert html_data(page, "kw-boot") == "plain"
            for _ in range(200):  # until the keeping has asked for the snapshot
                if snapshot in host.counter.asked:
                    break
                page.wait_for_timeout(100)
            page.wait_for_timeout(1500)  # ~1.8 MB of 5.8 arrive
            assert html_data(page, "kw-runtime") is None  # still downloading
            host.counter.reset()
            page.goto(host.url + ARTICLE["da"] + "#kw-vram-fit-1/gpus=16")  # the next page: the worker above ends
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("plain", "cached")
            page.wait_for_selector('html[data-kw-runtime="kept"]', state="attached", timeout=60000)
            resumed = range_starts(host, snapshot)
            assert resumed and min(resumed) > 500_000, host.counter.ranges
            assert host.counter.asked.count(snapshot) == len(resumed), host.counter.asked  # no whole download
            page.goto(host.url + ARTICLE["fr"])
            start_live(page, host.url + ARTICLE["fr"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("snapshot", "held")
    finally:
        context.close()


def test_a_snapshot_another_page_is_still_keeping_is_not_held(browser, site_dir: Path, tmp_path: Path) -> None:
    """A page boots plain from the cached files while another page of the origin holds KEEP_LOCK (its worker
    downloads the snapshot to keep it): the HTTP cache's entry may be that unfinished download, and reading it
    would wait for its bytes over the reader's line (bench --network, a second tab: 4.4-9 s). Once no page
    keeps, the same page boots from the snapshot it holds."""
    context = reader_context(browser, tmp_path)
    page = context.new_page()
    try:
        with Host(site_dir) as host:
            keeps_by_download(host)
            host.link = Link(10, 40)
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=16")
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert html_data(page, "kw-boot") == "plain"
            page.wait_for_selector('html[data-kw-runtime="kept"]', state="attached", timeout=60000)
            other = context.new_page()  # another tab of the origin, keeping (calculator-worker.js KEEP_LOCK)
            other.goto(host.url + ARTICLE["da"])
            other.evaluate("""() => { navigator.locks.request("kw-keep", { mode: "shared" }, () => new Promise(
                (resolve) => { window.kwKeepingDone = resolve; })); }""")
            start_live(page, host.url + ARTICLE["fr"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("plain", "cached")
            other.evaluate("() => window.kwKeepingDone()")
            page.goto("about:blank")
            start_live(page, host.url + ARTICLE["fr"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("snapshot", "held")
    finally:
        context.close()


def test_a_download_slower_than_256_kb_per_stall_limit_shows_progress_by_time_not_a_stall(
        browser, site_dir: Path) -> None:
    """The worker reports a download's progress by time as well as by bytes: a snapshot that trickles in
    at 8 KB/s for 10 s (256 KB, the old step between reports, would take 32 s) keeps the boot alive under a
    5 s stall limit, and the boot is the snapshot's (it was slow, not stalled)."""
    context = browser.new_context(service_workers="block", bypass_csp=True)
    limits(context, stall=5000)
    context.add_init_script(remembered_line(fast=True))
    page = context.new_page()
    try:
        with Host(site_dir) as host:
            host.faults["/" + runtime_config(site_dir)["snapshot"]] = Fault("trickle", rate=8000, seconds=10)
            started = time.monotonic()
            start_live(page, host.url + ARTICLE["da"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert widget(page, "vram_fit").get_attribute("data-state") == "ready", \
                widget(page, "vram_fit").get_attribute("data-error")
            assert html_data(page, "kw-boot") == "snapshot"
            assert time.monotonic() - started > 10
    finally:
        context.close()


def test_a_worker_script_that_does_not_load_is_an_error_at_once(page, server) -> None:
    page.route("**/calculator-worker.js", lambda route: route.fulfill(status=404, body="not found"))
    started = time.monotonic()
    start_live(page, server.url + ARTICLE["da"])
    page.wait_for_selector(READY_OR_ERROR, timeout=20000)
    assert widget(page, "vram_fit").get_attribute("data-state") == "error"
    # The worker script's own failure ends the boot, not the page's stall limit (15 s, reason "stalled").
    assert widget(page, "vram_fit").get_attribute("data-error") == "script"
    assert time.monotonic() - started < 15
    status = widget(page, "vram_fit").locator("[data-status]")
    assert status.text_content() == status.get_attribute("data-text-error")


def test_a_slow_line_boots_plain_keeps_the_snapshot_and_the_next_visit_starts_from_it(
        browser, site_dir: Path, tmp_path: Path) -> None:
    """Where a worker cannot make a snapshot, a slow line's plain boot downloads the build's after its first
    answer, and the next visit starts from it."""
    # A profile on disk, as a reader's: an off-the-record context's memory cache is too small to keep 7 MB.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS,
        service_workers="block", bypass_csp=True)
    page = context.new_page()
    snapshot = "/" + runtime_config(site_dir)["snapshot"]
    try:
        with Host(site_dir) as host:
            keeps_by_download(host)
            host.link = Link(10, 40)
            start_live(page, host.url + ARTICLE["fr"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert page.locator("html").get_attribute("data-kw-boot") == "plain"
            page.wait_for_selector('html[data-kw-runtime="kept"]', timeout=60000)  # fetched after the result
            assert html_data(page, "kw-runtime-snapshot") == "downloaded"
            assert "snapshot-image.js" in html_data(page, "kw-made-error")  # why it could not make one
            # Asked for once, after the result: the line was judged on the .wasm, no snapshot byte was spent on it.
            assert host.counter.asked.count(snapshot) == 1
            assert host.counter.requests.count(snapshot) == 1
            host.counter.reset()
            start_live(page, host.url + ARTICLE["da"])  # the next page: the snapshot from the HTTP cache
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert page.locator("html").get_attribute("data-kw-boot") == "snapshot"
            # Nothing of the runtime asked for again (the snapshot boot's empty standard library included).
            assert not [p for p in host.counter.asked if p.startswith("/pyodide/")], host.counter.asked
            set_value(page, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(page, "vram_fit"), "da")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    finally:
        context.close()


def test_a_plain_boot_makes_a_snapshot_and_the_next_page_boots_from_it_without_downloading_one(
        browser, site_dir: Path, tmp_path: Path) -> None:
    """At 10 Mbit/s the first page boots plain; after its first answer its worker snapshots its own
    interpreter into Cache Storage (no byte over the line). The next page boots from that snapshot, asks
    the host for nothing of the runtime, and answers what the build's Python answers."""
    snapshot = "/" + runtime_config(site_dir)["snapshot"]
    context = reader_context(browser, tmp_path)
    page = context.new_page()
    try:
        with Host(site_dir) as host:
            host.link = Link(10, 40)
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=16")
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert html_data(page, "kw-boot") == "plain"
            answered = time.monotonic()
            page.wait_for_selector('html[data-kw-runtime="kept"]', state="attached", timeout=60000)
            print(f"made {time.monotonic() - answered:.2f} s after the first answer")
            assert html_data(page, "kw-runtime-snapshot") == "made", html_data(page, "kw-made-error")
            assert snapshot not in host.counter.asked
            host.counter.reset()
            start_live(page, host.url + ARTICLE["da"])
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("snapshot", "made")
            assert not [p for p in host.counter.asked if p.startswith("/pyodide/")], host.counter.asked
            # Every calculator answers from the interpreter the first page made as the build's Python does.
            for name, (field, values) in CHANGES.items():
                set_value(page, name, field, values["da"])
                expected = view(name, form_values(page, name), "da")
                wait_for_output(page, name, "explanation", expected["explanation"])
                root = widget(page, name)
                shown = {key: root.locator(f'[data-output="{key}"]').text_content() for key in expected["outputs"]}
                assert shown == expected["outputs"], name
                assert root.locator('[data-output="verdict"]').text_content() == expected["verdict_text"], name
            # A shared link's page: its head prepares the boot (early.js, Prepare) from the same snapshot.
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=12")
            page.wait_for_function("document.querySelector('[data-calculator=\"vram_fit\"] [name=\"gpus\"]')"
                                   ".value === '12'", timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("snapshot", "made")
            expected = view("vram_fit", form_values(page, "vram_fit"), "fr")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
            assert not [p for p in host.counter.asked if p.startswith("/pyodide/")], host.counter.asked
    finally:
        context.close()


def test_a_made_snapshot_that_does_not_restore_falls_back_and_the_build_s_snapshot_is_downloaded_instead(
        browser, site_dir: Path, tmp_path: Path) -> None:
    """A snapshot made here that does not restore (damaged on disk) sends its page to the plain boot, saying
    why; that page then keeps the build's snapshot by downloading it, not by making another that could fail
    the same way, and the page after it boots from the build's."""
    context = reader_context(browser, tmp_path)
    page = context.new_page()
    config = runtime_config(site_dir)
    made_key = config["lock"].replace("pyodide-lock.json", "made-snapshot")  # calculator-worker.js madeKey
    try:
        with Host(site_dir) as host:
            host.link = Link(10, 40)
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=16")
            page.wait_for_selector('html[data-kw-runtime="kept"]', state="attached", timeout=60000)
            assert html_data(page, "kw-runtime-snapshot") == "made"
            page.evaluate("""async (key) => { const cache = await caches.open("kw:/:made");
                const url = new URL(key, document.baseURI).href;
                if (!(await cache.match(url))) throw new Error(`no made snapshot at ${url}`);
                await cache.put(url, new Response("KWSPARSE but not a snapshot")); }""", "/" + made_key)
            page.goto(host.url + ARTICLE["da"] + "#kw-vram-fit-1/gpus=16")
            page.wait_for_selector('html[data-kw-runtime="kept"]', state="attached", timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("plain", "fallback")
            assert "snapshot" in html_data(page, "kw-snapshot-error")
            assert html_data(page, "kw-runtime-snapshot") == "downloaded"
            assert "did not restore" in html_data(page, "kw-made-error")
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=12")
            page.wait_for_selector(READY_OR_ERROR, timeout=60000)
            assert (html_data(page, "kw-boot"), html_data(page, "kw-boot-reason")) == ("snapshot", "held")
            expected = view("vram_fit", form_values(page, "vram_fit"), "fr")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    finally:
        context.close()


def test_a_call_that_needs_more_of_the_standard_library_than_the_trimmed_one_gets_it(
        page, server, site_dir: Path) -> None:
    """A plain boot carries only the modules our code imports (stdlib.zip); a call that needs another
    one makes the worker fetch the whole library and answer all the same."""
    page.route(server.url + runtime_config(site_dir)["snapshot"], lambda route: route.fulfill(status=404))
    open_live(page, server.url + ARTICLE["da"])
    assert page.locator("html").get_attribute("data-kw-boot") == "plain"
    assert not any(u.endswith("/python_stdlib.zip") for u in page.requested_urls)
    # A view that imports a module stdlib.zip does not have (as a future calculator might).
    calculator_worker(page).evaluate("""() => pyodide.runPython(`
import widgets.worker as worker
_view = worker.view
def _needs_more(*args, **kwargs):
    import xml.dom.minidom
    return _view(*args, **kwargs)
worker.view = _needs_more
`)""")
    set_value(page, "vram_fit", "gpus", "16")
    expected = view("vram_fit", form_values(page, "vram_fit"), "da")
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    assert widget(page, "vram_fit").get_attribute("data-state") == "ready"
    assert any(u.endswith("/python_stdlib.zip") for u in page.requested_urls)


def test_a_first_answer_slower_than_the_request_timeout_is_waited_for(page, server) -> None:
    """A worker's first answer may still import or fetch part of the standard library (seconds on a slow
    phone): it gets the boot's 15 s, not the 5 s of later answers, and the result is shown, not an error."""
    open_live(page, server.url + ARTICLE["da"])
    calculator_worker(page).evaluate("""() => pyodide.runPython(`
import time
import widgets.worker as worker
_view = worker.view
def _slow_first(*args, **kwargs):
    worker.view = _view
    time.sleep(7)
    return _view(*args, **kwargs)
worker.view = _slow_first
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
    asked for before the page's scripts run, once; the live result is the link's. An article opened without
    such a link asks for no runtime file before an interaction."""
    context = browser.new_context(service_workers="block", bypass_csp=True)
    # Who asks for what: each fetch's URL and the script that called it (its stack).
    context.add_init_script("""{ const original = fetch; window.kwAsked = [];
      window.fetch = function (input, init) {
        window.kwAsked.push([String(input instanceof Request ? input.url : input), new Error().stack]);
        return original.call(this, input, init);
      }; }""")
    page = context.new_page()
    wasm = "/" + runtime_config(site_dir)["wasm"]
    try:
        with Host(site_dir) as host:
            host.link = Link(10, 40)
            page.goto(host.url + ARTICLE["fr"], wait_until="domcontentloaded")
            page.wait_for_timeout(1500)
            assert not [p for p in host.counter.asked if p.startswith("/pyodide/")]
            page.goto("about:blank")
            host.counter.reset()
            issued = []  # what the browser asked for, in its order: for the failure message
            context.on("request", lambda request: issued.append(urlsplit(request.url).path))
            page.goto(host.url + ARTICLE["fr"] + "#kw-vram-fit-1/gpus=16")
            gpus = '[data-calculator="vram_fit"] [name="gpus"]'
            # The link's value, written into the field once Python has read it.
            page.wait_for_function(f"document.querySelector('{gpus}').value === '16'", timeout=60000)
            expected = view("vram_fit", form_values(page, "vram_fit"), "fr")
            wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
            asked = host.counter.asked
            assert asked.count(wasm) == 1
            # Asked for by early.js, whose download (and compilation) the page script took over.
            callers = page.evaluate("(url) => kwAsked.filter(([asked]) => asked === url).map(([, stack]) => stack)",
                                    host.url + wasm[1:])
            assert len(callers) == 1 and "/assets/javascripts/early.js" in callers[0], (callers, issued)
            assert page.locator("html").get_attribute("data-kw-boot") == "plain"  # 10 Mbit/s: judged slow
    finally:
        context.close()
