"""The calculator registry and the single public entry point ``run``."""

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from . import compare, decision, replicas, scaling, throughput, training_memory, training_time, vram_fit, workload
from .inputs import error, normalize
from .planner import NoDeployment
from .spec import CalculatorSpec

Compute = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
Validate = Callable[[dict[str, Any], dict[str, Any]], tuple[dict[str, Any], list[dict[str, Any]]]]


@dataclass(frozen=True)
class Calculator:
    name: str
    spec: CalculatorSpec
    compute: Compute
    validate: Validate | None = None


_REGISTRY: tuple[Calculator, ...] = (
    Calculator("vram_fit", vram_fit.SPEC, vram_fit.compute),
    Calculator("training_memory", training_memory.SPEC, training_memory.compute),
    Calculator("scaling", scaling.SPEC, scaling.compute),
    Calculator("decision", decision.SPEC, decision.compute, decision.validate),
    Calculator("replicas", replicas.SPEC, replicas.compute, replicas.validate),
    Calculator("throughput", throughput.SPEC, throughput.compute, throughput.validate),
    Calculator("training_time", training_time.SPEC, training_time.compute),
    Calculator("compare", compare.SPEC, compare.compute, compare.validate),
    Calculator("workload", workload.SPEC, workload.compute, workload.validate),
)
_BY_NAME: Mapping[str, Calculator] = MappingProxyType({c.name: c for c in _REGISTRY})
NAMES: tuple[str, ...] = tuple(c.name for c in _REGISTRY)


def describe() -> dict[str, dict[str, Any]]:
    """A fresh JSON-able description of every calculator (``CALCULATORS``)."""
    return {c.name: c.spec.to_dict() for c in _REGISTRY}


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def _failure(errors: list[dict[str, Any]]) -> dict[str, Any]:
    return {"ok": False, "errors": errors}


def run(name: Any, inputs: Any = None) -> dict[str, Any]:
    """Run calculator ``name`` on JSON-able ``inputs``; never raises.

    Success: ``{"ok": True, "inputs", "values", "verdict", "notes"}``.
    Failure: ``{"ok": False, "errors": [{"field", "code", "params"}]}``.
    ``inputs`` omitted (``None``) means "all defaults".
    """
    try:
        calc = _BY_NAME.get(name) if isinstance(name, str) else None
        if calc is None:
            return _failure([error(None, "unknown_calculator", choices=list(NAMES))])
        raw = {} if inputs is None else inputs
        normalized, errors = normalize(calc.spec, raw)
        if not errors and calc.validate is not None:
            normalized, errors = calc.validate(normalized, raw)
        if errors:
            return _failure(errors)
        try:
            result = calc.compute(normalized, raw)
        except NoDeployment:  # a (custom) model no number of these GPUs holds: said on the model field
            return _failure([error("model", "fits_no_deployment", gpu=normalized.get("gpu"))])
        if not _finite(result["values"]):
            return _failure([error(None, "internal_error")])
        return {"ok": True, "inputs": normalized, "values": result["values"],
                "verdict": result["verdict"], "notes": result["notes"]}
    except Exception:  # the contract: run never raises, whatever it is given
        return _failure([error(None, "internal_error")])
