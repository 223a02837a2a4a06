"""Edits of a throwaway copy of the project (`harness.site.copy_project`), for tests that build it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from harness.site import copy_project


def with_pages(root: Path, pages: dict[str, str]) -> None:
    """Replace the copied articles by `pages` (file name under docs/ -> text) and put them in the nav.

    The home pages stay (the calculator pages go: they link to the articles); the nav lists `index.md` and
    every page of the default language given.
    """
    for page in (root / "docs").rglob("*.md"):  # the articles, and the calculator pages that link to them
        if page.parent != root / "docs" or not page.name.startswith("index."):
            page.unlink()
    for name, text in pages.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    nav = "".join(f"  - {name}\n" for name in pages if name.count(".") == 1)
    config = root / "mkdocs.yml"
    config.write_text(re.sub(r"^nav:\n(?:[ \t]+- .*\n)+", f"nav:\n  - index.md\n{nav}",
                             config.read_text(encoding="utf-8"), flags=re.MULTILINE), encoding="utf-8")


def add_language(root: Path, locale: str, name: str) -> None:
    """Declare one more language in the copy's mkdocs.yml (the i18n plugin, the one place for it) and give
    it a complete catalog whose translations are the English msgids."""
    config = root / "mkdocs.yml"
    entry = f"        - locale: {locale}\n          name: {name}\n          build: true\n"
    text = config.read_text(encoding="utf-8")
    # After the last line of the i18n plugin's `languages:` list (the lines indented deeper than it).
    listed = re.search(r"^(?P<indent>[ \t]*)languages:\n(?:(?P=indent)[ \t]+\S.*\n)+", text, flags=re.MULTILINE)
    assert listed, "mkdocs.yml declares the languages in the i18n plugin's `languages:` list"
    config.write_text(text[:listed.end()] + entry + text[listed.end():], encoding="utf-8")
    with (root / "i18n" / "messages.pot").open("rb") as handle:
        template = read_po(handle)
    catalog = Catalog(locale=locale)
    for message in template:
        if message.id:
            catalog.add(message.id, message.id)
    target = root / "i18n" / locale / "LC_MESSAGES" / "messages.po"
    target.parent.mkdir(parents=True)
    with target.open("wb") as handle:
        write_po(handle, catalog)


def view_in(root: Path, name: str, inputs: dict[str, Any], lang: str) -> dict[str, Any]:
    """`widgets.view.view` as the copy at `root` computes it (its calculators, widgets and compiled catalogs)."""
    code = ("import json, sys; from widgets import view; "
            "print(json.dumps(view(*json.loads(sys.stdin.read()))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=root, input=json.dumps([name, inputs, lang]),
                            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(root)})
    return json.loads(result.stdout)


def full_copy(target: Path) -> Path:
    """A copy of the whole project as CI checks it out: what the build reads (`copy_project`), the claims
    ledger, the corrections record, the project's and pytest's configuration, the tests, the harness and the
    maintainers' documents they read; `node_modules` and the runtime cache linked."""
    from harness.site import ROOT, copy_project

    config = copy_project(target)
    for name in ("claims.yml", "CORRECTIONS.md", "README.md", "pyproject.toml"):
        shutil.copy(ROOT / name, target / name)
    for name in ("tests", "harness", "docs-dev"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
    return config


def project_with_page(root: Path, front_matter: str, body: str) -> Path:
    """A copy of the project whose only article is `docs/hostile.md`; returns its mkdocs.yml."""
    config = copy_project(root)
    for page in (root / "docs").rglob("*.md"):  # the articles and the calculator pages, not the home pages
        if page.parent != root / "docs" or not page.name.startswith("index."):
            page.unlink()
    (root / "docs" / "hostile.md").write_text(f"---\n{front_matter}---\n\n# Side {{ #side }}\n\n{body}\n",
                                              encoding="utf-8")
    text = re.sub(r"^nav:\n(?:[ \t]+- .*\n)+", "nav:\n  - index.md\n  - hostile.md\n",
                  config.read_text(encoding="utf-8"), flags=re.MULTILINE)
    config.write_text(text, encoding="utf-8")
    return config
