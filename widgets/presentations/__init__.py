"""Each calculator's own words, in a module named like it (`widgets/presentations/<name>.py`, one
`PRESENTATION`: see `widgets.presentation`). `PRESENTATIONS` finds them by the calculators' registry."""

from __future__ import annotations

from importlib import import_module

import calculators
from widgets.presentation import Presentation


def _presentation(name: str) -> Presentation:
    try:
        module = import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
        raise LookupError(f"calculators/registry.py registers {name!r}, but widgets/presentations/{name}.py "
                          "does not exist: a calculator's title, verdicts and explanations live there "
                          "(README: add a calculator)") from None
    return module.PRESENTATION


PRESENTATIONS: dict[str, Presentation] = {name: _presentation(name) for name in calculators.CALCULATORS}
