"""The calculator pages as built (issue 29): one per calculator and language, opening with its widget, with its
validation table from the reference suite; every widget links to its page; the home pages and the search indexes
list them; on a phone their tables scroll in their own box and their formulas are typeset by our own KaTeX.

Expectations come from their sources: the calculators and their references (`calculators`, `Reference`), the
link texts and labels from the catalogs, the pages' nav from mkdocs.yml.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

import calculators
from calculators import reference as R
from harness.chromium import ARGS as CHROMIUM_ARGS
from harness.host import Host
from tests.support.browser import AXE, TAGS, offline_mark, report, served_copy, settle
from tests.support.html import Page, html_pages
from widgets import strings
from widgets.locale import locale_of
from wiki import katex, languages, methods

PREFIX = {"da": "", "fr": "fr/"}
NAMES = list(calculators.CALCULATORS)
ROW = re.compile(r'<tr data-reference="(?P<id>[^"]+)" data-kind="[^"]*" data-role="(?P<role>[a-z]+)"[^>]*>'
                 r'(?P<cells>.*?)</tr>', re.DOTALL)


def page_path(name: str, lang: str) -> str:
    """The URL path of a calculator's page from the site root."""
    return methods.page_url(name, PREFIX[lang])


def built(site_dir: Path, name: str, lang: str) -> Page:
    return Page(site_dir / page_path(name, lang) / "index.html")


def expected_references(name: str) -> list[R.Reference]:
    """The figures a calculator's page lists: its own, else those of the calculators it is built on."""
    own = methods.references(name)
    return own or [ref for base in methods.builds_on(name) for ref in methods.references(base)]


def section(source: str, anchor: str) -> str:
    """The HTML of a `##` section, from its heading to the next one."""
    start = source.index(f'<h2 id="{anchor}"')
    following = source.find("<h2 id=", start + 1)
    return source[start:following if following > 0 else len(source)]


@pytest.mark.parametrize("lang", list(PREFIX))
@pytest.mark.parametrize("name", NAMES)
def test_every_calculator_has_its_page_opening_with_its_widget(site_dir: Path, name: str, lang: str) -> None:
    page = built(site_dir, name, lang)
    assert page.lang == lang
    assert [main.get("data-method") for main in page.find("main")] == [name]
    article = page.source[page.source.index("<article"):]
    widgets = re.findall(r'data-calculator="([a-z_]+)"', article)
    assert widgets[:1] == [name]
    assert article.index(f'data-calculator="{name}"') < article.index(f'<h2 id="{methods.METHOD_SECTION}"')
    assert "{{" not in page.source and "kw-method:" not in page.source


@pytest.mark.parametrize("lang", list(PREFIX))
@pytest.mark.parametrize("name", NAMES)
def test_the_validation_table_is_the_reference_suite_evaluated_now(site_dir: Path, name: str, lang: str) -> None:
    loc = locale_of(lang)
    source = built(site_dir, name, lang).source
    validation = section(source, methods.VALIDATION_SECTION)
    rows = {match["id"]: match for match in ROW.finditer(validation)}
    expected = expected_references(name)
    assert expected and list(rows) == [ref.id for ref in expected]
    for ref in expected:
        row = rows[ref.id]
        assert row["role"] == ("calibration" if ref.calibration else "prediction")
        assert f'href="{html.escape(ref.url)}"' in row["cells"]
        cells = re.findall(r"<td>(.*?)</td>", row["cells"], re.DOTALL)
        result = R.evaluate(ref)
        if result["ratio"] is None:
            assert cells[2] == "–"
        else:
            assert abs(loc.numbers.parse(cells[2]) - result["ratio"]) <= 0.005 + 1e-9
        held = loc.text(strings.UI["answer_yes" if result["ok"] else "answer_no"])
        assert cells[4] == held
    # the table scrolls in its own box, which the keyboard can reach
    box = r'<div class="kw-table kw-validation__table" role="region" tabindex="0" aria-labelledby='
    assert re.search(box, validation)


@pytest.mark.parametrize("lang", list(PREFIX))
def test_each_range_a_widget_shows_is_explained_on_its_page(site_dir: Path, lang: str) -> None:
    for name, spec in calculators.CALCULATORS.items():
        uncertainty = section(built(site_dir, name, lang).source, methods.UNCERTAINTY_SECTION)
        words = html.unescape(re.sub(r"<[^>]+>", "", uncertainty))
        for shown in spec["ranges"]:
            assert locale_of(lang).text(strings.OUTPUTS[shown["name"]]) in words, (name, shown)


def test_every_widget_links_to_its_calculators_page(site_dir: Path) -> None:
    linked = 0
    for path in html_pages(site_dir):
        rel = path.relative_to(site_dir).as_posix()
        lang = "fr" if rel.startswith("fr/") else "da"
        source = path.read_text(encoding="utf-8")
        for widget in re.split(r'(?=<div class="kw-calc" id=)', source)[1:]:
            name = re.search(r'data-calculator="([a-z_]+)"', widget)[1]
            link = re.search(r'<a data-method-link href="([^"]+)"[^>]*>([^<]+)</a>', widget)
            assert link, (rel, name)
            target = urlsplit(urljoin("http://site/" + rel, link[1]))
            own = rel == page_path(name, lang) + "index.html"
            assert target.path == "/" + (page_path(name, lang) if not own else rel), (rel, name, link[1])
            assert link[2] == locale_of(lang).text(strings.METHODS["method_link"])
            linked += 1
    assert linked >= 2 * 2 * len(NAMES)  # the article's widgets and the calculator pages', in both languages


def nav_pages() -> list[str]:
    """The calculator pages of mkdocs.yml's nav, in its order."""
    config = languages.read_config(Path(__file__).resolve().parents[2] / "mkdocs.yml")
    section_pages = [item for entry in config["nav"] if isinstance(entry, dict) for item in entry.values()]
    return [page for pages in section_pages for page in pages if page.startswith(methods.FOLDER + "/")]


@pytest.mark.parametrize("lang", list(PREFIX))
def test_the_home_page_lists_every_calculator_page_in_the_navs_order(site_dir: Path, lang: str) -> None:
    home = Page(site_dir / PREFIX[lang] / "index.html").source
    listed = re.search(r'<ul class="kw-calculators">(.*?)</ul>', home, re.DOTALL)[1]
    hrefs = re.findall(r'<a href="([^"]+)"', listed)
    order = [page[:-len(".md")] + "/" for page in nav_pages()]
    assert hrefs == order and len(hrefs) == len(NAMES)
    assert sorted(re.findall(r'data-method-item="([a-z_]+)"', listed)) == sorted(NAMES)


@pytest.mark.parametrize(("lang", "index"), [("da", "search/search_index.json"), ("fr", "fr/search/search_index.json")])
def test_the_pages_are_in_their_languages_search_index(site_dir: Path, lang: str, index: str) -> None:
    docs = json.loads((site_dir / index).read_text(encoding="utf-8"))["docs"]
    locations = {doc["location"].split("#")[0] for doc in docs}
    assert {methods.page_url(name) for name in NAMES} <= locations


def test_katex_is_served_by_the_site_and_loaded_by_pages_with_formulas_only(site_dir: Path) -> None:
    for name in katex.files():
        assert (site_dir / katex.TARGET / name).is_file(), name
    method = built(site_dir, "vram_fit", "da")
    assert "katex.min.js" in method.source and 'class="arithmatex"' in method.source
    article = Page(site_dir / "scale-out" / "index.html")
    assert "katex" not in article.source


# --- In the browser ---------------------------------------------------------------------------------------

PHONE = {"width": 390, "height": 844}
VIOLATIONS = """window.kwViolations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.kwViolations.push(e.violatedDirective + " " + e.blockedURI));"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", list(PREFIX))
def test_a_calculator_page_reads_well_on_a_phone_under_its_own_policy(browser, server, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, service_workers="block")  # the page's own CSP applies
    page = context.new_page()
    page.add_init_script(VIOLATIONS)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(server.url + page_path("throughput", lang))
    page.wait_for_function("document.querySelectorAll('.arithmatex[data-typeset]').length > 0")
    state = page.evaluate("""() => ({
        page: document.documentElement.scrollWidth,
        formulas: document.querySelectorAll('.arithmatex').length,
        typeset: document.querySelectorAll('.arithmatex .katex').length,
        tables: [...document.querySelectorAll('.kw-validation__table')].map((t) => ({
            scrolls: t.scrollWidth > t.clientWidth, right: t.getBoundingClientRect().right})),
        violations: window.kwViolations})""")
    context.close()
    assert state["page"] <= PHONE["width"], "the page scrolls sideways"
    assert state["formulas"] and state["typeset"] == state["formulas"]
    assert state["tables"] and all(t["scrolls"] and t["right"] <= PHONE["width"] for t in state["tables"])
    assert state["violations"] == []
    assert [url for url in requested if not url.startswith(server.url)] == []


@pytest.mark.browser
@pytest.mark.parametrize("lang", list(PREFIX))
def test_the_calculator_pages_have_no_axe_violation(browser, server, lang: str) -> None:
    # bypass_csp: axe is injected as an inline script, which the pages' own policy refuses
    context = browser.new_context(viewport=PHONE, service_workers="block", bypass_csp=True)
    page = context.new_page()
    found = []
    for name in NAMES:
        page.goto(server.url + page_path(name, lang))
        settle(page)
        page.add_script_tag(path=str(AXE))
        options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
        found += report(page_path(name, lang), page.evaluate(
            "(options) => axe.run(document, options).then((r) => r.violations)", options))
    context.close()
    assert found == [], "axe violations:\n" + "\n".join(found)


@pytest.mark.browser
def test_a_calculator_page_opened_online_reads_offline_with_its_formulas(browser, site_dir: Path,
                                                                         tmp_path: Path) -> None:
    """The service worker keeps a calculator page and KaTeX as the reader opens them (not at install)."""
    reader = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS,
        bypass_csp=True)
    reader.set_default_timeout(20000)
    try:
        page = reader.new_page()
        with Host(served_copy(site_dir, tmp_path / "site")) as host:
            base = host.url
            page.goto(base + PREFIX["fr"])
            offline_mark(page, host=host)
            page.goto(base + page_path("vram_fit", "fr"))
            page.wait_for_selector(".arithmatex[data-typeset]", state="attached")
            page.wait_for_timeout(500)  # the worker puts what it fetched into its cache
        reader.set_offline(True)  # and the host is gone
        page.goto(base + page_path("vram_fit", "fr"))
        assert page.locator("main").get_attribute("data-method") == "vram_fit"
        page.wait_for_selector(".arithmatex[data-typeset]", state="attached")
        assert page.locator(".arithmatex .katex").count() == page.locator(".arithmatex").count() > 0
    finally:
        reader.close()
