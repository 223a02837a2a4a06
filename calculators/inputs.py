"""Validation and normalization of raw (JSON) inputs against a CalculatorSpec.

Rules (the public contract, also in README.md):
- Missing inputs, and inputs given as ``null``, take their documented default.
- ``int`` fields accept JSON integers and integral floats (8.0 -> 8);
  ``float`` fields accept any JSON number; booleans and strings are not
  numbers. ``bool`` fields accept only true/false. ``choice`` fields accept
  only one of the listed ids (case-sensitive).
- Every field error is reported, in spec order, then unknown names sorted.
"""

import math
from typing import Any

from .spec import CUSTOM_MODEL_GROUP, CalculatorSpec, Input

ERROR_CODES: tuple[str, ...] = (
    "unknown_calculator",  # field None; params {"choices": [calculator names]}
    "invalid_inputs",      # field None; inputs is not a JSON object
    "unknown_input",       # field = the unknown name; params {"choices": [input names]}
    "unknown_choice",      # params {"choices": [allowed ids]}
    "not_a_number",        # a number field got a string, bool, list, object ...
    "not_an_integer",      # an int field got a non-integral number (8.5)
    "not_a_boolean",       # a bool field got anything but true/false
    "not_finite",          # NaN or +-Infinity
    "too_small",           # params {"min": minimum (inclusive)}
    "too_large",           # params {"max": maximum (inclusive)}
    "conflicting_inputs",  # params {"with": other field name}
    "internal_error",      # a bug: the calculator failed; params {}
)


def error(field: str | None, code: str, **params: Any) -> dict[str, Any]:
    """Build an error dict ``{"field", "code", "params"}``."""
    return {"field": field, "code": code, "params": params}


def _check_number(item: Input, value: Any) -> tuple[Any, dict[str, Any] | None]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None, error(item.name, "not_a_number")
    if isinstance(value, float) and not math.isfinite(value):
        return None, error(item.name, "not_finite")
    if item.type == "int" and isinstance(value, float):
        if not value.is_integer():
            return None, error(item.name, "not_an_integer")
    # Compare before converting: a huge int compares exactly with a float bound.
    if item.min is not None and value < item.min:
        return None, error(item.name, "too_small", min=item.min)
    if item.max is not None and value > item.max:
        return None, error(item.name, "too_large", max=item.max)
    return (int(value) if item.type == "int" else float(value)), None


def check_value(item: Input, value: Any) -> tuple[Any, dict[str, Any] | None]:
    """Normalize one value; returns ``(value, None)`` or ``(None, error)``."""
    if item.type == "choice":
        if isinstance(value, str) and item.choices is not None and value in item.choices:
            return value, None
        return None, error(item.name, "unknown_choice", choices=list(item.choices or ()))
    if item.type == "bool":
        if isinstance(value, bool):
            return value, None
        return None, error(item.name, "not_a_boolean")
    return _check_number(item, value)


def normalize(spec: CalculatorSpec, raw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Validate ``raw`` against ``spec``; returns (normalized inputs, errors).

    Custom-model inputs (group ``custom_model``) are validated when given but
    left out of the normalized inputs unless ``model == "custom"``.
    """
    if not isinstance(raw, dict):
        return {}, [error(None, "invalid_inputs")]
    known = {item.name for item in spec.inputs}
    values: dict[str, Any] = {}
    errors: list[dict[str, Any]] = []
    for item in spec.inputs:
        value = raw.get(item.name)
        if value is None:
            values[item.name] = item.default
            continue
        checked, problem = check_value(item, value)
        if problem is not None:
            errors.append(problem)
        else:
            values[item.name] = checked
    unknown = sorted(str(k) for k in raw if not (isinstance(k, str) and k in known))
    names = [item.name for item in spec.inputs]
    errors.extend(error(name, "unknown_input", choices=names) for name in unknown)
    if errors:
        return {}, errors
    if values.get("model", "custom") != "custom":
        values = {
            k: v for k, v in values.items()
            if spec.input(k).group != CUSTOM_MODEL_GROUP
        }
    return values, []


def given_custom_inputs(spec: CalculatorSpec, raw: dict[str, Any]) -> list[str]:
    """Names of custom-model inputs present (non-null) in ``raw``, in spec order."""
    return [
        item.name for item in spec.inputs
        if item.group == CUSTOM_MODEL_GROUP and raw.get(item.name) is not None
    ]
