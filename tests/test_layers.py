"""The layers import only downwards: calculators <- widgets <- wiki (the build) <- wiki.checks (the editors'
checks); tests and benchmarks share `harness/` and never import each other; no module imports itself in a circle."""

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


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the project modules it imports, anywhere in it (a function's import counts too), relative
    imports resolved; `from package import module` names the module."""
    paths = {_module_name(p): p for pkg in packages for p in (ROOT / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    target = f"{module}.{alias.name}" if f"{module}.{alias.name}" in paths else module
                    if target in paths:
                        found.add(target)
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names if alias.name in paths}
        graph[name] = found - {name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_module_imports_itself_in_a_circle() -> None:
    """The modules form a tree of layers: no circle, not even through an import inside a function."""
    assert _circles(_import_graph(("calculators", "widgets", "wiki", "harness"))) == []


def test_the_circle_test_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_test_modules_share_helpers_through_tests_support_only() -> None:
    """A helper two test modules use lives in tests/support/ (or a fixture in tests/conftest.py); no test
    module imports another."""
    wrong = [f"{path.relative_to(ROOT)}: {name}" for path in sorted((ROOT / "tests").rglob("test_*.py"))
             for name in imported(path) if name.rpartition(".")[2].startswith("test_")
             or any(part.startswith("test_") for part in name.split(".")[:-1])]
    assert wrong == []
