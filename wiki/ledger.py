"""The claims ledger's calculator checks as plain data, and the test of one, with the standard library only.

`wiki/checks/claims.py` reads `claims.yml` and the prose and turns each claim that names a calculator
into an *expectation*: which calculator, inputs and output, and the test its value must pass, with the
prose number already read (`{"kind": "equal", "target": 768.0, "tol": 0.5}`). This module only runs
calculators and applies those tests, so the same ledger is checked by `python3 build.py check`, by
pytest (`tests/calculators/test_claims.py`) and inside Pyodide under Node
(`tests/pyodide/test_in_pyodide.py`, which copies this file there).

Test kinds: `equal` (target ± tol), `between` (low..high ± tol), `below`, `at_most`, `above`,
`at_least` (against target, tol), `is` (the value equals `want`; numbers within tol).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

RESULT_ROOTS = ("values", "inputs", "verdict", "notes", "ok")
EPS = 1e-9


def result_value(result: dict[str, Any], path: str) -> Any:
    """The value at a dotted path of a calculator result; a bare name is an output (`values.<name>`)."""
    parts = path.split(".")
    value: Any = result if parts[0] in RESULT_ROOTS else result["values"]
    for part in parts:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def is_number(value: Any) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def holds(test: dict[str, Any], value: Any) -> bool:
    """Whether `value` passes `test` (an expectation's test)."""
    kind, tol = test["kind"], float(test.get("tol", 0))
    if kind == "is":
        want = test["want"]
        if isinstance(want, bool) or not isinstance(want, int | float):
            return value == want
        return is_number(value) and abs(value - want) <= tol + EPS
    if not is_number(value):
        return False
    if kind == "between":
        return test["low"] - tol - EPS <= value <= test["high"] + tol + EPS
    target = test["target"]
    return {"equal": abs(value - target) <= tol + EPS, "below": value < target + tol,
            "at_most": value <= target + tol + EPS, "above": value > target - tol,
            "at_least": value >= target - tol - EPS}[kind]


def describe(test: dict[str, Any]) -> str:
    """What a test expects, in words: `768 ± 0.5`, `between 500 and 2000`, `≤ 0.6`."""
    kind, tol = test["kind"], float(test.get("tol", 0))
    if kind == "is":
        want = test["want"]
        numeric = isinstance(want, int | float) and not isinstance(want, bool)
        return f"{want}" + (f" ± {tol:g}" if tol else "") if numeric else repr(want)
    if kind == "equal":
        return f"{test['target']:g} ± {tol:g}"
    if kind == "between":
        return f"between {test['low']:g} and {test['high']:g}"
    words = {"below": "below", "at_most": "≤", "above": "above", "at_least": "≥"}[kind]
    return f"{words} {test['target']:g}"


def failures(expectations: list[dict[str, Any]], run: Callable[[str, dict[str, Any]], dict[str, Any]]) -> list[str]:
    """Run every expectation with `run` (`calculators.run`); one line per claim that does not hold."""
    found = []
    for item in expectations:
        result = run(item["calculator"], item["inputs"])
        if not result.get("ok"):
            found.append(f"{item['id']}: {item['calculator']} refuses {item['inputs']}: {result.get('errors')}")
            continue
        try:
            value = result_value(result, item["value"])
        except (KeyError, IndexError, ValueError, TypeError):
            found.append(f"{item['id']}: {item['calculator']} has no output {item['value']!r}")
            continue
        if not holds(item["test"], value):
            found.append(f"{item['id']}: {item['value']} = {value!r}, the ledger reads {describe(item['test'])}")
    return found
