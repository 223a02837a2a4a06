"""Strict build: `mkdocs build --strict` of both languages into a folder, its warnings and errors as findings.

MkDocs runs in a child process with the virtual environment's Python, exactly like `build.py build`,
so a warning (a broken link, a missing page, a broken calculator embed, an incomplete catalog) fails it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from wiki.checks import Finding
from wiki.checks.project import Project

NAME = "build"
LEVEL = re.compile(r"^(?:WARNING|ERROR)\s+-\s+(?P<message>.*)$")
SOURCE_LINE = re.compile(r"(?P<file>docs/[^\s:'\"]+\.md):(?P<line>\d+): (?P<message>.*)")
DOC_FILE = re.compile(r"Doc file '(?P<file>[^']+\.md)'")
LINK = re.compile(r"contains (?:a link|an absolute link) '(?P<link>[^']+)'")
ITEM = re.compile(r"^\s+(?P<file>[\w./-]+):(?P<line>\d+)?:? (?P<message>.*)$")


def build(project: Project, target: Path) -> subprocess.CompletedProcess[str]:
    """Run the strict build of `project` into `target`; return the finished process."""
    config = project.mkdocs_yml
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
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


def findings_from(output: str, project: Project) -> list[Finding]:
    """MkDocs' warnings and errors as findings, with the page and line when the message names them."""
    findings = []
    lines = output.splitlines()
    for index, text in enumerate(lines):
        level = LEVEL.match(text.strip())
        if not level:
            continue
        message = level["message"]
        source = SOURCE_LINE.search(message)
        if source:
            prefix = message[:source.start()].strip()  # "Broken calculator embed:"
            findings.append(Finding(NAME, source["file"], int(source["line"]),
                                    f"{prefix} {source['message']}".strip()))
            continue
        doc = DOC_FILE.search(message)
        if doc:
            findings.append(Finding(NAME, project.rel(project.docs / doc["file"]),
                                    _link_line(project.docs / doc["file"], message), message))
            continue
        # A plugin error lists its problems on the next lines, indented ("  path:line: ...").
        items = []
        for follow in lines[index + 1:]:
            item = ITEM.match(follow)
            if not item or LEVEL.match(follow.strip()):
                break
            items.append(Finding(NAME, item["file"], int(item["line"]) if item["line"] else None, item["message"]))
        if items or message.endswith(":"):
            findings += items  # a heading such as "Error reading page 'x.md':" is followed by the error itself
        else:
            findings.append(Finding(NAME, project.rel(project.mkdocs_yml), None, message))
    return findings


def check(project: Project, target: Path) -> list[Finding]:
    """Build `project` strictly into `target`; a failed build without a readable warning is still reported."""
    result = build(project, target)
    output = result.stdout + "\n" + result.stderr
    findings = findings_from(output, project)
    if result.returncode != 0 and not findings:
        tail = " | ".join(line.strip() for line in output.strip().splitlines()[-5:])
        findings.append(Finding(NAME, project.rel(project.mkdocs_yml), None,
                                f"the strict build failed (exit {result.returncode}): {tail}"))
    return findings
