"""The layers import only downwards: calculators <- widgets <- wiki (the build) <- wiki.checks (the editors'
checks); tests and benchmarks share `harness/` and never import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

# package (a folder of the repository) -> top-level modules it must not import
FORBIDDEN = {
    "calculators": {"widgets", "wiki", "tests", "benchmarks", "harness"},
    "widgets": {"wiki", "tests", "benchmarks", "harness"},
    "harness": {"tests", "benchmarks"},
    "benchmarks": {"tests"},
    "tests": {"benchmarks"},
}


def imported(path: Path) -> set[str]:
    """The dotted names a module imports (absolute imports only; relative ones stay in their package)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.parametrize("package", list(FORBIDDEN))
def test_a_layer_does_not_import_the_ones_above_it(package: str) -> None:
    wrong = [f"{path.relative_to(ROOT)}: {name}" for path in sorted((ROOT / package).rglob("*.py"))
             for name in imported(path) if name.split(".")[0] in FORBIDDEN[package]]
    assert wrong == []


def test_the_build_does_not_import_the_editors_checks() -> None:
    build = [p for p in (ROOT / "wiki").glob("*.py")]
    wrong = [f"{path.relative_to(ROOT)}: {name}" for path in build for name in imported(path)
             if name == "wiki.checks" or name.startswith("wiki.checks.")]
    assert build and wrong == []
