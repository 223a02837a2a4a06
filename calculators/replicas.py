"""replicas: data-parallel replicas for a throughput target, and the ops tax.

- node rate = node_tokens_per_s when typed (> 0); 0 (the default) takes the
  planner's answer for the workload (model, precision, GPU, GPUs, context,
  output tokens, concurrency, target): the boxes it plans and what one box
  serves at the load it holds (``serving_rate.served``, whole requests, prefill
  included): note ``node_rate_from_throughput``; replicas = the plan's boxes,
  the same count ``workload`` and ``decision`` show
- target = target_tokens_per_s, or target_requests_per_s x tokens_per_request
  when a request rate is given
- replicas = ceil(target / (node_tokens_per_s x utilization_target)): each
  replica is one node, planned to run at most at the utilisation target
  (default 0.80: queueing headroom, see assumptions.py)
- nodes = replicas + 1 with an N+1 spare (``spare``), else replicas
- cluster_failure_rate = nodes x node_failure_rate (failures add up: the
  article's "roughly N times a single node")
- engineering effort per added node: 4-5 single-node efforts (the article:
  "multi-node costs 4-5x per added node"), whatever N; in total, in units of
  one node's effort: 1 + (4-5) x (nodes - 1)
Replicas need no fabric between nodes and no shared checkpoint storage: their
operations tax is a load balancer, one deployment per node and monitoring.
"""

from typing import Any

from . import assumptions as A
from . import planner
from .catalog.gpus import GPU_BY_ID
from .catalog.models import resolve_model
from .common import (
    CONCURRENCY,
    CONTEXT,
    GPU,
    GPUS,
    KV_PRECISION,
    MODEL_INPUTS_FULL,
    PRECISION,
    TARGET_TOKENS_PER_S,
    ceil_div,
    r,
    sig,
)
from .inputs import error
from .power import node_kw
from .spec import CalculatorSpec, Input, Output, Range, note
from .throughput import OUTPUT_TOKENS, check_lengths
from .vram_fit import model_notes
from .workload import load_of, target_note

VERDICTS = ("one_node", "dp_replicas")
NOTES = ("custom_inputs_ignored", "target_from_requests", "node_rate_from_throughput", "concurrency_below_target",
         "model_across_boxes", "replica_ops_tax", "spare_node")
MIN_TYPED_NODE_RATE = 1.0  # tokens/s; a typed rate below it is an error, 0 takes throughput's
# The node's workload, as `throughput` takes it: its rate is the replicas' default node rate.
NODE_INPUTS = (
    *MODEL_INPUTS_FULL,
    PRECISION,
    KV_PRECISION,
    GPU,
    GPUS,
    CONTEXT,
    OUTPUT_TOKENS,
    CONCURRENCY,
)

SPEC = CalculatorSpec(
    inputs=(
        TARGET_TOKENS_PER_S,
        Input("target_requests_per_s", "float", 0.0, unit="requests_per_s", min=0.0, max=1e7),
        Input("tokens_per_request", "float", 500.0, unit="tokens", min=1.0, max=1e6),
        Input("node_tokens_per_s", "float", 0.0, unit="tokens_per_s", min=0.0, max=1e7),
        *NODE_INPUTS,
        Input("node_failure_rate", "float", A.DEFAULT_NODE_FAILURE_RATE, unit="per_year",
              min=0.01, max=1000.0),
        Input("utilization_target", "float", A.DEFAULT_UTILIZATION_TARGET, unit="ratio",
              min=0.05, max=1.0),
        Input("spare", "bool", False),
    ),
    outputs=(
        Output("target_tokens_per_s", "float", "tokens_per_s"),
        Output("node_tokens_per_s", "float", "tokens_per_s"),
        Output("node_rate_source", "key"),
        Output("replicas", "count", "nodes"),
        Output("spare_nodes", "count", "nodes"),
        Output("nodes", "count", "nodes"),
        Output("added_nodes", "count", "nodes"),
        Output("capacity_tokens_per_s", "float", "tokens_per_s"),
        Output("utilization", "ratio", "ratio"),
        Output("utilization_target", "ratio", "ratio"),
        Output("node_failure_rate", "float", "per_year"),
        Output("cluster_failure_rate", "float", "per_year"),
        Output("mtbf_days", "float", "days"),
        Output("effort_per_added_node_min", "multiplier"),
        Output("effort_per_added_node_max", "multiplier"),
        Output("effort_total_min", "multiplier"),
        Output("effort_total_max", "multiplier"),
        Output("node_kw", "float", "kw"),
        Output("cluster_kw", "float", "kw"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("node_tokens_per_s", "replicas", "nodes", "capacity_tokens_per_s", "utilization",
           "cluster_failure_rate", "mtbf_days", "effort_per_added_node", "effort_total", "cluster_kw"),
    ranges=(Range("effort_per_added_node", "effort_per_added_node_min", "effort_per_added_node_max", "multiplier"),
            Range("effort_total", "effort_total_min", "effort_total_max", "multiplier")),
)


def validate(inp: dict[str, Any], raw: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Cross-field checks: a typed node rate is at least 1 tok/s (0: from ``throughput``); a
    request rate and an explicit token rate conflict.

    With a request rate, ``target_tokens_per_s`` is unused and left out of the
    normalized inputs (so they can be passed to ``run`` again).
    """
    if 0 < inp["node_tokens_per_s"] < MIN_TYPED_NODE_RATE:  # 0 means "from throughput"
        return {}, [error("node_tokens_per_s", "too_small", min=MIN_TYPED_NODE_RATE)]
    inp, errors = check_lengths(inp, raw)
    if errors:
        return {}, errors
    if inp["target_requests_per_s"] <= 0:
        return inp, []
    if raw.get("target_tokens_per_s") is not None:
        params = {"with": "target_tokens_per_s"}
        return {}, [error("target_requests_per_s", "conflicting_inputs", **params)]
    return {k: v for k, v in inp.items() if k != "target_tokens_per_s"}, []


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run replicas on normalized inputs."""
    notes = []
    if inp["target_requests_per_s"] > 0:
        target = inp["target_requests_per_s"] * inp["tokens_per_request"]
        notes.append(note("target_from_requests", target_requests_per_s=inp["target_requests_per_s"],
                          tokens_per_request=inp["tokens_per_request"]))
    else:
        target = inp["target_tokens_per_s"]
    node, source, gpus = inp["node_tokens_per_s"], "typed", inp["gpus"]
    if node > 0:
        planned = node * inp["utilization_target"]  # what one replica is planned to carry
        replicas, boxes_per_replica = max(1, ceil_div(target, planned)), 1
    else:
        source = "throughput"
        p = planner.plan(load_of({**inp, "target_tokens_per_s": target}))
        layout = p.layout
        boxes_per_replica, gpus = layout.pp, layout.gpus_per_node
        replicas = layout.nodes // boxes_per_replica
        node = layout.tokens_per_s / replicas
        notes.extend(model_notes(resolve_model(inp), inp, raw))
        notes.append(note("node_rate_from_throughput", node_tokens_per_s=sig(node, 6), gpus=layout.gpus_per_node,
                          concurrency=layout.held // replicas, context=inp["context"]))
        notes.extend(target_note(p))
        if boxes_per_replica > 1:
            notes.append(note("model_across_boxes", boxes=boxes_per_replica))
    spare = 1 if inp["spare"] else 0
    nodes = replicas * boxes_per_replica + spare
    added = nodes - 1
    cluster_rate = nodes * inp["node_failure_rate"]
    if spare:
        notes.append(note("spare_node", spare_nodes=spare))
    if added:
        notes.append(note("replica_ops_tax", added_nodes=added))
    kw = node_kw(GPU_BY_ID[inp["gpu"]], gpus)
    values = {
        "target_tokens_per_s": r(target, 2),
        "node_tokens_per_s": sig(node, 6),
        "node_rate_source": source,
        "replicas": replicas,
        "spare_nodes": spare,
        "nodes": nodes,
        "added_nodes": added,
        "capacity_tokens_per_s": r(replicas * node, 2),
        "utilization": sig(target / (replicas * node)),
        "utilization_target": inp["utilization_target"],
        "node_failure_rate": inp["node_failure_rate"],
        "cluster_failure_rate": r(cluster_rate, 4),
        "mtbf_days": r(365.0 / cluster_rate, 2),
        "effort_per_added_node_min": A.EFFORT_PER_ADDED_NODE_MIN,
        "effort_per_added_node_max": A.EFFORT_PER_ADDED_NODE_MAX,
        "effort_total_min": r(1 + A.EFFORT_PER_ADDED_NODE_MIN * added, 2),
        "effort_total_max": r(1 + A.EFFORT_PER_ADDED_NODE_MAX * added, 2),
        "node_kw": r(kw, 2),
        "cluster_kw": r(kw * nodes, 2),
    }
    return {"values": values, "verdict": "one_node" if replicas == 1 else "dp_replicas", "notes": notes}
