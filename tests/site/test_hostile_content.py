"""A hostile page or front matter: the build either refuses it with file:line, or renders it inert.

A small project (the home page and one page, no calculator) is built from a copy of the repository's
theme, hooks and config, so each case costs a few seconds.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.conftest import build_site
from tests.support.html import Page
from harness.site import copy_project
from harness.server import StaticServer
from wiki import csp

TITLE = 'Quote " and </title><script>window.__pwned=1</script> end'
DESCRIPTION = ('"><meta http-equiv="refresh" content="0;url=https://example.org/">'
               "<script>window.__pwned=2</script><img src=x onerror=window.__pwned=3>")
# (Markdown line, what the build reports); each alone on its line of the page body.
ACTIVE = [
    ("<script>window.__pwned=4</script>", "a <script> element"),
    ('<img src="x.png" onerror="window.__pwned=5">', "an event-handler attribute onerror="),
    ('<meta http-equiv="refresh" content="0;url=https://example.org/">', "a <meta> element"),
    ('<a href="javascript:window.__pwned=6">link</a>', "a script URL in href="),
    ('<iframe src="https://example.org/"></iframe>', "a <iframe> element"),
    ('<base href="https://example.org/">', "a <base> element"),
]


def project_with_page(root: Path, front_matter: str, body: str) -> Path:
    """A copy of the project whose only article is `docs/hostile.md`; returns its mkdocs.yml."""
    config = copy_project(root)
    for page in (root / "docs").glob("*.md"):
        if not page.name.startswith("index."):
            page.unlink()
    (root / "docs" / "hostile.md").write_text(f"---\n{front_matter}---\n\n# Side {{ #side }}\n\n{body}\n",
                                              encoding="utf-8")
    text = re.sub(r"^nav:\n(?:[ \t]+- .*\n)+", "nav:\n  - index.md\n  - hostile.md\n",
                  config.read_text(encoding="utf-8"), flags=re.MULTILINE)
    config.write_text(text, encoding="utf-8")
    return config


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


def test_active_content_in_a_page_fails_the_build_with_file_and_line(tmp_path: Path) -> None:
    body = "Intro.\n\n" + "\n\n".join(line for line, _ in ACTIVE)
    config = project_with_page(tmp_path, "title: Side\n", body)
    result = build_site(tmp_path / "site", config)
    assert result.returncode != 0
    source = (tmp_path / "docs" / "hostile.md").read_text(encoding="utf-8").splitlines()
    for line, what in ACTIVE:
        number = source.index(line) + 1
        assert f"docs/hostile.md:{number}: {what}" in result.stderr, result.stderr
