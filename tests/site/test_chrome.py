"""The theme's chrome in the reader's language: error pages, footer, edit button, language menu, search folding."""

from __future__ import annotations

import functools
import json
import re
from html import unescape
from pathlib import Path

import material
import pytest

from tests.conftest import ROOT
from tests.support.content import page_with, urls
from tests.support.html import Page, html_pages
from widgets import strings
from widgets.locale import locale_of
from wiki.search_index import fold, folded_words, with_folding
from wiki.toc import heading_texts, with_spaces

ARTICLE = urls(page_with("vram_fit"))


def theme_strings(lang: str) -> dict[str, str]:
    """The theme's words in `lang`, from where the site takes them: our override of Material's language file
    (overrides/partials/languages/) or Material's own, and the catalogs (the copyright and not-found partials'
    `kw_ui`, wiki/theme_words.py)."""
    loc = locale_of(lang)
    ours = ROOT / "overrides" / "partials" / "languages" / f"{lang}.html"
    theirs = Path(material.__file__).parent / "templates" / "partials" / "languages" / f"{lang}.html"
    words = dict(re.findall(r'^\s*"([\w.]+)": "([^"]*)"', (ours if ours.exists() else theirs).read_text(
        encoding="utf-8"), flags=re.MULTILINE))
    made_with = loc.text(strings.UI["made_with"]).split("{mkdocs}")[0].strip()  # before the first link
    return {"search": words["search.placeholder"], "edit": words["action.edit"], "made_with": made_with,
            "not_found": loc.text(strings.UI["not_found_title"]),
            "permalink": loc.text(strings.UI["permalink_title"])}


# What the theme prints (not article prose). Read when a test runs: the catalogs are compiled by the build.
chrome = functools.cache(theme_strings)


def language_of(site_dir: Path, path: Path) -> str:
    return "fr" if path.relative_to(site_dir).as_posix().startswith("fr/") else "da"


@pytest.mark.parametrize(("path", "lang"), [("404.html", "da"), ("fr/404.html", "fr")])
def test_each_language_has_its_own_error_page(site_dir: Path, path: str, lang: str) -> None:
    page = Page(site_dir / path)
    assert page.lang == lang
    assert [h.get("id") for h in page.find("h1")] == ["not-found"]
    assert chrome(lang)["not_found"] in page.text
    assert "Not found" not in page.text
    assert page.find("input", placeholder=chrome(lang)["search"])
    other = "fr" if lang == "da" else "da"
    assert chrome(other)["not_found"] not in page.text and chrome(other)["made_with"] not in page.text


def test_every_page_has_the_footer_line_in_its_language(site_dir: Path) -> None:
    pages = html_pages(site_dir) + [site_dir / "404.html", site_dir / "fr" / "404.html"]
    for path in pages:
        page = Page(path)
        lang = language_of(site_dir, path)
        assert "Made with" not in page.text, path
        assert chrome(lang)["made_with"] in page.text, path


@pytest.mark.parametrize("lang", list(ARTICLE))
def test_edit_button_speaks_the_page_language(site_dir: Path, lang: str) -> None:
    (edit,) = Page(site_dir / ARTICLE[lang] / "index.html").find("a", rel="edit")
    assert edit["title"] == chrome(lang)["edit"]  # Material's own French string is "Editer", without its accent


def test_every_headings_link_is_titled_in_the_page_language(site_dir: Path) -> None:
    """Python-Markdown writes one English "Permanent link" for every language; the plugin titles it from the
    catalogs (wiki/theme_words.py)."""
    for path in html_pages(site_dir):
        links = Page(path).find("a", **{"class": "headerlink"})
        assert links, path
        assert {link["title"] for link in links} == {chrome(language_of(site_dir, path))["permalink"]}, path


def test_the_table_of_contents_reads_as_the_headings(site_dir: Path) -> None:
    """Each entry of a page's table of contents is its heading's text, no-break spaces included (French
    « : » keeps its U+202F; Python-Markdown's toc collapses it, wiki/toc.py puts it back)."""
    checked = 0
    for path in html_pages(site_dir):
        source = path.read_text(encoding="utf-8")
        headings = heading_texts(source)
        entries = re.findall(r'<a href="#([^"]+)" class="md-nav__link">\s*<span class="md-ellipsis">\s*(.*?)\s*</span>',
                             source, re.S)
        for anchor, title in entries:
            if anchor in headings:
                assert unescape(title) == headings[anchor], (path, anchor)
                checked += 1
    nnbsp = [t for t in heading_texts((site_dir / ARTICLE["fr"] / "index.html").read_text(encoding="utf-8")).values()
             if "\u202f" in t]
    assert checked and nnbsp  # the French article has headings with a narrow no-break space, and they were read


def test_the_toc_entry_takes_the_heading_spaces_only_when_the_words_match() -> None:
    assert with_spaces("Le calcul : ici", "Le calcul\u202f: ici") == "Le calcul\u202f: ici"
    assert with_spaces("A &amp; B : c", "A & B\u202f: c") == "A &amp; B\u202f: c"
    assert with_spaces("Autre titre", "Le calcul\u202f: ici") == "Autre titre"  # a data-toc-label stays


def test_the_language_menu_marks_the_language_being_read(site_dir: Path) -> None:
    for path in html_pages(site_dir) + [site_dir / "404.html", site_dir / "fr" / "404.html"]:
        links = Page(path).find("a", **{"class": "md-select__link"})
        assert {link["hreflang"] for link in links} == {"da", "fr"}, path
        current = [link["hreflang"] for link in links if link.get("aria-current") == "true"]
        assert current == [language_of(site_dir, path)], path


@pytest.mark.parametrize(("path", "home"), [("404.html", {"da": "/", "fr": "/fr/"}),
                                            ("fr/404.html", {"da": "../", "fr": "../fr/"})])
def test_an_error_page_offers_each_language_home(site_dir: Path, path: str, home: dict[str, str]) -> None:
    links = Page(site_dir / path).find("a", **{"class": "md-select__link"})
    assert {link["hreflang"]: link["href"] for link in links} == home


@pytest.mark.parametrize(("word", "lang", "typed"), [
    ("nœud", "fr", "noeud"), ("Œuvre", "fr", "Oeuvre"), ("échelle", "fr", "echelle"), ("répliqué", "fr", "replique"),
    ("båndbredde", "da", "baandbredde"), ("Træning", "da", "Traening"), ("større", "da", "stoerre"),
    ("node", "da", "node"),
])
def test_folding_is_how_a_reader_types_without_the_keyboard(word: str, lang: str, typed: str) -> None:
    assert fold(word, lang) == typed


def test_folded_words_are_extra_index_words_not_shown_text() -> None:
    index = {"config": {"lang": ["fr"], "fields": {"title": {"boost": 1e3}, "text": {"boost": 1.0}}},
             "docs": [{"location": "a/", "title": "Nœud", "text": "<p>Un nœud, deux nœuds; GPU</p>"},
                      {"location": "b/", "title": "GPU", "text": "<p>PCIe</p>"}]}
    folded = with_folding(index, "fr")
    assert folded["config"]["fields"]["fold"] == {"boost": 1.0}
    assert folded["docs"][0]["fold"] == "noeud noeuds"
    assert folded["docs"][0]["text"] == index["docs"][0]["text"]  # what search results show is untouched
    assert "fold" not in folded["docs"][1]
    assert folded_words("<b>båd</b> og <i>ø</i>", "da") == "baad"  # one-letter words are not indexed


@pytest.mark.parametrize(("index", "lang"), [("search", "da"), ("fr/search", "fr")])
def test_each_language_index_carries_its_own_folding(site_dir: Path, index: str, lang: str) -> None:
    data = json.loads((site_dir / index / "search_index.json").read_text(encoding="utf-8"))
    assert data["config"]["lang"] == [lang] and "fold" in data["config"]["fields"]
    article = next(doc for doc in data["docs"] if doc["location"] == ARTICLE["da"])
    words = set(re.findall(r"[^\W\d_]{2,}", re.sub(r"<[^>]+>", " ", article["text"])))
    expected = {fold(w, lang).lower() for w in words if fold(w, lang) != w}
    assert expected and expected <= set(article["fold"].split())


def raw_article_text(page: Page) -> str:
    """The article's visible text with its no-break spaces kept (Page.text collapses them)."""
    start, end = page.source.index("<article"), page.source.index("</article>")
    html = re.sub(r"<(script|style|svg|template)\b.*?</\1>", " ", page.source[start:end], flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_units_and_percentages_read_the_same_in_prose_widgets_and_tables(site_dir: Path) -> None:
    danish = raw_article_text(Page(site_dir / ARTICLE["da"] / "index.html"))
    french = raw_article_text(Page(site_dir / ARTICLE["fr"] / "index.html"))
    assert re.findall(r"\d(?: ?%)", danish) == []  # 60 % with a no-break space, as Babel prints it
    assert re.search(r"\d\u00a0%", danish)  # the article's shares: prose, widgets and tables alike
    assert re.findall(r"\b(?:GB|TB|GB/s|Gbps|Gb/s)\b", french) == []  # the table row once mixed 96 Go and GB/s
    assert re.search(r"\d\u202fGo\b", french) and "Go/s" in french
    assert re.findall(r"Gbps|Gb/s", danish) == []
    assert re.findall(r"\w[ ]?[;:?!](?=\s)", french) == []  # a narrow no-break space before ; : ? !


@pytest.mark.parametrize(("path", "base"), [("404.html", "/"), ("fr/404.html", "../fr/")])
def test_an_error_page_searches_its_language_index(site_dir: Path, path: str, base: str) -> None:
    config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>',
                                  Page(site_dir / path).source, re.S)[1])
    assert config["base"] == base  # Material fetches <base>search/search_index.json
