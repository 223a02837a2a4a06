"""CLDR numbers through Babel: exact strings for da and fr, and typed input in each locale."""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel.numbers import parse_decimal
from babel.units import format_unit

from widgets import numbers

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize(("lang", "expected"), [("da", "1.234,5"), ("fr", f"1{NNBSP}234,5")])
def test_decimal_grouping_and_comma(lang: str, expected: str) -> None:
    assert numbers.of(lang).decimal(1234.5) == expected


@pytest.mark.parametrize(("lang", "value", "expected"), [
    ("da", 768.0, "768 GB"), ("fr", 768.0, f"768{NNBSP}Go"),
    ("da", 405.85, "406 GB"), ("da", 16.911, "16,9 GB"), ("fr", 1220.13, f"1{NNBSP}220{NNBSP}Go"),
    ("da", 1220.13, "1.220 GB"),
])
def test_gigabytes_use_cldr_units(lang: str, value: float, expected: str) -> None:
    assert numbers.of(lang).gigabytes(value) == expected


# Values around every plural category, rounding edge and grouping step of da and fr.
UNIT_VALUES = [0, 0.04, 0.05, 0.5, 1, 1.0, 1.04, 1.5, 2, 5, 16.911, 99.94, 99.95, 100, 405.85, 999.5, 1000,
               1220.13, 123456.789, 1_000_000, 1_000_001, 2_500_000.4]


@pytest.mark.parametrize("lang", ["da", "fr"])
@pytest.mark.parametrize("value", UNIT_VALUES)
def test_units_read_as_babels_format_unit(lang: str, value: float) -> None:
    """The cached unit patterns write what Babel's format_unit writes (it is called once per pattern)."""
    numerals = numbers.of(lang)
    locale = numerals.locale
    digits = 0 if abs(value) >= 100 else 1
    assert numerals.gigabytes(value) == format_unit(
        round(value, digits), "digital-gigabyte", length="short", locale=locale,
        format=numerals.decimal_format(digits))
    assert numerals.byte_count(round(value * 1000)) == format_unit(
        round(round(value * 1000) / 1000, 1), "digital-kilobyte", length="short", locale=locale,
        format=numerals.decimal_format(1))
    assert numerals.days(value) == format_unit(round(value), "duration-day", length="long", locale=locale)


@pytest.mark.parametrize(("lang", "expected"), [("da", f"52,8{NBSP}%"), ("fr", f"52,8{NBSP}%")])
def test_percent(lang: str, expected: str) -> None:
    assert numbers.of(lang).percent(0.5285) == expected


@pytest.mark.parametrize(("lang", "text", "value"), [
    ("da", "1,5", 1.5), ("da", "1.5", 1.5), ("da", " 1.234,5 ", 1234.5), ("da", "32.768", 32768),
    ("da", "1 234,5", 1234.5), ("da", f"1{NNBSP}234,5", 1234.5), ("da", "0,7", 0.7),
    ("fr", "1,5", 1.5), ("fr", "1.5", 1.5), ("fr", "1 234,5", 1234.5), ("fr", f"32{NNBSP}768", 32768),
    ("fr", f"1{NBSP}234", 1234), ("fr", "-1", -1),
])
def test_parse_accepts_the_locale_way(lang: str, text: str, value: float) -> None:
    assert numbers.of(lang).parse(text) == value


@pytest.mark.parametrize("text", ["0", "007", "1037", "32768", "99999999999999999", "1" * 40])
@pytest.mark.parametrize("lang", ["da", "fr"])
def test_parse_reads_plain_digits_as_babel_does(lang: str, text: str) -> None:
    """Digits alone skip Babel's parser (a keystroke's common case); the value is the one Babel reads."""
    expected = parse_decimal(text, locale=lang, strict=True)
    assert numbers.of(lang).parse(text) == (int(expected) if expected < 10**15 else float(expected))


@pytest.mark.parametrize("text", ["", "  ", "abc", "1e999", "1e5", "1.2.3", "0x10", "∞", "1,2,3", "NaN", "½"])
@pytest.mark.parametrize("lang", ["da", "fr"])
def test_parse_refuses_what_is_not_a_number(lang: str, text: str) -> None:
    with pytest.raises(numbers.NotANumber):
        numbers.of(lang).parse(text)


@pytest.mark.parametrize("lang", ["da", "fr"])
@pytest.mark.parametrize("value", [0.7, 0.215, 32768, 1500.0, 1.4, 123456.789])
def test_input_text_round_trips(lang: str, value: float) -> None:
    numerals = numbers.of(lang)
    assert numerals.parse(numerals.input_text(value)) == value


# --- one parser for every number a reader or a link gives (issue 33) ---------------------------------------

LANGS = ["da", "fr"]


def symbols(lang: str) -> tuple[str, str]:
    """The locale's group and decimal symbols, as Babel (CLDR) has them."""
    found = numbers.of(lang).locale.number_symbols["latn"]
    return found["group"], found["decimal"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("separator", [".", ","])
def test_a_separator_before_three_digits_is_read_the_locales_way_or_refused(lang: str, separator: str) -> None:
    """`1.500`: the locale's group (1 500), its decimal (1,5), or neither, and then refused with both readings."""
    numerals = numbers.of(lang)
    group, decimal = symbols(lang)
    text = f"1{separator}500"
    if separator == group:
        assert numerals.parse(text) == 1500
    elif separator == decimal:
        assert numerals.parse(text) == 1.5
    else:
        with pytest.raises(numbers.AmbiguousNumber) as refused:
            numerals.parse(text)
        assert (refused.value.grouped, refused.value.decimal) == (Decimal(1500), Decimal("1.5"))
        assert refused.value.code == "ambiguous_number"
        for unambiguous in (f"1{separator}5", f"1{separator}5000", f"0{separator}500", f"1234{separator}567"):
            assert numerals.parse(unambiguous) == float(unambiguous.replace(separator, "."))


def test_the_french_page_refuses_a_dot_before_three_digits() -> None:
    """The issue's case, held by the symbols the page uses: neither of French's is a dot."""
    assert "." not in symbols("fr")
    with pytest.raises(numbers.AmbiguousNumber):
        numbers.of("fr").parse("1.500")


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_number_field_decides_on_the_digits_not_on_the_float(lang: str) -> None:
    numerals = numbers.of(lang)
    _, decimal = symbols(lang)
    text = f"63{decimal}9999999999999999"
    assert float(Decimal("63.9999999999999999")) == 64  # what a float makes of it
    with pytest.raises(numbers.NotAWholeNumber) as refused:
        numerals.parse(text, whole=True)
    assert refused.value.code == "not_an_integer"
    assert numerals.parse(text) == 64  # a decimal field takes the float
    assert numerals.parse(f"64{decimal}0", whole=True) == 64
    with pytest.raises(numbers.NotAWholeNumber):
        numerals.parse_tokens(f"1{decimal}0001k", whole=True)
    assert numerals.parse_tokens(f"1{decimal}5k", whole=True) == 1536


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("sign", ["", "-"])
def test_too_large_for_a_float_is_too_large_not_no_number(lang: str, sign: str) -> None:
    numerals = numbers.of(lang)
    huge = Decimal(10) ** 400
    for text in (sign + str(int(huge)), sign + numerals.write(huge)):
        with pytest.raises(numbers.NumberTooLarge) as refused:
            numerals.parse(text)
        assert refused.value.negative is (sign == "-")


@pytest.mark.parametrize("value", [0, 7, 32768, 0.65, 0.215, 1.4, 1500.0, 123456.789, 1e-05, -3])
def test_the_neutral_form_reads_back_by_the_same_parser(value: float) -> None:
    assert numbers.of(numbers.NEUTRAL).parse(numbers.neutral(value)) == value


@pytest.mark.parametrize("lang", LANGS)
def test_the_neutral_form_refuses_a_locales_way(lang: str) -> None:
    """A link's value is never read as a language writes it: `1,5` or `1 234,5` is no neutral number, and
    Danish `32.768` is 32.768 there, not 32 768."""
    for value in (1.5, 1234.5, 32768):
        written = numbers.of(lang).decimal(value)
        if written == numbers.neutral(value):
            continue
        try:
            assert numbers.of(numbers.NEUTRAL).parse(written) != value
        except numbers.NotANumber:
            pass
    with pytest.raises(numbers.NotAWholeNumber):
        numbers.of(numbers.NEUTRAL).parse("32.768", whole=True)  # a dot in a link is a decimal point
    assert numbers.of(numbers.NEUTRAL).parse("32.768") == 32.768


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("text", ["32.768", "0.65", "63.9999999999999999", "1" + "0" * 40, "65%", "128k"])
def test_a_links_value_rewritten_the_pages_way_reads_as_the_same_number(lang: str, text: str) -> None:
    numerals = numbers.of(lang)
    written = numerals.rewrite(text, numbers.NEUTRAL)
    strip = numbers.PERCENT_SIGN.sub("", text)
    strip = numbers.KILO_SUFFIX.sub("", strip)
    written_number = numbers.KILO_SUFFIX.sub("", numbers.PERCENT_SIGN.sub("", written))
    assert numerals.read(written_number) == Decimal(strip)
    assert numerals.rewrite("abc", numbers.NEUTRAL) == "abc"
