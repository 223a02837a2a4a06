"""The embed scanner reads Markdown's blocks: a calculator fence shown as an example stays code, one indented
under a list item is a widget. The build and the checks share the scanner (wiki.embed.find_embeds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.site import copy_project
from tests.conftest import build_site
from tests.support.html import Page
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


@pytest.mark.parametrize(("markdown", "found"), [
    ("~~~\n```calculator vram_fit\n```\n~~~\n", []),
    ("```calculator vram_fit\n```\n", [("vram_fit", 1, {})]),
    ("   ```calculator vram_fit\n   ```\n", [("vram_fit", 1, {})]),
    ("Text\n\n    ```calculator vram_fit\n    ```\n", []),
    ("!!! note\n\n    ```calculator vram_fit\n    gpus: 2\n    ```\n", [("vram_fit", 3, {"gpus": 2})]),
    ("- item\n\n        ```calculator vram_fit\n        ```\n", []),  # code inside the list item
])
def test_fences_as_python_markdown_reads_them(markdown: str, found: list) -> None:
    assert kinds(markdown) == found


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
