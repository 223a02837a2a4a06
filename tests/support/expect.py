"""One way to write an expected value, for every data-driven test: the calculators' cases
(`tests/calculators/cases.py`, also run inside Pyodide), the verdict semantics and the buyer scenarios
(`tests/calculators/scenarios.yml`). Standard library only.

An expectation is a plain value (equal; a bool only as itself; a float within 1e-9 relative), or a mapping
of conditions that must all hold:

  approx: x, tol: t     |x - shown| <= t (t: 1e-9 if left out)
  within: [low, high]   low <= shown <= high
  at_least: x           shown >= x
  at_most: x            shown <= x
  above: x              shown > x
  below: x              shown < x
  one_of: [a, b, ...]   shown is one of them (any kind of value)

Every condition but `one_of` wants a number (a bool is not one). An unknown key is an error, not a pass.
"""

from __future__ import annotations

import math
from typing import Any

NUMERIC = {
    "approx": lambda shown, want, spec: abs(shown - want) <= spec.get("tol", 1e-9),
    "within": lambda shown, want, spec: want[0] <= shown <= want[1],
    "at_least": lambda shown, want, spec: shown >= want,
    "at_most": lambda shown, want, spec: shown <= want,
    "above": lambda shown, want, spec: shown > want,
    "below": lambda shown, want, spec: shown < want,
}
KEYS = {*NUMERIC, "tol", "one_of"}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def meets(shown: Any, expected: Any) -> bool:
    """Whether `shown` meets `expected` (a plain value or a mapping of conditions, above)."""
    if isinstance(expected, dict):
        unknown = set(expected) - KEYS
        if unknown:
            raise ValueError(f"unknown expectation {sorted(unknown)}: write one of {sorted(KEYS)}")
        if "one_of" in expected and not any(meets(shown, option) for option in expected["one_of"]):
            return False
        conditions = [key for key in expected if key in NUMERIC]
        if conditions and not _number(shown):
            return False
        return all(NUMERIC[key](shown, expected[key], expected) for key in conditions)
    if isinstance(expected, bool) or isinstance(shown, bool):
        return shown is expected
    if isinstance(expected, float) or isinstance(shown, float):
        return _number(shown) and math.isclose(shown, expected, rel_tol=1e-9)
    return shown == expected
