"""workload: the reader's serving workload, and the short answer to "one box or more?".

The inputs are the workload every widget of the article follows (the page script copies each one the
reader changes into the same-named field of the other widgets): model, precision, KV-cache precision,
GPU, GPUs per node, context (prompt + answer), the answer's output tokens, concurrency and the
output-token target. No formula of its own: the answer is ``planner.plan`` for that load, the same
plan ``decision`` and ``replicas`` read:
- vram_gb, weights_gb: ``vram_fit`` for the reader's box;
- max_concurrency: the requests one box holds at this context, as the plan fills it (copies of the
  model inside the box, each with its own KV cache);
- node_tokens_per_s: output tokens/s one box serves at the load it holds within the latency bound
  (``serving_rate.served``: whole requests, prefill included);
- min_nodes, gpus_per_node, cluster_kw: the plan's boxes and their power.
Verdict: ``one_node`` (one box carries the load and the target), ``dp_replicas`` (copies of whole
boxes), ``multi_node`` (one copy of the model across boxes: its weights do not fit the biggest box).
A typed concurrency too small for the target (each request streams at most so many tokens/s) is
pointed out (note ``concurrency_below_target``), not multiplied: the boxes are sized for the target.
"""

from typing import Any

from . import planner, vram_fit
from .catalog.gpus import GPU_BY_ID
from .catalog.models import resolve_model
from .common import CONCURRENCY, CONTEXT, GPU, GPUS, KV_PRECISION, MODEL_INPUTS_FULL, PRECISION, TARGET_TOKENS_PER_S, r
from .power import node_kw
from .spec import CalculatorSpec, Output, note
from .throughput import OUTPUT_TOKENS, check_lengths

validate = check_lengths

VERDICTS = ("one_node", "dp_replicas", "multi_node")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident", "concurrency_below_target")

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_FULL,
        PRECISION,
        KV_PRECISION,
        GPU,
        GPUS,
        CONTEXT,
        OUTPUT_TOKENS,
        CONCURRENCY,
        TARGET_TOKENS_PER_S,
    ),
    outputs=(
        Output("target_tokens_per_s", "float", "tokens_per_s"),
        Output("vram_gb", "gb", "gb"),
        Output("weights_gb", "gb", "gb"),
        Output("deployment", "key"),
        Output("max_concurrency", "count", "requests"),
        Output("node_tokens_per_s", "float", "tokens_per_s"),
        Output("min_nodes", "count", "nodes"),
        Output("gpus_per_node", "count", "gpus"),
        Output("node_kw", "float", "kw"),
        Output("cluster_kw", "float", "kw"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("vram_gb", "weights_gb", "max_concurrency", "node_tokens_per_s", "min_nodes", "cluster_kw"),
)
_MODEL_NOTES = frozenset(NOTES)


def load_of(inp: dict[str, Any]) -> planner.Load:
    """The planner's load for a form with the workload's inputs (shared with ``replicas``)."""
    return planner.Load(resolve_model(inp), inp["precision"], inp["kv_precision"], GPU_BY_ID[inp["gpu"]],
                        inp["gpus"], inp["context"], inp["output_tokens"], inp["concurrency"],
                        inp["target_tokens_per_s"], inp.get("utilization_target", planner.Load.utilization_target))


def target_note(p: planner.Plan) -> list[dict[str, Any]]:
    """The note that the typed concurrency cannot reach the target, with the concurrency it needs."""
    load = p.load
    per_request = p.per_request_tokens_per_s
    if not (load.concurrency and load.target_tokens_per_s and per_request):
        return []
    if load.concurrency * per_request >= load.target_tokens_per_s:
        return []
    need = planner.needed_concurrency(load, 1e3 / per_request)
    return [note("concurrency_below_target", concurrency=load.concurrency, target_tokens_per_s=load.target_tokens_per_s,
                 per_request_tokens_per_s=r(per_request, 1), needed_concurrency=need)]


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run workload on normalized inputs."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    f = vram_fit.fit(model, inp["precision"], inp["kv_precision"], gpu, inp["gpus"], inp["context"],
                     inp["concurrency"], planner.Load.weights_limit)
    p = planner.plan(load_of(inp))
    layout = p.layout
    nodes = layout.nodes if layout else 0
    per_box = (layout.nodes // layout.pp) if layout else 1  # units of the plan (boxes, or copies across boxes)
    kw = node_kw(gpu, layout.gpus_per_node if layout else inp["gpus"])
    values = {
        "target_tokens_per_s": r(inp["target_tokens_per_s"], 2),
        "vram_gb": r(f["vram"], 2),
        "weights_gb": r(f["weights"], 2),
        "deployment": layout.step if layout else "none",
        "max_concurrency": layout.max_concurrency // per_box if layout else 0,
        "node_tokens_per_s": r(layout.tokens_per_s / per_box, 1) if layout else 0.0,
        "min_nodes": nodes,
        "gpus_per_node": layout.gpus_per_node if layout else inp["gpus"],
        "node_kw": r(kw, 2),
        "cluster_kw": r(kw * nodes, 2),
    }
    if not layout or layout.pp > 1:
        verdict = "multi_node"
    else:
        verdict = "one_node" if nodes == 1 else "dp_replicas"
    notes = [n for n in vram_fit.model_notes(model, inp, raw) if n["code"] in _MODEL_NOTES]
    notes.extend(target_note(p))
    return {"values": values, "verdict": verdict, "notes": notes}
