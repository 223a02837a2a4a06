"""The built site: both languages, the articles' prose, headings, hreflang, sitemap, search indexes.

What a page should say is read from its source (the pages of mkdocs.yml's nav, `tests/support/content.py`):
an editor's change to the prose, a new article or a translator's rewording changes the expectations, not the
tests (tests/site/test_editing.py makes those changes in a copy and runs these tests there)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlparse

import pytest

import calculators
from tests.support.content import DocPage, articles, built_pages, home, nav_pages, site_languages
from tests.support.html import Page, html_pages, normalize
from wiki import methods
from wiki.checks.prose import FRONT, Document, read
from wiki.embed import find_embeds

LANGS = site_languages()
ARTICLES = [(page, lang) for page in articles() for lang in LANGS]
IDS = [f"{page.slug}-{lang}" for page, lang in ARTICLES]
EMPHASIS = re.compile(r"(\*\*|__|(?<!\w)[*_]|[*_](?!\w))")
EMAIL = re.compile(r"\S+@\S+\.\w+")  # the prose reader leaves e-mail addresses out
# The pages of one language: the home page, the nav's articles and one page per calculator (wiki/methods.py).
PAGES = ["", *(page.url(LANGS[0]) for page in articles()),
         *(methods.page_url(name) for name in calculators.CALCULATORS)]


def tidy(text: str) -> str:
    """Blanks collapsed, none before punctuation (the prose reader pads link texts with spaces)."""
    return re.sub(r"\s+(?=[.,;:!?)])|(?<=\()\s+", "", normalize(text))


def source(page: DocPage, lang: str) -> Document:
    """A page's source in `lang`, read as the checkers read it: expectations follow the docs."""
    return read(page.source(lang), lang)


def prose_paragraphs(page: DocPage, lang: str) -> list[str]:
    """Every line of a page's body prose (headings included), as a reader sees it."""
    doc = source(page, lang)
    paragraphs = []
    for section in doc.sections:
        if section.id == FRONT:
            continue
        for _line, text in section.lines:
            text = EMPHASIS.sub("", re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text))
            text = tidy(text)
            if text and text != "---":
                paragraphs.append(text)
    return paragraphs


@pytest.mark.parametrize(("article", "lang"), ARTICLES, ids=IDS)
def test_every_paragraph_of_the_source_is_on_the_article_page(site_dir: Path, article: DocPage, lang: str) -> None:
    text = tidy(EMAIL.sub(" ", Page(site_dir / article.built(lang)).article_text))
    paragraphs = prose_paragraphs(article, lang)
    assert paragraphs
    assert [p for p in paragraphs if p not in text] == []


@pytest.mark.parametrize(("article", "lang"), ARTICLES, ids=IDS)
def test_article_structure(site_dir: Path, article: DocPage, lang: str) -> None:
    page, doc = Page(site_dir / article.built(lang)), source(article, lang)
    assert [h["id"] for h in page.find("h1")] == [h.id for h in doc.headings if h.level == 1]
    sections = [h["id"] for h in page.find("h2") if "kw-calc__title" not in h.get("class", "")]  # not widgets
    assert sections == [h.id for h in doc.headings if h.level == 2]
    numbered = re.search(r"^\s*\d+\. ", article.source(lang).read_text(encoding="utf-8"), re.MULTILINE)
    assert page.find("ol") or not numbered  # the source's numbered lists stay lists
    # companion articles that do not exist yet stay plain text
    assert not [a for a in page.find("a") if re.search(r"\b(K0\d|N03)\b", a.get("href", ""))]
    # the tables the source embeds, in its order, filled from the calculators
    embeds = find_embeds(article.source(lang).read_text(encoding="utf-8"), str(article.source(lang)))
    tables = [embed.name for _start, _end, embed in embeds if embed.kind == "calculator-table"]
    assert [t["data-table"] for t in page.find("div") if "data-table" in t] == tables


@pytest.mark.parametrize("article", articles(), ids=lambda page: page.slug)
def test_headings_and_anchor_ids_match_across_languages(site_dir: Path, article: DocPage) -> None:
    ids = {lang: [h["id"] for h in Page(site_dir / article.built(lang)).find("h2")] for lang in LANGS}
    assert all(found == ids[LANGS[0]] for found in ids.values())
    assert [i for i in ids[LANGS[0]] if i in {h.id for h in source(article, LANGS[0]).headings}] == \
        [h.id for h in source(article, LANGS[0]).headings if h.level == 2]  # the source's sections, in order


def test_pages_carry_no_alternate_links_the_sitemap_does(site_dir: Path) -> None:
    # Material fetches a sitemap.xml next to every <link rel="alternate"> of a page: there is none, the
    # hreflang alternates are in sitemap.xml (next test).
    pages = html_pages(site_dir)
    assert len(pages) == 2 * len(PAGES)
    for path in pages:
        assert Page(path).find("link", rel="alternate") == [], path


def test_sitemap_carries_alternates_with_x_default(site_dir: Path, server) -> None:
    site_url = server.url
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.parse(site_dir / "sitemap.xml").getroot()
    urls = root.findall("s:url", ns)
    assert {u.find("s:loc", ns).text for u in urls} == {site_url + path for path in built_pages()}
    for url in urls:
        langs = {link.get("hreflang"): link.get("href") for link in url.findall("x:link", ns)}
        assert set(langs) == {*LANGS, "x-default"}
        assert langs["x-default"] == langs[LANGS[0]]
        assert url.find("s:loc", ns).text in langs.values()
        for href in langs.values():
            assert href.startswith(site_url), href
            assert (site_dir / urlparse(href).path.lstrip("/") / "index.html").exists(), href


@pytest.mark.parametrize("lang", LANGS)
def test_one_search_index_per_language(site_dir: Path, lang: str) -> None:
    data = json.loads((site_dir / home().url(lang) / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert data["config"]["lang"] == [lang]
    locations = [doc["location"] for doc in data["docs"]]
    assert "" in locations
    for article in articles():
        assert any(loc.startswith(article.url(LANGS[0])) for loc in locations), article.slug
    assert not any(loc.startswith(f"{other}/") for loc in locations for other in LANGS[1:])
    titles = [normalize(doc["title"]) for doc in data["docs"]]
    for article in articles():
        for other in LANGS:
            title = normalize(str(source(article, other).meta["title"]))
            assert (title in titles) == (other == lang), (article.slug, other, title)


EDITABLE = [(page, lang) for page in nav_pages() for lang in LANGS]


@pytest.mark.parametrize(("doc", "lang"), EDITABLE, ids=[f"{page.slug}-{lang}" for page, lang in EDITABLE])
def test_edit_button_points_at_the_source_of_the_language_read(site_dir: Path, doc: DocPage, lang: str) -> None:
    edits = Page(site_dir / doc.built(lang)).find("a", rel="edit")
    assert len(edits) == 1
    assert edits[0]["href"].endswith("/edit/main/" + doc.rel_source(lang))
    assert doc.source(lang).exists()


def listed_articles(page: Page) -> list[str]:
    """The links of the home page's list of articles."""
    start = page.source.index('class="kw-articles"')
    return re.findall(r'href="([^"]*)"', page.source[start:page.source.index("</ul>", start)])


@pytest.mark.parametrize("lang", LANGS)
def test_home_page_lists_the_articles_of_its_language_not_itself(site_dir: Path, lang: str) -> None:
    page = Page(site_dir / home().built(lang))
    assert listed_articles(page) == [article.url(LANGS[0]) for article in articles()]  # relative to its home
    for article in articles():
        assert normalize(str(source(article, lang).meta["title"])) in page.text


@pytest.mark.parametrize(("path", "site_name"), [("index.html", "Kentino Wiki"), ("fr/index.html", "Wiki Kentino")])
def test_home_page_title_is_the_site_name_once(site_dir: Path, path: str, site_name: str) -> None:
    assert re.search(r"<title>([^<]*)</title>", Page(site_dir / path).source)[1] == site_name


def test_built_site_references_no_third_party_host(site_dir: Path) -> None:
    offenders = []
    for path in site_dir.rglob("*"):
        if path.suffix not in {".html", ".css", ".js", ".json", ".xml"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if re.search(r"fonts\.(googleapis|gstatic)\.com|cdn\.jsdelivr|unpkg\.com|cdnjs\.", text):
            offenders.append(path.name)
    assert offenders == []
    for path in html_pages(site_dir):
        page = Page(path)
        loaded = [a.get("src", "") for t, a in page.tags if t in {"script", "img", "iframe"}]
        fetched_rels = {"stylesheet", "icon", "preload", "modulepreload"}
        loaded += [a.get("href", "") for a in page.find("link") if a.get("rel") in fetched_rels]
        assert [u for u in loaded if urlparse(u).netloc] == [], path
