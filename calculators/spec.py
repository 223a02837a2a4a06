"""Input/output descriptions shared by every calculator.

The internal descriptions are frozen dataclasses (immutable, so no caller can
change how ``run`` behaves by mutating them); ``CalculatorSpec.to_dict`` turns
them into the plain JSON-able data exposed as ``calculators.CALCULATORS``.
"""

from dataclasses import dataclass
from typing import Any

INPUT_TYPES = ("choice", "int", "float", "bool")

# Output kinds (how a value is formatted). The unit key says what it counts.
OUTPUT_KINDS = (
    "gb",          # float, gigabytes (1e9 bytes)
    "bytes",       # int, bytes
    "ratio",       # float, 0..1 (show as a percentage)
    "count",       # int (GPUs, nodes, replicas, sequences, tokens ...)
    "float",       # float with a unit (tokens_per_s, per_year, ms, tflops ...)
    "multiplier",  # float shown as "N x" (speedup, penalty, effort)
    "bool",
    "key",         # stable identifier, translated by the site
    "list",        # list of plain dicts described by "fields"
    "object",      # plain dict (decision trace "values"), described by "fields"
)

CUSTOM_MODEL_GROUP = "custom_model"
CUSTOM_MODEL_FIELDS = ("params_b", "layers", "kv_heads", "head_dim")


@dataclass(frozen=True)
class Input:
    """One input of a calculator (a form field)."""

    name: str
    type: str
    default: Any
    unit: str | None = None
    choices: tuple[str, ...] | None = None
    min: float | int | None = None
    max: float | int | None = None
    group: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "unit": self.unit,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "min": self.min,
            "max": self.max,
            "group": self.group,
        }


@dataclass(frozen=True)
class Output:
    """One value a calculator returns."""

    name: str
    kind: str
    unit: str | None = None
    fields: "tuple[Output, ...] | None" = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "unit": self.unit,
            "fields": [f.to_dict() for f in self.fields] if self.fields is not None else None,
        }


@dataclass(frozen=True)
class CalculatorSpec:
    """Everything a caller needs to build a form and format the result."""

    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    verdicts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def input(self, name: str) -> Input:
        for item in self.inputs:
            if item.name == name:
                return item
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "inputs": [i.to_dict() for i in self.inputs],
            "outputs": [o.to_dict() for o in self.outputs],
            "verdicts": list(self.verdicts),
            "notes": list(self.notes),
        }


def note(code: str, **params: Any) -> dict[str, Any]:
    """Build a note dict ``{"code": ..., "params": {...}}``."""
    return {"code": code, "params": params}
