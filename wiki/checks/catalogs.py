"""Catalogs: a thin adapter over `wiki.catalogs.check` (every msgid translated, none fuzzy, same placeholders)."""

from __future__ import annotations

import re

from wiki import catalogs
from wiki.checks import Finding
from wiki.checks.project import Project

NAME = "catalogs"
WHERE = re.compile(r"^(?P<file>[^:\s]+?)(?::(?P<line>\d+))?: (?P<message>.*)$", re.DOTALL)


def parse(problem: str) -> Finding:
    """Turn one `path:line: message` line of `wiki.catalogs.check` into a finding."""
    match = WHERE.match(problem)
    if not match:
        return Finding(NAME, "i18n", None, problem)
    line = int(match["line"]) if match["line"] else None
    return Finding(NAME, match["file"], line, match["message"])


def check(project: Project) -> list[Finding]:
    """The catalog problems of every language of `project`, one finding each."""
    return [parse(problem) for problem in catalogs.check(project.languages)]
