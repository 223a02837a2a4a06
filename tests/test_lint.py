"""The code is ruff clean (the same configuration as pyproject.toml), and the JavaScript type-checks from
its JSDoc with tsc (typescript, pinned in package.json): the page's scripts, the calculators' worker
and the service worker, each against its own globals; ESLint (pinned too, eslint.config.mjs) passes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

TSC = ROOT / "node_modules" / ".bin" / "tsc"
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def test_ruff_is_clean() -> None:
    cmd = [sys.executable, "-m", "ruff", "check", "."]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("project", ["tsconfig.json", "tsconfig.workers.json", "tsconfig.sw.json"])
def test_the_javascript_type_checks(project: str) -> None:
    result = subprocess.run([str(TSC), "-p", project, "--pretty", "false"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def eslint(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ESLINT), *args], cwd=ROOT, input=stdin, capture_output=True, text=True)


def test_the_javascript_lints() -> None:
    result = eslint(".", "--max-warnings", "0")
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_refuses_a_silent_catch_and_an_unused_name() -> None:
    """The rules the page's scripts are held to: a `catch` says why it is silent, nothing unused."""
    source = "const unused = 1;\ntry { globalThis.fetch('x'); } catch (error) {}\n"
    result = eslint("--stdin", "--stdin-filename", "overrides/assets/javascripts/probe.js", "--format", "json",
                    stdin=source)
    rules = {m["ruleId"] for m in json.loads(result.stdout)[0]["messages"]}
    assert result.returncode == 1 and {"no-empty", "no-unused-vars"} <= rules
