"""How a value of one output kind and unit is written, in a language: the one formatter of every output
(the widget's outputs, `widgets.tables`' cells)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from widgets import numbers, strings
from widgets.messages import plural_text, text

# Decimals shown for a float output, by its unit (2 otherwise).
DIGITS = {"tokens_per_s": 0, "ms": 0, "kw": 1, "mwh": 0, "gpu_months": 0}

@lru_cache(maxsize=4096)  # pure; a recomputed widget repeats most of its values
def format_kind(kind: str, unit: str | None, value: Any, lang: str) -> str:
    """Format a value of a given output kind and unit."""
    if kind == "gb":
        return numbers.gigabytes(value, lang)
    if kind == "bytes":
        return numbers.byte_count(value, lang)
    if kind == "ratio":
        return numbers.percent(value, lang)
    if kind == "bool":
        return text(lang, strings.CHOICES["true" if value else "false"])
    if kind == "key":
        return text(lang, strings.VERDICTS.get(value) or strings.CHOICES[value])
    if kind == "multiplier":
        return text(lang, strings.UNITS["multiplier"], value=numbers.decimal(value, lang, 2))
    if unit == "days":
        return numbers.days(value, lang)
    if unit == "ms" and value >= 1000:  # a time to first token of seconds reads as seconds
        return text(lang, strings.UNITS["s"], value=numbers.decimal(value / 1000, lang, 1))
    digits = 0 if kind == "count" else DIGITS.get(unit or "", 2)
    if unit == "tokens_per_s" and 0 < abs(value) < 10:  # a request's few tokens a second: 4.9, not 5
        digits = 1
    number = numbers.decimal(value, lang, digits)
    if unit in strings.COUNTED:
        return plural_text(lang, strings.COUNTED[unit], int(value), value=number)
    if unit in strings.UNITS:
        return text(lang, strings.UNITS[unit], value=number)
    return number
