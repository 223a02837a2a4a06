"""Each calculator's own words live next to it (`widgets/presentations/<name>.py`), complete, and said once."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import calculators
from widgets import presentations, strings
from widgets.msgids import N_
from widgets.presentation import Presentation, Verdict

FIELDS = {name: {f["name"]: f for f in spec["inputs"]} for name, spec in calculators.CALCULATORS.items()}


@pytest.mark.parametrize("name", list(calculators.CALCULATORS))
def test_every_calculator_has_its_words_for_each_verdict_and_subject(name: str) -> None:
    own = presentations.PRESENTATIONS[name]
    verdicts = calculators.CALCULATORS[name]["verdicts"]
    assert set(own.verdicts) == set(verdicts)  # a word and a tone for each verdict it gives, none for others
    assert set(verdicts) <= set(own.explanations)
    assert all(verdict.tone in ("ok", "warn", "bad", "info") for verdict in own.verdicts.values())
    if isinstance(own.subject, Mapping):  # a subject per choice of one of its fields: every choice has one
        assert set(own.subject) == set(FIELDS[name][own.subject_choice]["choices"])


def test_a_registered_calculator_without_its_words_is_named() -> None:
    with pytest.raises(LookupError, match=r"registers 'rack_power', but widgets/presentations/rack_power\.py"):
        presentations._presentation("rack_power")


def test_a_verdict_two_calculators_word_differently_is_refused() -> None:
    """A verdict's id means one thing on the whole site (`strings.VERDICTS`, the outputs that show a verdict)."""
    same = Presentation(title=N_("T"), verdicts={"fits": Verdict(N_("Fits"), "ok")}, explanations={})
    other = Presentation(title=N_("T"), verdicts={"fits": Verdict(N_("Holds"), "ok")}, explanations={})
    words = [(name, {v: w.words for v, w in p.verdicts.items()}) for name, p in (("a", same), ("b", other))]
    with pytest.raises(ValueError, match=r"verdict 'fits': widgets/presentations/b\.py says 'Holds', "
                                         r"widgets/presentations/a\.py says 'Fits'"):
        strings._merged({}, words, "verdict")
    assert strings._merged({}, words[:1] * 2, "verdict") == {"fits": "Fits"}  # the same words twice are one


def test_a_calculators_own_field_label_joins_the_shared_ones() -> None:
    assert strings._merged({"gpus": "GPUs"}, [("rack", {"rack_kw": "Rack feed"})], "label") == {
        "gpus": "GPUs", "rack_kw": "Rack feed"}
    with pytest.raises(ValueError, match=r"label 'gpus': widgets/presentations/rack\.py says 'Cards', "
                                         r"widgets/strings\.py says 'GPUs'"):
        strings._merged({"gpus": "GPUs"}, [("rack", {"gpus": "Cards"})], "label")
