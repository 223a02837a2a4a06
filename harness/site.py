"""The site as the harness handles it: a throwaway copy of the project to build, and what a built page carries."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("docs", "overrides", "wiki", "i18n", "widgets", "calculators")
# Read-only inputs of the build, linked rather than copied: the npm runtime and the runtime cache.
LINKED = ("node_modules", "build")


def copy_project(target: Path) -> Path:
    """Copy what `mkdocs build` reads into `target` and return the copied mkdocs.yml."""
    for name in COPIED:
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "locales"))
    for name in LINKED:
        (ROOT / name).mkdir(exist_ok=True)
        (target / name).symlink_to(ROOT / name, target_is_directory=True)
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    return target / "mkdocs.yml"


RUNTIME = re.compile(r'<script type="application/json" id="kw-runtime"[^>]*>(.*?)</script>', re.DOTALL)


def runtime_config(site: Path, article: str | None = None) -> dict[str, str]:
    """The runtime URLs the build wrote into a page with widgets (relative to the site root): `article`'s, or
    the first such page's (every page carries the same)."""
    pages = [site / article / "index.html"] if article else sorted(site.rglob("index.html"))
    for page in pages:
        found = RUNTIME.search(page.read_text(encoding="utf-8"))
        if found:
            return json.loads(found[1])
    raise LookupError(f"no page of {site} carries the live calculators' runtime")
