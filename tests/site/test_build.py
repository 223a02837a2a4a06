"""The built site: both languages, the article's prose, headings, hreflang, sitemap, search indexes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlparse

import pytest

import calculators
from harness.site import copy_project
from tests.conftest import ROOT, build_site
from tests.support.html import Page, html_pages, normalize
from wiki import methods
from wiki.checks.prose import FRONT, Document, read
from wiki.embed import find_embeds

ARTICLE = {"da": "scale-out/index.html", "fr": "fr/scale-out/index.html"}
SOURCE = {"da": ROOT / "docs" / "scale-out.md", "fr": ROOT / "docs" / "scale-out.fr.md"}
EMPHASIS = re.compile(r"(\*\*|__|(?<!\w)[*_]|[*_](?!\w))")
EMAIL = re.compile(r"\S+@\S+\.\w+")  # the prose reader leaves e-mail addresses out
# The pages of one language: the home page, the article and one page per calculator (wiki/methods.py).
PAGES = ["", "scale-out/", *(methods.page_url(name) for name in calculators.CALCULATORS)]


def tidy(text: str) -> str:
    """Blanks collapsed, none before punctuation (the prose reader pads link texts with spaces)."""
    return re.sub(r"\s+(?=[.,;:!?)])|(?<=\()\s+", "", normalize(text))


def source(lang: str) -> Document:
    """The article's source in `lang`, read as the checkers read it: expectations follow the docs."""
    return read(SOURCE[lang], lang)


def prose_paragraphs(lang: str) -> list[str]:
    """Every line of the article's body prose (headings included), as a reader sees it."""
    doc = source(lang)
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


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_every_paragraph_of_the_source_is_on_the_article_page(site_dir: Path, lang: str) -> None:
    text = tidy(EMAIL.sub(" ", Page(site_dir / ARTICLE[lang]).article_text))
    paragraphs = prose_paragraphs(lang)
    assert len(paragraphs) > 30
    assert [p for p in paragraphs if p not in text] == []


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_article_structure(site_dir: Path, lang: str) -> None:
    page, doc = Page(site_dir / ARTICLE[lang]), source(lang)
    assert [h["id"] for h in page.find("h1")] == [h.id for h in doc.headings if h.level == 1]
    sections = [h["id"] for h in page.find("h2") if "kw-calc__title" not in h.get("class", "")]  # not widgets
    assert sections == [h.id for h in doc.headings if h.level == 2]
    assert len(page.find("ol")) >= 1
    # companion articles that do not exist yet stay plain text
    assert not [a for a in page.find("a") if re.search(r"\b(K0\d|N03)\b", a.get("href", ""))]
    # the tables the source embeds, in its order, filled from the calculators
    embeds = find_embeds(SOURCE[lang].read_text(encoding="utf-8"), str(SOURCE[lang]))
    tables = [embed.name for _start, _end, embed in embeds if embed.kind == "calculator-table"]
    assert tables
    assert [t["data-table"] for t in page.find("div") if "data-table" in t] == tables


def test_headings_and_anchor_ids_match_across_languages(site_dir: Path) -> None:
    ids = {lang: [h["id"] for h in Page(site_dir / path).find("h2")] for lang, path in ARTICLE.items()}
    assert ids["da"] == ids["fr"]
    assert len(ids["da"]) >= 5


@pytest.mark.parametrize(("lang", "replacement"), [("da", "ordskifte"), ("fr", "motchangé")])
def test_a_one_word_change_to_the_source_is_what_the_page_shows(tmp_path: Path, lang: str, replacement: str) -> None:
    """Editors edit: a wording change builds, and the page shows the new wording (nothing pins the old)."""
    copy_project(tmp_path)
    page = tmp_path / SOURCE[lang].relative_to(ROOT)
    lines = page.read_text(encoding="utf-8").split("\n")
    number = next(n for section in read(page, lang).sections[1:] for n, text in section.lines
                  if len(text.split()) > 8 and not lines[n - 1].startswith("#"))
    word = max(re.findall(r"[^\W\d_]{6,}", lines[number - 1]), key=len)
    lines[number - 1] = lines[number - 1].replace(word, replacement, 1)
    page.write_text("\n".join(lines), encoding="utf-8")
    result = build_site(tmp_path / "out", tmp_path / "mkdocs.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    built = Page(tmp_path / "out" / ARTICLE[lang]).article_text
    assert replacement in built


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
    assert {u.find("s:loc", ns).text for u in urls} == {site_url + prefix + page for prefix in ("", "fr/")
                                                        for page in PAGES}
    for url in urls:
        langs = {link.get("hreflang"): link.get("href") for link in url.findall("x:link", ns)}
        assert set(langs) == {"da", "fr", "x-default"}
        assert langs["x-default"] == langs["da"]
        assert url.find("s:loc", ns).text in langs.values()
        for href in langs.values():
            assert href.startswith(site_url), href
            assert (site_dir / urlparse(href).path.lstrip("/") / "index.html").exists(), href


@pytest.mark.parametrize(("lang", "index", "prefix"), [("da", "search", ""), ("fr", "fr/search", "fr/")])
def test_one_search_index_per_language(site_dir: Path, lang: str, index: str, prefix: str) -> None:
    data = json.loads((site_dir / index / "search_index.json").read_text(encoding="utf-8"))
    assert data["config"]["lang"] == [lang]
    locations = [doc["location"] for doc in data["docs"]]
    assert "" in locations and any(loc.startswith("scale-out/") for loc in locations)
    assert not any(loc.startswith("fr/") for loc in locations)
    titles = [normalize(doc["title"]) for doc in data["docs"]]
    for other, path in SOURCE.items():
        title = normalize(str(read(path, other).meta["title"]))
        assert (title in titles) == (other == lang), (other, title)


@pytest.mark.parametrize(("path", "source"), [
    ("scale-out/index.html", "docs/scale-out.md"), ("fr/scale-out/index.html", "docs/scale-out.fr.md"),
    ("index.html", "docs/index.md"), ("fr/index.html", "docs/index.fr.md"),
])
def test_edit_button_points_at_the_source_of_the_language_read(site_dir: Path, path: str, source: str) -> None:
    edits = Page(site_dir / path).find("a", rel="edit")
    assert len(edits) == 1
    assert edits[0]["href"].endswith("/edit/main/" + source)
    assert (ROOT / source).exists()


def listed_articles(page: Page) -> list[str]:
    """The links of the home page's list of articles."""
    start = page.source.index('class="kw-articles"')
    return re.findall(r'href="([^"]*)"', page.source[start:page.source.index("</ul>", start)])


@pytest.mark.parametrize(("path", "lang"), [("index.html", "da"), ("fr/index.html", "fr")])
def test_home_page_lists_the_articles_of_its_language_not_itself(site_dir: Path, path: str, lang: str) -> None:
    page = Page(site_dir / path)
    assert listed_articles(page) == ["scale-out/"]
    assert normalize(str(source(lang).meta["title"])) in page.text


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


def test_strict_build_fails_on_a_warning(tmp_path: Path) -> None:
    copy_project(tmp_path)
    page = tmp_path / "docs" / "scale-out.fr.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[lien cassé](missing-page.md)\n", encoding="utf-8")
    result = build_site(tmp_path / "out", tmp_path / "mkdocs.yml")
    assert result.returncode != 0
    assert "missing-page.md" in result.stderr + result.stdout
