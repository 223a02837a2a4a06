"""The one way expected values are written (tests/support/expect.py) means what it says, and a typo in one
is an error rather than a pass."""

from __future__ import annotations

import pytest

from tests.support.expect import meets


@pytest.mark.parametrize(("shown", "expected", "holds"), [
    (3, 3, True), (3, 4, False), (0.1 + 0.2, 0.3, True), (True, True, True), (1, True, False), (True, 1, False),
    ("fits", "fits", True), (None, None, True),
    (406.0, {"approx": 405.85, "tol": 0.2}, True), (406.0, {"approx": 405.85, "tol": 0.1}, False),
    (5, {"within": [5, 8]}, True), (9, {"within": [5, 8]}, False),
    (5, {"at_least": 5}, True), (4, {"at_least": 5}, False), (5, {"at_most": 5}, True), (6, {"at_most": 5}, False),
    (5, {"above": 5}, False), (6, {"above": 5}, True), (5, {"below": 5}, False), (4, {"below": 5}, True),
    (7, {"at_least": 5, "below": 8}, True), (8, {"at_least": 5, "below": 8}, False),
    ("two", {"one_of": ["one", "two"]}, True), ("three", {"one_of": ["one", "two"]}, False),
    (True, {"at_least": 0}, False), ("5", {"at_least": 0}, False),  # a bool or a text is no number
])
def test_each_condition(shown: object, expected: object, holds: bool) -> None:
    assert meets(shown, expected) is holds


@pytest.mark.parametrize("typo", [{"min": 1}, {"approx": 1, "tolerance": 0.1}, {"lt": 3}])
def test_an_unknown_condition_is_an_error_not_a_pass(typo: dict) -> None:
    with pytest.raises(ValueError, match="unknown expectation"):
        meets(2, typo)
