"""A throwaway copy of the project, for tests that break a page on purpose and build it."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import ROOT

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
    for name in ("mkdocs.yml", "pyproject.toml"):
        shutil.copy(ROOT / name, target / name)
    return target / "mkdocs.yml"
