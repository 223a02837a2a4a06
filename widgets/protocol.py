"""The live calculators' protocol: what the browser worker's Python does for the page, in one place.

`handle_view(payload)` answers the page's `view` request (the worker calls it; the build's snapshot,
`wiki/snapshot.mjs`, imports it so that a restored interpreter has it ready). `warm(languages)` runs
every code path once per language: the snapshot and the trimmed standard library
(`wiki/stdlib_trim.mjs`) are made after it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import calculators
from widgets.view import view

# Typed text a reader may enter, good and bad, so that parsing and every error message are warmed too.
_BAD_INPUTS = {"gpus": "x", "context": "", "mfu": "2", "target_tokens_per_s": "-1"}
_CUSTOM_MODEL = {"model": "custom", "params_b": "1,5", "weights_limit": "0.7"}


def handle_view(payload: str) -> str:
    """The worker's answer to `{"name", "inputs", "lang"}` (JSON): the view of `widgets.view.view`, as JSON."""
    request = json.loads(payload)
    return json.dumps(view(request["name"], request["inputs"], request["lang"]))


def warm(languages: Iterable[str]) -> None:
    """Run every calculator in every language, with defaults and with bad input (Babel's CLDR data,
    the catalogs, the SVG code): after this, a view needs no file the interpreter has not read."""
    for lang in languages:
        for name in calculators.CALCULATORS:
            view(name, {}, lang)
            view(name, _BAD_INPUTS, lang)
        view("vram_fit", _CUSTOM_MODEL, lang)
