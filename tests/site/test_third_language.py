"""A third language is one change: its entry in mkdocs.yml's i18n plugin and its catalog.

A copy of the project gets German (`de`) next to Danish and French, and one page with a calculator in
Danish and German. Nothing else is touched: the build, the runtime (catalogs, Babel's CLDR data, the
snapshot's warm-up) and the page script take the language from mkdocs.yml.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from harness.server import StaticServer
from harness.site import copy_project, runtime_config
from tests.conftest import build_site
from tests.support.project import add_language, view_in, with_pages

pytestmark = pytest.mark.browser

PAGE = """---
title: {title}
description: {title}.
---

# {title} {{ #calc }}

```calculator vram_fit
model: llama-3.1-405b
precision: fp8
context: 16384
```
"""


@pytest.fixture(scope="module")
def german(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("third-language")
    copy_project(root)
    add_language(root, "de", "Deutsch")
    with_pages(root, {"calc.md": PAGE.format(title="Regner"), "calc.de.md": PAGE.format(title="Rechner")})
    result = build_site(root / "site", root / "mkdocs.yml")
    assert result.returncode == 0, result.stderr
    return root


def outputs(page, selector: str) -> dict[str, str]:
    return page.evaluate("""(selector) => Object.fromEntries([...document.querySelectorAll(
        `${selector} [data-output]`)].map((e) => [e.dataset.output, e.textContent]))""", selector)


def test_the_runtime_carries_the_third_language(german: Path) -> None:
    site = german / "site"
    wheels = {Path(url).name.split("-")[0]: site / url for url in runtime_config(site, "de/calc/")["wheels"]}
    with zipfile.ZipFile(wheels["babel"]) as babel:
        assert "babel/locale-data/de.dat" in babel.namelist()
    with zipfile.ZipFile(wheels["kentino_wiki_runtime"]) as app:
        assert "widgets/locales/de/LC_MESSAGES/messages.mo" in app.namelist()


def test_the_third_language_has_its_own_error_page(german: Path) -> None:
    """/de/404.html is written in the German build (wiki/error_pages.py) and the service worker serves it
    for a missing page under /de/; the other two stay as they were."""
    site = german / "site"
    langs = {path: re.search(r'<html lang="([^"]+)"', (site / path).read_text(encoding="utf-8"))[1]
             for path in ("404.html", "fr/404.html", "de/404.html")}
    assert langs == {"404.html": "da", "fr/404.html": "fr", "de/404.html": "de"}
    assert '<a href="../de/"' in (site / "de/404.html").read_text(encoding="utf-8")  # home: the German one
    build = json.loads(re.match(r"const BUILD = (.*);\n", (site / "sw.js").read_text(encoding="utf-8"))[1])
    assert build["notFound"] == {"": "404.html", "fr/": "fr/404.html", "de/": "de/404.html"}


def test_a_widget_prerenders_and_runs_live_in_the_third_language(browser, german: Path) -> None:
    expected = view_in(german, "vram_fit", {"model": "llama-3.1-405b", "precision": "fp8", "context": 16384}, "de")
    assert expected["ok"] and expected["inputs"]["context"] == "16.384"  # German digits, from CLDR
    context = browser.new_context(service_workers="block", bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    with StaticServer(german / "site") as served:
        page.goto(served.url + "de/calc/")
        assert page.locator("html").get_attribute("lang") == "de"
        widget = '[data-calculator="vram_fit"]'
        shown = outputs(page, widget)
        for key, text in expected["outputs"].items():
            assert shown[key] == text, key
        page.locator(f'{widget} [name="context"]').fill("12.288")  # typed the German way
        live = view_in(german, "vram_fit", {"model": "llama-3.1-405b", "precision": "fp8", "context": "12.288"}, "de")
        assert live["ok"] and live["outputs"] != expected["outputs"]
        page.wait_for_function("""([selector, text]) => document.querySelector(
            `${selector} [data-output="explanation"]`).textContent === text""",
                               arg=[widget, live["explanation"]], timeout=90000)
        shown = outputs(page, widget)
        for key, text in live["outputs"].items():
            assert shown[key] == text, key
        assert page.locator(widget).get_attribute("data-state") == "ready"
        context.close()  # before the server stops: the snapshot may still be on its way to the HTTP cache
    assert errors == []
