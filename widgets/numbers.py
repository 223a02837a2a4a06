"""Locale-aware numbers through Babel (CLDR data): formatting for display, parsing of typed input.

`of(lang)` gives a language's `Numbers`; the page's `widgets.locale.PageLocale` carries it as `numbers`.
"""

from __future__ import annotations

import math
import re
from decimal import MAX_EMAX, Decimal, InvalidOperation, localcontext
from functools import cached_property, lru_cache

from babel import Locale
from babel.numbers import (
    NumberFormatError,
    NumberPattern,
    format_decimal,
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
# The form of a link's values (`neutral()` writes it): the same in every language, read by `parse` as
# `of(NEUTRAL).parse(text)`. Digits, an optional sign, a dot before decimals; no grouping, no exponent.
NEUTRAL = "neutral"
NEUTRAL_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")
# A number written with a separator that is neither the locale's group nor its decimal symbol, before
# exactly three digits: "1.500" on a page that groups with a space is 1 500 to a Danish or German eye and
# 1,5 to an English one. Refused rather than guessed; "0.500" (no group starts with 0) and "1.5" are not.
FOREIGN_GROUPED = re.compile(r"[+-]?[1-9][0-9]{0,2}([.,])[0-9]{3}")


class NotANumber(ValueError):
    """Text that is not a number in the form it is read in (the base of every refusal of `parse`).

    `code` is the calculators' error code the widget shows for it (`widgets/strings.py` ERRORS)."""

    code = "not_a_number"


class NotAWholeNumber(NotANumber):
    """A number with decimals where a whole number is asked for (`63,9999999999999999`), judged on the text."""

    code = "not_an_integer"


class AmbiguousNumber(NotANumber):
    """Text that reads as two numbers (`1.500` where the dot is no group separator); both readings kept."""

    code = "ambiguous_number"

    def __init__(self, text: str, grouped: Decimal, decimal: Decimal) -> None:
        super().__init__(text)
        self.grouped, self.decimal = grouped, decimal


class NumberTooLarge(NotANumber):
    """A number beyond what a float holds (`10^400`): too large (or, `negative`, too small), not "no number"."""

    code = "too_large"

    def __init__(self, text: str, negative: bool) -> None:
        super().__init__(text)
        self.negative = negative


@lru_cache(maxsize=16)
def of(lang: str) -> Numbers:
    """The numbers of `lang` (a language of the site, or `NEUTRAL` for a link's values), made once."""
    return Numbers(lang)


class Numbers:
    """How one language writes and reads numbers, through Babel (CLDR); one per language (`of`).

    The `NEUTRAL` form only reads (`parse`, `read`): it writes nothing and never loads a Babel locale.
    Formatting and parsing are pure and a recomputed widget repeats most values, so the methods keep
    their results; an instance lives as long as the process, so its caches hold nothing else alive.
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang

    @cached_property
    def locale(self) -> Locale:
        """The Babel `Locale` of this language, parsed once (Babel re-parses a string on every call)."""
        return Locale.parse(self.lang)

    @cached_property
    def symbols(self) -> dict[str, str]:
        """The locale's number symbols in Latin digits (`group`, `decimal`, ...)."""
        return self.locale.number_symbols["latn"]

    @lru_cache(maxsize=64)
    def _pattern(self, kind: str, digits: int) -> NumberPattern:
        # The locale's CLDR pattern (decimal or percent) with at most `digits` decimals, parsed once.
        formats = self.locale.decimal_formats if kind == "decimal" else self.locale.percent_formats
        pattern = parse_pattern(formats[None].pattern)
        pattern.frac_prec = (0, digits)
        return pattern

    @lru_cache(maxsize=4096)
    def decimal(self, value: float | int, digits: int = 2) -> str:
        """A plain number, grouped per CLDR, with at most `digits` decimals (`1.234,5`, `1 234,5`)."""
        return self._pattern("decimal", digits).apply(value, self.locale)

    @lru_cache(maxsize=4096)
    def percent(self, ratio: float, digits: int = 1) -> str:
        """A ratio as a CLDR percentage with at most `digits` decimals (`52,8 %`, `52,8 %`)."""
        return self._pattern("percent", digits).apply(ratio, self.locale)

    @lru_cache(maxsize=4096)
    def gigabytes(self, value: float) -> str:
        """Gigabytes with CLDR's short unit (`768 GB`, `768 Go`), one decimal below 100 GB."""
        digits = 0 if abs(value) >= 100 else 1
        return self._with_unit(round(value, digits), "digital-gigabyte", "short", digits)

    @lru_cache(maxsize=4096)
    def byte_count(self, value: int) -> str:
        """Bytes in kilobytes with CLDR's short unit (`516,1 kB`, `516,1 ko`): "B" reads as billions next to "405B"."""
        return self._with_unit(round(value / 1000, 1), "digital-kilobyte", "short", 1)

    @lru_cache(maxsize=4096)
    def days(self, value: float) -> str:
        """A duration in whole days with CLDR's long unit (`130 dage`, `130 jours`)."""
        return self._with_unit(round(value), "duration-day", "long", 0)

    def _with_unit(self, value: float, unit: str, length: str, digits: int) -> str:
        # What Babel's format_unit writes with the format `decimal_format(digits)`: the unit's CLDR
        # pattern for the value's plural category around the number (tests/widgets/test_numbers.py holds
        # them equal). format_unit searches every unit of the locale on each call: a fifth of a view's time.
        pattern = self._unit_pattern(unit, length, digits, self.locale.plural_form(value))
        if pattern is None:
            return self._babel_unit(value, unit, length, digits)
        return pattern.replace("{0}", self.decimal(value, digits))

    def _babel_unit(self, value: float, unit: str, length: str, digits: int) -> str:
        # Babel's format_unit, with our decimal format: what `_with_unit` writes, the slow way.
        return format_unit(value, unit, length=length, locale=self.locale, format=self.decimal_format(digits))

    @lru_cache(maxsize=64)
    def _unit_pattern(self, unit: str, length: str, digits: int, plural: str) -> str | None:
        # Babel's own text for a number of this plural category, its number replaced by "{0}" (None: no
        # sample number of that category here, and format_unit is called each time).
        sample = next((v for v in (1, 0, 2, 1.5, 5, 1_000_000, 1_000_001, 0.5) if self.locale.plural_form(v) == plural),
                      None)
        if sample is None:
            return None
        number = self.decimal(sample, digits)
        text = self._babel_unit(sample, unit, length, digits)
        return text.replace(number, "{0}", 1) if number in text else None

    @lru_cache(maxsize=16)
    def decimal_format(self, digits: int) -> str:
        """The locale's decimal pattern with at most `digits` decimals, as Babel's `format=` takes it."""
        pattern = self.locale.decimal_formats[None].pattern
        return pattern.split(".")[0] + ("." + "#" * digits if digits else "")

    @lru_cache(maxsize=4096, typed=True)  # a view shows every field's value; most are unchanged (True is not 1)
    def input_text(self, value: float | int) -> str:
        """How a form field shows a preset: grouped, as many decimals as the value has (round-trips)."""
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, int) or float(value).is_integer():
            if abs(value) >= 1e15:  # more digits than Babel's default context quantizes (a link's 10^99)
                return self.write(Decimal(repr(value) if isinstance(value, float) else value))
            return format_decimal(int(value), locale=self.locale)
        return self.decimal(value, digits=6)

    @lru_cache(maxsize=4096)  # a form sends every field on each input; most are unchanged
    def parse(self, text: str, whole: bool = False) -> int | float:
        """Read a number typed in this language's way, or a link's value in the `NEUTRAL` form; raise `NotANumber`.

        Accepts the locale's decimal and group symbols, spaces, no-break and narrow no-break spaces as
        group separators, leading and trailing blanks, and `1.5` for 1,5 where a dot cannot be a group
        separator (`1.5` in Danish has no group of three). Refused: exponents, words and empty text;
        `1.500` where the dot is not the locale's group symbol (`AmbiguousNumber`: 1 500 or 1,5?); with
        `whole`, any decimal that is not zero (`NotAWholeNumber`, decided on the digits, not on a float:
        `63,9999999999999999` is no 64); a number no float holds (`NumberTooLarge`).
        """
        number = self.read(text)
        if whole and number != number.to_integral_value():
            raise NotAWholeNumber(text)
        return _to_python(number, text)

    def read(self, text: str) -> Decimal:
        """The exact value of `text` as `parse` reads it (every digit kept), before any check of its size."""
        text = text.strip()
        if text.isascii() and text.isdigit():  # what readers mostly type; the same value in every locale
            return Decimal(text)
        if self.lang == NEUTRAL:
            if not NEUTRAL_NUMBER.fullmatch(text):
                raise NotANumber(text)
            return Decimal(text)
        if not NUMBER_CHARS.fullmatch(text):
            raise NotANumber(text)
        foreign = FOREIGN_GROUPED.fullmatch(text)
        if foreign and foreign[1] not in (self.symbols["group"], self.symbols["decimal"]):
            raise AmbiguousNumber(text, Decimal(text.replace(foreign[1], "")), Decimal(text.replace(foreign[1], ".")))
        normalized = BLANKS.sub(self.symbols["group"], text)
        try:
            return parse_decimal(normalized, locale=self.locale, strict=True)
        except NumberFormatError:
            return self._foreign_decimal(text)
        except InvalidOperation:  # Babel's strict check re-formats the number: too many digits for its context
            return parse_decimal(normalized, locale=self.locale)

    def parse_share(self, text: str, whole: bool = False) -> float:
        """Read a share as people type it: `70 %`, `70%`, `70` (above 1: a percentage) or `0,7`."""
        stripped = PERCENT_SIGN.sub("", text.strip())
        value = self.parse(stripped, whole)
        if stripped != text.strip() or value > 1:
            value = float(Decimal(str(value)) / 100)
        return float(value)

    def parse_tokens(self, text: str, whole: bool = False) -> int | float:
        """Read a token count: a number, or thousands of tokens with a k (`128k` = 131.072, `1,5k` = 1.536)."""
        stripped = KILO_SUFFIX.sub("", text.strip())
        if stripped == text.strip():
            return self.parse(text, whole)
        number = self.read(stripped) * KILO_TOKENS
        if whole and number != number.to_integral_value():
            raise NotAWholeNumber(text)
        return _to_python(number, text)

    def rewrite(self, text: str, form: str) -> str:
        """`text` read in `form` (a language or `NEUTRAL`) as this language writes it, every digit kept
        (`32.768` from a link reads `32,768` on a Danish page); text that is no number there comes back as it is."""
        stripped = text.strip()
        suffix = PERCENT_SIGN.search(stripped) or KILO_SUFFIX.search(stripped)
        try:
            number = of(form).read(stripped[: suffix.start()] if suffix else stripped)
        except NotANumber:
            return text
        return self.write(number) + (suffix[0] if suffix else "")

    def write(self, number: Decimal) -> str:
        """An exact number as this language writes it, grouped per CLDR, every digit kept (no rounding)."""
        with localcontext() as context:  # as many digits as the number has: Babel quantizes in the context
            context.prec = len(number.as_tuple().digits) + max(0, number.as_tuple().exponent) + 30
            context.Emax = MAX_EMAX
            return format_decimal(number, locale=self.locale, decimal_quantization=False)

    def share_text(self, value: float) -> str:
        """How a form field shows a share: a percentage with as many decimals as it needs (`70 %`, `21,5 %`)."""
        return self.percent(value, 4)

    def _foreign_decimal(self, text: str) -> Decimal:
        # "1.5" where the locale's decimal symbol is a comma (and "1.5" in Danish, where no group of three
        # follows the dot): read as a decimal only with one such separator, no other and no blank. Before
        # exactly three digits it was refused already, where it is not the locale's group (FOREIGN_GROUPED).
        decimal = self.symbols["decimal"]
        for separator, other in ((".", ","), (",", ".")):
            if separator != decimal and text.count(separator) == 1 and other not in text and not BLANKS.search(text):
                try:
                    return parse_decimal(text.replace(separator, decimal), locale=self.locale, strict=True)
                except NumberFormatError:
                    break
        raise NotANumber(text)


def neutral(value: float | int) -> str:
    """A number in the locale-neutral form of links: no grouping, a dot for decimals, no exponent."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")


def _to_python(number: Decimal, text: str) -> int | float:
    result = float(number)  # Decimal arithmetic is slow under Pyodide; one conversion is not
    if math.isinf(result):  # more digits than a float holds: a number, too large for any field
        raise NumberTooLarge(text, negative=number < 0)
    if not math.isfinite(result):
        raise NotANumber(text)
    return int(result) if result.is_integer() and abs(result) < 1e15 else result
