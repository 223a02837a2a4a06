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
CUSTOM_MODEL_FIELDS = ("params_b", "active_params_b", "layers", "heads", "kv_heads", "head_dim")


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
class Range:
    """A shown value made of two outputs, a low and a high end, shown as one range of `kind`.

    `kind` is "ratio" (a percentage range, rounded outwards), "multiplier" ("1.2–1.5 x") or "float" (in
    the unit of its outputs: "500–2,000 tok/s").
    """

    name: str
    low: str
    high: str
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "low": self.low, "high": self.high, "kind": self.kind}


# Pictures a widget can draw from a result (drawn by `widgets/svg.py`, which has one function each),
# and tables in their place (`widgets/tables.py`).
FIGURES = ("vram_bar", "scaling_chart", "compare_table")


@dataclass(frozen=True)
class CalculatorSpec:
    """Everything a caller needs to build a form and format the result.

    `shown` lists the values a widget shows, in order: output names, or the names of `ranges`. The
    calculators return more (their README); `figure` names the picture of `FIGURES` drawn, if any.
    """

    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    verdicts: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    shown: tuple[str, ...] = ()
    ranges: tuple[Range, ...] = ()
    figure: str | None = None

    def __post_init__(self) -> None:
        known = {o.name for o in self.outputs} | {r.name for r in self.ranges}
        unknown = [name for name in self.shown if name not in known]
        if unknown:
            raise ValueError(f"shown values that are neither outputs nor ranges: {unknown}")
        if self.figure is not None and self.figure not in FIGURES:
            raise ValueError(f"unknown figure {self.figure!r}; known: {FIGURES}")

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
            "shown": list(self.shown),
            "ranges": [r.to_dict() for r in self.ranges],
            "figure": self.figure,
        }


def note(code: str, **params: Any) -> dict[str, Any]:
    """Build a note dict ``{"code": ..., "params": {...}}``."""
    return {"code": code, "params": params}
