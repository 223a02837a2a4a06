"""What the widgets show for the semantics of issue #12, in both languages (strings from the catalogs)."""

from __future__ import annotations

import pytest

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
