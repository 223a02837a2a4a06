"""The public contract of calculators.run / CALCULATORS / catalogs."""

import copy
import json
import math
from pathlib import Path

import pytest

import calculators
from calculators import CALCULATORS, ERROR_CODES, FABRICS, GPUS, MODELS, NOTE_CODES, run
from calculators.spec import CUSTOM_MODEL_FIELDS, INPUT_TYPES, OUTPUT_KINDS

README = Path(calculators.__file__).with_name("README.md")
NAMES = ["vram_fit", "training_memory", "scaling", "decision", "replicas", "throughput", "training_time",
         "compare", "workload"]
# The catalogs grow; these are the ids other code and the articles name, which must stay.
MODEL_IDS = list(MODELS)
GPU_IDS = list(GPUS)
NAMED_MODEL_IDS = ["llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "qwen2.5-7b", "qwen2.5-14b",
                   "qwen2.5-32b", "qwen2.5-72b", "mistral-7b", "gemma-2-27b", "deepseek-v3",
                   "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b", "llama-4-scout",
                   "llama-4-maverick", "gpt-oss-20b", "gpt-oss-120b"]
NAMED_GPU_IDS = ["rtx-pro-6000", "rtx-5090", "l40s", "l4", "a100-sxm", "h100-sxm", "h200", "b200"]
FABRIC_IDS = ["pcie5", "nvlink3", "nvlink", "ib-200", "ib-400", "eth-100", "eth-25"]


def codes(result: dict) -> list[tuple]:
    return [(e["field"], e["code"]) for e in result["errors"]]


# --- Spec ------------------------------------------------------------------------

def test_calculator_names() -> None:
    assert list(CALCULATORS) == NAMES
    assert list(calculators.NAMES) == NAMES


def test_spec_is_plain_json() -> None:
    assert json.loads(json.dumps(CALCULATORS, allow_nan=False)) == CALCULATORS
    for name in ("GPUS", "MODELS", "FABRICS"):
        data = getattr(calculators, name)
        assert json.loads(json.dumps(data, allow_nan=False)) == data


@pytest.mark.parametrize("name", NAMES)
def test_input_specs(name: str) -> None:
    spec = CALCULATORS[name]
    assert set(spec) == {"inputs", "outputs", "verdicts", "notes", "shown", "ranges", "figure"}
    seen = set()
    for item in spec["inputs"]:
        assert set(item) == {"name", "type", "unit", "default", "choices", "min", "max", "group"}
        assert item["name"] not in seen and item["name"].isidentifier()
        seen.add(item["name"])
        assert item["type"] in INPUT_TYPES
        if item["type"] == "choice":
            assert item["default"] in item["choices"] and item["min"] is None
        elif item["type"] == "bool":
            assert isinstance(item["default"], bool) and item["choices"] is None
        else:
            assert item["min"] <= item["default"] <= item["max"]
            assert isinstance(item["default"], int if item["type"] == "int" else float)
        assert item["group"] in (None, "custom_model")
        if item["group"]:
            assert item["name"] in CUSTOM_MODEL_FIELDS
    # Every default, given explicitly, is accepted and normalizes to itself.
    explicit = {i["name"]: i["default"] for i in spec["inputs"] if i["name"] != "target_tokens_per_s"}
    result = run(name, explicit)
    assert result["ok"], result
    defaults = run(name, {})
    assert {k: v for k, v in defaults["inputs"].items() if k in explicit} == \
        {k: v for k, v in explicit.items() if k in defaults["inputs"]}


@pytest.mark.parametrize("name", NAMES)
def test_outputs_listed_are_produced(name: str) -> None:
    spec = CALCULATORS[name]
    result = run(name, {})
    assert result["ok"]
    assert set(result) == {"ok", "inputs", "values", "verdict", "notes"}
    listed = [o["name"] for o in spec["outputs"]]
    assert list(result["values"]) == listed
    for out in spec["outputs"]:
        assert set(out) == {"name", "kind", "unit", "fields"}
        assert out["kind"] in OUTPUT_KINDS
        value = result["values"][out["name"]]
        kind = out["kind"]
        if kind in ("gb", "ratio", "float", "multiplier"):
            assert isinstance(value, float) and math.isfinite(value)
        elif kind in ("count", "bytes"):
            assert isinstance(value, int) and not isinstance(value, bool)
        elif kind == "bool":
            assert isinstance(value, bool)
        elif kind == "key":
            assert isinstance(value, str)
        elif kind == "list":
            assert isinstance(value, list) and value
            fields = [f["name"] for f in out["fields"]]
            for row in value:
                assert isinstance(row, dict)
                if name == "scaling":
                    assert list(row) == fields
                else:
                    assert set(row) == set(fields)
    assert result["verdict"] in spec["verdicts"]
    for n in result["notes"]:
        assert set(n) == {"code", "params"} and n["code"] in spec["notes"]


def test_decision_trace_values_are_described() -> None:
    trace_spec = next(o for o in CALCULATORS["decision"]["outputs"] if o["name"] == "trace")
    values_spec = next(f for f in trace_spec["fields"] if f["name"] == "values")
    value_fields = {f["name"] for f in values_spec["fields"]}
    for model in MODEL_IDS:
        for workload in ("inference", "lora", "qlora", "full_finetune", "pretrain"):
            for target in (0.0, 5000.0):
                context = min(32768, MODELS[model]["max_context"])  # Gemma 2: 8k at most
                v = run("decision", {"model": model, "workload": workload, "target_tokens_per_s": target,
                                     "context": context})["values"]
                steps = [t["step"] for t in v["trace"]]
                answers = [t["answer"] for t in v["trace"]]
                assert v["step"] == steps[-1] and 1 <= v["step"] <= 5
                assert answers == [False] * (len(answers) - 1) + [True]  # the flow stops at its first yes
                assert steps == sorted(steps) and set(steps) == set(range(1, v["step"] + 1))
                assert steps.count(2) <= 2 and all(steps.count(n) == 1 for n in set(steps) - {2})
                assert v["recommendation"] in calculators.RECOMMENDATIONS
                assert v["min_nodes"] >= 1 and v["gpus_per_node"] >= 1
                for t in v["trace"]:
                    assert t["question"] in calculators.QUESTIONS
                    assert set(t["values"]) <= value_fields, set(t["values"]) - value_fields


# --- Catalogs ----------------------------------------------------------------------

def test_catalog_identifiers() -> None:
    assert set(NAMED_MODEL_IDS) <= set(MODELS) and set(NAMED_GPU_IDS) <= set(GPUS)
    assert CALCULATORS["vram_fit"]["inputs"][0]["choices"] == MODEL_IDS + ["custom"]
    gpu_input = next(i for i in CALCULATORS["vram_fit"]["inputs"] if i["name"] == "gpu")
    assert gpu_input["choices"] == GPU_IDS
    for ids in (MODEL_IDS, GPU_IDS):
        assert all(i == i.lower() and " " not in i for i in ids) and "custom" not in ids
    assert set(FABRIC_IDS) <= set(FABRICS)
    assert {g["link"] for g in GPUS.values()} <= set(FABRICS)
    for entries in (GPUS, MODELS, FABRICS):
        for entry in entries.values():
            assert entry["name"] and entry["source"]


def test_catalog_values() -> None:
    assert GPUS["rtx-pro-6000"]["memory_gb"] == 96.0 and GPUS["rtx-pro-6000"]["link"] == "pcie5"
    assert GPUS["rtx-5090"]["memory_gb"] == 32.0
    assert [GPUS[g]["memory_gb"] for g in ("l40s", "l4", "h100-sxm", "h200")] == [48.0, 24.0, 80.0, 141.0]
    assert MODELS["llama-3.1-405b"]["kv_heads"] == 8  # not 16 (early config copies)
    assert MODELS["llama-3.1-405b"]["layers"] == 126
    assert MODELS["deepseek-v3"]["kv_elems_per_token_layer"] == 576  # MLA: 512 + 64
    assert MODELS["gemma-2-27b"]["sliding_window"] == 4096
    assert FABRICS["pcie5"]["bandwidth_gbs"] / FABRICS["ib-200"]["bandwidth_gbs"] == 2.0


def test_exports_are_copies() -> None:
    before = run("vram_fit", {})
    mutated = copy.deepcopy(CALCULATORS)
    CALCULATORS["vram_fit"]["inputs"][0]["default"] = "llama-3.1-8b"
    GPUS["rtx-pro-6000"]["memory_gb"] = 1.0
    try:
        assert run("vram_fit", {}) == before
    finally:
        CALCULATORS["vram_fit"]["inputs"][0]["default"] = mutated["vram_fit"]["inputs"][0]["default"]
        GPUS["rtx-pro-6000"]["memory_gb"] = 96.0


# --- Normalization -------------------------------------------------------------------

def test_defaults_describe_the_reference_node() -> None:
    inp = run("vram_fit", {})["inputs"]
    assert inp == {"model": "llama-3.1-70b", "precision": "fp8", "kv_precision": "bf16",
                   "gpu": "rtx-pro-6000", "gpus": 8, "context": 32768, "concurrency": 32,
                   "weights_limit": 0.7, "attention": "dp"}


def test_custom_inputs_only_echoed_for_custom_model() -> None:
    ignored = run("vram_fit", {"params_b": 13, "layers": 40})
    assert "params_b" not in ignored["inputs"]
    assert ignored["notes"][0] == {"code": "custom_inputs_ignored",
                                   "params": {"fields": ["params_b", "layers"]}}
    custom = run("vram_fit", {"model": "custom", "params_b": 13, "layers": 40})
    assert custom["inputs"]["params_b"] == 13.0 and isinstance(custom["inputs"]["params_b"], float)
    assert custom["inputs"]["kv_heads"] == 8 and custom["inputs"]["head_dim"] == 128
    assert custom["values"]["weights_gb"] == 13.0
    assert custom["values"]["kv_bytes_per_token"] == 2 * 40 * 8 * 128 * 2


def test_integral_float_accepted_for_int() -> None:
    res = run("vram_fit", {"gpus": 4.0})
    assert res["ok"] and res["inputs"]["gpus"] == 4 and type(res["inputs"]["gpus"]) is int


def test_int_accepted_for_float() -> None:
    res = run("vram_fit", {"weights_limit": 1})
    assert res["inputs"]["weights_limit"] == 1.0 and type(res["inputs"]["weights_limit"]) is float


def test_null_means_default() -> None:
    assert run("vram_fit", {"gpus": None})["inputs"]["gpus"] == 8
    assert run("vram_fit", None) == run("vram_fit", {}) == run("vram_fit")


def test_inputs_not_mutated_and_deterministic() -> None:
    raw = {"model": "llama-3.1-405b", "gpus": 8.0}
    snapshot = dict(raw)
    first = run("decision", raw)
    assert raw == snapshot
    assert run("decision", raw) == first
    assert json.loads(json.dumps(first, allow_nan=False)) == first


# --- Errors ---------------------------------------------------------------------------

def test_unknown_calculator() -> None:
    for name in ("nope", 5, None, ["vram_fit"]):
        res = run(name, {})
        assert res == {"ok": False, "errors": [{"field": None, "code": "unknown_calculator",
                                                 "params": {"choices": NAMES}}]}


@pytest.mark.parametrize("raw", [[], "x", 3, 2.5, True, [("gpus", 8)]])
def test_invalid_inputs(raw: object) -> None:
    assert codes(run("vram_fit", raw)) == [(None, "invalid_inputs")]


@pytest.mark.parametrize(("field", "value", "code", "params"), [
    ("gpus", "8", "not_a_number", {}),
    ("gpus", True, "not_a_number", {}),
    ("gpus", [8], "not_a_number", {}),
    ("gpus", 8.5, "not_an_integer", {}),
    ("gpus", 0, "too_small", {"min": 1}),
    ("gpus", 65, "too_large", {"max": 64}),
    ("gpus", 10**400, "too_large", {"max": 64}),
    ("gpus", 1e300, "too_large", {"max": 64}),
    ("context", math.nan, "not_finite", {}),
    ("weights_limit", math.inf, "not_finite", {}),
    ("weights_limit", -math.inf, "not_finite", {}),
    ("weights_limit", 1.5, "too_large", {"max": 1.0}),
    ("weights_limit", "0,7", "not_a_number", {}),
    ("model", "Llama-3.1-70B", "unknown_choice", None),
    ("model", 70, "unknown_choice", None),
    ("precision", "fp2", "unknown_choice", {"choices": ["bf16", "fp8", "int4", "fp4"]}),
    ("precision", "fp4", "precision_not_supported", {"gpu": "l40s"}),  # with gpu l40s below
    ("context", 8193, "context_exceeds_model", {"max": 8192, "model": "gemma-2-27b"}),  # with gemma below
    ("active_params_b", 80.0, "too_large", {"max": 70.0}),  # custom model, params_b 70 below
    ("heads", 60, "not_a_multiple", {"of": 8}),  # custom model, kv_heads 8
])
def test_field_errors(field: str, value: object, code: str, params: dict | None) -> None:
    context = {"precision": {"gpu": "l40s"}, "context": {"model": "gemma-2-27b"},
               "active_params_b": {"model": "custom", "params_b": 70.0}, "heads": {"model": "custom"}}
    res = run("vram_fit", {**context.get(field, {}), field: value})
    assert res["ok"] is False
    assert codes(res) == [(field, code)]
    if params is not None:
        assert res["errors"][0]["params"] == params
    else:
        assert res["errors"][0]["params"]["choices"][-1] == "custom"


def test_not_a_boolean() -> None:
    for value in ("yes", 1, 0, "true"):
        assert codes(run("replicas", {"spare": value})) == [("spare", "not_a_boolean")]
    assert run("replicas", {"spare": True})["ok"]


def test_all_errors_reported_in_spec_order() -> None:
    res = run("vram_fit", {"zeta": 1, "gpus": "x", "model": "nope", "alpha": 2, "concurrency": 0})
    assert codes(res) == [("model", "unknown_choice"), ("gpus", "not_a_number"),
                          ("concurrency", "too_small"), ("alpha", "unknown_input"),
                          ("zeta", "unknown_input")]
    assert res["errors"][3]["params"]["choices"][0] == "model"


def test_non_string_key_is_unknown_input() -> None:
    assert codes(run("vram_fit", {1: 2})) == [("1", "unknown_input")]


def test_input_of_another_calculator_is_unknown() -> None:
    assert codes(run("training_memory", {"kv_heads": 8})) == [("kv_heads", "unknown_input")]
    assert codes(run("replicas", {"workload": "lora"})) == [("workload", "unknown_input")]
    assert codes(run("replicas", {"node_tokens_per_s": 0.5})) == [("node_tokens_per_s", "too_small")]


def test_conflicting_replica_targets() -> None:
    res = run("replicas", {"target_tokens_per_s": 1000, "target_requests_per_s": 2})
    assert res["errors"] == [{"field": "target_requests_per_s", "code": "conflicting_inputs",
                              "params": {"with": "target_tokens_per_s"}}]
    ok = run("replicas", {"target_requests_per_s": 2, "tokens_per_request": 1000, "node_tokens_per_s": 1000})
    assert ok["values"]["target_tokens_per_s"] == 2000.0 and ok["values"]["replicas"] == 3  # at 80 %
    assert ok["notes"][0]["code"] == "target_from_requests"


def test_internal_error_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from calculators import registry

    def boom(inp: dict, raw: dict) -> dict:
        raise ZeroDivisionError

    broken = registry.Calculator("vram_fit", registry._BY_NAME["vram_fit"].spec, boom)
    monkeypatch.setattr(registry, "_BY_NAME", {**registry._BY_NAME, "vram_fit": broken})
    assert codes(run("vram_fit", {})) == [(None, "internal_error")]


def test_table_rejects_bad_inputs() -> None:
    with pytest.raises(ValueError):
        calculators.table({"gpu": "tpu"})


def test_error_codes_are_one_documented_list() -> None:
    assert len(set(ERROR_CODES)) == len(ERROR_CODES)
    text = README.read_text(encoding="utf-8")
    for code in ERROR_CODES:
        assert f"`{code}`" in text, code
    for code in NOTE_CODES:
        assert f"`{code}`" in text, code
    for key in calculators.RECOMMENDATIONS + calculators.QUESTIONS:
        assert f"`{key}`" in text, key
    for name, spec in CALCULATORS.items():
        assert f"`{name}`" in text
        for item in spec["inputs"] + spec["outputs"]:
            assert f"`{item['name']}`" in text, (name, item["name"])


@pytest.mark.parametrize(("name", "inputs"), [
    ("vram_fit", {"model": "custom", "params_b": 2000, "layers": 512, "heads": 1024, "kv_heads": 256,
                  "head_dim": 1024, "context": 1_048_576, "concurrency": 100_000, "gpu": "l4", "gpus": 1,
                  "precision": "bf16"}),
    ("vram_fit", {"model": "custom", "params_b": 0.1, "layers": 1, "heads": 1, "kv_heads": 1, "head_dim": 1,
                  "context": 1, "concurrency": 1, "gpu": "b200", "gpus": 64, "kv_precision": "fp8"}),
    ("vram_fit", {"model": "custom", "params_b": 2000, "active_params_b": 2000 / 128, "layers": 512,
                  "context": 1_048_576, "concurrency": 100_000, "gpu": "b200", "gpus": 64, "precision": "fp4"}),
    ("decision", {"model": "custom", "params_b": 2000, "layers": 512, "heads": 1024, "kv_heads": 256,
                  "head_dim": 1024,
                  "context": 1_048_576, "concurrency": 100_000, "gpu": "l4", "gpus": 1,
                  "workload": "full_finetune"}),
    ("training_memory", {"model": "custom", "params_b": 2000, "layers": 512, "seq_len": 1_048_576,
                         "micro_batch": 1024, "gpu": "l4", "gpus": 1, "lora_rank": 4096, "method": "lora"}),
    ("scaling", {"model": "custom", "params_b": 0.1, "layers": 1, "nodes": 1024, "gpus_per_node": 64,
                 "parallelism": "pp", "seq_len": 1, "mfu": 1.0, "fabric": "eth-25", "grad_accum": 1}),
    ("scaling", {"model": "custom", "params_b": 2000, "layers": 512, "nodes": 1, "gpus_per_node": 1,
                 "parallelism": "dp", "seq_len": 1_048_576, "micro_batch": 1024, "grad_accum": 4096,
                 "mfu": 0.01, "gpu": "l4"}),
    ("replicas", {"target_tokens_per_s": 1e9, "node_tokens_per_s": 1, "node_failure_rate": 1000}),
    ("replicas", {"target_requests_per_s": 1e7, "tokens_per_request": 1e6, "node_tokens_per_s": 1}),
])
def test_extreme_inputs_stay_finite(name: str, inputs: dict) -> None:
    """Inputs at the ends of their ranges give finite results (an MoE's active share at its floor, 1/128)."""
    result = run(name, inputs)
    assert result["ok"], result
    text = json.dumps(result, allow_nan=False)
    assert "Infinity" not in text and "NaN" not in text
