"""One test per article claim the math can reproduce: the claims ledger (claims.yml), and the cases
beyond it (cases.py)."""

import pytest

from calculators import run, table
from tests.calculators.cases import CASES, check_case, run_cases
from wiki.checks.claims import expectations
from wiki.checks.project import Project
from wiki.ledger import failures

LEDGER = expectations(Project())


def test_the_ledger_has_the_articles_calculated_claims() -> None:
    assert len(LEDGER) >= 50
    assert {item["calculator"] for item in LEDGER} >= {"vram_fit", "training_memory", "scaling", "decision",
                                                      "replicas"}


@pytest.mark.parametrize("item", LEDGER, ids=[item["id"] for item in LEDGER])
def test_ledger_claim(item: dict) -> None:
    assert failures([item], run) == []


def test_a_ledger_claim_the_calculator_contradicts_fails() -> None:
    item = next(i for i in LEDGER if i["test"]["kind"] == "equal")
    wrong = {**item, "test": {**item["test"], "target": item["test"]["target"] * 2 + 1}}
    assert len(failures([wrong], run)) == 1


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_claim(case: dict) -> None:
    assert check_case(case) == []


def test_stdlib_runner_passes() -> None:
    assert run_cases() == []


def test_runner_reports_a_wrong_expectation() -> None:
    wrong = {"id": "wrong", "claim": "x", "calculator": "vram_fit", "inputs": {},
             "expect": {"values.vram_gb": 767.0, "values.kv_fits": {"at_least": 0}, "values.nope": 1}}
    failures = check_case(wrong)
    assert len(failures) == 3
    relation = {"id": "rel", "claim": "x", "relation": {
        "left": {"calculator": "vram_fit", "inputs": {}, "path": "values.vram_gb"}, "op": "<",
        "right": {"calculator": "vram_fit", "inputs": {"gpus": 4}, "path": "values.vram_gb"}}}
    assert len(check_case(relation)) == 1


def test_405b_explanation_numbers_add_up() -> None:
    """'Fits the weights, not the workload' is explainable from the values alone."""
    v = run("vram_fit", {"model": "llama-3.1-405b"})["values"]
    assert v["weights_gb"] <= v["weights_limit_gb"]                       # 405.85 <= 537.6
    assert v["usable_gb"] == pytest.approx(v["vram_gb"] - v["overhead_gb"])  # 768 - 76.8
    assert v["kv_budget_gb"] == pytest.approx(v["usable_gb"] - v["weights_gb"], abs=0.01)
    assert v["kv_gb"] > v["kv_budget_gb"]                                  # 541.17 > 285.35
    assert v["kv_gb"] == pytest.approx(v["kv_bytes_per_token"] * 32768 * 32 / 1e9, abs=0.01)
    assert v["max_concurrency"] == int(v["kv_budget_gb"] / v["kv_gb_per_sequence"])  # 16


def test_efficiency_table() -> None:
    """The article's missing table: TP, 70B-class training step, RTX Pro 6000."""
    rows = table({"model": "llama-3.1-70b"})
    got = [(r["gpus_per_node"], r["nodes"], r["fabric"], r["efficiency"]) for r in rows]
    assert got == [
        (1, 1, "pcie5", 1.0),
        (2, 1, "pcie5", 0.9494),
        (4, 1, "pcie5", 0.8619),
        (8, 1, "pcie5", 0.7273),
        (4, 2, "ib-400", 0.7),
        (4, 2, "ib-200", 0.6514),
        (4, 2, "eth-100", 0.5715),
        (4, 2, "eth-25", 0.3303),
        (8, 2, "ib-400", 0.5086),
        (8, 2, "ib-200", 0.4589),
        (8, 2, "eth-100", 0.3834),
        (8, 2, "eth-25", 0.1936),
    ]
    assert [r["fabric_penalty"] for r in rows[4:8]] == [1.0, 2.0, 4.0, 16.0]
    assert run("scaling", {"model": "llama-3.1-70b"})["values"]["series"] == rows


def test_dp_table_over_fabrics_stays_high() -> None:
    """DP replicas work over standard 100 GbE (gradient all-reduce once per step)."""
    rows = table({"parallelism": "dp"})
    by = {(r["gpus_per_node"], r["nodes"], r["fabric"]): r["efficiency"] for r in rows}
    assert by[(4, 2, "eth-100")] > 0.9
    assert by[(4, 2, "eth-100")] > by[(4, 2, "eth-25")]
