"""Locale-aware numbers through Babel (CLDR data): formatting for display, parsing of typed input."""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from babel import Locale
from babel.numbers import (
    NumberFormatError,
    NumberPattern,
    format_decimal,
    get_decimal_symbol,
    parse_decimal,
    parse_pattern,
)
from babel.units import format_unit

# Characters a typed number may contain before Babel reads it; anything else ("1e5", "abc") is refused.
NUMBER_CHARS = re.compile(r"[+-]?[0-9][0-9.,\s\u00a0\u202f]*")
BLANKS = re.compile(r"[\s\u00a0\u202f]+")
# A share typed as a percentage ("70 %", "70%"), and a token count with a k suffix ("128k" = 128 × 1024).
PERCENT_SIGN = re.compile(r"[\s\u00a0\u202f]*%$")
KILO_SUFFIX = re.compile(r"[\s\u00a0\u202f]*[kK]$")
KILO_TOKENS = 1024  # context lengths are powers of two: "128k" is 131,072 tokens (Llama 3.1's 128K context)


class NotANumber(ValueError):
    """Typed text that is not a number in the page's locale."""


@lru_cache(maxsize=8)
def locale(lang: str) -> Locale:
    """The Babel `Locale` of `lang`, parsed once (Babel re-parses a string on every call)."""
    return Locale.parse(lang)


@lru_cache(maxsize=64)
def _pattern(lang: str, kind: str, digits: int) -> NumberPattern:
    # The locale's CLDR pattern (decimal or percent) with at most `digits` decimals, parsed once.
    locale = Locale.parse(lang)
    pattern = parse_pattern((locale.decimal_formats if kind == "decimal" else locale.percent_formats)[None].pattern)
    pattern.frac_prec = (0, digits)
    return pattern


@lru_cache(maxsize=4096)  # formatting is pure; recomputing a widget repeats most values
def decimal(value: float | int, lang: str, digits: int = 2) -> str:
    """A plain number, grouped per CLDR, with at most `digits` decimals (`1.234,5`, `1 234,5`)."""
    return _pattern(lang, "decimal", digits).apply(value, locale(lang))


@lru_cache(maxsize=4096)  # formatting is pure; recomputing a widget repeats most values
def percent(ratio: float, lang: str, digits: int = 1) -> str:
    """A ratio as a CLDR percentage with at most `digits` decimals (`52,8 %`, `52,8 %`)."""
    return _pattern(lang, "percent", digits).apply(ratio, locale(lang))


@lru_cache(maxsize=4096)  # formatting is pure; recomputing a widget repeats most values
def gigabytes(value: float, lang: str) -> str:
    """Gigabytes with CLDR's short unit (`768 GB`, `768 Go`), one decimal below 100 GB."""
    digits = 0 if abs(value) >= 100 else 1
    return _with_unit(round(value, digits), lang, "digital-gigabyte", "short", digits)


@lru_cache(maxsize=4096)  # formatting is pure; recomputing a widget repeats most values
def byte_count(value: int, lang: str) -> str:
    """Bytes in kilobytes with CLDR's short unit (`516,1 kB`, `516,1 ko`): "B" reads as billions next to "405B"."""
    return _with_unit(round(value / 1000, 1), lang, "digital-kilobyte", "short", 1)


@lru_cache(maxsize=4096)  # formatting is pure; recomputing a widget repeats most values
def days(value: float, lang: str) -> str:
    """A duration in whole days with CLDR's long unit (`130 dage`, `130 jours`)."""
    return _with_unit(round(value), lang, "duration-day", "long", 0)


def _with_unit(value: float, lang: str, unit: str, length: str, digits: int) -> str:
    # What Babel's format_unit writes with the format `_decimal_format(lang, digits)`: the unit's CLDR
    # pattern for the value's plural category around the number (tests/widgets/test_numbers.py holds
    # them equal). format_unit searches every unit of the locale on each call: a fifth of a view's time.
    pattern = _unit_pattern(lang, unit, length, digits, locale(lang).plural_form(value))
    if pattern is None:
        return _babel_unit(value, lang, unit, length, digits)
    return pattern.replace("{0}", decimal(value, lang, digits))


def _babel_unit(value: float, lang: str, unit: str, length: str, digits: int) -> str:
    # Babel's format_unit, with our decimal format: what `_with_unit` writes, the slow way.
    return format_unit(value, unit, length=length, locale=locale(lang), format=_decimal_format(lang, digits))


@lru_cache(maxsize=64)
def _unit_pattern(lang: str, unit: str, length: str, digits: int, plural: str) -> str | None:
    # Babel's own text for a number of this plural category, its number replaced by "{0}" (None: no
    # sample number of that category here, and format_unit is called each time).
    sample = next((v for v in (1, 0, 2, 1.5, 5, 1_000_000, 1_000_001, 0.5) if locale(lang).plural_form(v) == plural),
                  None)
    if sample is None:
        return None
    number = decimal(sample, lang, digits)
    text = _babel_unit(sample, lang, unit, length, digits)
    return text.replace(number, "{0}", 1) if number in text else None


@lru_cache(maxsize=4096, typed=True)  # a view shows every field's value; most are unchanged (True is not 1)
def input_text(value: float | int, lang: str) -> str:
    """How a form field shows a preset: grouped, as many decimals as the value has (round-trips)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) or float(value).is_integer():
        return format_decimal(int(value), locale=locale(lang))
    return decimal(value, lang, digits=6)


@lru_cache(maxsize=4096)  # a form sends every field on each input; most are unchanged
def parse(text: str, lang: str) -> int | float:
    """Read a typed number in the page's locale; raise `NotANumber` when it is not one.

    Accepts the locale's decimal and group symbols, spaces, no-break and narrow no-break spaces as
    group separators, leading and trailing blanks, and `1.5` for 1,5 where a dot cannot be a group
    separator (`1.5` in Danish has no group of three). Exponents, words and empty text are refused.
    """
    text = text.strip()
    if text.isascii() and text.isdigit():  # what readers mostly type; the same value in every locale
        return _to_python(Decimal(text), text)
    if not NUMBER_CHARS.fullmatch(text):
        raise NotANumber(text)
    group = locale(lang).number_symbols["latn"]["group"]
    normalized = BLANKS.sub(group, text)
    try:
        number = parse_decimal(normalized, locale=locale(lang), strict=True)
    except NumberFormatError:
        number = _dot_as_decimal(text, lang)
    except InvalidOperation:  # Babel's strict check re-formats the number: too many digits for its context
        number = parse_decimal(normalized, locale=locale(lang))
    return _to_python(number, text)


def parse_share(text: str, lang: str) -> float:
    """Read a share as people type it: `70 %`, `70%`, `70` (above 1: a percentage) or `0,7`."""
    stripped = PERCENT_SIGN.sub("", text.strip())
    value = parse(stripped, lang)
    if stripped != text.strip() or value > 1:
        value = float(Decimal(str(value)) / 100)
    return float(value)


def parse_tokens(text: str, lang: str) -> int | float:
    """Read a token count: a number, or thousands of tokens with a k (`128k` = 131.072, `1,5k` = 1.536)."""
    stripped = KILO_SUFFIX.sub("", text.strip())
    if stripped == text.strip():
        return parse(text, lang)
    return _to_python(Decimal(str(parse(stripped, lang))) * KILO_TOKENS, text)


def share_text(value: float, lang: str) -> str:
    """How a form field shows a share: a percentage with as many decimals as it needs (`70 %`, `21,5 %`)."""
    return percent(value, lang, 4)


def neutral(value: float | int) -> str:
    """A number in the locale-neutral form of links: no grouping, a dot for decimals, no exponent."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")


def _dot_as_decimal(text: str, lang: str) -> Decimal:
    # "1.5" where the locale's decimal symbol is a comma: unambiguous only with one dot and no comma.
    if text.count(".") == 1 and "," not in text and not BLANKS.search(text):
        try:
            return parse_decimal(text.replace(".", get_decimal_symbol(locale(lang))), locale=locale(lang), strict=True)
        except NumberFormatError:
            pass
    raise NotANumber(text)


def _to_python(number: Decimal, text: str) -> int | float:
    result = float(number)  # Decimal arithmetic is slow under Pyodide; one conversion is not
    if not math.isfinite(result):
        raise NotANumber(text)
    return int(result) if result.is_integer() and abs(result) < 1e15 else result


@lru_cache(maxsize=16)
def _decimal_format(lang: str, digits: int) -> str:
    pattern = locale(lang).decimal_formats[None].pattern
    return pattern.split(".")[0] + ("." + "#" * digits if digits else "")
