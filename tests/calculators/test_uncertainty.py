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
