"""The calculators as a customer meets them, on a 390 px phone and a 1280 px desktop, in both languages
and both themes (issue #16): what they show, how they take input, and how links keep the reader's work.

Every test saves a screenshot under `test-artifacts/phone/` (gitignored) for a reviewer; the path is
printed. The page-wide checks run on all eight combinations; each behaviour runs on two that together
cover each width in both languages and both themes; axe audits the states they create.
"""

from __future__ import annotations

import json
import re

import pytest

import calculators
from tests.support.browser import AXE, TAGS, report
from tests.support.content import urls
from tests.support.live import FIRST, WIDTHS, form_values, set_value, shot, wait_for_text, widget
from widgets import strings, view
from widgets.locale import locale_of
from widgets.view import PRESETS

pytestmark = pytest.mark.browser

PAGE = FIRST  # the nav's first page with both widgets these tests drive
ARTICLE = urls(PAGE)
ALL = [(w, lang, scheme) for w in WIDTHS for lang in ("da", "fr") for scheme in ("light", "dark")]
# A behaviour runs on two combinations that together cover each width, each language and each theme.
TWO = [("phone", "da", "light"), ("desktop", "fr", "dark")]


def audit(page) -> list[dict]:
    """axe's violations at this width and in this state (the page's heading outline is test_axe's)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"],
               "rules": {"heading-order": {"enabled": False}}}
    return page.evaluate("(options) => axe.run(document, options).then((r) => r.violations)", options)


# --- the whole page, in every combination ------------------------------------------------------------------

CONTRAST = """(svg) => {
  // WCAG relative luminance of an rgb()/rgba() colour composited on the page's background.
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const bg = parse(getComputedStyle(document.body).backgroundColor);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  return [...svg.querySelectorAll("text")].map((t) => {
    const [r, g, b, a = 1] = parse(getComputedStyle(t).fill);
    const fg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
    const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return [t.textContent, (hi + 0.05) / (lo + 0.05)];
  });
}"""

OVERLAPS = """(svg) => {
  const boxes = [...svg.querySelectorAll("text")].map((t) => [t.textContent, t.getBoundingClientRect()]);
  const hits = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    if (p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5 && q.top < p.bottom - 0.5)
      hits.push([a, b]);
  }
  return hits;
}"""


@pytest.mark.parametrize(("width", "lang", "scheme"), ALL)
def test_every_verdict_and_chart_fits_the_width_reads_and_does_not_collide(open_page, width, lang, scheme) -> None:
    page = open_page(width, lang, scheme)
    viewport = WIDTHS[width]["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport
    for root in page.locator("[data-calculator]").all():
        root.scroll_into_view_if_needed()
        badge = root.locator('[data-output="verdict"]')
        assert badge.is_visible()
        box = badge.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport
        for svg in root.locator("svg.kw-svg").all():
            box = svg.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport, box
            figure = svg.locator("xpath=..")
            assert figure.evaluate("(f) => f.scrollWidth <= f.clientWidth")  # no sideways scroll
            low = [(label, round(ratio, 2)) for label, ratio in svg.evaluate(CONTRAST) if ratio < 4.5]
            assert low == [], low
            assert svg.evaluate(OVERLAPS) == []
            # drawn for the width it gets: the column's width, up to the picture's largest size
            assert svg.evaluate("""(s) => s.getBoundingClientRect().width >= 0.98 * Math.min(
                s.parentElement.clientWidth, parseFloat(getComputedStyle(s).maxWidth) || 1e9)""")
    # touch targets: every field, select and button of a widget is at least 44 px tall
    heights = page.evaluate("""() => [...document.querySelectorAll(
        '[data-calculator] input, [data-calculator] select, [data-calculator] button, [data-calculator] summary')]
        .filter((e) => e.offsetParent).map((e) => [e.name || e.textContent, e.getBoundingClientRect().height])""")
    assert heights and [h for h in heights if h[1] < 44] == []
    # the GPU table stays in its column on a desktop (on a phone it scrolls inside its own box)
    if width == "desktop":
        assert page.locator('[data-table="single_node_build"] table').evaluate("""(t) => {
            const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
            return box.scrollWidth <= box.clientWidth && t.getBoundingClientRect().right
                <= t.closest('.md-content').getBoundingClientRect().right; }""")
    shot(page, f"page-{width}-{lang}-{scheme}")
    shot(page, f"vram-fit-{width}-{lang}-{scheme}", widget(page, "vram_fit"))
    shot(page, f"scaling-{width}-{lang}-{scheme}", widget(page, "scaling"))


# --- the verdict and the result's states ---------------------------------------------------------------------


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_the_verdict_badge_says_pass_or_fail_without_colour_and_names_the_load(open_page, width, lang, scheme) -> None:
    page = open_page(width, lang, scheme, live=True)
    root = widget(page, "vram_fit")
    failing = root.locator('[data-output="verdict"]')
    assert failing.get_attribute("data-tone") == "bad"
    cross = failing.locator("svg path").get_attribute("d")
    red = failing.evaluate("(e) => getComputedStyle(e).color")
    subject = root.locator('[data-output="subject"]').text_content()
    presets = view("vram_fit", PAGE.presets("vram_fit", lang), lang)
    assert subject == re.search(r'data-output="subject">([^<]*)<', presets["html"]["badge"])[1]
    load = int(json.loads(root.get_attribute("data-presets"))["concurrency"])
    requests = locale_of(lang).plural_text(strings.COUNTED["requests"], load, value=presets["inputs"]["concurrency"])
    gpu = calculators.GPUS[json.loads(root.get_attribute("data-presets"))["gpu"]]["name"]
    assert requests in subject and gpu in subject  # the load and the node it is judged on
    set_value(page, "vram_fit", "model", "llama-3.1-8b")
    page.wait_for_function("""() => document.querySelector('[data-calculator="vram_fit"] [data-output="verdict"]')
        .dataset.tone === 'ok'""")
    passing = root.locator('[data-output="verdict"]')
    assert passing.locator("svg path").get_attribute("d") != cross  # another shape, not only another colour
    assert passing.evaluate("(e) => getComputedStyle(e).color") != red
    assert view("vram_fit", form_values(page, "vram_fit"), lang)["verdict_text"] in passing.text_content()
    shot(page, f"badge-{width}-{lang}-{scheme}", root.locator("[data-bar]"))


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_tight_reads_as_its_own_verdict(lang: str) -> None:
    """A tight fit says the catalog's "tight" sentence, not the one for a fit with room or for no fit."""
    loc = locale_of(lang)
    tight = view("vram_fit", {"model": "llama-3.1-70b", "precision": "bf16", "concurrency": 1,
                              "context": 4096, "weights_limit": 0.15}, lang)
    assert tight["verdict"] == "tight", tight
    others = {loc.text(strings.VERDICTS[v]) for v in ("fits", "does_not_fit")}
    assert tight["verdict_text"] == loc.text(strings.VERDICTS["tight"]) and tight["verdict_text"] not in others


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_on_a_phone_the_verdict_stays_in_view_while_typing(open_page, width, lang, scheme) -> None:
    page = open_page(width, lang, scheme, live=True)
    root = widget(page, "vram_fit")
    last = root.locator('[name="attention"]')
    last.scroll_into_view_if_needed()
    last.focus()
    bar = root.locator("[data-bar]").bounding_box()
    header = page.locator(".md-header").bounding_box()
    assert header["y"] + header["height"] - 1 <= bar["y"] and bar["y"] + bar["height"] <= WIDTHS[width]["height"]
    field = last.bounding_box()
    assert field["y"] >= bar["y"] + bar["height"] - 1  # the field is not under the verdict
    shot(page, f"sticky-{width}-{lang}-{scheme}")


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_an_invalid_field_shows_no_verdict_and_no_values(open_page, width, lang, scheme) -> None:
    page = open_page(width, lang, scheme, live=True)
    root = widget(page, "vram_fit")
    typed = {"da": "32,768", "fr": "32.768,5"}[lang]  # an English habit: a decimal, not 32768
    set_value(page, "vram_fit", "context", typed)
    expected = view("vram_fit", form_values(page, "vram_fit"), lang)
    assert not expected["ok"] and "context" in expected["errors"]
    wait_for_text(page, "vram_fit", "[data-alert-text]", expected["summary"])
    assert root.get_attribute("data-invalid") == ""
    assert not root.locator('[data-output="verdict"]').is_visible()
    assert not root.locator('[data-output="max_concurrency"]').is_visible()
    assert root.locator("[data-alert]").is_visible()
    assert root.locator('[data-error-for="context"]').text_content() == expected["errors"]["context"]
    assert report(f"invalid {width} {lang} {scheme}", audit(page)) == []
    shot(page, f"invalid-{width}-{lang}-{scheme}", root)
    # a long grouped number is the field's own error, not "the calculation failed"
    set_value(page, "vram_fit", "context", {"da": "1.000.000.000.000.000.000.000.000.000",
                                            "fr": "1 000 000 000 000 000 000 000 000 000"}[lang])
    expected = view("vram_fit", form_values(page, "vram_fit"), lang)
    assert "" not in expected["errors"]
    wait_for_text(page, "vram_fit", '[data-error-for="context"]', expected["errors"]["context"])
    set_value(page, "vram_fit", "context", "8k")
    expected = view("vram_fit", form_values(page, "vram_fit"), lang)
    assert expected["ok"] and expected["inputs"]["context"] == {"da": "8.192", "fr": "8\u202f192"}[lang]
    wait_for_text(page, "vram_fit", '[data-output="explanation"]', expected["explanation"])
    assert root.get_attribute("data-invalid") is None and root.locator('[data-output="verdict"]').is_visible()
    assert page.kw_errors == []


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_while_loading_the_result_says_so_with_its_progress(open_page, server, width, lang, scheme) -> None:
    held: list[object] = []
    # held until released; routed before the page opens, so the page gets a context of its own (a kept tab's
    # warm cache is no place to test a download)
    page = open_page(width, lang, scheme, before=lambda p: p.route("**/*.wasm", lambda route: held.append(route)))
    root = widget(page, "vram_fit")
    set_value(page, "vram_fit", "gpus", "16")
    loading = root.locator("[data-status]").get_attribute("data-text-loading")
    wait_for_text(page, "vram_fit", "[data-alert-text]", loading)
    assert root.get_attribute("data-stale") == "" and root.get_attribute("data-state") == "loading"
    page.wait_for_function("""() => document.querySelector('[data-calculator="vram_fit"]').dataset.progress
        !== undefined""", timeout=30000)
    assert root.locator("[data-alert] progress").is_visible()
    assert report(f"loading {width} {lang} {scheme}", audit(page)) == []
    shot(page, f"loading-{width}-{lang}-{scheme}", root.locator("[data-bar]"))
    for route in held:
        route.continue_()
    page.unroute("**/*.wasm")
    expected = view("vram_fit", form_values(page, "vram_fit"), lang)
    wait_for_text(page, "vram_fit", '[data-output="vram_gb"]', expected["outputs"]["vram_gb"])
    assert root.get_attribute("data-stale") is None and not root.locator("[data-alert]").is_visible()


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_a_link_that_cannot_be_applied_never_disagrees_with_the_result(open_page, width, lang, scheme) -> None:
    page = open_page(width, lang, scheme, fragment="#kw-vram-fit-1/gpus=16",
                     before=lambda p: p.route("**/*.wasm", lambda route: route.abort()))
    root = widget(page, "vram_fit")
    page.wait_for_function("document.querySelector('[data-calculator]').dataset.state === 'error'", timeout=60000)
    # the page's value, as the result shows
    assert root.locator('[name="gpus"]').input_value() == view("vram_fit", PAGE.presets("vram_fit", lang),
                                                               lang)["inputs"]["gpus"]
    assert root.locator('[data-output="vram_gb"]').text_content() == view("vram_fit", form_values(
        page, "vram_fit"), lang)["outputs"]["vram_gb"]
    status = root.locator("[data-status]")
    assert root.locator("[data-alert-text]").text_content() == status.get_attribute("data-text-link")
    shot(page, f"link-not-applied-{width}-{lang}-{scheme}", root.locator("[data-bar]"))


# --- inputs that take what people type -----------------------------------------------------------------------


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_fields_take_what_people_type(open_page, width, lang, scheme) -> None:
    page = open_page(width, lang, scheme, live=True)
    root = widget(page, "vram_fit")
    results = set()
    for typed in ("70 %", "70", "0,7", "70%"):
        set_value(page, "vram_fit", "weights_limit", "60")
        wait_for_text(page, "vram_fit", '[data-output="explanation"]',
                      view("vram_fit", form_values(page, "vram_fit"), lang)["explanation"])
        set_value(page, "vram_fit", "weights_limit", typed)
        expected = view("vram_fit", form_values(page, "vram_fit"), lang)
        assert expected["ok"], (typed, expected)
        wait_for_text(page, "vram_fit", '[data-output="explanation"]', expected["explanation"])
        results.add(expected["explanation"])
        assert root.get_attribute("data-invalid") is None
    assert len(results) == 1
    # presets for the context, and help texts that say what the fields take
    options = root.locator("#kw-vram-fit-1-context-presets option")
    assert options.count() == len(PRESETS["tokens"])
    assert options.last.get_attribute("label") == f"{PRESETS['tokens'][-1] // 1024}k"
    for field in ("context", "weights_limit"):
        assert root.locator(f"#kw-vram-fit-1-{field}-help").text_content() == locale_of(lang).text(strings.HELP[field])
    # an integer field suggests a whole number
    set_value(page, "vram_fit", "gpus", "abc")
    wait_for_text(page, "vram_fit", '[data-error-for="gpus"]', view("vram_fit", form_values(page, "vram_fit"),
                                                                    lang)["errors"]["gpus"])
    assert not re.search(r"\d[,.]\d", root.locator('[data-error-for="gpus"]').text_content())  # no decimal example
    set_value(page, "vram_fit", "gpus", "8")
    # custom-model fields: disabled unless the model is custom
    assert root.locator('[name="params_b"]').is_disabled()
    set_value(page, "vram_fit", "model", "custom")
    page.wait_for_function("""() => !document.querySelector('[data-calculator="vram_fit"] [name="params_b"]')
        .disabled""")
    set_value(page, "vram_fit", "model", "llama-3.1-8b")
    page.wait_for_function("""() => document.querySelector('[data-calculator="vram_fit"] [name="params_b"]')
        .disabled""")
    # the fabric: unused on one node; only links between nodes for two
    scaling = widget(page, "scaling")
    set_value(page, "scaling", "nodes", "1")
    page.wait_for_function("""() => document.querySelector('[data-calculator="scaling"] [name="fabric"]')
        .disabled""")
    set_value(page, "scaling", "nodes", "2")
    page.wait_for_function("""() => !document.querySelector('[data-calculator="scaling"] [name="fabric"]')
        .disabled""")
    offered = scaling.locator('[name="fabric"] option:not([disabled])').evaluate_all("(os) => os.map((o) => o.value)")
    assert offered and not any(o.startswith(("pcie", "nvlink")) for o in offered)
    shot(page, f"inputs-{width}-{lang}-{scheme}", root)
    assert page.kw_errors == []


# --- charts that follow the result ---------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_the_scaling_chart_follows_the_inputs_and_marks_the_readers_configuration(open_page, width, lang,
                                                                                   scheme) -> None:
    loc = locale_of(lang)
    page = open_page(width, lang, scheme, live=True)
    root = widget(page, "scaling")
    yours = loc.text(strings.UI["your_configuration"])
    marker = root.locator(".kw-svg__yours")
    before = marker.evaluate("(c) => [c.getAttribute('cx'), c.getAttribute('cy')]")
    assert root.locator("svg text").filter(has_text=yours).count() == 1
    assert root.locator("svg text").filter(has_text=loc.text(strings.UI["axis_efficiency"])).count() == 1
    more = 2 * int(form_values(page, "scaling")["nodes"])  # twice the page's nodes
    set_value(page, "scaling", "nodes", str(more))
    expected = view("scaling", form_values(page, "scaling"), lang)
    page.wait_for_function("""(fig) => {  // the live figure is the one Python draws for these inputs
        const parsed = document.createElement("div");
        parsed.innerHTML = fig;
        return document.querySelector('[data-calculator="scaling"] [data-html="figure"]').innerHTML
            === parsed.innerHTML;
    }""", arg=expected["html"]["figure"])
    after = marker.evaluate("(c) => [c.getAttribute('cx'), c.getAttribute('cy')]")
    assert float(after[1]) > float(before[1])  # twice the nodes scale worse: the marker is lower
    gpus = int(form_values(page, "scaling")["nodes"]) * int(form_values(page, "scaling")["gpus_per_node"])
    assert root.locator("svg text").filter(has_text=re.compile(rf"^{gpus}$")).count() == 1  # the axis reaches them
    assert root.locator("svg.kw-svg").evaluate(OVERLAPS) == []
    shot(page, f"scaling-live-{width}-{lang}-{scheme}", root.locator("[data-html='figure']"))


# --- links -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_links_keep_every_changed_widget_locale_neutral_and_follow_the_reader(open_page, width, lang,
                                                                             scheme) -> None:
    page = open_page(width, lang, scheme, live=True)
    nodes = form_values(page, "scaling")["nodes"]  # the page's value
    more, other = str(int(nodes) + 2), str(int(nodes) + 1)
    set_value(page, "vram_fit", "context", {"da": "8.192", "fr": "8 192"}[lang])
    set_value(page, "vram_fit", "weights_limit", "65 %")
    set_value(page, "scaling", "nodes", more)
    page.wait_for_url(re.compile(rf"kw-vram-fit-1/.*context=8192.*&kw-scaling-1/nodes={more}|"
                                 rf"kw-scaling-1/nodes={more}&kw-vram-fit-1/.*context=8192"))
    assert "weights_limit=0.65" in page.url
    # back to the page's value: that widget drops out of the link
    set_value(page, "scaling", "nodes", nodes)
    page.wait_for_function("() => !location.hash.includes('kw-scaling-1')")
    assert "kw-vram-fit-1/" in page.url
    # a changed hash applies
    page.evaluate(f"location.hash = '#kw-scaling-1/nodes={other}'")
    expected = view("scaling", {**form_values(page, "scaling"), "nodes": other}, lang)
    wait_for_text(page, "scaling", '[data-output="efficiency"]', expected["outputs"]["efficiency"])
    assert widget(page, "scaling").locator('[name="nodes"]').input_value() == other
    assert widget(page, "vram_fit").locator('[name="context"]').input_value() == form_values(page, "vram_fit")[
        "context"] and "kw-vram-fit-1" not in page.url.split("#")[1]
    title = widget(page, "scaling").locator(".kw-calc__title").bounding_box()
    header = page.locator(".md-header").bounding_box()
    assert title["y"] >= header["y"] + header["height"] - 1  # scrolled clear of the sticky header
    shot(page, f"link-restored-{width}-{lang}-{scheme}")


@pytest.mark.parametrize(("width", "lang", "scheme"), TWO)
def test_the_language_switcher_and_the_copy_button_carry_the_state(open_page, server, width, lang,
                                                                   scheme) -> None:
    page = open_page(width, lang, scheme, live=True, permissions=["clipboard-read", "clipboard-write"])
    set_value(page, "vram_fit", "context", {"da": "8.192", "fr": "8 192"}[lang])
    page.wait_for_url(re.compile(r"context=8192"))
    root = widget(page, "vram_fit")
    root.locator("[data-copy-link]").click()
    copied = locale_of(lang).text(strings.UI["link_copied"])
    wait_for_text(page, "vram_fit", "[data-copy-status]", copied)
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(server.url + ARTICLE[lang] + "#kw-vram-fit-1/") and "context=8192" in link
    other = "fr" if lang == "da" else "da"
    if width == "phone":  # the header's language menu is a hover menu: a tap on its link
        page.evaluate("(l) => document.querySelector(`a.md-select__link[hreflang='${l}']`).click()", other)
    else:
        page.locator(".md-header .md-select").hover()
        page.locator(f'a.md-select__link[hreflang="{other}"]').click()
    page.wait_for_url(re.compile(re.escape(server.url + ARTICLE[other]) + r"#kw-vram-fit-1/.*context=8192"))
    expected = {"da": "8.192", "fr": "8\u202f192"}[other]
    page.wait_for_function("""(v) => document.querySelector('[data-calculator="vram_fit"] [name="context"]')
        .value === v""", arg=expected, timeout=60000)
    presets = view("vram_fit", PAGE.presets("vram_fit", other), other)["neutral"]
    assert json.loads(widget(page, "vram_fit").get_attribute("data-presets"))["context"] == presets["context"]
    shot(page, f"switched-{width}-{lang}-to-{other}-{scheme}")
