"""The catalog and the checks across inputs (issue 27, deliverable 4): FP4, model contexts, custom MoE
models, MoE decode reads, KV heads under tensor parallelism, min_gpus as a tensor-parallel degree."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS, GPUS, MODELS, run
from calculators import assumptions as A
from calculators import serving_memory as S
from calculators.catalog.gpus import GPU_BY_ID, precision_supported, tensor_tflops, training_tflops
from calculators.catalog.models import (
    CUSTOM_DEFAULTS,
    MODEL_BY_ID,
    config_params,
    resolve_model,
    touched_params_b,
)
from calculators.common import MAX_CONTEXT, MAX_GPUS
from calculators.inputs import MIN_ACTIVE_SHARE
from calculators.vram_fit import kv_bytes_per_sequence, kv_copies, tp_degrees

SETTINGS = settings(max_examples=150, deadline=None)

# Published totals (billions) the catalog's counts must match within 1 %, with their source.
PUBLISHED_TOTALS_B = {
    "qwen3-8b": (8.2, "https://huggingface.co/Qwen/Qwen3-8B (model card: Number of Parameters 8.2B)"),
    "qwen3-32b": (32.8, "https://huggingface.co/Qwen/Qwen3-32B (model card: 32.8B)"),
    "qwen3-30b-a3b": (30.5, "https://huggingface.co/Qwen/Qwen3-30B-A3B (model card: 30.5B in total, 3.3B activated)"),
    "qwen3-235b-a22b": (235.0, "https://huggingface.co/Qwen/Qwen3-235B-A22B (model card: 235B total, 22B activated)"),
    "llama-4-scout": (109.0, "meta-llama/llama-models models/llama4/MODEL_CARD.md (17B activated, 109B total)"),
    "llama-4-maverick": (400.0, "meta-llama/llama-models models/llama4/MODEL_CARD.md (17B activated, 400B total)"),
    "gpt-oss-20b": (20.91, "OpenAI, gpt-oss-120b & gpt-oss-20b model card (2025), Table 1: 20.91B total"),
    "gpt-oss-120b": (116.83, "OpenAI, gpt-oss-120b & gpt-oss-20b model card (2025), Table 1: 116.83B total"),
    "deepseek-v3": (671.0, "arXiv:2412.19437 (671B total, 37B activated)"),
}
# Published active parameters, where the same convention as ours (every parameter but the routed
# experts a token does not use) is published. OpenAI's gpt-oss counts leave out the input embedding.
PUBLISHED_ACTIVE_B = {"qwen3-30b-a3b": 3.3, "qwen3-235b-a22b": 22.0, "llama-4-scout": 17.0,
                      "llama-4-maverick": 17.0, "deepseek-v3": 37.0}

MOE_IDS = [m for m in MODELS if MODELS[m]["experts"]]
GPU_INPUT_CALCS = [name for name, spec in CALCULATORS.items()
                   if any(i["name"] == "precision" for i in spec["inputs"])
                   and any(i["type"] == "choice" and set(i["choices"]) <= set(GPUS) for i in spec["inputs"])]
CONTEXT_CALCS = [name for name, spec in CALCULATORS.items()
                 if {"model", "context"} <= {i["name"] for i in spec["inputs"]}]
BOUNDED_MODELS = [m for m in MODELS if 0 < MODELS[m]["max_context"] < MAX_CONTEXT]


def codes(result: dict[str, Any]) -> list[tuple[Any, str]]:
    return [(e["field"], e["code"]) for e in result.get("errors", [])]


# --- The catalog ------------------------------------------------------------------------------

@pytest.mark.parametrize("model_id", list(PUBLISHED_TOTALS_B))
def test_parameter_counts_match_the_published_totals(model_id: str) -> None:
    published, _source = PUBLISHED_TOTALS_B[model_id]
    assert MODELS[model_id]["params_b"] == pytest.approx(published, rel=0.01)
    if model_id in PUBLISHED_ACTIVE_B:
        assert MODELS[model_id]["active_params_b"] == pytest.approx(PUBLISHED_ACTIVE_B[model_id], rel=0.03)


def test_config_params_reproduces_the_dense_entries() -> None:
    # Llama 3.1 8B and 70B from their config.json, counted the same way as the new entries.
    for model_id, shape in {"llama-3.1-8b": (128256, 4096, 32, 32, 8, 128, 14336),
                            "llama-3.1-70b": (128256, 8192, 80, 64, 8, 128, 28672)}.items():
        vocab, hidden, layers, heads, kv, head_dim, ffn = shape
        total, active, routed = config_params(vocab, hidden, layers, heads, kv, head_dim,
                                              dense_layers=layers, dense_ffn=ffn)
        assert total == active == pytest.approx(MODELS[model_id]["params_b"], rel=1e-12) and routed == 0


def test_moe_structure_is_consistent() -> None:
    for model_id in MOE_IDS:
        m = MODEL_BY_ID[model_id]
        assert 0 < m.experts_per_token < m.experts
        assert 0 < m.routed_params_b < m.params_b and 0 < m.dense_params_b < m.active_params_b
        # the routed experts a token does not use are what separates active from total (the vision
        # encoder of Llama 4 apart: counted in the total, read by no decode step)
        unused = m.routed_params_b * (1 - m.experts_per_token / m.experts)
        assert m.active_params_b + unused <= m.params_b * (1 + 1e-9)
        assert m.params_b - (m.active_params_b + unused) < 0.01 * m.params_b


def test_every_sliding_window_is_shorter_than_the_model() -> None:
    for m in MODEL_BY_ID.values():
        if m.sliding_layers:
            assert 0 < m.sliding_window < m.max_context and m.sliding_layers < m.layers


def test_training_rates_follow_the_accumulate_rule() -> None:
    # NVIDIA RTX Blackwell GPU architecture whitepaper, Table 3: "Peak BF16 Tensor TFLOPS with FP32
    # Accumulate" 209.5 and FP8 with FP32 accumulate 419 (dense) on the RTX 5090.
    assert training_tflops(GPU_BY_ID["rtx-5090"]) == 209.5
    assert training_tflops(GPU_BY_ID["rtx-5090"], "fp8") == 419.0
    for gpu in GPU_BY_ID.values():
        geforce = gpu.name.startswith("GeForce")
        assert training_tflops(gpu) == gpu.bf16_tflops * (0.5 if geforce else 1.0)
        assert GPUS[gpu.id]["training_bf16_tflops"] == training_tflops(gpu)
        if gpu.fp8_tflops:
            assert training_tflops(gpu, "fp8") == gpu.fp8_tflops * (0.5 if geforce else 1.0)
        else:
            with pytest.raises(ValueError):
                training_tflops(gpu, "fp8")
    with pytest.raises(ValueError):
        training_tflops(GPU_BY_ID["h100-sxm"], "fp4")


def test_fp4_is_blackwell_and_four_times_bf16() -> None:
    fp4 = {g for g, v in GPUS.items() if v["fp4_tflops"]}
    assert fp4 == {"rtx-pro-6000", "rtx-5090", "b200"}
    for g in fp4:
        assert tensor_tflops(GPU_BY_ID[g], "fp4") == A.COMPUTE_RATE_BY_PRECISION["fp4"] * GPUS[g]["bf16_tflops"]
    assert tensor_tflops(GPU_BY_ID["a100-sxm"], "fp8") == GPUS["a100-sxm"]["bf16_tflops"]  # weight-only FP8
    assert A.WEIGHT_BYTES["int4"] < A.WEIGHT_BYTES["fp4"] < A.WEIGHT_BYTES["fp8"]
    assert A.WEIGHT_BYTES["fp4"] == (4 + 8 / 16) / 8  # NVFP4: E2M1 + an E4M3 scale per 16


# --- touched_params_b ---------------------------------------------------------------------------

@SETTINGS
@given(model_id=st.sampled_from(list(MODELS)), tokens=st.integers(1, 100_000), more=st.integers(0, 100_000))
def test_touched_params_grow_with_the_batch_within_active_and_total(model_id: str, tokens: int, more: int) -> None:
    m = MODEL_BY_ID[model_id]
    few, many = touched_params_b(m, tokens), touched_params_b(m, tokens + more)
    assert m.active_params_b * (1 - 1e-12) <= few <= many <= m.params_b
    assert touched_params_b(m, 1) == pytest.approx(m.active_params_b, rel=1e-12)
    if not m.experts:
        assert few == many == m.params_b


@pytest.mark.parametrize("model_id", MOE_IDS)
def test_a_large_batch_touches_every_expert(model_id: str) -> None:
    m = MODEL_BY_ID[model_id]
    expected = m.dense_params_b + m.routed_params_b
    assert touched_params_b(m, 10**7) == pytest.approx(expected, rel=1e-9)
    # the expected share of experts touched: 1 - (1 - k/E)^tokens
    share = m.experts_per_token / m.experts
    for tokens in (2, 8, 64):
        touched = (touched_params_b(m, tokens) - m.dense_params_b) / m.routed_params_b
        assert touched == pytest.approx(1 - (1 - share) ** tokens, rel=1e-9)


@SETTINGS
@given(params=st.floats(0.1, 2000.0), share=st.floats(MIN_ACTIVE_SHARE, 1.0), tokens=st.integers(1, 10_000))
def test_a_custom_moe_reads_between_its_active_and_total_parameters(params: float, share: float, tokens: int) -> None:
    result = run("vram_fit", {"model": "custom", "params_b": params, "active_params_b": params * share})
    assert result["ok"], result
    m = resolve_model(result["inputs"])
    assert m.params_b == params and m.active_params_b <= params
    assert touched_params_b(m, 1) == pytest.approx(m.active_params_b, rel=1e-9)
    assert m.active_params_b * (1 - 1e-9) <= touched_params_b(m, tokens) <= params
    assert m.dense_params_b >= -1e-9 * params


def test_custom_model_defaults() -> None:
    dense = resolve_model({"model": "custom"})
    assert dense.heads == CUSTOM_DEFAULTS["heads"] and dense.kv_heads == CUSTOM_DEFAULTS["kv_heads"]
    assert dense.active_params_b == dense.params_b and not dense.is_moe
    moe = resolve_model({"model": "custom", "params_b": 30.5, "active_params_b": 3.3, "layers": 48})
    assert moe.is_moe and moe.experts and touched_params_b(moe, 1) == pytest.approx(3.3)
    assert moe.hidden < dense.hidden  # estimated from the active parameters


# --- Checks across inputs -----------------------------------------------------------------------

def test_the_checks_apply_to_every_calculator_that_has_the_inputs() -> None:
    assert {"vram_fit", "throughput", "compare", "replicas", "workload"} <= set(GPU_INPUT_CALCS)
    assert {"vram_fit", "throughput", "compare", "replicas", "workload", "decision"} <= set(CONTEXT_CALCS)


@pytest.mark.parametrize("name", GPU_INPUT_CALCS)
@pytest.mark.parametrize("gpu", list(GPUS))
def test_fp4_is_refused_on_gpus_without_fp4_tensor_cores(name: str, gpu: str) -> None:
    spec = {i["name"]: i for i in CALCULATORS[name]["inputs"]}
    gpu_fields = [k for k, i in spec.items() if i["type"] == "choice" and set(i["choices"]) <= set(GPUS)]
    for field in gpu_fields:
        if gpu not in spec[field]["choices"]:
            continue
        # the other GPU inputs on a Blackwell card that has FP4, where they can be
        others = {k: next((g for g in spec[k]["choices"] if GPUS[g]["fp4_tflops"]), spec[k]["default"])
                  for k in gpu_fields if k != field}
        result = run(name, {**others, field: gpu, "precision": "fp4", "context": 4096})
        refused = [e for e in result.get("errors", []) if e["code"] == "precision_not_supported"]
        unsupported = [g for g in [gpu, *others.values()] if not precision_supported(GPU_BY_ID[g], "fp4")]
        if unsupported:
            assert refused and refused[0]["field"] == "precision", result
            assert refused[0]["params"]["gpu"] in unsupported
        else:
            assert not refused, result
        # every other precision is accepted on every GPU
        for precision in ("bf16", "fp8", "int4"):
            other = run(name, {**others, field: gpu, "precision": precision, "context": 4096})
            assert "precision_not_supported" not in [c for _, c in codes(other)], other


@pytest.mark.parametrize("name", CONTEXT_CALCS)
@pytest.mark.parametrize("model_id", BOUNDED_MODELS)
def test_a_context_beyond_the_model_is_refused(name: str, model_id: str) -> None:
    limit = MODELS[model_id]["max_context"]
    over = run(name, {"model": model_id, "context": limit + 1, "concurrency": 1})
    assert ("context", "context_exceeds_model") in codes(over), over
    error = next(e for e in over["errors"] if e["code"] == "context_exceeds_model")
    assert error["params"] == {"max": limit, "model": model_id}
    at = run(name, {"model": model_id, "context": limit, "concurrency": 1})
    assert ("context", "context_exceeds_model") not in codes(at)


@SETTINGS
@given(name=st.sampled_from(CONTEXT_CALCS), context=st.integers(1, MAX_CONTEXT))
def test_a_custom_model_has_no_context_limit(name: str, context: int) -> None:
    result = run(name, {"model": "custom", "context": context, "concurrency": 1})
    assert ("context", "context_exceeds_model") not in codes(result)


def test_the_old_note_is_gone() -> None:
    assert all("context_exceeds_model_max" not in spec["notes"] for spec in CALCULATORS.values())


def test_int4_works_as_before() -> None:
    assert A.WEIGHT_BYTES["int4"] == 4.15625 / 8
    for gpu in GPUS:
        v = run("vram_fit", {"precision": "int4", "gpu": gpu})
        assert v["ok"] and v["values"]["bytes_per_param"] == A.WEIGHT_BYTES["int4"]
        assert v["values"]["weights_gb"] == round(MODELS["llama-3.1-70b"]["params_b"] * A.WEIGHT_BYTES["int4"], 2)


# --- vram_fit: KV heads under tensor parallelism, min_gpus ----------------------------------------

@SETTINGS
@given(model_id=st.sampled_from([m for m in MODELS if not MODELS[m]["sliding_layers"]]),
       gpus=st.integers(1, MAX_GPUS), context=st.integers(1, 131_072), kv=st.sampled_from(["bf16", "fp8"]))
def test_vram_fit_holds_what_serving_memory_puts_on_each_gpu(model_id: str, gpus: int, context: int,
                                                               kv: str) -> None:
    m = MODEL_BY_ID[model_id]
    attention = "tp"  # MLA: every GPU holds the latent; GQA: split, replicated past kv_heads
    per_gpu = S.kv_bytes_per_token_per_gpu(m, A.KV_BYTES[kv], gpus, attention)
    node = kv_bytes_per_sequence(m, context, kv) * kv_copies(m, gpus, attention)
    assert node == pytest.approx(per_gpu * context * gpus, rel=1e-9)
    if not m.mla_kv_dim:
        assert kv_copies(m, gpus, attention) == max(1.0, gpus / m.kv_heads)


def test_qwen25_7b_on_8_gpus_holds_its_kv_heads_twice() -> None:
    four = run("vram_fit", {"model": "qwen2.5-7b", "gpus": 4, "concurrency": 1})["values"]
    eight = run("vram_fit", {"model": "qwen2.5-7b", "gpus": 8, "concurrency": 1})["values"]
    kv_heads = MODELS["qwen2.5-7b"]["kv_heads"]
    assert four["kv_copies"] == 1 and eight["kv_copies"] == 8 / kv_heads
    assert eight["kv_gb"] == pytest.approx(eight["kv_copies"] * four["kv_gb"], rel=1e-3)
    # each GPU holds a quarter of every token: per GPU no more requests than on four GPUs
    per_gpu_budget = eight["kv_budget_gb"] / 8
    # (within one request: the outputs are rounded)
    assert abs(eight["max_concurrency"] - per_gpu_budget * kv_heads / eight["kv_gb_per_sequence"]) <= 1


@SETTINGS
@given(model_id=st.sampled_from([*MODELS, "custom"]), max_gpus=st.integers(1, 128),
       heads_per_kv=st.integers(1, 16), kv_heads=st.integers(1, 64))
def test_tp_degrees_divide_the_heads(model_id: str, max_gpus: int, heads_per_kv: int, kv_heads: int) -> None:
    m = resolve_model({"model": model_id, "heads": heads_per_kv * kv_heads, "kv_heads": kv_heads})
    degrees = tp_degrees(m, max_gpus)
    assert degrees[0] == 1 and list(degrees) == sorted(set(degrees)) and degrees[-1] <= max_gpus
    for t in degrees:
        assert m.heads % t == 0 and (m.kv_heads % t == 0 or t % m.kv_heads == 0)
    assert all(t in degrees for t in range(1, max_gpus + 1)
               if m.heads % t == 0 and (m.kv_heads % t == 0 or t % m.kv_heads == 0))
    assert 3 not in tp_degrees(MODEL_BY_ID["llama-3.1-70b"], 64) and 14 not in tp_degrees(MODEL_BY_ID["qwen2.5-7b"], 64)


@SETTINGS
@given(model_id=st.sampled_from(list(MODELS)), gpu=st.sampled_from(list(GPUS)),
       precision=st.sampled_from(["bf16", "fp8", "int4", "fp4"]), concurrency=st.integers(1, 256),
       context=st.integers(1, 131_072), attention=st.sampled_from(["dp", "tp"]))
def test_min_gpus_is_the_smallest_tp_degree_that_fits(model_id: str, gpu: str, precision: str, concurrency: int,
                                                       context: int, attention: str) -> None:
    if precision == "fp4" and not GPUS[gpu]["fp4_tflops"]:
        precision = "int4"
    form = {"model": model_id, "gpu": gpu, "precision": precision, "concurrency": concurrency,
            "context": min(context, MODELS[model_id]["max_context"]), "attention": attention}
    v = run("vram_fit", form)["values"]
    degrees = tp_degrees(MODEL_BY_ID[model_id], MAX_GPUS)
    fits = [t for t in degrees if t <= (v["min_gpus"] or MAX_GPUS)
            and run("vram_fit", {**form, "gpus": t})["verdict"] == "fits"]
    if v["min_gpus"]:
        assert v["min_gpus"] in degrees and fits == [v["min_gpus"]]
    else:
        assert fits == []
