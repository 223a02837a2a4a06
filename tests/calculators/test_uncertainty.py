"""The achieved-FLOP/s range of the scaling model (calculators/uncertainty.py)."""

import pytest

from calculators import run
from calculators.uncertainty import MFU_RANGE, scaling_efficiency_range


def test_mfu_range_bounds_the_article_box() -> None:
    """TP-8 in one PCIe box: 0.73 at the calibrated MFU, but 0.38 at Megatron's 52 %."""
    r = scaling_efficiency_range({"model": "llama-3.1-70b"})
    assert MFU_RANGE == (0.215, 0.52)
    assert (round(r["low"], 4), round(r["high"], 4)) == (0.3823, 0.7704)
    assert r["verdict_changes"] is True
    point = run("scaling", {"model": "llama-3.1-70b"})["values"]["efficiency"]
    assert r["low"] < point < r["high"]


def test_nvlink_stays_above_the_line() -> None:
    r = scaling_efficiency_range({"model": "llama-3.1-70b", "gpu": "h100-sxm"})
    assert r["low"] == pytest.approx(0.6907, abs=1e-4) and r["verdict_changes"] is False


def test_invalid_inputs_raise() -> None:
    with pytest.raises(ValueError):
        scaling_efficiency_range({"gpu": "nope"})


def test_pcie_topology_in_scaling() -> None:
    """The article's 0.73 is TP-8 under one PCIe switch; across two sockets the ring runs at 22 GB/s."""
    box = {"model": "llama-3.1-70b", "gpus_per_node": 8, "nodes": 1}
    one = run("scaling", box)["values"]
    two = run("scaling", {**box, "pcie_placement": "cross_socket"})["values"]
    assert (one["intra_bandwidth_gbs"], two["intra_bandwidth_gbs"]) == (50.0, 22.0)
    assert (one["efficiency"], two["efficiency"]) == (0.7273, 0.5407)
    assert (two["efficiency_low"], two["efficiency_high"]) == (0.3489, 0.631)  # 10-32 GB/s
    nvlink = {**box, "gpu": "h100-sxm"}
    assert run("scaling", nvlink)["values"] == run("scaling", {**nvlink, "pcie_placement": "cross_socket"})["values"]


def test_compute_range_in_scaling() -> None:
    r = run("scaling", {"model": "llama-3.1-70b", "gpus_per_node": 8, "nodes": 1})
    v = r["values"]
    assert v["efficiency_compute_low"] == 0.5244 and v["efficiency"] == 0.7273
    codes = [n["code"] for n in r["notes"]]
    assert "verdict_depends_on_compute" in codes
    fast = run("scaling", {"model": "llama-3.1-70b", "gpus_per_node": 8, "nodes": 1, "mfu": 0.6})["values"]
    assert fast["efficiency_compute_low"] == fast["efficiency"]  # never below the input mfu
    h100 = run("scaling", {"model": "llama-3.1-70b", "gpu": "h100-sxm", "nodes": 1})
    assert "verdict_depends_on_compute" not in [n["code"] for n in h100["notes"]]
