"""Kentino Wiki sizing and scaling calculators (standard library only).

One entry point for every caller::

    from calculators import run
    run("vram_fit", {"model": "llama-3.1-405b"})

``CALCULATORS`` describes every calculator's inputs and outputs as plain
JSON-able data; ``GPUS``, ``MODELS`` and ``FABRICS`` are the catalogs. These
exported dicts are copies: mutating them does not change how ``run`` works.
See README.md for every formula, source and assumption.
"""

from .catalog import fabrics_dict, gpus_dict, models_dict
from .decision import QUESTIONS, RECOMMENDATIONS
from .inputs import ERROR_CODES
from .registry import NAMES, describe, run
from .scaling import table

__all__ = [
    "CALCULATORS", "ERROR_CODES", "FABRICS", "GPUS", "MODELS", "NAMES", "NOTE_CODES",
    "QUESTIONS", "RECOMMENDATIONS", "describe", "run", "table",
]

CALCULATORS = describe()
GPUS = gpus_dict()
MODELS = models_dict()
FABRICS = fabrics_dict()
# Every note code any calculator can emit (each spec lists its own).
NOTE_CODES: tuple[str, ...] = tuple(sorted({c for spec in CALCULATORS.values() for c in spec["notes"]}))
