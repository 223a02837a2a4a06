"""The embed scanner reads Markdown's blocks: a calculator fence shown as an example stays code, one indented
under a list item is a widget. The build renders fences through SuperFences (wiki/fences.py) and the checks
read them with the scanner (wiki.embed.find_embeds): the two agree, or the build says where they do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.site import copy_project
from tests.conftest import build_site
from tests.support.html import Page
from tests.support.markdown import rendered_page
from tests.support.project import with_pages
from wiki.embed import find_embeds

PAGE = """---
title: Eksempler
description: Eksempler.
---

# Eksempler {{ #examples }}

Sådan skriver man en regner:

````markdown
```calculator vram_fit
gpus: 4
```
````

    ```calculator vram_fit
    gpus: 2
    ```

1. Først en node:

    ```calculator vram_fit
    gpus: {gpus}
    ```

2. Så to.
"""


def kinds(markdown: str) -> list[tuple[str, int, dict]]:
    return [(e.name, e.line, e.presets) for _, _, e in find_embeds(markdown, "x.md")]


def test_the_scanner_skips_code_and_reads_list_items() -> None:
    # the example (lines 11-13) and the indented code block (16-18) are code; the list item's fence (22) is not
    assert kinds(PAGE.format(gpus=8)) == [("vram_fit", 22, {"gpus": 8})]


NESTING = [
    ("~~~\n```calculator vram_fit\n```\n~~~\n", []),
    ("```calculator vram_fit\n```\n", [("vram_fit", 1, {})]),
    ("   ```calculator vram_fit\n   ```\n", [("vram_fit", 1, {})]),
    ("Text\n\n    ```calculator vram_fit\n    ```\n", []),
    ("!!! note\n\n    ```calculator vram_fit\n    gpus: 2\n    ```\n", [("vram_fit", 3, {"gpus": 2})]),
    ("- item\n\n        ```calculator vram_fit\n        ```\n", []),  # code inside the list item
    ("- item\n\n  ```calculator vram_fit\n  ```\n", [("vram_fit", 3, {})]),
    ("Text\n```calculator vram_fit\n```\n", [("vram_fit", 2, {})]),
    # the same fence shown as indented code, then as a widget: one widget
    ("    ```calculator vram_fit\n    gpus: 2\n    ```\n\n```calculator vram_fit\ngpus: 2\n```\n",
     [("vram_fit", 5, {"gpus": 2})]),
]


@pytest.mark.parametrize(("markdown", "found"), NESTING)
def test_the_build_renders_the_fences_the_scanner_reads(markdown: str, found: list) -> None:
    assert kinds(markdown) == found
    html, widgets, problems = rendered_page(markdown, "da", "docs/x.md")
    assert problems == []
    assert len(widgets) == html.count('data-calculator="vram_fit"') == len(found)


def test_a_fence_the_scanner_does_not_read_is_a_problem_at_its_line() -> None:
    html, widgets, problems = rendered_page("Text\n\n> quote\n>\n> ```calculator vram_fit\n> ```\n", "da", "docs/x.md")
    assert (widgets, html.count("data-calculator")) == ([], 0)
    assert [(problem.file, problem.line) for problem in problems] == [("docs/x.md", 5)]
    assert "quote" in problems[0].message


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("embed-nesting")
    copy_project(root)
    with_pages(root, {"eksempler.md": PAGE.format(gpus=8), "eksempler.fr.md": PAGE.format(gpus=8)})
    result = build_site(root / "site", root / "mkdocs.yml")
    assert result.returncode == 0, result.stderr
    return root / "site"


def test_an_example_fence_stays_code_and_a_list_items_fence_renders(built: Path) -> None:
    page = Page(built / "eksempler" / "index.html")
    widgets = page.find("div", **{"data-calculator": "vram_fit"})
    assert len(widgets) == 1  # only the list item's
    assert "```calculator vram_fit" in page.text  # the example and the indented code block, shown as code
    source = page.source
    item = source.index("<li>")
    assert item < source.index('data-calculator="vram_fit"') < source.index("</li>", item)
    assert 'value="8"' in source[source.index('data-calculator="vram_fit"'):]  # its preset, gpus: 8
