"""Strict build: `mkdocs build --strict` of both languages into a folder, its warnings and errors as findings.

MkDocs runs in a child process with the virtual environment's Python, exactly like `build.py build`,
so a warning (a broken link, a missing page, a broken calculator embed, an incomplete catalog) fails it.
The problems our plugin finds (embeds, catalogs, the content policy), in every page of both languages in
one run, come back as data through the report file of `wiki/problems.py`; MkDocs' log is read for
MkDocs' own warnings (links, pages).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from wiki.checks.finding import Finding
from wiki.checks.project import Project
from wiki.problems import REPORT_ENV, read_report

NAME = "build"
LEVEL = re.compile(r"^(?:WARNING|ERROR)\s+-\s+(?P<message>.*)$")
DOC_FILE = re.compile(r"Doc file '(?P<file>[^']+\.md)'")
LINK = re.compile(r"contains (?:a link|an absolute link) '(?P<link>[^']+)'")


def build(project: Project, target: Path, report: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the strict build of `project` into `target` (its plugin's problems into `report`); return the process."""
    config = project.mkdocs_yml
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **({REPORT_ENV: str(report)} if report else {})}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
         "--site-dir", str(target)],
        cwd=config.parent, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )


def _link_line(page: Path, message: str) -> int | None:
    """The line of `page` holding the link a warning names, when it appears there exactly once."""
    link = LINK.search(message)
    if not link or not page.is_file():
        return None
    hits = [n for n, text in enumerate(page.read_text(encoding="utf-8").split("\n"), 1)
            if f"({link['link']}" in text or f"\"{link['link']}\"" in text]
    return hits[0] if len(hits) == 1 else None


def findings_from(output: str, project: Project, skip_errors: bool = False) -> list[Finding]:
    """MkDocs' warnings and errors as findings, with the page and line of a link it names.

    With `skip_errors`, the errors are left out: the build stopped on problems already reported as data.
    """
    findings = []
    for text in output.splitlines():
        level = LEVEL.match(text.strip())
        if not level or (skip_errors and text.strip().startswith("ERROR")):
            continue
        message = level["message"]
        doc = DOC_FILE.search(message)
        if doc:
            findings.append(Finding(NAME, project.rel(project.docs / doc["file"]),
                                    _link_line(project.docs / doc["file"], message), message))
        elif not message.endswith(":"):  # a heading such as "Error reading page 'x.md':" precedes the error
            findings.append(Finding(NAME, project.rel(project.mkdocs_yml), None, message))
    return findings


def check(project: Project, target: Path) -> list[Finding]:
    """Build `project` strictly into `target`; a failed build without a readable warning is still reported."""
    with tempfile.TemporaryDirectory(prefix="kentino-report-") as folder:
        report = Path(folder) / "problems.jsonl"
        result = build(project, target, report)
        recorded = read_report(report)
    output = result.stdout + "\n" + result.stderr
    findings = [Finding(NAME, p.file, p.line, p.message) for p in recorded]
    findings += findings_from(output, project, skip_errors=bool(recorded))
    if result.returncode != 0 and not findings:
        tail = " | ".join(line.strip() for line in output.strip().splitlines()[-5:])
        findings.append(Finding(NAME, project.rel(project.mkdocs_yml), None,
                                f"the strict build failed (exit {result.returncode}): {tail}"))
    return findings
