"""A problem the build stops on, about one file, as data: never a "path:line: msg" string parsed back.

When the environment variable `KW_BUILD_REPORT` names a file (`wiki/checks/strict_build.py` sets it),
the build's plugin append every problem to it as they find it, one JSON object per line: the build goes
on through every page of every language and fails once at its end, so one run reports them all, and a
build that stops early for another reason still leaves what it found. The check reads them back as
they were made. MkDocs' log is then read for MkDocs' own warnings only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

REPORT_ENV = "KW_BUILD_REPORT"


@dataclass(frozen=True)
class Problem:
    """Where (a path relative to the project, its line when known) and what to do."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


def record(problems: Iterable[Problem]) -> None:
    """Append `problems` to the report file named by `KW_BUILD_REPORT`, if any."""
    path = os.environ.get(REPORT_ENV)
    if not path:
        return
    with open(path, "a", encoding="utf-8") as report:
        for problem in problems:
            report.write(json.dumps(asdict(problem), ensure_ascii=False) + "\n")


def read_report(path: Path) -> list[Problem]:
    """The problems a build recorded in `path` (none when it has not been written)."""
    if not path.exists():
        return []
    return [Problem(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
