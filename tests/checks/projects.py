"""Fixture projects for the checks: a fixture folder as a `Project`, buildable with the repository's MkDocs setup."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.conftest import ROOT
from wiki.checks.project import Project

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NAV = re.compile(r"^nav:\n(?:[ \t]+- .*\n)+", re.MULTILINE)


def nav_of(docs: Path) -> list[str]:
    """The nav of a fixture: its Danish pages, the home page first."""
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md") if not re.search(r"\.fr\.md$", p.name))
    return sorted(pages, key=lambda page: (page != "index.md", page))


def buildable(fixture: Path, target: Path) -> Project:
    """Copy a fixture's sources into `target` next to the repository's mkdocs.yml (its own nav) and theme."""
    shutil.copytree(fixture / "docs", target / "docs")
    if (fixture / "claims.yml").exists():
        shutil.copy(fixture / "claims.yml", target / "claims.yml")
    nav = "nav:\n" + "".join(f"  - {page}\n" for page in nav_of(target / "docs"))
    config = NAV.sub(nav, (ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    (target / "mkdocs.yml").write_text(config, encoding="utf-8")
    # The theme's overrides; the plugin (`wiki`) is the installed one, the repository's (pyproject.toml).
    (target / "overrides").symlink_to(ROOT / "overrides", target_is_directory=True)
    return Project(root=target)
