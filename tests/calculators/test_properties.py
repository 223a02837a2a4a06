"""Property tests (hypothesis) on every calculator."""

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS, ERROR_CODES, FABRICS, GPUS, MODELS, planner, run
from calculators.catalog.gpus import GPU_BY_ID
from calculators.catalog.models import resolve_model
from calculators.inputs import MIN_ACTIVE_SHARE
from calculators.vram_fit import tp_degrees

SETTINGS = settings(max_examples=200, deadline=None)
NAMES = list(CALCULATORS)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda children: (st.lists(children, max_size=4)
                      | st.dictionaries(st.text(max_size=10), children, max_size=4)),
    max_leaves=12,
)


def _value(item: dict[str, Any]) -> st.SearchStrategy:
    if item["type"] == "choice":
        return st.sampled_from(item["choices"])
    if item["type"] == "bool":
        return st.booleans()
    if item["type"] == "int":
        return st.integers(item["min"], item["max"])
    return st.floats(item["min"], item["max"], allow_nan=False, allow_infinity=False)


def valid_inputs(name: str, exclude: tuple[str, ...] = ()) -> st.SearchStrategy:
    """Random valid inputs for `name` (any subset of its inputs)."""
    items = [i for i in CALCULATORS[name]["inputs"] if i["name"] not in exclude]
    optional = {}
    if name == "replicas":  # a request rate and an explicit token rate conflict
        items = [i for i in items if i["name"] != "target_tokens_per_s"]
        if "node_tokens_per_s" not in exclude:  # 0 (from throughput) or a typed rate of at least 1 tok/s
            optional["node_tokens_per_s"] = st.just(0.0) | st.floats(1.0, 1e7)
    optional.update({i["name"]: _value(i) for i in items if i["name"] not in optional})
    return st.fixed_dictionaries({}, optional=optional).map(lambda inputs: consistent(name, inputs))


def consistent(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """`inputs` made to pass the checks across fields (calculators.inputs.cross_check), read from the catalogs.

    FP4 only on GPUs with FP4 tensor cores, a context within a catalog model's maximum, a custom
    model's active parameters within its parameters and its heads a multiple of its KV heads.
    """
    spec = {i["name"]: i for i in CALCULATORS[name]["inputs"]}
    out = dict(inputs)
    gpu_fields = [k for k, i in spec.items() if i["type"] == "choice" and set(i["choices"]) <= set(GPUS)]
    if "precision" in spec and out.get("precision", spec["precision"]["default"]) == "fp4" and any(
            not GPUS[out.get(k, spec[k]["default"])]["fp4_tflops"] for k in gpu_fields):
        out["precision"] = "fp8"
    model = out.get("model", spec["model"]["default"]) if "model" in spec else None
    if "context" in spec and model in MODELS and MODELS[model]["max_context"]:
        out["context"] = min(out.get("context", spec["context"]["default"]), MODELS[model]["max_context"])
    if model == "custom":
        value = {k: out.get(k, spec[k]["default"]) for k in ("params_b", "active_params_b", "heads", "kv_heads")
                 if k in spec}
        if value.get("active_params_b", 0) > value["params_b"]:
            out["active_params_b"] = value["params_b"]
        elif 0 < value.get("active_params_b", 0) < value["params_b"] * MIN_ACTIVE_SHARE:
            out["active_params_b"] = 0.0  # below the smallest share an MoE may declare: dense
        if "heads" in value and value["heads"] % value["kv_heads"]:
            out["heads"] = value["kv_heads"] * max(1, value["heads"] // value["kv_heads"])
    if "output_tokens" in out and not out.get("input_tokens"):  # the answer is part of the context
        context = out.get("context", spec["context"]["default"])
        if out["output_tokens"] >= context:
            out["output_tokens"] = max(1, context // 2) if context > 1 else None
            if out["output_tokens"] is None:
                del out["output_tokens"]
    return out


def spec_keyed_json(name: str) -> st.SearchStrategy:
    names = [i["name"] for i in CALCULATORS[name]["inputs"]]
    return st.dictionaries(st.sampled_from(names) | st.text(max_size=8), json_values, max_size=6)


def all_finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(all_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(all_finite(v) for v in value)
    return value is None or isinstance(value, (bool, int, str))


def check_shape(result: Any) -> None:
    assert isinstance(result, dict)
    json.dumps(result, allow_nan=False)
    if result["ok"] is True:
        assert set(result) == {"ok", "inputs", "values", "verdict", "notes"}
    else:
        assert result["ok"] is False and set(result) == {"ok", "errors"}
        assert result["errors"]
        for err in result["errors"]:
            assert set(err) == {"field", "code", "params"}
            assert err["code"] in ERROR_CODES and err["code"] != "internal_error", err


@SETTINGS
@given(name=st.sampled_from(NAMES) | st.text(max_size=12), inputs=json_values)
def test_run_never_raises_on_arbitrary_json(name: str, inputs: Any) -> None:
    check_shape(run(name, inputs))


@SETTINGS
@given(data=st.data(), name=st.sampled_from(NAMES))
def test_run_never_raises_on_spec_keyed_json(data: st.DataObject, name: str) -> None:
    check_shape(run(name, data.draw(spec_keyed_json(name))))


@SETTINGS
@given(data=st.data(), name=st.sampled_from(NAMES))
def test_valid_inputs_give_finite_results(data: st.DataObject, name: str) -> None:
    inputs = data.draw(valid_inputs(name))
    result = run(name, inputs)
    if not result["ok"]:  # valid fields, but no number of nodes of the GPU holds the load: said on `model`
        assert [(e["field"], e["code"]) for e in result["errors"]] == [("model", "fits_no_deployment")], result
        return
    check_shape(result)
    assert all_finite(result["values"])
    assert result["verdict"] in CALCULATORS[name]["verdicts"]
    # run is idempotent on its own normalized inputs
    again = run(name, result["inputs"])
    assert again["values"] == result["values"]


@SETTINGS
@given(data=st.data(), name=st.sampled_from(["vram_fit", "training_memory"]),
       gpus=st.tuples(st.integers(1, 64), st.integers(1, 64)).map(sorted))
def test_more_gpus_never_lower_vram(data: st.DataObject, name: str, gpus: list[int]) -> None:
    inputs = data.draw(valid_inputs(name, exclude=("gpus",)))
    few = run(name, {**inputs, "gpus": gpus[0]})["values"]
    many = run(name, {**inputs, "gpus": gpus[1]})["values"]
    assert few["vram_gb"] <= many["vram_gb"]
    assert few["usable_gb"] <= many["usable_gb"]
    if name == "vram_fit":
        assert few["max_concurrency"] <= many["max_concurrency"]
    else:
        assert few["fits"] <= many["fits"]


def _dominated_pairs() -> list[tuple[str, str]]:
    """(fast, slow) fabric pairs: slow has no more bandwidth and no less latency."""
    return [
        (a, b) for a in FABRICS for b in FABRICS
        if a != b and FABRICS[b]["bandwidth_gbs"] <= FABRICS[a]["bandwidth_gbs"]
        and FABRICS[b]["latency_us"] >= FABRICS[a]["latency_us"]
    ]


@SETTINGS
@given(data=st.data(), pair=st.sampled_from(_dominated_pairs()))
def test_slower_fabric_never_raises_efficiency(data: st.DataObject, pair: tuple[str, str]) -> None:
    inputs = data.draw(valid_inputs("scaling", exclude=("fabric",)))
    fast = run("scaling", {**inputs, "fabric": pair[0]})["values"]
    slow = run("scaling", {**inputs, "fabric": pair[1]})["values"]
    assert slow["efficiency"] <= fast["efficiency"]
    assert slow["speedup"] <= fast["speedup"]


@SETTINGS
@given(data=st.data())
def test_scaling_efficiency_bounds(data: st.DataObject) -> None:
    v = run("scaling", data.draw(valid_inputs("scaling")))["values"]
    assert 0.0 < v["efficiency"] <= 1.0
    assert v["speedup"] <= v["gpus"] + 1e-9
    assert 0.0 <= v["comm_share"] <= 1.0 and 0.0 <= v["bubble_share"] < 1.0
    assert v["below_threshold"] == (v["efficiency"] < 0.6)
    for row in v["series"]:
        assert 0.0 < row["efficiency"] <= 1.0


@SETTINGS
@given(data=st.data())
def test_scaling_verdict_and_range(data: st.DataObject) -> None:
    """No "scales" when the training state does not fit; the range holds the estimate and says when the
    verdict would change inside it."""
    result = run("scaling", data.draw(valid_inputs("scaling")))
    v = result["values"]
    assert v["state_fits"] == (v["state_gb_per_gpu"] <= v["gpu_memory_gb"])
    if not v["state_fits"]:
        assert result["verdict"] == "does_not_fit"
    else:
        assert result["verdict"] == ("restructure" if v["below_threshold"] else "scales")
    assert v["efficiency_low"] <= v["efficiency"] <= v["efficiency_high"]
    crosses = (v["efficiency_low"] < 0.6) != (v["efficiency_high"] < 0.6)
    assert v["verdict_changes_in_range"] == crosses
    assert any(n["code"] == "verdict_depends_on_bandwidth" for n in result["notes"]) == crosses


@SETTINGS
@given(data=st.data())
def test_more_precision_bits_never_lower_weights(data: st.DataObject) -> None:
    inputs = data.draw(valid_inputs("vram_fit", exclude=("precision",)))
    fp4 = GPUS[inputs.get("gpu", "rtx-pro-6000")]["fp4_tflops"] > 0
    weights = [run("vram_fit", {**inputs, "precision": p})["values"]["weights_gb"]
               for p in ("int4", "fp4", "fp8", "bf16") if p != "fp4" or fp4]
    assert weights == sorted(weights)


@SETTINGS
@given(data=st.data(), contexts=st.tuples(st.integers(1, 1_048_576), st.integers(1, 1_048_576)).map(sorted))
def test_longer_context_never_lowers_kv(data: st.DataObject, contexts: list[int]) -> None:
    inputs = data.draw(valid_inputs("vram_fit", exclude=("context",)))
    short = run("vram_fit", consistent("vram_fit", {**inputs, "context": contexts[0]}))["values"]
    long = run("vram_fit", consistent("vram_fit", {**inputs, "context": contexts[1]}))["values"]
    assert short["kv_gb"] <= long["kv_gb"]
    assert short["max_concurrency"] >= long["max_concurrency"]


@SETTINGS
@given(data=st.data())
def test_vram_fit_verdict_consistent_with_values(data: st.DataObject) -> None:
    result = run("vram_fit", data.draw(valid_inputs("vram_fit")))
    v, inp = result["values"], result["inputs"]
    # The verdict answers the requested load: fits / tight when it fits (tight: weights above the rule),
    # does_not_fit when it does not; max_concurrency and max_context say what would fit.
    assert v["kv_fits"] == (v["max_concurrency"] >= inp["concurrency"])
    assert (result["verdict"] == "does_not_fit") == (not v["kv_fits"])
    assert (result["verdict"] == "tight") == (v["kv_fits"] and not v["weights_within_limit"])
    if result["verdict"] == "fits":
        assert v["weights_within_limit"] and v["kv_fits"]
        # min_gpus is a tensor-parallel degree: no larger than the reader's GPUs when they are one
        model = MODELS.get(inp["model"])
        heads, kv = (model["heads"], model["kv_heads"]) if model else (inp["heads"], inp["kv_heads"])
        if heads % inp["gpus"] == 0 and (kv % inp["gpus"] == 0 or inp["gpus"] % kv == 0):
            assert v["min_gpus"] <= inp["gpus"]
    # max_context is exactly the longest context at which the requested concurrency fits (at most the
    # model's own maximum, beyond which a context is refused)
    model_max = MODELS[inp["model"]]["max_context"] if inp["model"] in MODELS else 0
    assert not model_max or v["max_context"] <= model_max
    if 0 < v["max_context"] < min(1_048_576, model_max or 1_048_576):
        assert run("vram_fit", {**inp, "context": v["max_context"]})["values"]["kv_fits"]
        assert not run("vram_fit", {**inp, "context": v["max_context"] + 1})["values"]["kv_fits"]
    assert (v["max_context"] >= inp["context"]) == v["kv_fits"]
    # min_gpus is exactly the smallest tensor-parallel degree of this GPU where the verdict is "fits"
    # (0: no degree up to 64 holds the load, e.g. an MLA cache copied on every GPU under TP);
    # test_catalog_inputs.py checks it against every smaller degree
    at_min = run("vram_fit", {**inp, "gpus": v["min_gpus"]}) if 1 <= v["min_gpus"] <= 64 else None
    if at_min is not None:
        assert at_min["verdict"] == "fits"


@SETTINGS
@given(data=st.data())
def test_decision_trace_is_first_yes(data: st.DataObject) -> None:
    result = run("decision", data.draw(valid_inputs("decision")))
    v, inp = result["values"], result["inputs"]
    answers = [t["answer"] for t in v["trace"]]
    steps = [t["step"] for t in v["trace"]]
    # Steps are asked in order (step 2 may ask two questions); the first yes decides.
    assert steps == sorted(steps) and set(steps) == set(range(1, v["step"] + 1))
    assert answers == [False] * (len(answers) - 1) + [True] and v["step"] == steps[-1] and v["min_nodes"] >= 1
    # Never one model across nodes for inference when its weights fit a box of these GPUs (up to 8, or
    # the reader's bigger one) at FP8 or INT4 with one request next to them: the answer is then
    # copies of boxes, or one box.
    if inp["workload"] == "inference" and v["recommendation"] == "multi_node_ib":
        model = resolve_model(inp)
        top = max(inp["gpus"], planner.BOX_SIZES[-1])
        for precision in ("fp8", "int4"):
            load = planner.Load(model, precision, inp["kv_precision"], GPU_BY_ID[inp["gpu"]], inp["gpus"],
                                inp["context"], inp["output_tokens"], inp["concurrency"], 0.0)
            assert not any(planner.copy_of(load, tp).holds for tp in tp_degrees(model, top))


@SETTINGS
@given(data=st.data())
def test_replicas_cover_target(data: st.DataObject) -> None:
    result = run("replicas", data.draw(valid_inputs("replicas")))
    if not result["ok"]:  # a custom model no number of nodes holds (e.g. 416B in one layer): said on `model`
        assert [(e["field"], e["code"]) for e in result["errors"]] == [("model", "fits_no_deployment")]
        return
    v, inp = result["values"], result["inputs"]
    if inp["target_requests_per_s"] > 0:
        target = inp["target_requests_per_s"] * inp["tokens_per_request"]
    else:
        target = inp["target_tokens_per_s"]
    node = inp["node_tokens_per_s"] or v["node_tokens_per_s"]  # 0: the rate throughput gives (6 digits)
    assert v["node_rate_source"] == ("typed" if inp["node_tokens_per_s"] else "throughput")
    planned = node * inp["utilization_target"]
    assert v["replicas"] * planned >= target * (1 - 1e-5)
    if inp["node_tokens_per_s"]:  # a typed rate: the fewest replicas that carry the target
        assert v["replicas"] == 1 or (v["replicas"] - 1) * planned < target * (1 + 1e-5)
        assert v["utilization"] <= inp["utilization_target"] * (1 + 1e-3) or v["replicas"] == 1
    across = next((n["params"]["boxes"] for n in result["notes"] if n["code"] == "model_across_boxes"), 1)
    assert v["nodes"] == v["replicas"] * across + (1 if inp["spare"] else 0) == v["added_nodes"] + 1
    # cluster_failure_rate is rounded to 4 decimals (0.03125 -> 0.0312)
    assert math.isclose(v["cluster_failure_rate"], v["nodes"] * v["node_failure_rate"], rel_tol=1e-3, abs_tol=5e-5)
    assert (v["effort_per_added_node_min"], v["effort_per_added_node_max"]) == (4.0, 5.0)
    assert v["effort_total_min"] == pytest.approx(1 + 4 * v["added_nodes"], abs=0.01)
    assert v["effort_total_max"] == pytest.approx(1 + 5 * v["added_nodes"], abs=0.01)
