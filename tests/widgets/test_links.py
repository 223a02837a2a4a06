"""A link's values go through the parser and the messages of typed text (widgets/links.py, widgets/view.py)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

import calculators
from widgets import links, numbers, strings
from widgets.locale import locale_of
from widgets.view import FIELDS, error_text, input_value_text, view

LANGS = ["da", "fr"]
FIT = FIELDS["vram_fit"]


def link(**values: str) -> dict:
    """A link's values for one widget, in the neutral form the page writes."""
    return {"form": numbers.NEUTRAL, "values": values}


@pytest.mark.parametrize("lang", LANGS)
def test_a_links_share_reads_as_the_same_text_typed(lang: str) -> None:
    """`weights_limit=65` is 65 % as typed "65" is, not "at most 100 %"; the neutral `0.65` too."""
    typed = view("vram_fit", {"weights_limit": "65"}, lang)
    for value in ("65", "0.65"):
        linked = view("vram_fit", {}, lang, link(weights_limit=value))
        assert linked["ok"] and typed["ok"]
        assert linked["inputs"]["weights_limit"] == typed["inputs"]["weights_limit"]
        assert linked["neutral"]["weights_limit"] == "0.65"


@pytest.mark.parametrize("lang", LANGS)
def test_a_links_dot_is_a_decimal_point_and_shows_as_the_page_writes_it(lang: str) -> None:
    """`context=32.768`: a link is neutral, so 32.768, refused in a whole-number field with the typed
    message, and shown as this page writes 32.768 (typed back, it is the same refusal)."""
    loc = locale_of(lang)
    linked = view("vram_fit", {}, lang, link(context="32.768"))
    shown = loc.numbers.write(Decimal("32.768"))
    assert linked["ok"] is False
    assert linked["inputs"]["context"] == shown
    assert linked["errors"]["context"] == loc.text(strings.ERRORS["not_an_integer"])
    assert view("vram_fit", {"context": shown}, lang)["errors"] == linked["errors"]
    # the neutral whole number is read in every language
    good = view("vram_fit", {}, lang, link(context="32768", gpus="12"))
    assert good["ok"] and good["neutral"]["context"] == "32768" and good["neutral"]["gpus"] == "12"


@pytest.mark.parametrize("lang", LANGS)
def test_a_links_value_with_an_equals_sign_is_read_whole(lang: str) -> None:
    """The page decodes `%3D`; the value reaches Python whole and is refused as typed text would be."""
    linked = view("vram_fit", {}, lang, link(gpus="12=3"))
    assert linked["errors"]["gpus"] == view("vram_fit", {"gpus": "12=3"}, lang)["errors"]["gpus"]
    assert linked["inputs"]["gpus"] == "12=3"


@pytest.mark.parametrize("lang", LANGS)
def test_too_large_says_the_fields_bound(lang: str) -> None:
    loc = locale_of(lang)
    field = FIT["concurrency"]
    for form, value in ((lang, "1" + "0" * 400), (numbers.NEUTRAL, "1" + "0" * 400)):
        shown = view("vram_fit", {}, lang, {"form": form, "values": {"concurrency": value}})
        expected = error_text(field, "too_large", {"max": field["max"]}, locale_of(lang))
        assert shown["errors"]["concurrency"] == expected
        assert shown["errors"]["concurrency"] == loc.text(strings.ERRORS["too_large"],
                                                          max=input_value_text(field, field["max"], locale_of(lang)))
    low = view("vram_fit", {"concurrency": "-1" + "0" * 400}, lang)
    assert low["errors"]["concurrency"] == loc.text(strings.ERRORS["too_small"],
                                                    min=input_value_text(field, field["min"], locale_of(lang)))


@pytest.mark.parametrize("lang", LANGS)
def test_ambiguous_typed_text_is_refused_with_both_readings(lang: str) -> None:
    loc = locale_of(lang)
    group, decimal = (loc.numbers.symbols[k] for k in ("group", "decimal"))
    shown = view("vram_fit", {"weights_limit": "1.500"}, lang)
    if "." in (group, decimal):  # Danish: the dot is the group separator, 1 500 %: too large
        assert "weights_limit" in shown["errors"]
        assert shown["errors"]["weights_limit"] != loc.text(strings.ERRORS["ambiguous_number"],
                                                            grouped="", decimal="")
        return
    assert shown["ok"] is False
    assert shown["errors"]["weights_limit"] == loc.text(
        strings.ERRORS["ambiguous_number"], grouped=loc.numbers.write(Decimal(1500)),
        decimal=loc.numbers.write(Decimal("1.5")))


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_number_field_refuses_decimals_a_float_would_round_away(lang: str) -> None:
    loc = locale_of(lang)
    decimal = loc.numbers.symbols["decimal"]
    shown = view("vram_fit", {"gpus": f"7{decimal}9999999999999999"}, lang)
    assert shown["errors"]["gpus"] == loc.text(strings.ERRORS["not_an_integer"])


@pytest.mark.parametrize("lang", LANGS)
def test_an_outdated_choice_and_an_unknown_field_are_said_and_the_rest_applies(lang: str) -> None:
    loc = locale_of(lang)
    form = {"model": "llama-3.1-405b"}
    assert "llama-0-gone" not in calculators.MODELS
    shown = view("vram_fit", form, lang, link(model="llama-0-gone", gpus="12", nonsense="1"))
    assert shown["ok"] is True
    assert shown["inputs"]["gpus"] == "12" and shown["neutral"]["model"] == "llama-3.1-405b"
    field = loc.text(strings.LABELS["model"])
    assert shown["notices"] == [
        loc.text(strings.UI["link_choice_gone"], field=field, shown=loc.choice("model", "llama-3.1-405b")),
        loc.text(strings.UI["link_field_unknown"]),
    ]
    assert view("vram_fit", form, lang)["notices"] == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_custom_model_with_a_bad_field_keeps_its_fields_editable(lang: str) -> None:
    """The dead end of the issue: the custom model's fields stay enabled while they are in error, typed
    or from a link, and are disabled again once another model is chosen."""
    custom = [key for key, field in FIT.items() if field["group"] == "custom_model"]
    for shown in (view("vram_fit", {"model": "custom", "params_b": "abc"}, lang),
                  view("vram_fit", {}, lang, link(model="custom", params_b="abc"))):
        assert shown["ok"] is False and "params_b" in shown["errors"]
        assert not set(custom) & set(shown["controls"]["disabled"])
    other = view("vram_fit", {"model": "llama-3.1-8b", "params_b": "abc"}, lang)
    assert other["ok"] and set(custom) <= set(other["controls"]["disabled"])


@pytest.mark.parametrize("lang", LANGS)
def test_typed_text_carried_by_the_language_switcher_is_read_in_its_language(lang: str) -> None:
    """The switcher carries an edit not computed yet as typed, with its language: the other page reads it so."""
    other = "fr" if lang == "da" else "da"
    typed = numbers.of(other).input_text(8192)
    shown = view("vram_fit", {}, lang, {"form": other, "values": {"context": typed}})
    assert shown["ok"] and shown["neutral"]["context"] == "8192"
    assert shown["inputs"]["context"] == numbers.of(lang).input_text(8192)


@pytest.mark.parametrize("form", ["", "xx", "../../etc", "de", None, 3])
def test_a_form_the_site_has_no_language_for_is_neutral(form: object) -> None:
    assert links.form_of({"form": form, "values": {}}) == numbers.NEUTRAL
    assert links.form_of({"form": "fr", "values": {}}) == "fr"


def test_the_page_and_python_cut_a_links_value_at_the_same_length() -> None:
    from tests.conftest import ROOT

    script = (ROOT / "overrides" / "assets" / "javascripts" / "links.js").read_text(encoding="utf-8")
    assert int(re.search(r"const MAX_VALUE = (\d+);", script)[1]) == links.MAX_VALUE
