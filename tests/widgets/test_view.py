"""What the widgets show for the semantics of issue #12, in both languages (strings from the catalogs)."""

from __future__ import annotations

import pytest

from calculators import run
from widgets.view import view

NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_effort_per_added_node_is_the_articles_figure_whatever_n(lang: str) -> None:
    two = view("replicas", {"target_tokens_per_s": 1500, "node_tokens_per_s": 1000}, lang)["outputs"]
    ten = view("replicas", {"target_tokens_per_s": 8000, "node_tokens_per_s": 1000}, lang)["outputs"]
    assert two["effort_per_added_node"] == ten["effort_per_added_node"] == "4–5×"
    assert (two["effort_total"], ten["effort_total"]) == ("5–6×", "37–46×")


@pytest.mark.parametrize(("lang", "node", "load"), [
    ("da", "1 × L4 (24 GB)", "32 anmodninger à 32.768 tokens"),
    ("fr", f"1 × L4 (24{NNBSP}Go)", f"32{NBSP}requêtes de 32{NNBSP}768{NBSP}tokens"),
])
def test_trace_questions_name_the_readers_node_and_load(lang: str, node: str, load: str) -> None:
    shown = view("decision", {"model": "llama-3.1-8b", "gpu": "l4", "gpus": 1}, lang)
    questions = [row["question"] for row in shown["trace"]]
    assert len(questions) == 3 and all(node in q for q in questions)
    assert load in questions[0]
    assert not any("96" in q for q in questions)
    assert shown["verdict"] == "dp_replicas"
    # the ways out carry their numbers: 2 requests of 32k, or 32 of up to 3,012 tokens; or 8 x L4
    notes = " ".join(shown["notes"])
    assert {"da": "3.012", "fr": f"3{NNBSP}012"}[lang] in notes and "8" in notes


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_vram_fit_says_what_would_fit(lang: str) -> None:
    shown = view("vram_fit", {"model": "llama-3.1-405b"}, lang)
    assert shown["verdict"] == "does_not_fit"
    assert shown["outputs"]["max_context"] == {"da": "18.769 tokens", "fr": f"18{NNBSP}769{NBSP}tokens"}[lang]
    assert shown["outputs"]["max_context"].split()[0].replace(NBSP, "") in shown["explanation"].replace(NBSP, " ")


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_efficiency_range_is_rounded_outwards(lang: str) -> None:
    """TP-8 in one box: 0.5995-0.7704 must not read as 60 %: the low end is under the line."""
    shown = view("scaling", {"model": "llama-3.1-70b", "gpus_per_node": 8, "nodes": 1}, lang)
    assert shown["outputs"]["efficiency_range"] == f"59,9{NBSP}%–77,1{NBSP}%"
    assert shown["verdict"] == "does_not_fit"  # a 70B training state does not fit 8 x 96 GB


@pytest.mark.parametrize(("lang", "rate", "span", "ttft", "kw"), [
    ("da", "732 tok/s", "600–858 tok/s", "4,7 s", "8,8 kW"),
    ("fr", "732\u202ftok/s", "600–858\u202ftok/s", "4,7\u202fs", "8,8\u202fkW"),
])
def test_throughput_shows_the_rate_its_range_and_the_first_token(lang: str, rate: str, span: str, ttft: str,
                                                                 kw: str) -> None:
    shown = view("throughput", {}, lang)
    assert shown["ok"] and shown["verdict"] == "memory_bound"
    out = shown["outputs"]
    assert (out["node_tokens_per_s"], out["node_tokens_per_s_range"], out["time_to_first_token_ms"],
            out["node_kw"]) == (rate, span, ttft, kw)
    assert rate in shown["explanation"]
    short = view("throughput", {"model": "llama-3.1-8b", "gpu": "h100-sxm", "gpus": "1", "context": "16",
                                "concurrency": "1"}, lang)
    assert short["outputs"]["time_to_first_token_ms"].endswith("ms")  # under a second: milliseconds


@pytest.mark.parametrize(("lang", "unit"), [("da", "{} GPU-måneder"), ("fr", "{}\u00a0mois-GPU")])
def test_training_time_shows_gpu_months_and_their_range(lang: str, unit: str) -> None:
    inputs = {"gpu": "h100-sxm", "tokens_t": 1.5}
    v = run("training_time", inputs)["values"]  # hundreds of GPU-months: no group separator in the figures
    months = unit.format(round(v["gpu_months"]))
    span = unit.format(f"{round(v['gpu_months_low'])}–{round(v['gpu_months_high'])}")
    shown = view("training_time", inputs, lang)
    assert shown["verdict"] == "months"
    assert (shown["outputs"]["gpu_months"], shown["outputs"]["gpu_months_range"]) == (months, span)
    assert months in shown["explanation"] and span in shown["explanation"]


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_replicas_show_the_node_rate_they_used(lang: str) -> None:
    auto = view("replicas", {"target_tokens_per_s": 1500}, lang)
    typed = view("replicas", {"target_tokens_per_s": 1500, "node_tokens_per_s": 1000}, lang)
    assert auto["outputs"]["node_tokens_per_s"] == view("throughput", {}, lang)["outputs"]["node_tokens_per_s"]
    assert typed["outputs"]["node_tokens_per_s"].startswith("1")
    # where the rate comes from, and that it counts generation only (the prompt's prefill time named)
    assert len(auto["notes"]) == len(typed["notes"]) + 2
    prefill_ms = view("throughput", {}, lang)["notes"][-1]
    assert prefill_ms in auto["notes"] and prefill_ms not in typed["notes"]
    assert auto["outputs"]["replicas"] != typed["outputs"]["replicas"]  # 3 nodes against 2
