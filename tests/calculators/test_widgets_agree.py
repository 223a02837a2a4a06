"""One planner behind every recommendation: every widget that shows a node count or a fit shows the same one.

For the same serving form, `workload`, `replicas` and `decision` read `calculators.planner`; a widget
that counted its own nodes (issue #27: 4, 8 and 8 for one form) fails here.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import GPUS, MODELS, run
from calculators.catalog.models import MODEL_BY_ID
from calculators.vram_fit import tp_degrees

CATALOG_MODELS = sorted(m for m in MODELS if m != "custom")


@st.composite
def serving_forms(draw: st.DrawFn) -> dict[str, Any]:
    """A serving workload as the article's workload block takes it (a catalog model, a valid context)."""
    model = draw(st.sampled_from(CATALOG_MODELS))
    gpu = draw(st.sampled_from(sorted(GPUS)))
    context = draw(st.integers(512, min(65536, MODELS[model]["max_context"] or 65536)))
    return {"model": model, "gpu": gpu, "gpus": draw(st.sampled_from((1, 2, 4, 8))), "context": context,
            "output_tokens": draw(st.integers(1, min(2000, context))),
            "concurrency": draw(st.integers(1, 256)), "target_tokens_per_s": draw(st.floats(1.0, 20000.0)),
            "kv_precision": draw(st.sampled_from(("bf16", "fp8")))}


def _nodes(name: str, form: dict[str, Any]) -> int:
    result = run(name, form)
    assert result["ok"], (name, form, result)
    values = result["values"]
    return values["nodes"] if name == "replicas" else values["min_nodes"]


@settings(max_examples=60, deadline=None)
@given(serving_forms())
def test_workload_replicas_and_decision_show_one_node_count(form: dict[str, Any]) -> None:
    decision = run("decision", form)
    assert decision["ok"], decision
    last = decision["values"]["trace"][-1]["values"]
    # The decision names its deployment's format (FP8 weights, else an FP8 KV cache or INT4 weights):
    # the other widgets, given that format, count the same boxes.
    same = {**form, "precision": last.get("precision", "fp8"), "kv_precision": last.get("kv_precision",
                                                                                           form["kv_precision"])}
    count = _nodes("workload", same)
    assert _nodes("replicas", same) == count
    assert decision["values"]["min_nodes"] == count


@settings(max_examples=60, deadline=None)
@given(serving_forms())
def test_a_box_vram_fit_says_fits_is_one_node_for_the_decision(form: dict[str, Any]) -> None:
    """vram_fit's "fits" on the reader's box (a TP degree the model can run) is the decision's step 1."""
    fit = run("vram_fit", {k: v for k, v in form.items() if k not in ("output_tokens", "target_tokens_per_s")}
              | {"precision": "fp8"})
    if fit["verdict"] != "fits" or form["gpus"] not in tp_degrees(MODEL_BY_ID[form["model"]], form["gpus"]):
        return
    flow = run("decision", {**form, "target_tokens_per_s": 0})
    assert flow["values"]["trace"][0]["answer"] is True
    assert (flow["verdict"], flow["values"]["min_nodes"]) == ("one_node", 1)
