"""Links and fields read numbers one way, no field state is a dead end, and links say what they could not
apply (issue 33): in headless Chromium, in both languages, against what Python computes (`widgets.view`).

One page per scenario group; every wait is for a DOM state or a URL, never a fixed time.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from tests.support.live import form_values, set_value, wait_for_output, widget
from widgets import numbers, strings, view
from widgets.locale import locale_of

pytestmark = [pytest.mark.browser, pytest.mark.kept_tab]

ARTICLE = {"da": "scale-out/", "fr": "fr/scale-out/"}
LANGS = ["da", "fr"]
NEUTRAL = numbers.NEUTRAL


def other(lang: str) -> str:
    return "fr" if lang == "da" else "da"


def defaults(page, name: str) -> dict[str, str]:
    """The form's own values (the page's presets as its language writes them), before any link."""
    return json.loads(widget(page, name).get_attribute("data-defaults"))


def wait_for_error(page, name: str, field: str, message: str) -> None:
    page.wait_for_function("""([name, field, message]) => document.querySelector(
        `[data-calculator="${name}"] [data-error-for="${field}"]`).textContent === message""",
                           arg=[name, field, message], timeout=60000)


def wait_for_value(page, name: str, field: str, value: str) -> None:
    page.wait_for_function("""([name, field, value]) => document.querySelector(
        `[data-calculator="${name}"] [name="${field}"]`).value === value""", arg=[name, field, value], timeout=60000)


def open_link(page, server, lang: str, fragment: str) -> None:
    page.goto(server.url + ARTICLE[lang] + fragment)


@pytest.mark.parametrize("lang", LANGS)
def test_a_new_link_wins_over_the_page_writing_its_own_state(page, server, lang: str) -> None:
    """The page writes its state into the address 300 ms after an answer (history.replaceState, no event). A
    link opened just before that write is still the one applied: the hashchange handler reads the event's
    URL, not location.hash (a CI run once saw the old state re-applied and the new link lost)."""
    open_link(page, server, lang, "#kw-vram-fit-1/gpus=12")
    wait_for_value(page, "vram_fit", "gpus", "12")
    # The race, made certain: the new link, then our own state written before its event is dispatched.
    page.evaluate("""() => { location.hash = '#kw-vram-fit-1/context=32.768';
        history.replaceState(history.state, '', '#kw-vram-fit-1/gpus=12'); }""")
    wait_for_error(page, "vram_fit", "context", locale_of(lang).text(strings.ERRORS["not_an_integer"]))


@pytest.mark.parametrize("lang", LANGS)
def test_a_links_values_read_as_typed_and_what_it_cannot_take_is_said(page, server, lang: str) -> None:
    """`weights_limit=65` is 65 % (not "at most 100 %"); a model gone from the catalogue and a field the
    widget lacks are said on the widget while the link's other values apply; `context=32.768` is a
    decimal (links are neutral), shown the page's way next to the typed message; a raw `=` stays in."""
    loc = locale_of(lang)
    gone = {"weights_limit": "65", "model": "llama-0-gone", "nonsense": "1", "gpus": "12"}
    open_link(page, server, lang, "#kw-vram-fit-1/" + ";".join(f"{k}={v}" for k, v in gone.items()))
    root = widget(page, "vram_fit")
    expected = view("vram_fit", defaults(page, "vram_fit"), lang, {"form": NEUTRAL, "values": gone})
    assert expected["ok"] and len(expected["notices"]) == 2
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    notice = root.locator("[data-link-notice]")
    assert notice.is_visible() and notice.text_content() == " ".join(expected["notices"])
    assert loc.text(strings.UI["link_field_unknown"]) in notice.text_content()
    assert form_values(page, "vram_fit")["weights_limit"] == expected["inputs"]["weights_limit"]
    assert form_values(page, "vram_fit")["gpus"] == "12"
    assert form_values(page, "vram_fit")["model"] == defaults(page, "vram_fit")["model"]
    assert "weights_limit" not in expected["errors"]

    # A link's dot is a decimal point: refused in a whole-number field, shown as this page writes it.
    page.evaluate("location.hash = '#kw-vram-fit-1/context=32.768'")
    message = loc.text(strings.ERRORS["not_an_integer"])
    wait_for_error(page, "vram_fit", "context", message)
    assert form_values(page, "vram_fit")["context"] == loc.numbers.write(Decimal("32.768"))
    assert not notice.is_visible()  # the new link applied everything it named

    # A raw "=" inside a value does not cut it short ("12=3" is no number, not 12).
    page.evaluate("location.hash = '#kw-vram-fit-1/gpus=12=3'")
    fail = view("vram_fit", {**defaults(page, "vram_fit"), "gpus": "12=3"}, lang)
    wait_for_error(page, "vram_fit", "gpus", fail["errors"]["gpus"])
    assert form_values(page, "vram_fit")["gpus"] == "12=3"

    # The reader edits the field and the widget recovers.
    set_value(page, "vram_fit", "gpus", "4")
    good = view("vram_fit", form_values(page, "vram_fit"), lang)
    wait_for_output(page, "vram_fit", "explanation", good["explanation"])
    page.wait_for_url(re.compile(r"kw-vram-fit-1/.*gpus=4"))
    # What the page writes is neutral, percent-encoded, and reads back whole.
    assert "weights_limit" not in page.url and "%" not in page.url.split("#")[1]


@pytest.mark.parametrize("lang", LANGS)
def test_typed_numbers_are_refused_not_guessed(page, server, lang: str) -> None:
    """`1.500` where the dot is not the page's group separator, `63,9999999999999999` in a whole-number
    field, and 10^400 each get their own message (the catalog's, through `widgets.view`)."""
    loc = locale_of(lang)
    open_link(page, server, lang, "")
    root = widget(page, "replicas")
    root.locator('[name="target_tokens_per_s"]').focus()
    page.wait_for_function("document.querySelector('[data-calculator]').dataset.state === 'ready'", timeout=60000)
    group, decimal = (loc.numbers.symbols[k] for k in ("group", "decimal"))
    cases = [("replicas", "target_tokens_per_s", "1.500"), ("replicas", "gpus", f"7{decimal}9999999999999999"),
             ("replicas", "concurrency", "1" + "0" * 400)]
    for name, field, typed in cases:
        set_value(page, name, field, typed)
        expected = view(name, form_values(page, name), lang)
        if expected["ok"]:  # Danish: 1.500 is 1 500 tokens/s, the Danish way
            assert "." == group
            wait_for_output(page, name, "explanation", expected["explanation"])
        else:
            wait_for_error(page, name, field, expected["errors"][field])
        set_value(page, name, field, defaults(page, name)[field])
    target = view("replicas", {"target_tokens_per_s": "1.500"}, lang)
    if "." not in (group, decimal):
        assert target["errors"]["target_tokens_per_s"] == loc.text(
            strings.ERRORS["ambiguous_number"], grouped=loc.numbers.write(Decimal(1500)),
            decimal=loc.numbers.write(Decimal("1.5")))
    assert view("replicas", {"gpus": f"7{decimal}9999999999999999"}, lang)["errors"]["gpus"] == loc.text(
        strings.ERRORS["not_an_integer"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_custom_models_fields_are_never_a_dead_end(page, server, lang: str) -> None:
    """Custom model, `abc` in its parameters, another model, custom again: the field is editable and
    fixing it gives a result. The link `model=custom;params_b=abc` opens in that editable state."""
    open_link(page, server, lang, "#kw-vram-fit-1/model=custom;params_b=abc")
    root = widget(page, "vram_fit")
    params = root.locator('[name="params_b"]')
    fail = view("vram_fit", {**defaults(page, "vram_fit"), "model": "custom", "params_b": "abc"}, lang)
    wait_for_error(page, "vram_fit", "params_b", fail["errors"]["params_b"])
    assert params.is_enabled() and params.is_visible() and params.input_value() == "abc"

    set_value(page, "vram_fit", "model", "llama-3.1-8b")
    expected = view("vram_fit", form_values(page, "vram_fit"), lang)
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    assert params.is_disabled()
    set_value(page, "vram_fit", "model", "custom")
    wait_for_error(page, "vram_fit", "params_b", fail["errors"]["params_b"])
    page.wait_for_function("""() => !document.querySelector('[data-calculator="vram_fit"] [name="params_b"]')
        .disabled""")
    params.fill(numbers.of(lang).input_text(8))
    expected = view("vram_fit", form_values(page, "vram_fit"), lang)
    assert expected["ok"]
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    assert root.locator('[data-error-for="params_b"]').is_hidden()


@pytest.mark.parametrize("lang", LANGS)
def test_a_link_to_no_widget_downloads_nothing_and_one_to_a_widget_starts_at_once(page, server,
                                                                                    lang: str) -> None:
    runtime = "/pyodide/"
    page.goto(server.url + ARTICLE[lang] + "#kw-no-such-widget-1/gpus=12", wait_until="load")
    page.wait_for_function("document.readyState === 'complete'")
    assert not [u for u in page.requested_urls if runtime in u], page.requested_urls
    assert page.evaluate("document.documentElement.dataset.kwBoot") is None
    assert widget(page, "vram_fit").get_attribute("data-state") == "static"
    # the same page with a link to one of its widgets asks for the .wasm from <head>
    page.goto("about:blank")
    page.goto(server.url + ARTICLE[lang] + "#kw-vram-fit-1/gpus=12", wait_until="load")
    assert [u for u in page.requested_urls if u.endswith(".wasm")]
    wait_for_value(page, "vram_fit", "gpus", "12")


@pytest.mark.parametrize("lang", LANGS)
def test_the_language_switcher_carries_an_edit_made_a_moment_before(page, server, lang: str) -> None:
    """An edit and a click on the switcher in the same moment (Python has not answered yet), then an
    edit whose answer is in but whose link was not written yet (< 300 ms): both reach the other page."""
    loc = locale_of(lang)
    page.goto(server.url + ARTICLE[lang])
    widget(page, "vram_fit").locator('[name="gpus"]').focus()
    page.wait_for_function("document.querySelector('[data-calculator]').dataset.state === 'ready'", timeout=60000)
    switch = """([value, lang]) => {
        const field = document.querySelector('[data-calculator="vram_fit"] [name="context"]');
        field.value = value;
        field.dispatchEvent(new Event('input', { bubbles: true }));
        document.querySelector(`a.md-select__link[hreflang="${lang}"]`).click();
    }"""
    page.evaluate(switch, [loc.numbers.input_text(8192), other(lang)])
    page.wait_for_url(re.compile(re.escape(server.url + ARTICLE[other(lang)]) + r"#kw-vram-fit-1"))
    wait_for_value(page, "vram_fit", "context", numbers.of(other(lang)).input_text(8192))

    # On the other page: the answer is in, the link not written yet (300 ms after), the switcher clicked.
    set_value(page, "vram_fit", "context", numbers.of(other(lang)).input_text(16384))
    expected = view("vram_fit", form_values(page, "vram_fit"), other(lang))
    wait_for_output(page, "vram_fit", "explanation", expected["explanation"])
    page.evaluate("(lang) => document.querySelector(`a.md-select__link[hreflang='${lang}']`).click()", lang)
    page.wait_for_url(re.compile(re.escape(server.url + ARTICLE[lang]) + r"#kw-vram-fit-1/.*context=16384"))
    wait_for_value(page, "vram_fit", "context", loc.numbers.input_text(16384))


@pytest.mark.parametrize("lang", LANGS)
def test_copy_link_on_an_unchanged_widget_opens_at_that_widget(page, server, lang: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url.rstrip("/"))
    page.goto(server.url + ARTICLE[lang])
    widget(page, "scaling").locator('[name="nodes"]').focus()
    page.wait_for_function("document.querySelector('[data-calculator]').dataset.state === 'ready'", timeout=60000)
    set_value(page, "scaling", "nodes", "4")
    page.wait_for_url(re.compile(r"#kw-scaling-1/nodes=4"))
    root = widget(page, "vram_fit")
    root.locator("[data-copy-link]").click()
    page.wait_for_function("""(t) => document.querySelector('[data-calculator="vram_fit"] [data-copy-status]')
        .textContent === t""", arg=locale_of(lang).text(strings.UI["link_copied"]))
    link = page.evaluate("navigator.clipboard.readText()")
    fragment = link.split("#", 1)[1]
    assert fragment.split("&")[0] == "kw-vram-fit-1/" and "kw-scaling-1/nodes=4" in fragment, link
    page.goto("about:blank")
    page.goto(link)
    wait_for_value(page, "scaling", "nodes", "4")
    title = widget(page, "vram_fit").locator(".kw-calc__title").bounding_box()
    header = page.locator(".md-header").bounding_box()
    assert header["y"] + header["height"] - 1 <= title["y"] < header["y"] + header["height"] + 100  # opens there
