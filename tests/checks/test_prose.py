"""How the checks read numbers in prose (wiki/checks/prose.py) and compare a claim with its calculator."""

from __future__ import annotations

from decimal import Decimal

import pytest

from wiki.checks.claims import verdict
from wiki.checks.prose import clean, find_numbers, localize

NNBSP = "\u202f"

# (prose, language, [(value, written the English way)])
READINGS = [
    ("2.000 tok/s", "da", [("2000", False)]),
    ("1,5-15T", "da", [("1.5", False), ("15", False)]),
    ("1.5-15T", "da", [("1.5", True), ("15", False)]),
    ("500-2,000 tok/s", "da", [("500", False), ("2000", True)]),
    (f"500 à 2{NNBSP}000 tok/s", "fr", [("500", False), ("2000", False)]),
    ("500 à 2\u00a0000 tok/s", "fr", [("500", False), ("2000", False)]),
    ("500 à 2,000 tok/s", "fr", [("500", False), ("2000", True)]),
    ("0,73× contre 0.65×", "fr", [("0.73", False), ("0.65", True)]),
    ("Llama 3.1 405B, Llama 3.x 8B, Qwen2.5, K07, Gen5, FP8, H100", "da", [("405", False), ("8", False)]),
    ("TP=8 × PP=2, 7B/14B/32B, 95%", "da", [("8", False), ("2", False), ("7", False), ("14", False),
                                             ("32", False), ("95", False)]),
]


@pytest.mark.parametrize(("prose", "lang", "expected"), READINGS, ids=[r[0] for r in READINGS])
def test_numbers_are_read_in_the_page_language(prose: str, lang: str, expected: list[tuple[str, bool]]) -> None:
    assert [(n.value, n.english) for n in find_numbers(prose, lang)] == [
        (Decimal(value).normalize(), english) for value, english in expected]


@pytest.mark.parametrize(("markdown", "expected"), [
    ("1. Passer modellen til 8× 96 GB?", [8, 96]),
    ("Se [K07s tabel](https://example.org/v1.5/) og `1.5` { #a1 }", []),
    ("<span class=\"x2\">3</span> <!-- 4 --> 2&#8239;000", [3, 2000]),
], ids=["list marker", "link target, code, attribute list", "HTML and entities"])
def test_what_is_not_prose_is_left_out(markdown: str, expected: list[int]) -> None:
    assert [int(n.value) for n in find_numbers(clean(markdown), "fr")] == expected


@pytest.mark.parametrize(("seed", "lang", "local"), [
    ("(1.5-15T) og 1.2-1.5 TB, 500-2,000 tok/s, Llama 3.1", "da",
     "(1,5-15T) og 1,2-1,5 TB, 500-2.000 tok/s, Llama 3.1"),
    ("500 à 2,000 tok/s, 0.65×", "fr", f"500 à 2{NNBSP}000 tok/s, 0,65×"),
])
def test_english_style_numbers_can_be_written_the_local_way(seed: str, lang: str, local: str) -> None:
    assert localize(seed, lang) == local


# (calculator entry, prose numbers, calculator value, agrees)
VERDICTS = [
    ({"value": "efficiency"}, ["0.73"], 0.7273, True),          # rounding: half a unit of the last digit
    ({"value": "efficiency"}, ["0.73"], 0.7213, False),
    ({"value": "fabric_penalty", "tolerance": 1}, ["15"], 16.0, True),
    ({"value": "total_gb", "compare": "between", "scale": 1000}, ["1.2", "1.5"], 1220.13, True),
    ({"value": "total_gb", "compare": "between", "scale": 1000}, ["1.3", "1.5"], 1220.13, False),
    ({"value": "min_gpus", "compare": "at_most", "number": 1}, ["70", "4", "8"], 3, True),
    ({"value": "weights_share", "compare": "below", "scale": 0.01}, ["60"], 0.5285, True),
    ({"value": "x", "compare": "between", "scale": -0.01, "offset": 1}, ["30", "40"], 0.7, True),
    ({"value": "effort_multiplier_min", "offset": 1}, ["4", "5"], 5.0, True),
    ({"value": "verdict", "expect": "tight"}, ["405"], "tight", True),
    ({"value": "fits", "expect": False}, [], True, False),
]


@pytest.mark.parametrize(("calc", "numbers", "value", "agrees"), VERDICTS)
def test_a_claim_agrees_with_its_calculator(calc: dict, numbers: list[str], value: object, agrees: bool) -> None:
    prose = find_numbers(" ".join(numbers), "en")
    assert verdict(calc, prose, value)[0] is agrees
