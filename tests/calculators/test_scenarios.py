"""Buyer scenarios (issue 27): every question in scenarios.yml, through every calculator that answers it.

Each scenario's `form` is restricted to the inputs a calculator takes; what that calculator *shows*
is read through ANSWER_KEYS and compared with the `answer` published practice gives. An input (or a
choice, or a value) the issue's contract gives a calculator but `calculators.CALCULATORS` does not
have yet is never dropped silently: that case is a strict xfail naming it, which turns into a
failure the day the input exists, and from then on the answer must match.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from calculators import CALCULATORS, run
from tests.support.expect import meets

SCENARIOS_PATH = Path(__file__).with_name("scenarios.yml")
SCENARIOS: list[dict] = yaml.safe_load(SCENARIOS_PATH.read_text(encoding="utf-8"))

# Inputs issue 27 gives these calculators by name ("names are part of the contract"). A form key
# a calculator lacks and is not listed here belongs to another calculator and is left out.
_CUSTOM_MODEL_NEW = ("heads", "active_params_b")
CONTRACT_INPUTS: dict[str, tuple[str, ...]] = {
    "throughput": ("input_tokens", "output_tokens", *_CUSTOM_MODEL_NEW),
    "replicas": ("output_tokens", *_CUSTOM_MODEL_NEW),
    "workload": ("output_tokens", *_CUSTOM_MODEL_NEW),
    "decision": ("seq_len", "recompute", "nics_per_node", *_CUSTOM_MODEL_NEW),
    "training_time": ("nics_per_node", *_CUSTOM_MODEL_NEW),
    "compare": ("nics_per_node", *_CUSTOM_MODEL_NEW),
    "vram_fit": _CUSTOM_MODEL_NEW,
    "training_memory": _CUSTOM_MODEL_NEW,
    "scaling": _CUSTOM_MODEL_NEW,
}

ACROSS_BOXES = {"multi_node_ib", "frontier"}  # decision's recommendations that span boxes
FITS = {"fits", "tight"}  # vram_fit verdicts under which the load is held


def _notes(result: dict) -> list[str]:
    return [n["code"] for n in result.get("notes", [])]


def _compare_nodes(result: dict) -> int | None:
    return {"one_node": 1, "two_nodes": 2}.get(result["verdict"])


def _compare_fits(result: dict) -> bool:
    return next(row["fits"] for row in result["values"]["rows"] if row["config"] == "one_node")


def _fp8_kv(result: dict) -> bool:
    """decision answers with an FP8 KV cache: as its recommendation, or offered as a note."""
    return result["values"]["recommendation"] == "one_node_fp8_kv" or "kv_fp8_fits" in _notes(result)


def _v(name: str) -> Callable[[dict], Any]:
    return lambda result: result["values"][name]


# What each calculator shows for an answer key. A calculator named for a scenario must show at
# least one of the scenario's answer keys (test_scenarios_are_well_formed).
ANSWER_KEYS: dict[str, dict[str, Callable[[dict], Any]]] = {
    "decision": {
        "nodes": _v("min_nodes"),
        "recommendation": _v("recommendation"),
        "across_boxes": lambda r: r["values"]["recommendation"] in ACROSS_BOXES,
        "int4_weights": lambda r: r["values"]["recommendation"] == "one_node_int4",
        "fp8_kv": _fp8_kv,
        "gpus_per_node": _v("gpus_per_node"),
        "notes_include": _notes,
    },
    "workload": {
        "nodes": _v("min_nodes"),
        "gpus_per_node": _v("gpus_per_node"),
        "tokens_per_s": _v("node_tokens_per_s"),
        "notes_include": _notes,
    },
    "replicas": {
        "nodes": _v("nodes"),
        "tokens_per_s": _v("node_tokens_per_s"),
        "notes_include": _notes,
    },
    "compare": {
        "nodes": _compare_nodes,
        "fits": _compare_fits,
        "notes_include": _notes,
    },
    "vram_fit": {
        "fits": lambda r: r["verdict"] in FITS,
        "min_gpus": _v("min_gpus"),
        "kv_copies": _v("kv_copies"),
        "notes_include": _notes,
    },
    "throughput": {
        "tokens_per_s": _v("node_tokens_per_s"),
        "fits": lambda r: r["verdict"] != "does_not_fit",
        "notes_include": _notes,
    },
    "training_memory": {
        "fits": _v("fits"),
        "min_gpus": _v("min_gpus"),
        "nodes": _v("min_nodes"),
        "notes_include": _notes,
    },
    "training_time": {
        "gpu_hours": _v("gpu_hours"),
        "duration": lambda r: r["verdict"],
        "notes_include": _notes,
    },
    "scaling": {
        "fits": _v("state_fits"),
        "notes_include": _notes,
    },
}
UNIVERSAL_KEYS = {"error_field"}
MATCHERS = {"within", "at_least", "at_most", "one_of"}
# Errors that only say a name is unknown: never the answer to "is this input valid here?".
NAME_ERRORS = {"unknown_choice", "unknown_input"}


def _not_implemented(calc: str, form: dict) -> list[str]:
    """What of `form` the contract gives `calc` but `CALCULATORS[calc]` does not take yet."""
    spec = {i["name"]: i for i in CALCULATORS[calc]["inputs"]}
    missing = []
    for key, value in form.items():
        item = spec.get(key)
        if item is None:
            if key in CONTRACT_INPUTS.get(calc, ()):
                missing.append(f"input {key}")
            continue
        if item["choices"] is not None and value not in item["choices"]:
            missing.append(f"{key} {value!r}")
        elif item["min"] is not None and isinstance(value, (int, float)) and value < item["min"]:
            missing.append(f"{key} {value!r} (min {item['min']})")
    return missing


def _as_taken(calc: str, form: dict) -> dict:
    """The form in the terms `calc` takes. The widgets that size boxes (`workload`, `replicas`) read the
    article's shared workload: `context` is prompt and answer together, and a box's rate is at the load it
    holds. So a question put as `throughput`'s `input_tokens` is their `context` with the answer added,
    and `concurrency: 0` (as many as the box holds) is what they size at anyway: their typed
    concurrency, whose minimum is 1, is left at its default."""
    spec = {i["name"]: i for i in CALCULATORS[calc]["inputs"]}
    form = dict(form)
    if "input_tokens" in form and "input_tokens" not in spec and "context" in spec and "context" not in form:
        answer = form.get("output_tokens", spec["output_tokens"]["default"] if "output_tokens" in spec else 0)
        form["context"] = form.pop("input_tokens") + answer
    if form.get("concurrency") == 0 and (spec.get("concurrency", {}).get("min") or 0) > 0:
        del form["concurrency"]
    return form


def _inputs(calc: str, form: dict) -> dict:
    """The form restricted to what `calc` takes (plus contract inputs, so that none is dropped)."""
    names = {i["name"] for i in CALCULATORS[calc]["inputs"]} | set(CONTRACT_INPUTS.get(calc, ()))
    return {k: v for k, v in form.items() if k in names}


def _cases() -> list:
    cases = []
    for scenario in SCENARIOS:
        for calc in scenario["calculators"]:
            marks = []
            if calc in CALCULATORS:
                missing = _not_implemented(calc, _as_taken(calc, scenario["form"]))
                if missing:
                    reason = "; ".join(f"{m} not implemented yet" for m in missing)
                    marks.append(pytest.mark.xfail(strict=True, reason=reason))
            gap = scenario.get("known_gap", {})
            if calc in gap.get("calculators", ()):  # a known modelling gap, said in the data: fixing it flips it
                marks.append(pytest.mark.xfail(strict=True, reason=gap["reason"]))
            cases.append(pytest.param(scenario, calc, id=f"{scenario['id']}-{calc}", marks=marks))
    return cases


@pytest.mark.parametrize(("scenario", "calc"), _cases())
def test_scenario(scenario: dict, calc: str) -> None:
    """The calculator shows the answer published practice gives for this buyer's question."""
    result = run(calc, _inputs(calc, _as_taken(calc, scenario["form"])))
    answer = scenario["answer"]
    if "error_field" in answer:
        assert not result["ok"], (
            f"{calc} answered {result.get('verdict')!r}; practice: an error on {answer['error_field']}")
        fields = {(e["field"], e["code"]) for e in result["errors"]}
        assert any(f == answer["error_field"] and c not in NAME_ERRORS for f, c in fields), (
            f"{calc} errors {sorted(fields, key=str)}; practice: an input error on {answer['error_field']}")
        return
    assert result["ok"], f"{calc} refused the form: {result['errors']}"
    shown_keys = ANSWER_KEYS[calc]
    wrong = []
    for key, expected in answer.items():
        if key not in shown_keys:
            continue
        shown = shown_keys[key](result)
        if key == "notes_include":
            missing = [code for code in expected if code not in shown]
            if missing:
                wrong.append(f"notes_include: shows notes {shown}, practice expects {missing}")
        elif not meets(shown, expected):
            wrong.append(f"{key}: shows {shown!r}, practice {expected!r}")
    assert not wrong, f"{calc} ({scenario['source'].split()[0]}): " + "; ".join(wrong)


def test_scenarios_are_well_formed() -> None:
    """At least 40 scenarios, unique ids, a source URL each, known calculators, answerable keys."""
    assert len(SCENARIOS) >= 40
    ids = [s["id"] for s in SCENARIOS]
    assert len(ids) == len(set(ids))
    known_inputs = {i["name"] for spec in CALCULATORS.values() for i in spec["inputs"]}
    known_inputs |= {name for names in CONTRACT_INPUTS.values() for name in names}
    all_keys = UNIVERSAL_KEYS | {key for keys in ANSWER_KEYS.values() for key in keys}
    for s in SCENARIOS:
        assert set(s) - {"known_gap"} == {"id", "question", "form", "answer", "calculators", "source"}, s["id"]
        if "known_gap" in s:  # a gap names the widgets it concerns and why
            assert set(s["known_gap"]["calculators"]) <= set(s["calculators"]) and s["known_gap"]["reason"]
        assert isinstance(s["question"], str) and "\n" not in s["question"].strip(), s["id"]
        assert "https://" in s["source"], s["id"]
        assert s["calculators"] and set(s["calculators"]) <= set(CALCULATORS), s["id"]
        assert set(s["form"]) <= known_inputs, (s["id"], set(s["form"]) - known_inputs)
        assert s["answer"] and set(s["answer"]) <= all_keys, (s["id"], set(s["answer"]) - all_keys)
        for value in s["answer"].values():
            if isinstance(value, dict):
                assert value and set(value) <= MATCHERS, s["id"]
        for calc in s["calculators"]:
            shown = UNIVERSAL_KEYS | set(ANSWER_KEYS[calc])
            assert set(s["answer"]) & shown, f"{s['id']}: {calc} shows none of {sorted(s['answer'])}"
