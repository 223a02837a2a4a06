"""Live calculators in headless Chromium: the same Python recomputes in the page, through Pyodide."""

from __future__ import annotations

import html
import re

import pytest

import calculators
from tests.support.browser import only_local
from tests.support.live import ARTICLE, CHANGES, PAGE, form_values, set_value, wait_for_output, widget
from widgets import strings, view
from widgets.locale import locale_of

pytestmark = [pytest.mark.browser, pytest.mark.kept_tab]

GARBAGE = ["abc", "-1", "1e999", "", "1.2.3", "<img src=x onerror=alert(1)>"]


def presets_view(name: str, lang: str, **changed: object) -> dict:
    """The view of the page's own `name` widget (its presets from the page's fence), with `changed` laid over."""
    return view(name, {**PAGE.presets(name, lang), **changed}, lang)


@pytest.fixture
def live(page, server):
    """Open an article, start the worker from a widget, and collect console errors."""
    errors: list[str] = []

    def console(message) -> None:
        if message.type == "error":
            errors.append(message.text)

    def page_error(error) -> None:
        errors.append(str(error))

    page.on("console", console)
    page.on("pageerror", page_error)

    def open_live(lang: str, path: str | None = None):
        page.goto(server.url + (path or ARTICLE[lang]))
        page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
        page.wait_for_function("document.querySelector('[data-calculator]').dataset.state === 'ready'",
                               timeout=60000)
        return page

    open_live.errors = errors
    yield open_live
    page.remove_listener("console", console)
    page.remove_listener("pageerror", page_error)


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_every_calculator_recomputes_in_the_page_language(live, lang: str) -> None:
    page = live(lang)
    for name, (field, values) in CHANGES.items():
        set_value(page, name, field, values[lang])
        expected = view(name, form_values(page, name), lang)
        assert expected["ok"], expected
        first_key = next(iter(expected["outputs"]))
        wait_for_output(page, name, "explanation", expected["explanation"])
        root = widget(page, name)
        for key, value in expected["outputs"].items():
            assert root.locator(f'[data-output="{key}"]').text_content() == value, (name, key)
        assert root.locator('[data-output="verdict"]').text_content() == expected["verdict_text"]
        assert root.locator('[data-output="verdict"]').get_attribute("data-verdict") == expected["verdict"]
        assert root.get_attribute("data-state") == "ready", first_key
    assert live.errors == []
    assert only_local(page.requested_urls) == []


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_recomputing_the_presets_leaves_the_html_unchanged(live, lang: str) -> None:
    page = live(lang)
    for name in CHANGES:
        root = widget(page, name)
        before = root.locator("[data-result]").inner_html()
        badge = root.locator('[data-html="badge"]').inner_html()
        field = root.locator("form [name]").first
        original = field.input_value()
        # a change, then back to the preset: the second live result must be the prerendered HTML
        set_value(page, name, CHANGES[name][0], CHANGES[name][1][lang])
        page.wait_for_function(
            """([name, html]) => document.querySelector(`[data-calculator="${name}"] [data-result]`)
                .innerHTML !== html""",
            arg=[name, before], timeout=10000)
        field.evaluate("(f) => f.form.reset()")
        field.dispatch_event("input")
        page.wait_for_function(
            """([name, html]) => document.querySelector(`[data-calculator="${name}"] [data-result]`)
                .innerHTML === html""",
            arg=[name, before], timeout=10000)
        assert root.locator("[data-result]").inner_html() == before
        assert root.locator('[data-html="badge"]').inner_html() == badge
        assert field.input_value() == original
    assert live.errors == []


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_garbage_in_every_field_gives_the_localized_message(live, lang: str) -> None:
    loc = locale_of(lang)
    page = live(lang)
    root = widget(page, "vram_fit")
    explanation = root.locator('[data-output="explanation"]').text_content()
    numeric = [n for n in root.locator("form input[name]").evaluate_all("(fs) => fs.map((f) => f.name)")]
    assert "gpus" in numeric and "weights_limit" in numeric
    for field in numeric:
        for garbage in GARBAGE:
            values = {**form_values(page, "vram_fit"), field: garbage}
            expected = view("vram_fit", values, lang)
            if expected["ok"]:  # e.g. a custom-model field while a catalogue model is chosen
                continue
            set_value(page, "vram_fit", field, garbage)
            slot = root.locator(f'[data-error-for="{field}"]')
            page.wait_for_function(
                """([field, text]) => document.querySelector(
                    `[data-calculator="vram_fit"] [data-error-for="${field}"]`).textContent === text""",
                arg=[field, expected["errors"][field]], timeout=10000)
            assert slot.is_visible()
            assert root.get_attribute("data-stale") == ""
            assert root.locator('[data-output="explanation"]').text_content() == explanation  # last good result
            assert page.locator("img").count() == 0
        root.locator(f'[name="{field}"]').evaluate("(f) => f.form.reset()")
        root.locator(f'[name="{field}"]').dispatch_event("input")
        root.locator(f'[data-error-for="{field}"]').wait_for(state="hidden", timeout=10000)
    # an integer field's example is a whole number (its default), never "1,5"
    default = next(f["default"] for f in calculators.CALCULATORS["vram_fit"]["inputs"] if f["name"] == "gpus")
    assert view("vram_fit", {"gpus": "abc"}, lang)["errors"]["gpus"] == loc.text(
        strings.ERRORS["not_a_number"], example=loc.numbers.decimal(default, 0))
    assert live.errors == []


def test_inputs_are_shared_through_the_url_fragment(live, page, server) -> None:
    page = live("da")
    set_value(page, "vram_fit", "gpus", "12")
    twelve = view("vram_fit", {**form_values(page, "vram_fit")}, "da")["outputs"]["vram_gb"]
    wait_for_output(page, "vram_fit", "vram_gb", twelve)
    page.wait_for_url(re.compile(r"#kw-vram-fit-1/.*gpus=12"))  # written once the reader pauses
    shared = page.url
    page.goto("about:blank")
    page.goto(shared)
    wait_for_output(page, "vram_fit", "vram_gb", twelve)
    assert widget(page, "vram_fit").locator('[name="gpus"]').input_value() == "12"


def test_a_hostile_fragment_never_injects_markup(live, page, server) -> None:
    page.goto(server.url + ARTICLE["da"] + "#kw-vram-fit-1/model=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E;"
              "gpus=%3Cscript%3Ealert(2)%3C%2Fscript%3E;evil=1")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    root = widget(page, "vram_fit")
    root.locator('[data-error-for="gpus"]').wait_for(state="visible", timeout=60000)
    assert root.locator('[name="model"]').input_value() == presets_view("vram_fit", "da")["neutral"]["model"]  # ignored
    assert page.locator("img, [data-calculator] script").count() == 0
    assert dialogs == []


@pytest.mark.kept_tab(False)  # a download is its subject: a new context, not a kept tab's warm cache
def test_a_blocked_runtime_leaves_the_prerendered_page_with_a_notice(page, server) -> None:
    page.route("**/*.wasm", lambda route: route.abort())
    page.goto(server.url + ARTICLE["fr"])
    root = widget(page, "vram_fit")
    static = root.locator('[data-output="vram_gb"]').text_content()
    root.locator('[name="gpus"]').focus()
    page.wait_for_function("document.querySelector('[data-calculator]').dataset.state === 'error'", timeout=60000)
    assert root.locator('[data-output="vram_gb"]').text_content() == static == \
        presets_view("vram_fit", "fr")["outputs"]["vram_gb"]
    status = root.locator("[data-status]")
    error = locale_of("fr").text(strings.UI["state_error"])
    assert status.text_content() == status.get_attribute("data-text-error") == error
    assert page.locator("h1").is_visible()


def test_a_wasm_served_with_another_type_still_runs(browser, site_dir) -> None:
    """Hosts with an old types table send .wasm as text/plain or octet-stream: the page compiles the bytes."""
    from harness.server import Handler, StaticServer

    class WrongType(Handler):
        extensions_map = {**Handler.extensions_map, ".wasm": "text/plain"}

    with StaticServer(site_dir, WrongType) as wrong:
        context = browser.new_context(bypass_csp=True)
        try:
            tab = context.new_page()
            tab.goto(wrong.url + ARTICLE["da"])
            tab.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
            tab.wait_for_function("document.querySelector('[data-calculator]').dataset.state !== 'loading'",
                                  timeout=60000)
            assert tab.locator('[data-calculator="vram_fit"]').get_attribute("data-state") == "ready"
            set_value(tab, "vram_fit", "gpus", "16")
            expected = view("vram_fit", form_values(tab, "vram_fit"), "da")
            wait_for_output(tab, "vram_fit", "explanation", expected["explanation"])
        finally:
            context.close()


def test_a_wasm_that_does_not_compile_is_an_error_state_not_a_hang(browser, server) -> None:
    context = browser.new_context(bypass_csp=True)
    try:
        tab = context.new_page()
        tab.route("**/pyodide.asm.wasm", lambda route: route.fulfill(
            status=200, body=b"not WebAssembly", content_type="application/wasm"))
        tab.goto(server.url + ARTICLE["da"])
        tab.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
        tab.wait_for_function("document.querySelector('[data-calculator]').dataset.state === 'error'",
                              timeout=30000)
        root = tab.locator('[data-calculator="vram_fit"]')
        assert root.locator('[data-output="vram_gb"]').text_content() == presets_view("vram_fit", "da")["outputs"][
            "vram_gb"]
        status = root.locator("[data-status]")
        error = locale_of("da").text(strings.UI["state_error"])
        assert status.text_content() == status.get_attribute("data-text-error") == error
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["da"])
def test_replicas_take_the_computed_node_rate_until_one_is_typed(live, lang: str) -> None:
    page = live(lang)
    root = widget(page, "replicas")
    computed = root.locator('[data-output="node_tokens_per_s"]').text_content()
    assert computed == presets_view("replicas", lang)["outputs"]["node_tokens_per_s"]  # prerendered: computed
    typed = view("replicas", {**form_values(page, "replicas"), "node_tokens_per_s": "1000"}, lang)["outputs"]
    assert typed["node_tokens_per_s"] != computed
    set_value(page, "replicas", "node_tokens_per_s", "1000")
    wait_for_output(page, "replicas", "node_tokens_per_s", typed["node_tokens_per_s"])
    assert root.locator('[data-output="replicas"]').text_content() == typed["replicas"]
    # 0 again: the rate is computed for the node the form now describes (a GPU count that gives another rate)
    rates = {gpus: view("replicas", {**form_values(page, "replicas"), "gpus": gpus, "node_tokens_per_s": "0"},
                        lang)["outputs"]["node_tokens_per_s"] for gpus in ("1", "2", "4", "16")}
    gpus = next(g for g, rate in rates.items() if rate != computed)
    set_value(page, "replicas", "gpus", gpus)
    set_value(page, "replicas", "node_tokens_per_s", "0")
    expected = view("replicas", form_values(page, "replicas"), lang)["outputs"]["node_tokens_per_s"]
    assert expected == rates[gpus] != computed
    wait_for_output(page, "replicas", "node_tokens_per_s", expected)


@pytest.mark.parametrize("lang", ["fr"])
def test_compare_table_follows_the_workload(live, lang: str) -> None:
    page = live(lang)
    root = widget(page, "compare")
    before = root.locator('[data-compare] [data-config="two_nodes"]').text_content()
    set_value(page, "compare", "model", "llama-3.1-8b")
    expected = view("compare", form_values(page, "compare"), lang)
    wait_for_output(page, "compare", "explanation", expected["explanation"])
    shown = root.locator('[data-html="figure"]').text_content()
    assert shown == html.unescape(re.sub(r"<[^>]+>", "", expected["html"]["figure"]))  # the table, live
    assert root.locator('[data-compare] [data-config="two_nodes"]').text_content() != before
