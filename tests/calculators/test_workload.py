"""workload: the article's shared workload answers from vram_fit and replicas, with no formula of its own."""

import pytest

from calculators import run

CASES = [
    ({}, "dp_replicas"),
    ({"target_tokens_per_s": 500}, "one_node"),
    ({"model": "llama-3.1-405b"}, "does_not_fit"),
    ({"model": "llama-3.1-8b", "gpu": "l40s", "gpus": 4, "context": 8192, "concurrency": 16}, "dp_replicas"),
]


@pytest.mark.parametrize(("inputs", "verdict"), CASES)
def test_workload_is_vram_fit_and_replicas(inputs: dict, verdict: str) -> None:
    result = run("workload", inputs)
    fit = run("vram_fit", {k: v for k, v in inputs.items() if k != "target_tokens_per_s"})
    rep = run("replicas", inputs)
    v = result["values"]
    assert result["verdict"] == verdict
    assert (v["fit"], v["vram_gb"], v["weights_gb"], v["max_concurrency"]) == (
        fit["verdict"], fit["values"]["vram_gb"], fit["values"]["weights_gb"], fit["values"]["max_concurrency"])
    r = rep["values"]
    assert (v["node_tokens_per_s"], v["min_nodes"], v["node_kw"], v["cluster_kw"]) == (
        r["node_tokens_per_s"], r["nodes"], r["node_kw"], r["cluster_kw"])
    assert (verdict == "one_node") == (fit["verdict"] != "does_not_fit" and rep["values"]["nodes"] == 1)


def test_workload_refuses_bad_input_like_the_others() -> None:
    result = run("workload", {"gpus": 0, "concurrency": "x"})
    assert not result["ok"]
    found = {(e["field"], e["code"]) for e in result["errors"]}
    assert found == {("gpus", "too_small"), ("concurrency", "not_a_number")}
