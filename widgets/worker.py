"""The worker's Python: answer a page's `ViewRequest` (widgets/protocol.py) and warm every code path.

`handle_view(payload)` answers a `ViewRequest` (the worker calls it; the build's snapshot,
`wiki/snapshot.mjs`, imports this module so that a restored interpreter has it ready).
`warm(languages)` runs every code path once per language: the snapshot and the trimmed standard
library (`wiki/stdlib_trim.mjs`) are made after it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import calculators
from widgets.view import view

# Typed text a reader may enter, good and bad, so that parsing and every error message are warmed too.
_BAD_INPUTS = {"gpus": "x", "context": "", "mfu": "2", "target_tokens_per_s": "-1"}
_CUSTOM_MODEL = {"model": "custom", "params_b": "1,5", "weights_limit": "0.7"}
# A link's values (widgets/links.py): neutral numbers, refused ones, a choice and a field it no longer has.
_LINKS = ({"form": "neutral", "values": {"context": "32768", "weights_limit": "0.65", "gpus": "12"}},
          {"form": "neutral", "values": {"context": "32.768", "concurrency": "1" + "0" * 400, "model": "gone",
                                         "gone": "1"}})


def handle_view(payload: str) -> str:
    """The `view` of a `ViewRequest` (JSON `{"name", "inputs", "lang", "link"?}`), as JSON."""
    request = json.loads(payload)
    return json.dumps(view(request["name"], request["inputs"], request["lang"], request.get("link")))


def warm(languages: Iterable[str]) -> None:
    """Run every calculator in every language, with defaults and with bad input (Babel's CLDR data,
    the catalogs, the SVG code): after this, a view needs no file the interpreter has not read."""
    for lang in languages:
        for name in calculators.CALCULATORS:
            view(name, {}, lang)
            view(name, _BAD_INPUTS, lang)
        view("vram_fit", _CUSTOM_MODEL, lang)
        view("vram_fit", {"gpus": "1.500", "context": "63,9999999999999999"}, lang)  # ambiguous, not whole
        for link in (*_LINKS, {"form": lang, "values": {"context": "8192"}}):  # the switcher's typed form too
            view("vram_fit", {}, lang, link)
