"""CLDR numbers through Babel: exact strings for da and fr, and typed input in each locale."""

from __future__ import annotations

import pytest
from babel.numbers import parse_decimal
from babel.units import format_unit

from widgets import numbers

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize(("lang", "expected"), [("da", "1.234,5"), ("fr", f"1{NNBSP}234,5")])
def test_decimal_grouping_and_comma(lang: str, expected: str) -> None:
    assert numbers.decimal(1234.5, lang) == expected


@pytest.mark.parametrize(("lang", "value", "expected"), [
    ("da", 768.0, "768 GB"), ("fr", 768.0, f"768{NNBSP}Go"),
    ("da", 405.85, "406 GB"), ("da", 16.911, "16,9 GB"), ("fr", 1220.13, f"1{NNBSP}220{NNBSP}Go"),
    ("da", 1220.13, "1.220 GB"),
])
def test_gigabytes_use_cldr_units(lang: str, value: float, expected: str) -> None:
    assert numbers.gigabytes(value, lang) == expected


# Values around every plural category, rounding edge and grouping step of da and fr.
UNIT_VALUES = [0, 0.04, 0.05, 0.5, 1, 1.0, 1.04, 1.5, 2, 5, 16.911, 99.94, 99.95, 100, 405.85, 999.5, 1000,
               1220.13, 123456.789, 1_000_000, 1_000_001, 2_500_000.4]


@pytest.mark.parametrize("lang", ["da", "fr"])
@pytest.mark.parametrize("value", UNIT_VALUES)
def test_units_read_as_babels_format_unit(lang: str, value: float) -> None:
    """The cached unit patterns write what Babel's format_unit writes (it is called once per pattern)."""
    locale = numbers.locale(lang)
    digits = 0 if abs(value) >= 100 else 1
    assert numbers.gigabytes(value, lang) == format_unit(
        round(value, digits), "digital-gigabyte", length="short", locale=locale,
        format=numbers._decimal_format(lang, digits))
    assert numbers.byte_count(round(value * 1000), lang) == format_unit(
        round(round(value * 1000) / 1000, 1), "digital-kilobyte", length="short", locale=locale,
        format=numbers._decimal_format(lang, 1))
    assert numbers.days(value, lang) == format_unit(round(value), "duration-day", length="long", locale=locale)


@pytest.mark.parametrize(("lang", "expected"), [("da", f"52,8{NBSP}%"), ("fr", f"52,8{NBSP}%")])
def test_percent(lang: str, expected: str) -> None:
    assert numbers.percent(0.5285, lang) == expected


@pytest.mark.parametrize(("lang", "text", "value"), [
    ("da", "1,5", 1.5), ("da", "1.5", 1.5), ("da", " 1.234,5 ", 1234.5), ("da", "32.768", 32768),
    ("da", "1 234,5", 1234.5), ("da", f"1{NNBSP}234,5", 1234.5), ("da", "0,7", 0.7),
    ("fr", "1,5", 1.5), ("fr", "1.5", 1.5), ("fr", "1 234,5", 1234.5), ("fr", f"32{NNBSP}768", 32768),
    ("fr", f"1{NBSP}234", 1234), ("fr", "-1", -1),
])
def test_parse_accepts_the_locale_way(lang: str, text: str, value: float) -> None:
    assert numbers.parse(text, lang) == value


@pytest.mark.parametrize("text", ["0", "007", "1037", "32768", "99999999999999999", "1" * 40])
@pytest.mark.parametrize("lang", ["da", "fr"])
def test_parse_reads_plain_digits_as_babel_does(lang: str, text: str) -> None:
    """Digits alone skip Babel's parser (a keystroke's common case); the value is the one Babel reads."""
    expected = parse_decimal(text, locale=lang, strict=True)
    assert numbers.parse(text, lang) == (int(expected) if expected < 10**15 else float(expected))


@pytest.mark.parametrize("text", ["", "  ", "abc", "1e999", "1e5", "1.2.3", "0x10", "∞", "1,2,3", "NaN", "½"])
@pytest.mark.parametrize("lang", ["da", "fr"])
def test_parse_refuses_what_is_not_a_number(lang: str, text: str) -> None:
    with pytest.raises(numbers.NotANumber):
        numbers.parse(text, lang)


@pytest.mark.parametrize("lang", ["da", "fr"])
@pytest.mark.parametrize("value", [0.7, 0.215, 32768, 1500.0, 1.4, 123456.789])
def test_input_text_round_trips(lang: str, value: float) -> None:
    assert numbers.parse(numbers.input_text(value, lang), lang) == value
