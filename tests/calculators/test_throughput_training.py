"""throughput, training_time and node power: what they compute, checked against hand arithmetic."""

import pytest

from calculators import GPUS, run
from calculators import assumptions as A
from calculators.catalog.gpus import GPU_BY_ID
from calculators.power import node_kw

PRO8 = {"gpu": "rtx-pro-6000", "gpus": 8}


def values(name: str, **inputs: object) -> dict:
    res = run(name, inputs)
    assert res["ok"], res
    return res["values"]


def test_decode_reads_weights_and_kv_at_the_memory_bandwidth() -> None:
    """8B BF16 on one H100, 1 request of 1 + 1 tokens: one step reads the 16 GB of weights and one token's
    KV cache (the mean length) at the calibrated MBU x 3.35 TB/s."""
    v = values("throughput", model="llama-3.1-8b", precision="bf16", gpu="h100-sxm", gpus=1, concurrency=1,
               context=2, output_tokens=1)
    weights = 8.030261248e9 * 2
    assert v["memory_ms"] == pytest.approx((weights + 131072) / (3350e9 * A.DECODE_BANDWIDTH_SHARE) * 1e3, abs=1e-3)
    assert v["comm_ms"] == 0.0 and v["bound"] == "memory"
    assert v["decode_tokens_per_s"] == pytest.approx(1e3 / v["step_ms"], rel=1e-3)


def test_longer_context_and_more_requests_read_more() -> None:
    short = values("throughput", context=8192)
    long = values("throughput", context=32768)
    assert long["bytes_per_step_gb"] > short["bytes_per_step_gb"]
    assert long["tokens_per_s_per_request"] < short["tokens_per_s_per_request"]
    assert long["time_to_first_token_ms"] > 4 * short["time_to_first_token_ms"]  # attention grows as context^2
    more = values("throughput", concurrency=64, context=8192)
    assert more["node_tokens_per_s"] > short["node_tokens_per_s"]  # weights read once for more requests


def test_range_brackets_the_central_rate() -> None:
    v = values("throughput")
    assert v["node_tokens_per_s_low"] < v["node_tokens_per_s"] < v["node_tokens_per_s_high"]
    assert v["time_to_first_token_ms_low"] < v["time_to_first_token_ms"] < v["time_to_first_token_ms_high"]


def test_big_batch_short_context_is_compute_bound() -> None:
    res = run("throughput", {"model": "llama-3.1-8b", "gpu": "l4", "gpus": 1, "concurrency": 2000, "context": 16,
                             "precision": "bf16"})
    assert res["verdict"] == "compute_bound" and res["values"]["bound"] == "compute"


def test_pcie_tensor_parallel_cost_is_scalings_ring() -> None:
    """The PCIe box pays all-reduces an NVLink box barely notices (405B: one copy over all 8 GPUs)."""
    load = {"model": "llama-3.1-405b", "context": 2048, "concurrency": 64}
    pcie = run("throughput", load)
    nvlink = values("throughput", **load, gpu="h100-sxm")
    assert (pcie["values"]["copies"], pcie["values"]["tensor_parallel"]) == (1, 8) == (
        nvlink["copies"], nvlink["tensor_parallel"])
    assert pcie["values"]["comm_ms"] > 3 * nvlink["comm_ms"]
    assert "tp_comm_share" in [n["code"] for n in pcie["notes"]]


def test_load_that_does_not_fit_is_said() -> None:
    res = run("throughput", {"model": "llama-3.1-405b", **PRO8})
    assert res["verdict"] == "does_not_fit"
    assert {"code": "load_does_not_fit",
            "params": {"max_concurrency": 18, "concurrency": 32, "context": 32768}} in res["notes"]


def test_board_power_in_the_catalog_and_the_node_allowance() -> None:
    assert {g: GPUS[g]["board_w"] for g in GPUS} == {
        "rtx-pro-6000": 600.0, "rtx-5090": 575.0, "l40s": 350.0, "l4": 72.0, "a100-sxm": 400.0, "h100-sxm": 700.0,
        "h200": 700.0, "b200": 1000.0}
    assert all(GPUS[g]["power_source"].startswith("https://") for g in GPUS)
    assert node_kw(GPU_BY_ID["h100-sxm"], 8) == pytest.approx(10.2)  # DGX H100 max
    assert node_kw(GPU_BY_ID["b200"], 8) == pytest.approx(14.3)      # DGX B200 max
    assert node_kw(GPU_BY_ID["l4"], 1) > 0.7  # a host is not free: 633 W + the card
    v = values("throughput", **PRO8)
    assert v["node_kw"] == pytest.approx(8.83, abs=0.005)
    assert v["tokens_per_kwh"] == pytest.approx(v["node_tokens_per_s"] * 3600 / v["node_kw"], rel=1e-3)


def test_training_time_is_work_over_achieved_flops() -> None:
    """Work = (6 P + 12 x layers x heads x head_dim x seq_len) D: 6 P D and attention at 8,192 tokens."""
    res = run("training_time", {"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 64, "tokens_t": 1.5})
    v, mfu = res["values"], res["inputs"]["mfu"]
    per_token = 6 * 70.553706496e9 + 12 * 80 * 64 * 128 * 8192
    hours = per_token * 1.5e12 / (989.5e12 * mfu * v["efficiency"]) / 3600
    assert v["total_flops"] == pytest.approx(per_token * 1.5e12, rel=1e-3)
    assert v["gpu_hours"] == pytest.approx(hours, rel=1e-4)  # efficiency shown to 4 digits
    assert v["gpu_months"] == pytest.approx(hours / 730, rel=1e-4)
    assert v["days"] == pytest.approx(hours / 64 / 24, abs=0.06)  # shown to 0.1 day
    assert v["mfu_achieved"] == pytest.approx(mfu * v["efficiency"], rel=1e-3)
    assert 0.5 < v["efficiency"] < 1.0 and v["nodes"] == 8 and v["gpus"] == 64
    assert v["gpu_months_low"] < v["gpu_months"] < v["gpu_months_high"]
    assert v["cluster_kw"] == pytest.approx(8 * 10.2, abs=0.05)
    assert v["energy_mwh"] == pytest.approx(v["cluster_kw"] * v["days"] * 24 / 1000, rel=1e-3)


def test_training_time_layout() -> None:
    res = run("training_time", {"gpus": 12})
    assert res["values"]["gpus"] == 16 and res["values"]["nodes"] == 2
    assert res["notes"] == [{"code": "gpus_rounded_to_nodes", "params": {"gpus": 16, "nodes": 2}}]
    slow = values("training_time", parallelism="tp", gpus=16, fabric="eth-25")
    fast = values("training_time", parallelism="tp", gpus=16, fabric="ib-400")
    assert slow["days"] > fast["days"] and slow["efficiency"] < fast["efficiency"]
    assert run("training_time", {"gpu": "h100-sxm", "gpus": 16384, "tokens_t": 1.5})["verdict"] == "within_a_month"
    assert run("training_time", {})["verdict"] == "years"
    assert A.HOURS_PER_MONTH == 730


def test_compare_uses_the_other_calculators_numbers() -> None:
    """Each row is what throughput, scaling and power say for that layout: no formula of its own."""
    v = values("compare")
    one, two, sxm = v["rows"]
    assert [r["config"] for r in v["rows"]] == ["one_node", "two_nodes", "sxm_node"]
    assert one["tokens_per_s"] == values("throughput", **PRO8)["node_tokens_per_s"]
    assert sxm["tokens_per_s"] == values("throughput", gpu="h100-sxm", gpus=8)["node_tokens_per_s"]
    # two 4-GPU replicas of 16 requests each: 16 / (one 4-GPU step) x 2
    four = values("throughput", gpu="rtx-pro-6000", gpus=4, concurrency=16)
    assert two["serving"] == "replicas" and two["tokens_per_s"] == pytest.approx(2 * four["node_tokens_per_s"], abs=0.2)
    assert one["efficiency"] == values("scaling", gpus_per_node=8, nodes=1)["efficiency"]
    assert two["efficiency"] == values("scaling", gpus_per_node=4, nodes=2, fabric="ib-200")["efficiency"]
    assert (one["efficiency"], two["efficiency"]) == (0.7273, 0.6514)  # the article's 0.73 and 0.65
    assert two["kw"] == pytest.approx(2 * node_kw(GPU_BY_ID["rtx-pro-6000"], 4), abs=0.005)
    assert v["two_nodes_vs_one"] == pytest.approx(two["tokens_per_s"] / one["tokens_per_s"], abs=1e-3)
    assert run("compare", {})["verdict"] == "one_node"


def test_compare_when_the_weights_fit_no_four_gpu_node() -> None:
    res = run("compare", {"model": "llama-3.1-405b"})
    two = res["values"]["rows"][1]
    assert two["serving"] == "tp_across"  # 405B at FP8 fits no box of 4 cards: TP over the fabric
    slow = run("compare", {"model": "llama-3.1-405b", "fabric": "eth-25"})["values"]["rows"][1]
    assert slow["tokens_per_s"] < two["tokens_per_s"] and slow["time_to_first_token_ms"] > two["time_to_first_token_ms"]
    assert res["verdict"] == "does_not_fit"
    # at INT4 each 4-GPU node holds a copy: two replicas, no fabric in the serving path
    int4 = run("compare", {"model": "llama-3.1-405b", "precision": "int4"})["values"]["rows"][1]
    assert int4["serving"] == "replicas"
    assert run("compare", {})["notes"][-1] == {"code": "sxm_not_kentino_hardware", "params": {"gpu": "h100-sxm"}}
