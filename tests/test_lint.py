"""The code is ruff clean (the same configuration as pyproject.toml), and the JavaScript type-checks from
its JSDoc with tsc (typescript, pinned in package.json): the page's scripts, the calculators' worker
and the service worker, each against its own globals."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

TSC = ROOT / "node_modules" / ".bin" / "tsc"


def test_ruff_is_clean() -> None:
    cmd = [sys.executable, "-m", "ruff", "check", "."]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("project", ["tsconfig.json", "tsconfig.workers.json", "tsconfig.sw.json"])
def test_the_javascript_type_checks(project: str) -> None:
    result = subprocess.run([str(TSC), "-p", project, "--pretty", "false"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
