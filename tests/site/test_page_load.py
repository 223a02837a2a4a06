"""What the page's scripts change once the article is parsed: nothing that makes the browser restyle the
whole page, which on a phone is a long task per change (Lighthouse's total blocking time, issue #15).

Each change to a class of `<html>` or `<body>`, to an attribute of theirs that a stylesheet selects on,
or to the page's colour scheme restyles every element. The theme's scripts set what they need before
the first paint (`kw-js-class.html`; the palette, a first visit's too: `partials/javascripts/palette.html`);
Material's bundle is patched not to set them again (`wiki/material_bundle.py`). A palette that really
changes still restyles, with transitions held back as Material intends.
"""

from __future__ import annotations

import pytest

from tests.support.content import page_with

pytestmark = pytest.mark.browser

ARTICLE = page_with("vram_fit").url("fr")  # the article with the VRAM widget, in French
# Every change of an attribute of <html> or <body> that changes its value, and every <meta> added to <head>,
# with the document's readyState when it was seen ("loading": before the first paint is possible).
RECORD = """
window.kwChanges = [];
new MutationObserver((records) => {
  for (const r of records) {
    const t = r.target;
    if (r.type === "attributes" && (t === document.documentElement || t === document.body)
        && r.oldValue !== t.getAttribute(r.attributeName))
      kwChanges.push({ state: document.readyState, element: t.tagName, name: r.attributeName,
                       value: t.getAttribute(r.attributeName) });
    if (r.type === "childList")
      for (const n of r.addedNodes)
        if (n.nodeName === "META" && n.parentNode === document.head)
          kwChanges.push({ state: document.readyState, element: "META", name: n.name, value: n.content });
  }
}).observe(document, { attributes: true, attributeOldValue: true, subtree: true, childList: true });
"""
# Every selector of the page's stylesheets, for the attributes they select on.
SELECTORS = """() => {
  const out = [];
  const walk = (rules) => { for (const rule of rules) { if (rule.selectorText) out.push(rule.selectorText);
                                                     if (rule.cssRules) walk(rule.cssRules); } };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  return out.join("\\n");
}"""


@pytest.fixture
def tab(browser, server):
    """A page whose changes to <html>, <body> and <head> are recorded from its first byte."""
    contexts = []

    def open_(scheme: str):
        context = browser.new_context(service_workers="block", bypass_csp=True, color_scheme=scheme)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.add_init_script(RECORD)
        page.goto(server.url + ARTICLE, wait_until="load")
        page.wait_for_timeout(500)
        return page

    yield open_
    for context in contexts:
        context.close()


def restyling(page) -> list[dict]:
    """The recorded changes made after parsing that restyle the page: a class, a selected attribute, a
    colour scheme."""
    selectors = page.evaluate(SELECTORS)
    return [c for c in page.evaluate("kwChanges") if c["state"] != "loading" and (
        c["name"] == "class" or c["element"] == "META" and c["name"] == "color-scheme"
        or c["element"] != "META" and c["name"] in selectors)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("visit", ["first", "again"])
def test_once_parsed_nothing_restyles_the_page(tab, visit: str, scheme: str) -> None:
    page = tab(scheme)
    if visit == "again":  # Material's palette is in localStorage now, applied by its script in <body>
        page.reload(wait_until="load")
        page.wait_for_timeout(500)
    changes = page.evaluate("kwChanges")
    assert any(c["name"] == "class" and " js-focus-visible" in c["value"] for c in changes)
    # The reader's palette is on the body before the first paint (a first visit: their preference).
    expected = "slate" if scheme == "dark" else "default"
    assert page.evaluate("document.body.dataset.mdColorScheme") == expected
    assert not [c for c in changes if c["name"] == "data-md-color-scheme" and c["state"] != "loading"]
    assert restyling(page) == []
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == \
        ("dark" if scheme == "dark" else "normal")


def test_a_palette_that_changes_holds_transitions_back_and_sets_the_root_scheme(tab) -> None:
    page = tab("light")

    def toggle(to: str) -> list:
        """Click the palette toggle; the switching marks it made."""
        before = len(page.evaluate("kwChanges"))
        page.locator(f"label[for='__palette_{1 if to == 'slate' else 0}']").click()
        page.wait_for_function(f"document.body.dataset.mdColorScheme === '{to}'"
                               " && !document.body.hasAttribute('data-md-color-switching')")
        return [c["value"] for c in page.evaluate("kwChanges")[before:] if c["name"] == "data-md-color-switching"]

    assert toggle("slate") == ["", None]
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"
    assert toggle("default") == ["", None]
    assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "normal"
    assert not [c for c in page.evaluate("kwChanges") if c["element"] == "META" and c["name"] == "color-scheme"]


def test_a_closed_custom_model_block_has_no_layout(tab) -> None:
    # Chrome's form autofill looks at every field at DOMContentLoaded; a field in a closed <details> it
    # would lay out (the whole page, twice) unless the closed block is display: none (wiki.css).
    page = tab("light")
    fields = page.locator('[data-calculator="vram_fit"] .kw-calc__custom input')
    assert fields.count() > 0
    assert page.evaluate("(els) => els.map((e) => e.getClientRects().length)", fields.element_handles()) \
        == [0] * fields.count()
    page.locator('[data-calculator="vram_fit"] .kw-calc__custom summary').click()
    assert all(n > 0 for n in page.evaluate("(els) => els.map((e) => e.getClientRects().length)",
                                            fields.element_handles()))
