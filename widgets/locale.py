"""One language as a widget writes it: its numbers, its catalog's messages, its units and labels.

`locale_of(lang)` makes a `PageLocale` once per language. `widgets.view.view` takes the request's `lang`
and passes its `PageLocale`, as one value, to everything that writes a text (`widgets.links`,
`widgets.tables`, `widgets.svg`); the build's templates and checks take theirs from `locale_of` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import calculators
from widgets import numbers, strings
from widgets.messages import translations

# Decimals shown for a float output, by its unit (2 otherwise).
DIGITS = {"tokens_per_s": 0, "ms": 0, "kw": 1, "mwh": 0, "gpu_months": 0}


@lru_cache(maxsize=16)
def locale_of(lang: str) -> PageLocale:
    """The `PageLocale` of `lang` (a language with a compiled catalog), made once."""
    return PageLocale(lang)


class PageLocale:
    """A language's numbers (`numbers`, CLDR through Babel), messages (the gettext catalog), units and
    labels: what every text of a widget is written with. One per language (`locale_of`), alive as long as
    the process, so the cached methods hold nothing else alive."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.numbers = numbers.of(lang)
        self.catalog = translations(lang)

    def text(self, msgid: str, **params: object) -> str:
        """The translation of `msgid`, with `{name}` placeholders filled from `params`."""
        translated = self.catalog.gettext(msgid)
        return translated.format(**params) if params else translated

    def plural_text(self, msgids: Sequence[str], count: int, **params: object) -> str:
        """The translation of a (singular, plural) msgid pair in the form this language's Plural-Forms give
        `count` (Babel's CLDR rules, written into each catalog's header), placeholders filled."""
        return self.catalog.ngettext(msgids[0], msgids[1], count).format(**params)

    def label(self, field: str, calculator: str = "") -> str:
        """A field's label, the calculator's own wording of it if it has one (`strings.LABELS`)."""
        return self.text(strings.LABELS.get(f"{calculator}:{field}") or strings.LABELS[field])

    def choice(self, field: str, choice: str) -> str:
        """The text of one option of a choice field (catalogue product names stay as they are)."""
        if field == "model" and choice in calculators.MODELS:
            return calculators.MODELS[choice]["name"]
        if field in ("gpu", "sxm_gpu") and choice in calculators.GPUS:
            return calculators.GPUS[choice]["name"]
        return self.text(strings.CHOICES.get(f"{field}:{choice}") or strings.CHOICES[choice])

    @lru_cache(maxsize=4096)  # pure; a recomputed widget repeats most of its values
    def formatted(self, kind: str, unit: str | None, value: Any) -> str:
        """A value of an output kind and unit as a widget shows it: the one formatter of every output (the
        widget's outputs, `widgets.tables`' cells)."""
        number = self.numbers
        if kind == "gb":
            return number.gigabytes(value)
        if kind == "bytes":
            return number.byte_count(value)
        if kind == "ratio":
            return number.percent(value)
        if kind == "bool":
            return self.text(strings.CHOICES["true" if value else "false"])
        if kind == "key":
            return self.text(strings.VERDICTS.get(value) or strings.CHOICES[value])
        if kind == "multiplier":
            return self.text(strings.UNITS["multiplier"], value=number.decimal(value, 2))
        if unit == "days":
            return number.days(value)
        if unit == "ms" and value >= 1000:  # a time to first token of seconds reads as seconds
            return self.text(strings.UNITS["s"], value=number.decimal(value / 1000, 1))
        digits = 0 if kind == "count" else DIGITS.get(unit or "", 2)
        if unit == "tokens_per_s" and 0 < abs(value) < 10:  # a request's few tokens a second: 4.9, not 5
            digits = 1
        written = number.decimal(value, digits)
        if unit in strings.COUNTED:
            return self.plural_text(strings.COUNTED[unit], int(value), value=written)
        if unit in strings.UNITS:
            return self.text(strings.UNITS[unit], value=written)
        return written

    def quantity(self, unit: str | None, value: float, bare: bool = False) -> str:
        """A number in a sentence: a counted one with its noun in the form its number takes ("1 node",
        "32 requests") unless `bare`, a rate with its unit, any other number as it is."""
        if unit in strings.COUNTED:
            return self.numbers.decimal(value, 0) if bare else self.formatted("count", unit, value)
        digits = 0 if float(value).is_integer() or abs(value) >= 10 else 1
        if unit in strings.UNITS:
            return self.text(strings.UNITS[unit], value=self.numbers.decimal(value, digits))
        return self.numbers.decimal(value, digits)
