"""Catalogs: a thin adapter over `wiki.catalogs.check` (every msgid translated, none fuzzy, same placeholders)."""

from __future__ import annotations

from wiki import catalogs
from wiki.checks.finding import Finding
from wiki.checks.project import Project

NAME = "catalogs"


def check(project: Project) -> list[Finding]:
    """The catalog problems of every language of `project`, one finding each."""
    return [Finding(NAME, problem.file, problem.line, problem.message) for problem in catalogs.check(project.languages)]
