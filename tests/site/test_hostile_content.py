"""A hostile page or front matter: the build refuses it with file:line, in every language at once, or renders it inert.

The content policy (`wiki/content_policy.py`) is tested on its own against the payloads of
`tests/support/hostile.py` (each rendered by the site's Markdown configuration), and once end to end:
a small copy of the project (the home page and one page per language, no calculator) whose Danish and
French pages both carry the payloads of issue 33, checked in one run. The front matter is built and
opened in the browser.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import html5lib
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mkdocs.utils.meta import get_data

from harness.server import StaticServer
from harness.site import copy_project
from tests.conftest import ROOT, build_site
from tests.support.hostile import CORPUS, ISSUE, SAFE, Payload
from tests.support.html import Page
from tests.support.markdown import rendered, rendered_page
from tests.support.project import project_with_page, with_pages
from wiki import content_policy, csp, embed
from wiki.checks import strict_build
from wiki.checks.project import Project

TITLE = 'Quote " and </title><script>window.__pwned=1</script> end'
DESCRIPTION = ('"><meta http-equiv="refresh" content="0;url=https://example.org/">'
               "<script>window.__pwned=2</script><img src=x onerror=window.__pwned=3>")
OWN_HOST = "wiki.example"  # the site's host in these tests: images may come from it


def yaml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture(scope="module")
def hostile_front_matter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("front-matter")
    config = project_with_page(root, f"title: {yaml_string(TITLE)}\ndescription: {yaml_string(DESCRIPTION)}\n",
                               "Plain text.")
    result = build_site(root / "site", config)
    assert result.returncode == 0, result.stderr
    return root / "site"


@pytest.mark.parametrize("path", ["index.html", "hostile/index.html", "fr/index.html"])
def test_front_matter_is_text_wherever_the_theme_prints_it(hostile_front_matter: Path, path: str) -> None:
    page = Page(hostile_front_matter / path)
    assert page.find("meta", **{"http-equiv": "refresh"}) == []
    assert page.find("img") == [] and page.find("iframe") == []
    # every inline script is one the policy of the page allows, i.e. one the theme wrote
    policy = html.unescape(page.find("meta", **{"http-equiv": "Content-Security-Policy"})[0]["content"])
    allowed = set(policy.split("script-src ", 1)[1].split(";", 1)[0].split())
    assert {csp.script_hash(s) for s in csp.inline_scripts(page.source)} <= allowed
    assert not any("__pwned" in s for s in csp.inline_scripts(page.source))
    assert TITLE in page.text  # shown as the text it is (nav, header, home list)
    if path == "hostile/index.html":
        assert page.find("meta", name="description") == [{"name": "description", "content": DESCRIPTION}]
        title = re.search(r"<title>(.*?)</title>", page.source, flags=re.DOTALL)[1]
        assert html.unescape(title).startswith(TITLE)
    if path == "index.html":
        assert DESCRIPTION in page.text  # the home page's list of articles


def test_front_matter_never_runs_or_redirects_in_the_browser(browser, hostile_front_matter: Path) -> None:
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    with StaticServer(hostile_front_matter) as served:
        for path in ("", "hostile/"):
            page.goto(served.url + path)
            page.wait_for_timeout(700)
            assert page.url == served.url + path
            assert page.evaluate("window.__pwned") is None
    context.close()


def page_source(payload: Payload) -> tuple[str, range]:
    """A page carrying `payload`, and the lines the payload takes in it."""
    head = "---\ntitle: Side\n---\n\n# Side { #side }\n\nIntro.\n\n"
    first = head.count("\n") + 1
    return f"{head}{payload.markdown}\n\nEnd.\n", range(first, first + payload.markdown.count("\n") + 1)


def page_problems(source: str) -> list:
    """What the build says about a page whose file is `source`, as the plugin calls the policy."""
    body, _meta = get_data(source)
    return content_policy.page_problems(rendered(body), source, "docs/hostile.md", OWN_HOST,
                                        first_line=embed.body_start_line(source))


@pytest.mark.parametrize("payload", ISSUE + CORPUS, ids=[p.name for p in ISSUE + CORPUS])
def test_every_hostile_payload_is_refused_at_its_lines(payload: Payload) -> None:
    source, lines = page_source(payload)
    problems = page_problems(source)
    assert problems, f"{payload.name} passed the content policy"
    assert {problem.line for problem in problems} <= set(lines), [str(problem) for problem in problems]
    assert all(problem.file == "docs/hostile.md" for problem in problems)


@pytest.mark.parametrize("payload", SAFE, ids=[p.name for p in SAFE])
def test_what_editors_write_passes(payload: Payload) -> None:
    body = payload.markdown
    assert content_policy.violations(rendered(body, "footnotes", "def_list", "abbr"), OWN_HOST) == []


@pytest.mark.parametrize("page", sorted((ROOT / "docs").glob("*.md")), ids=lambda page: page.name)
def test_the_real_pages_pass_as_the_build_renders_them(page: Path) -> None:
    # The widgets our code makes stand as tokens in the checked HTML (content_policy.standing_for).
    source = page.read_text(encoding="utf-8")
    written, _meta = get_data(source)
    lang = "fr" if page.name.endswith(".fr.md") else "da"
    html, widgets, problems = rendered_page(source, lang, f"docs/{page.name}")
    assert problems == []
    assert len(widgets) == len(embed.find_embeds(written, f"docs/{page.name}"))
    checked, tokens = content_policy.standing_for(html, widgets)
    assert content_policy.page_problems(checked, source, f"docs/{page.name}", "wiki.kentino.com", tokens) == []


def test_a_calculator_fence_hidden_in_a_comment_is_refused_at_its_line() -> None:
    source = "# Side\n\nIntro.\n\n<!--\n```calculator vram_fit\n```\n-->\n"
    html, widgets, problems = rendered_page(source, "da", "docs/hostile.md")
    assert problems == [] and len(widgets) == 1  # SuperFences renders it, into the comment
    checked, tokens = content_policy.standing_for(html, widgets)
    (found,) = content_policy.page_problems(checked, source, "docs/hostile.md", OWN_HOST, tokens)
    assert "inside an HTML tag or comment" in found.message


def test_a_widget_goes_only_where_its_placeholder_is_text() -> None:
    token = "kwembed0x0123456789abcdef"
    assert content_policy.violations(f"<p>{token}</p>", placeholders=[token]) == []
    for hidden in (f'<p title="{token}">x</p>', f"<!-- {token} -->", f'<a href="#{token}">x</a>'):
        (found,) = content_policy.violations(hidden, placeholders=[token])
        assert found.needles == (token,)


@pytest.mark.parametrize(("value", "scheme", "host"), [
    ("java\tscript:alert(1)", "javascript", None),
    ("\x01\x02 javascript:alert(1)", "javascript", None),
    ("jav\nascript:alert(1)", "javascript", None),
    ("  JAVASCRIPT:alert(1)  ", "javascript", None),
    ("data:image/png;base64,AAAA", "data", None),
    ("img/figure.png", None, None),
    ("#section", None, None),
    ("//Example.ORG./p.png", None, "example.org"),
    ("\\\\example.org\\p.png", None, "example.org"),
    ("/\\example.org/p.png", None, "example.org"),
    ("https://user:pw@Example.org:8443/p.png", "https", "example.org"),
    ("http:\\\\example.org/p.png", "http", "example.org"),
    ("https://[::1]:8000/p.png", "https", "[::1]"),
])
def test_urls_are_read_as_the_whatwg_url_parser_reads_them(value: str, scheme: str | None, host: str | None) -> None:
    url = content_policy.clean_url(value)
    assert content_policy.url_scheme(url) == scheme
    assert content_policy.url_host(url) == host


def test_images_from_the_sites_own_host_pass_and_from_others_do_not() -> None:
    own = '<img src="https://wiki.example/img/x.png" alt="x"><img src="//wiki.example/y.png" alt="y">'
    assert content_policy.violations(own, "wiki.example") == []
    assert len(content_policy.violations(own, "other.example")) == 2
    assert len(content_policy.violations(own, None)) == 2


def _elements_seen_by_the_policy(text: str) -> list[tuple]:
    parser = content_policy._Parser(tree=content_policy._Builder)
    fragment = parser.parseFragment(text, container="div", scripting=True)
    return sorted((*content_policy._split(node.tag), tuple(sorted(
        (content_policy._attribute_name(key), value) for key, value in node.attrib.items())))
        for node in content_policy._walk(fragment))


def _elements_seen_by_html5lib_dom(text: str) -> list[tuple]:
    fragment = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("dom")).parseFragment(
        text, container="div", scripting=True)
    seen = []

    def walk(node: object) -> None:
        for child in node.childNodes:
            if child.nodeType == child.ELEMENT_NODE:
                attributes = [child.attributes.item(i) for i in range(child.attributes.length)]
                seen.append((child.namespaceURI or content_policy.HTML, child.localName or child.tagName, tuple(sorted(
                    ((f"{a.prefix}:" if a.prefix else "") + (a.localName or a.name), a.value) for a in attributes))))
            walk(child)

    walk(fragment)
    return sorted(seen)


@pytest.mark.parametrize("payload", ISSUE + CORPUS + SAFE, ids=[p.name for p in ISSUE + CORPUS + SAFE])
def test_the_policy_sees_every_element_the_parser_makes(payload: Payload) -> None:
    # html5lib's ElementTree builder drops foster-parented nodes from a fragment; the policy's mends that.
    text = rendered(payload.markdown)
    assert _elements_seen_by_the_policy(text) == _elements_seen_by_html5lib_dom(text)


PIECES = ["<table>", "</table>", "<tr>", "<td>", "<svg>", "</svg>", "<math>", "<mtext>", "<mglyph>", "<style>",
          "</style>", "<select>", "<template>", "<noscript>", "</noscript>", "<p>", "</p>", "<b>", "</b>", "<a href=x>",
          "</a>", "<img src=x onerror=alert(1)>", "<!--", "-->", "<![CDATA[", "]]>", "<title>", "<desc>", "text",
          '"', "'", "<form>", "</form>", "<textarea>", "<foreignObject>", "<div>", "</div>", "&lt;", "&#106;", "<"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14))
@example(["<", "text", "<img src=x onerror=alert(1)>"])  # an element "text<img" with an onerror= (found by a run)
def test_any_markup_is_decided_without_error_and_seen_whole(pieces: list[str]) -> None:
    text = "".join(pieces)
    found = content_policy.violations(text, OWN_HOST)
    seen = _elements_seen_by_the_policy(text)
    assert seen == _elements_seen_by_html5lib_dom(text)
    if any(attributes for _namespace, _name, attributes in seen if "onerror" in dict(attributes)):
        assert any("onerror" in f.what for f in found)


def test_hostile_pages_in_both_languages_are_all_reported_in_one_check(tmp_path: Path) -> None:
    copy_project(tmp_path)
    pages = {}
    for name in ("hostile.md", "hostile.fr.md"):
        body = "\n\n".join(payload.markdown for payload in ISSUE)
        pages[name] = f"---\ntitle: Side\n---\n\n# Side {{ #side }}\n\nIntro.\n\n{body}\n\nEnd.\n"
    with_pages(tmp_path, pages)
    findings = strict_build.check(Project(root=tmp_path), tmp_path / "site")
    for name, text in pages.items():
        lines = text.split("\n")
        for payload in ISSUE:
            first = lines.index(payload.markdown.split("\n")[0]) + 1
            where = {f.line for f in findings if f.file == f"docs/{name}"}
            assert where & set(range(first, first + payload.markdown.count("\n") + 1)), (name, payload.name)
    assert {f.file for f in findings} == {"docs/hostile.md", "docs/hostile.fr.md"}
    assert all(f.line and "is not allowed in a page" in f.message for f in findings), findings

