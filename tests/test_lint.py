"""The code is ruff clean (the same configuration as pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_ruff_is_clean() -> None:
    cmd = [sys.executable, "-m", "ruff", "check", "."]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
