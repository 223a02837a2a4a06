"""The calculators and widgets inside Pyodide (Python 3.14, as in the browser) agree with CPython."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.calculators.cases import CASES
from tests.conftest import ROOT
from widgets import view
from wiki import runtime
from wiki.checks.claims import expectations
from wiki.checks.project import Project

HERE = Path(__file__).resolve().parent
LEDGER = expectations(Project())  # claims.yml, the prose numbers read here (YAML and prose parsing stay in CPython)
VIEWS = [
    ("vram_fit", {"model": "llama-3.1-405b", "precision": "fp8"}, "da"),
    ("vram_fit", {"model": "deepseek-v3", "precision": "int4", "gpus": "8", "context": "131.072"}, "da"),
    ("vram_fit", {"model": "custom", "params_b": "13,5", "layers": "40", "gpus": "2"}, "fr"),
    ("vram_fit", {"gpus": "abc", "context": "-1"}, "fr"),
    ("training_memory", {"model": "llama-3.1-70b", "method": "lora", "gpus": "4"}, "fr"),
    ("scaling", {"gpus_per_node": "4", "nodes": "2", "fabric": "eth-100"}, "da"),
    ("decision", {"model": "llama-3.1-405b", "workload": "qlora"}, "fr"),
    ("replicas", {"target_tokens_per_s": "12 000,5", "node_failure_rate": "2,5"}, "fr"),
]
SCRIPT = """
import json, sys
sys.path.insert(0, "/tmp/tests")
print("python", sys.version_info[:2])
from cases import run_cases
print("failures", json.dumps(run_cases()))
import calculators, ledger
print("ledger", json.dumps([len(LEDGER), ledger.failures(LEDGER, calculators.run)]))
from widgets import view
print("views", json.dumps([view(n, i, l) for n, i, l in %s], sort_keys=True))
"""


@pytest.fixture(scope="module")
def pyodide_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    node = shutil.which("node")
    assert node, "Node.js is needed (python3 build.py installs it)"
    prepared = runtime.prepare()
    wheels = sorted(str(p) for p in prepared.app_dir.glob("*.whl"))
    work = tmp_path_factory.mktemp("pyodide")
    script = work / "script.py"
    cases = (ROOT / "tests" / "calculators" / "cases.py").read_text(encoding="utf-8")
    ledger = (ROOT / "wiki" / "ledger.py").read_text(encoding="utf-8")  # standard library only
    expect = (ROOT / "tests" / "support" / "expect.py").read_text(encoding="utf-8")  # what cases.py imports
    script.write_text("import os\nos.makedirs('/tmp/tests/tests/support', exist_ok=True)\n"
                      "open('/tmp/tests/tests/__init__.py', 'w').close()\n"
                      "open('/tmp/tests/tests/support/__init__.py', 'w').close()\n"
                      f"open('/tmp/tests/tests/support/expect.py', 'w').write({expect!r})\n"
                      f"open('/tmp/tests/cases.py', 'w').write({cases!r})\n"
                      f"open('/tmp/tests/ledger.py', 'w').write({ledger!r})\n"
                      f"LEDGER = {json.dumps(LEDGER)!r}\n"
                      "import json as _json\nLEDGER = _json.loads(LEDGER)\n" + SCRIPT % json.dumps(VIEWS),
                      encoding="utf-8")
    result = subprocess.run([node, str(HERE / "run_in_pyodide.mjs"), str(script), *wheels], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    return lines


def test_it_really_is_python_3_14(pyodide_output: dict[str, str]) -> None:
    assert pyodide_output["python"] == "(3, 14)"


def test_the_calculators_claim_cases_pass_inside_pyodide(pyodide_output: dict[str, str]) -> None:
    assert len(CASES) >= 30
    assert json.loads(pyodide_output["failures"]) == []


def test_the_claims_ledger_holds_inside_pyodide(pyodide_output: dict[str, str]) -> None:
    count, failed = json.loads(pyodide_output["ledger"])
    assert count == len(LEDGER) >= 50
    assert failed == []


def test_views_are_identical_in_pyodide_and_cpython(pyodide_output: dict[str, str]) -> None:
    inside = json.loads(pyodide_output["views"])
    here = json.loads(json.dumps([view(n, i, lang) for n, i, lang in VIEWS], sort_keys=True))
    assert inside == here
    assert inside[0]["outputs"]["weights_gb"] == "406 GB"
    assert inside[3]["errors"]["gpus"] == "Saisissez un nombre, par exemple 8."  # the field's default
