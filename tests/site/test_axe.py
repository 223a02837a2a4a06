"""Accessibility audit: axe-core (npm, injected from node_modules, offline) on every built page.

Rules run: every axe rule tagged WCAG 2.0 and 2.1 level A and AA, WCAG 2.2 AA, and axe's best practices
(`TAGS`). Every page in both palettes, and the article with its widgets static, live, recomputed and
showing an input error. Any violation fails, listed with its rule, targets and axe's summary.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import AXE, TAGS, report, settle
from tests.support.content import built_pages, site_languages
from tests.support.html import url_paths
from tests.support.live import ARTICLE, CHANGES, set_value, wait_for_output, widget
from widgets import view

pytestmark = pytest.mark.browser

# Playwright's colour scheme -> Material's palette (mkdocs.yml: the palette follows prefers-color-scheme).
SCHEMES = {"light": "default", "dark": "slate"}
BACKGROUNDS = {"light": "rgb(255, 255, 255)", "dark": "rgb(30, 33, 41)"}
# Every page the build writes from docs/ (mkdocs.yml's languages), and each language's error page.
PAGES = sorted(built_pages()) + [("" if lang == site_languages()[0] else f"{lang}/") + "404.html"
                                 for lang in site_languages()]


def audit(page) -> list[dict]:
    """axe's violations on the current page (axe is injected once per document, from node_modules)."""
    if not AXE.exists():
        pytest.fail("node_modules/axe-core is missing: run `python3 build.py test` (it runs `npm ci`)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    return page.evaluate("(options) => axe.run(document, options).then((r) => r.violations)", options)


def open_in_scheme(page, url: str, scheme: str) -> None:
    page.goto(url)
    settle(page)
    assert page.locator("body").get_attribute("data-md-color-scheme") == SCHEMES[scheme]
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUNDS[scheme]


@pytest.fixture(params=list(SCHEMES))
def scheme_page(request, kept_tabs):
    """A page whose browser prefers the light or the dark colour scheme (a kept tab: the audits are of the
    pages, not of a first visit)."""
    # bypass_csp (KeptTabs): axe is injected as an inline script, which each page's own policy refuses
    tab = kept_tabs.open(color_scheme=request.param)
    tab.scheme = request.param
    yield tab
    kept_tabs.release(tab)


def test_the_audited_pages_are_the_built_ones(site_dir: Path) -> None:
    assert sorted(PAGES) == sorted(url_paths(site_dir))


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_no_violation(scheme_page, server, path: str) -> None:
    open_in_scheme(scheme_page, server.url + path, scheme_page.scheme)
    found = report(f"/{path} [{scheme_page.scheme}]", audit(scheme_page))
    assert found == [], "axe violations:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", list(ARTICLE))
def test_live_widgets_have_no_violation(scheme_page, server, lang: str) -> None:
    page, scheme = scheme_page, scheme_page.scheme
    open_in_scheme(page, server.url + ARTICLE[lang], scheme)
    found = report(f"static [{scheme}]", audit(page))
    page.locator('[data-calculator="vram_fit"] [name="gpus"]').focus()
    page.wait_for_function("[...document.querySelectorAll('[data-calculator]')].every((w) => w.dataset.state "
                           "=== 'ready')", timeout=60000)
    found += report(f"ready [{scheme}]", audit(page))
    for name, (field, values) in CHANGES.items():
        set_value(page, name, field, values[lang])
        inputs = page.evaluate("""(name) => Object.fromEntries([...document.querySelectorAll(
            `[data-calculator="${name}"] form [name]`)].map((f) => [f.name, f.value]))""", name)
        wait_for_output(page, name, "explanation", view(name, inputs, lang)["explanation"])
    found += report(f"recomputed [{scheme}]", audit(page))
    set_value(page, "vram_fit", "gpus", "abc")
    widget(page, "vram_fit").locator('[data-error-for="gpus"]').wait_for(state="visible", timeout=10000)
    assert widget(page, "vram_fit").get_attribute("data-stale") == ""
    found += report(f"input error [{scheme}]", audit(page))
    assert found == [], f"axe violations on /{ARTICLE[lang]}:\n" + "\n".join(found)
