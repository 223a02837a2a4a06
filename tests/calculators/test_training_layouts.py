"""Training as practitioners run it: training_time's layouts, scaling's FSDP, NICs per node, fits_training."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS, GPUS, MODELS, run, training_memory
from calculators import assumptions as A
from calculators import reference as R
from calculators.catalog.fabrics import FABRIC_BY_ID, INTER_NODE_TABLE
from calculators.catalog.gpus import GPU_BY_ID, training_tflops
from calculators.catalog.models import MODEL_BY_ID, resolve_model
from calculators.scaling import Layout, default_nics, layout_step, training_flops_per_token
from calculators.training_memory import activations_gb, fits_training, layout_activations_gb, layout_state_gb
from calculators.training_time import pretrain_days, tp_degrees

SETTINGS = settings(max_examples=120, deadline=None)
CATALOG_MODELS = [m for m in MODELS if m in MODEL_BY_ID]
TRAINING_TIME = {i["name"]: i for i in CALCULATORS["training_time"]["inputs"]}


def values(name: str, **inputs: object) -> dict:
    res = run(name, inputs)
    assert res["ok"], res
    return res["values"]


runs = st.fixed_dictionaries({
    "model": st.sampled_from(CATALOG_MODELS),
    "gpu": st.sampled_from(list(GPUS)),
    "gpus": st.integers(1, 20_000),
    "gpus_per_node": st.sampled_from([1, 2, 4, 8, 16]),
    "fabric": st.sampled_from(list(INTER_NODE_TABLE)),
    "parallelism": st.sampled_from(TRAINING_TIME["parallelism"]["choices"]),
    "tokens_t": st.floats(0.01, 20.0),
    "global_batch": st.integers(1, 8192),
    "seq_len": st.sampled_from([2048, 4096, 8192]),
})


@SETTINGS
@given(inputs=runs)
def test_gpu_hours_never_below_the_ideal(inputs: dict) -> None:
    """GPU-hours are at least the work (6 N D and attention's) at the compute rate (efficiency <= 1), and at
    least 6 N D at the peak."""
    res = run("training_time", inputs)
    assert res["ok"], res
    v, mfu = res["values"], res["inputs"]["mfu"]
    model, gpu = MODEL_BY_ID[inputs["model"]], GPU_BY_ID[inputs["gpu"]]
    work = training_flops_per_token(model, inputs["seq_len"]) * inputs["tokens_t"] * 1e12
    assert v["total_flops"] == pytest.approx(work, rel=1e-3)
    ideal = work / (training_tflops(gpu) * 1e12) / 3600
    assert ideal >= 6 * model.active_params_b * 1e9 * inputs["tokens_t"] * 1e12 / (training_tflops(gpu) * 1e12) / 3600
    assert v["gpu_hours"] >= ideal / mfu * (1 - 1e-9) - 0.5  # gpu_hours is rounded to the hour
    assert v["gpu_hours"] >= ideal - 0.5
    assert 0 < v["efficiency"] <= 1 and v["mfu_achieved"] <= mfu * (1 + 1e-3)
    assert v["gpu_months_low"] <= v["gpu_months"] <= v["gpu_months_high"]


@SETTINGS
@given(inputs=runs)
def test_layouts_are_what_practitioners_run(inputs: dict) -> None:
    """TP inside one box and a divisor of the heads; at most one pipeline stage per layer; TP x PP x DP = GPUs."""
    v = values("training_time", **inputs)
    model = MODEL_BY_ID[inputs["model"]]
    g = min(inputs["gpus"], inputs["gpus_per_node"])
    assert v["tp_degree"] <= g and g % v["tp_degree"] == 0 and model.heads % v["tp_degree"] == 0
    assert v["pp_degree"] <= model.layers
    assert v["tp_degree"] * v["pp_degree"] * v["dp_degree"] == v["gpus"]
    assert v["gpus"] >= inputs["gpus"] and v["gpus"] == v["nodes"] * g
    chosen = inputs["parallelism"]
    if chosen in ("dp", "fsdp"):
        assert v["layout"] == chosen and v["tp_degree"] == v["pp_degree"] == 1
    elif chosen == "tp":
        assert v["pp_degree"] == 1 and v["tp_degree"] == tp_degrees(model, g)[-1]
    elif chosen == "pp":
        assert v["tp_degree"] == 1
    elif chosen == "tp_pp":
        assert v["tp_degree"] == tp_degrees(model, g)[-1]


@SETTINGS
@given(inputs=runs, extra=st.integers(1, 8))
def test_more_nics_never_slow_a_run(inputs: dict, extra: int) -> None:
    """A node with more network cards never projects a longer run, in training_time or scaling."""
    few = run("training_time", {**inputs, "nics_per_node": 1})["values"]
    many = run("training_time", {**inputs, "nics_per_node": 1 + extra})["values"]
    assert many["gpu_hours"] <= few["gpu_hours"] * (1 + 1e-6) + 1


@SETTINGS
@given(model=st.sampled_from(CATALOG_MODELS), gpu=st.sampled_from(list(GPUS)), nodes=st.integers(1, 64),
       g=st.sampled_from([1, 2, 4, 8]), fabric=st.sampled_from(list(INTER_NODE_TABLE)),
       parallelism=st.sampled_from(CALCULATORS["scaling"]["inputs"][
           [i["name"] for i in CALCULATORS["scaling"]["inputs"]].index("parallelism")]["choices"]),
       nics=st.integers(1, 15))
def test_scaling_more_nics_and_sharded_state(model: str, gpu: str, nodes: int, g: int, fabric: str,
                                             parallelism: str, nics: int) -> None:
    """scaling: one more NIC never lowers efficiency; FSDP's state per GPU is never above DDP's."""
    base = {"model": model, "gpu": gpu, "nodes": nodes, "gpus_per_node": g, "fabric": fabric,
            "parallelism": parallelism}
    few = values("scaling", **base, nics_per_node=nics)
    more = values("scaling", **base, nics_per_node=nics + 1)
    assert more["efficiency"] >= few["efficiency"]
    fsdp = values("scaling", **{**base, "parallelism": "fsdp"})
    ddp = values("scaling", **{**base, "parallelism": "dp"})
    assert fsdp["state_gb_per_gpu"] <= ddp["state_gb_per_gpu"]
    assert fsdp["state_gb_per_gpu"] == pytest.approx(ddp["state_gb_per_gpu"] / (g * nodes), abs=0.01)


def test_fsdp_fits_8b_on_96_gb_cards() -> None:
    """Plain data parallelism replicates 16 B/param; FSDP shards it: 8B trains data-parallel on 8 x 96 GB."""
    box = {"model": "llama-3.1-8b", "gpu": "rtx-pro-6000", "gpus_per_node": 8, "nodes": 1}
    dp = run("scaling", {**box, "parallelism": "dp"})
    fsdp = run("scaling", {**box, "parallelism": "fsdp"})
    memory = GPUS["rtx-pro-6000"]["memory_gb"]
    assert dp["verdict"] == "does_not_fit" and dp["values"]["state_gb_per_gpu"] > memory
    assert fsdp["verdict"] != "does_not_fit" and fsdp["values"]["state_gb_per_gpu"] <= memory
    state = 16 * MODELS["llama-3.1-8b"]["params_b"]
    assert fsdp["values"]["state_gb_per_gpu"] == pytest.approx(state / 8, abs=0.01)
    # FSDP moves 1.5 x DDP's bytes per micro-batch: with one micro-batch per step its step is longer.
    one = {**box, "grad_accum": 1}
    assert values("scaling", **one, parallelism="fsdp")["comm_ms"] > values("scaling", **one, parallelism="dp")[
        "comm_ms"]


def test_fsdp_traffic_is_one_and_a_half_ddp() -> None:
    """Per micro-batch FSDP all-gathers twice and reduce-scatters once: 1.5 x an all-reduce's bytes."""
    model, gpu = MODEL_BY_ID["llama-3.1-8b"], GPU_BY_ID["rtx-pro-6000"]
    inter = FABRIC_BY_ID["ib-400"]
    args = (model, gpu)
    common = (8, 1, inter, 2, 4096, 1, 1, 0.215)
    ddp = layout_step(*args, Layout(dp=8), *common)
    fsdp = layout_step(*args, Layout(dp=8, sharding="full"), *common)
    link = FABRIC_BY_ID[gpu.link]
    bandwidth = 2 * 7 / 8 * 2 * model.params_b * 1e9 / (link.bandwidth_gbs * 1e9)
    latency = 2 * 7 * link.latency_us * 1e-6
    assert ddp["comm"] == pytest.approx(bandwidth + latency)
    assert fsdp["comm"] == pytest.approx(1.5 * bandwidth + 1.5 * latency * model.layers)


def test_default_nics_by_server() -> None:
    """An SXM (HGX/DGX) node has one NIC per GPU; a PCIe box the calibration's two; 0 picks by the GPU."""
    assert {g: default_nics(GPU_BY_ID[g]) for g in ("h100-sxm", "h200", "b200", "a100-sxm")} == dict.fromkeys(
        ("h100-sxm", "h200", "b200", "a100-sxm"), A.NICS_PER_NODE_HGX)
    assert {default_nics(GPU_BY_ID[g]) for g in ("rtx-pro-6000", "rtx-5090", "l40s", "l4")} == {
        A.DEFAULT_NICS_PER_NODE}
    for name in ("scaling", "training_time"):
        spec = {i["name"]: i for i in CALCULATORS[name]["inputs"]}
        assert spec["nics_per_node"]["default"] == 0
    h100 = {"model": "llama-3.1-70b", "gpu": "h100-sxm", "nodes": 2}
    assert values("scaling", **h100)["nics_per_node"] == A.NICS_PER_NODE_HGX
    assert values("scaling", **h100)["efficiency"] == values("scaling", **h100, nics_per_node=8)["efficiency"]
    assert values("scaling", **h100)["efficiency"] > values("scaling", **h100, nics_per_node=2)["efficiency"]
    # The article's calibration (a PCIe box, two NICs) is what the default still computes.
    pro = {"model": "llama-3.1-70b", "gpus_per_node": 4, "nodes": 2, "fabric": "ib-200"}
    assert values("scaling", **pro)["efficiency"] == values("scaling", **pro, nics_per_node=2)["efficiency"]


def test_geforce_trains_at_its_fp32_accumulate_rate() -> None:
    """The compute peak is the catalog's training rate: an RTX 5090 computes at half its headline BF16."""
    v = values("scaling", gpu="rtx-5090", gpus_per_node=1)
    assert v["achieved_tflops"] == pytest.approx(0.215 * training_tflops(GPU_BY_ID["rtx-5090"]), abs=0.01)
    assert training_tflops(GPU_BY_ID["rtx-5090"]) < GPUS["rtx-5090"]["bf16_tflops"]
    t = values("training_time", gpu="rtx-5090", gpus=8)
    assert t["peak_tflops"] == pytest.approx(training_tflops(GPU_BY_ID["rtx-5090"]), abs=0.05)


def test_405b_layouts_near_metas_gpu_hours() -> None:
    """The issue's repro: tp, pp and tp_pp gave 1.7-59 billion GPU-hours for 405B on 8,192 H100."""
    meta = next(r for r in R.REFERENCES if r.id == "llama31-405b-gpu-hours").figure
    run_inputs = {"model": "llama-3.1-405b", "gpu": "h100-sxm", "gpus": 8192, "tokens_t": 15.6}
    for parallelism in ("auto", "tp", "pp", "tp_pp"):
        v = values("training_time", **run_inputs, parallelism=parallelism)
        assert 0.5 < v["gpu_hours"] / meta < 2, (parallelism, v["gpu_hours"])
        assert v["tp_degree"] <= 8 and v["pp_degree"] <= MODELS["llama-3.1-405b"]["layers"]
    auto = values("training_time", **run_inputs)
    assert auto["tp_degree"] == 8 and auto["pp_degree"] > 1 and auto["layout_fits"]
    # Plain DDP cannot hold 405B's 6.5 TB of state: said, not hidden.
    ddp = run("training_time", {**run_inputs, "parallelism": "dp"})
    assert "state_exceeds_gpu_memory" in [n["code"] for n in ddp["notes"]]


def test_table4_calibration_and_prediction() -> None:
    """mfu reproduces Llama 3's 43 % on 8,192 GPUs; half the sequences per replica on 16,384 lowers it."""
    by_id = {r.id: R.evaluate(r) for r in R.REFERENCES if r.id.startswith("llama3-405b-mfu")}
    eight, sixteen = by_id["llama3-405b-mfu-8k-gpus"]["ours"], by_id["llama3-405b-mfu-16k-gpus"]["ours"]
    assert eight == pytest.approx(A.LLAMA3_405B_8K_GPUS_MFU, abs=0.005)
    assert sixteen < eight


def test_batch_caps_the_replicas() -> None:
    """More replicas than sequences in the global batch is said; auto avoids it when it can."""
    res = run("training_time", {"model": "llama-3.1-8b", "gpu": "h100-sxm", "gpus": 4096, "global_batch": 256,
                                "parallelism": "fsdp"})
    assert {"code": "batch_below_dp", "params": {"dp": 4096, "global_batch": 256}} in res["notes"]
    auto = values("training_time", model="llama-3.1-8b", gpu="h100-sxm", gpus=4096, global_batch=256)
    assert auto["dp_degree"] <= 256


def test_pretrain_days_is_the_widgets_days() -> None:
    """pretrain_days (the planner's) gives the days training_time shows for the same run."""
    for model, gpu, gpus in (("llama-3.1-70b", "h100-sxm", 64), ("llama-3.1-8b", "rtx-pro-6000", 8),
                             ("llama-3.1-405b", "h100-sxm", 16384)):
        v = values("training_time", model=model, gpu=gpu, gpus=gpus, tokens_t=15.0)
        assert pretrain_days(model, gpu, gpus, 8, 15e12) == pytest.approx(v["days"], abs=0.05)
    slow = pretrain_days("llama-3.1-70b", "h100-sxm", 64, 8, 15e12, fabric="eth-25", nics_per_node=1)
    assert slow >= pretrain_days("llama-3.1-70b", "h100-sxm", 64, 8, 15e12)
    assert pretrain_days("llama-3.1-70b", "h100-sxm", 64, 8, 15e12, precision="fp8") < pretrain_days(
        "llama-3.1-70b", "h100-sxm", 64, 8, 15e12)


def test_tp_degrees_divide_heads_and_box() -> None:
    for model in MODEL_BY_ID.values():
        for g in (1, 2, 4, 6, 8):
            assert all(g % t == 0 and model.heads % t == 0 for t in tp_degrees(model, g))
            assert tp_degrees(model, g)[0] == 1


@SETTINGS
@given(model=st.sampled_from(CATALOG_MODELS), gpu=st.sampled_from(list(GPUS)),
       method=st.sampled_from(["full", "lora", "qlora"]), seq_len=st.sampled_from([512, 2048, 4096, 8192]),
       recompute=st.sampled_from(["none", "full", "offload"]), gpus=st.sampled_from([1, 2, 4, 8, 16]))
def test_fits_training_min_gpus(model: str, gpu: str, method: str, seq_len: int, recompute: str, gpus: int) -> None:
    """min_gpus holds the run; half as many do not; fits agrees with per_gpu_gb against 90 % of a GPU."""
    f = fits_training(model, method, gpu, gpus, seq_len, recompute)
    usable = GPUS[gpu]["memory_gb"] * (1 - A.RUNTIME_RESERVE)
    assert f["fits"] == (f["per_gpu_gb"] <= usable)
    assert f["total_gb"] == pytest.approx(f["per_gpu_gb"] * gpus)
    n = f["min_gpus"]
    if n:
        assert fits_training(model, method, gpu, n, seq_len, recompute)["fits"]
        if n > 1:
            assert not fits_training(model, method, gpu, n // 2, seq_len, recompute)["fits"]
        if gpus >= n:
            assert f["fits"]


def test_fits_training_recipes() -> None:
    """Published recipes' defaults (checkpointing, 2k): LoRA 8B on a 32 GB card, QLoRA 70B on one 96 GB card."""
    assert fits_training("llama-3.1-8b", "lora", "rtx-5090", 1)["fits"]
    assert fits_training("llama-3.1-70b", "qlora", "rtx-pro-6000", 1)["fits"]
    assert fits_training("llama-3.1-70b", "qlora", "rtx-5090", 1)["min_gpus"] == 2
    full = fits_training("llama-3.1-70b", "full", "h100-sxm", 1)
    assert full["min_gpus"] >= math.ceil(16 * MODELS["llama-3.1-70b"]["params_b"] / 72)
    # The memory the widget reports for one GPU is the same run.
    w = values("training_memory", model="llama-3.1-70b", method="qlora", gpu="rtx-pro-6000", gpus=1,
               recompute="full", seq_len=training_memory.RECIPE_SEQ_LEN)
    assert fits_training("llama-3.1-70b", "qlora", "rtx-pro-6000", 1)["per_gpu_gb"] == pytest.approx(
        w["total_gb"], abs=0.01)


@SETTINGS
@given(model=st.sampled_from(CATALOG_MODELS), seq_len=st.sampled_from([512, 2048, 4096, 8192]),
       tp=st.sampled_from([1, 2, 4, 8]), pp=st.sampled_from([1, 2, 4]))
def test_offloaded_checkpoints_leave_one_layer_and_one_checkpoint_on_the_gpu(model: str, seq_len: int, tp: int,
                                                                            pp: int) -> None:
    """Offloaded checkpoints (Unsloth, axolotl): the GPU keeps one layer's activations and one checkpoint,
    whatever the depth; never more than with the checkpoints kept on the GPU."""
    m = MODEL_BY_ID[model]
    sbh = seq_len * m.hidden
    expected = (A.ACT_BYTES_PER_SBH + A.ACT_CHECKPOINT_BYTES_PER_SBH * A.ACT_OFFLOAD_RESIDENT_CHECKPOINTS) * sbh / 1e9
    assert activations_gb(m, seq_len, 1, "offload") == pytest.approx(expected)
    assert activations_gb(m, seq_len, 1, "offload") <= activations_gb(m, seq_len, 1, "full")
    assert layout_activations_gb(m, tp, pp, 1, seq_len, 1, 8, "offload") == pytest.approx(expected / tp)
    assert layout_activations_gb(m, tp, pp, 1, seq_len, 1, 8, "offload") <= layout_activations_gb(
        m, tp, pp, 1, seq_len, 1, 8, "full")


def test_layout_state_sharding() -> None:
    """ZeRO-2 shards gradients and optimizer states over DP; ZeRO-3 everything; DDP nothing."""
    m = MODEL_BY_ID["llama-3.1-70b"]
    p = m.params_b / 8
    assert layout_state_gb(m, 8, 1, 4, "none") == pytest.approx(16 * p)
    assert layout_state_gb(m, 8, 1, 4, "optimizer") == pytest.approx(2 * p + 14 * p / 4)
    assert layout_state_gb(m, 8, 1, 4, "full") == pytest.approx(16 * p / 4)


def test_attention_flops_are_the_published_mfu_convention() -> None:
    """Work per token is 6 P plus attention's 12 x layers x width x seq_len, the count MFU is published in:
    torchtitan's 56.8 % for Llama 3 8B at 2,904 tokens/s per A100 and llm-foundry's 46.44 % for MPT-7B at
    10,643 per H100 (2,048 tokens; a custom model's width is its hidden size) come out of it."""
    llama = MODEL_BY_ID["llama-3.1-8b"]
    attention = 12 * llama.layers * llama.heads * llama.head_dim * 8192
    assert training_flops_per_token(llama, 8192) == pytest.approx(6 * llama.active_params_b * 1e9 + attention)
    assert training_flops_per_token(llama, 8192, attention=False) == pytest.approx(6 * llama.active_params_b * 1e9)
    assert 2904 * training_flops_per_token(llama, 8192) / 312e12 == pytest.approx(0.568, abs=0.002)
    mpt = resolve_model({"model": "custom", "params_b": 6.658859008, "layers": 32})
    assert 10643 * training_flops_per_token(mpt, 2048) / 989.5e12 == pytest.approx(0.4644, abs=0.002)
    # The widget's work grows with the sequence: 8B at 8,192 tokens costs 27 % more than 6 P D.
    short = values("training_time", model="llama-3.1-8b", gpu="h100-sxm", gpus=8, seq_len=2048)
    long = values("training_time", model="llama-3.1-8b", gpu="h100-sxm", gpus=8, seq_len=8192)
    six_pd = 6 * llama.active_params_b * 1e9 * 15e12
    assert long["total_flops"] / six_pd == pytest.approx(1 + attention / (6 * llama.active_params_b * 1e9), rel=1e-3)
    assert long["total_flops"] > short["total_flops"] > six_pd
    # scaling's own widget keeps the article's 6 P: its compute is attention-free.
    step = layout_step(llama, GPU_BY_ID["h100-sxm"], Layout(dp=8), 8, 1, FABRIC_BY_ID["ib-400"], 8, 8192, 1, 1, 0.5)
    assert step["compute"] == pytest.approx(6 * llama.active_params_b * 1e9 * 8192 / (0.5 * 989.5e12))


def test_decision_offloads_checkpoints_before_adding_gpus() -> None:
    """A fine-tune the reader's box does not hold is tried with Unsloth's offloaded checkpoints before a
    bigger box, and only taken (and said) when that needs fewer GPUs."""
    form = {"model": "llama-3.1-70b", "workload": "qlora", "gpu": "l40s", "gpus": 1}
    on_gpu = fits_training("llama-3.1-70b", "qlora", "l40s", 1)
    assert not on_gpu["fits"] and on_gpu["min_gpus"] == 2
    result = run("decision", form)
    assert (result["values"]["min_nodes"], result["values"]["gpus_per_node"]) == (1, 1)
    assert [(n["code"], n["params"]) for n in result["notes"]] == [
        ("offload_checkpoints", {"gpus": 1, "gpus_per_node": 1, "seq_len": training_memory.RECIPE_SEQ_LEN})]
    assert result["values"]["trace"][0]["values"]["recompute"] == "offload"
    # No checkpoints kept (recompute "none"): none to move, so nothing is tried and nothing said.
    kept = run("decision", {**form, "recompute": "none"})
    assert kept["values"]["gpus_per_node"] > 1 and "offload_checkpoints" not in {n["code"] for n in kept["notes"]}
    typed = run("decision", {**form, "recompute": "offload"})  # the reader's own recipe: nothing to say
    assert typed["values"]["gpus_per_node"] == 1 and "offload_checkpoints" not in {n["code"] for n in typed["notes"]}
    # The training state, not the activations, is what a 70B full fine-tune lacks room for: no offload.
    full = run("decision", {"model": "llama-3.1-70b", "workload": "full_finetune", "gpu": "rtx-pro-6000", "gpus": 8})
    assert full["values"]["min_nodes"] == 2 and full["values"]["trace"][0]["values"]["recompute"] == "full"
    assert "offload_checkpoints" not in {n["code"] for n in full["notes"]}
