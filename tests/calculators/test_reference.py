"""The reference suite (calculators/reference.py): published figures, reproduced."""

import dataclasses
import re
from pathlib import Path

import pytest

from calculators import reference as R

README = Path(__file__).resolve().parents[2] / "calculators" / "README.md"
START, END = "<!-- reference-table:start -->", "<!-- reference-table:end -->"


@pytest.mark.parametrize("ref", R.REFERENCES, ids=[r.id for r in R.REFERENCES])
def test_reference_reproduced(ref: R.Reference) -> None:
    result = R.evaluate(ref)
    assert result["ok"], (ref.id, ref.figure, result)


def test_suite_shape() -> None:
    ids = [r.id for r in R.REFERENCES]
    assert len(ids) >= 15 and len(set(ids)) == len(ids)
    for ref in R.REFERENCES:
        assert ref.kind in R.KINDS
        assert ref.source and ref.url.startswith("https://")
        assert ("run" in ref.call) != ("fn" in ref.call)
        assert "run" in ref.call or ref.call["fn"] in R.FUNCTIONS
        assert ref.tolerance >= 0 and ref.figure > 0
    assert R.failures() == []
    # The figures constants were fitted on (the driver's 0.42 GiB; the activation peak per token and
    # the PCIe non-torch memory; training_time's mfu); every other one is a prediction.
    assert [r.id for r in R.REFERENCES if r.calibration] == [
        "exposed-h100", "vllm-3090-8b-20k", "vllm-3090-8b-29k", "vllm-24gb-8b-128k", "llama3-405b-mfu-8k-gpus"]


def test_a_wrong_figure_fails() -> None:
    """Each kind of check rejects a figure the calculators do not reproduce."""
    by_id = {r.id: r for r in R.REFERENCES}
    ratio = by_id["vllm-h100-8b-kv"]
    assert not R.evaluate(dataclasses.replace(ratio, figure=ratio.figure * 0.94))["ok"]
    exact = by_id["kv-llama31-8b"]
    assert not R.evaluate(dataclasses.replace(exact, figure=exact.figure + 1))["ok"]
    halved = by_id["hf-blog-405b-16k"]
    assert not R.evaluate(dataclasses.replace(halved, expect=1.0))["ok"]
    bound = by_id["qlora-65b-48gb"]
    assert not R.evaluate(dataclasses.replace(bound, figure=40.0))["ok"]
    assert R.evaluate(dataclasses.replace(bound, kind="at_least", figure=40.0))["ok"]
    within = by_id["nccl-8x5090-two-sockets"]
    assert not R.evaluate(dataclasses.replace(within, figure=35.0))["ok"]
    assert not R.evaluate(dataclasses.replace(within, figure=20.0))["ok"]


def test_values_behind_the_table() -> None:
    """A few of the numbers, asserted directly (GiB where the source logs GiB)."""
    by_id = {r.id: R.evaluate(r) for r in R.REFERENCES}
    assert by_id["kv-deepseek-v3-mla"]["ours"] == 70272
    assert by_id["sglang-qwen3-235b-tp4-kv-per-rank"]["ours"] == 94 * 2 * 1 * 128 * 2  # one KV head per rank
    assert by_id["vllm-h100-8b-kv"]["ours"] == pytest.approx(53.71, abs=0.01)
    assert by_id["vllm-3090-8b-20k"]["ours"] == pytest.approx(3.855, abs=0.001)
    assert by_id["vllm-24gb-8b-128k"]["ours"] == pytest.approx(4.348, abs=0.001)
    assert by_id["deepspeed-zero2"]["ours"] == pytest.approx(15.93, abs=0.005)
    assert by_id["meta-405b-fp8-mixed"]["ours"] == pytest.approx(487.17, abs=0.01)
    assert by_id["qlora-65b-48gb"]["ours"] == pytest.approx(44.64, abs=0.01)
    assert by_id["nccl-8x5090-two-sockets"]["ours"] == pytest.approx((22.0, 32.0))


def test_readme_table_is_generated() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(re.escape(START) + r"\n(.*?)" + re.escape(END), text, re.S)
    assert match, "calculators/README.md lacks the reference-table markers"
    assert match.group(1) == R.markdown_table(), "regenerate: python -m calculators.reference"
    assert f"`reference.py` holds {len(R.REFERENCES)} figures" in text
