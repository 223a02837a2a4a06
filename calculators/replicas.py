"""replicas: data-parallel replicas for a throughput target, and the ops tax.

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
from .common import ceil_div, r, sig
from .inputs import error
from .spec import CalculatorSpec, Input, Output, note

VERDICTS = ("one_node", "dp_replicas")
NOTES = ("target_from_requests", "replica_ops_tax", "spare_node")

SPEC = CalculatorSpec(
    inputs=(
        Input("target_tokens_per_s", "float", 1500.0, unit="tokens_per_s", min=1.0, max=1e9),
        Input("target_requests_per_s", "float", 0.0, unit="requests_per_s", min=0.0, max=1e7),
        Input("tokens_per_request", "float", 500.0, unit="tokens", min=1.0, max=1e6),
        Input("node_tokens_per_s", "float", A.DEFAULT_NODE_TOKENS_PER_S, unit="tokens_per_s",
              min=1.0, max=1e7),
        Input("node_failure_rate", "float", A.DEFAULT_NODE_FAILURE_RATE, unit="per_year",
              min=0.01, max=1000.0),
        Input("utilization_target", "float", A.DEFAULT_UTILIZATION_TARGET, unit="ratio",
              min=0.05, max=1.0),
        Input("spare", "bool", False),
    ),
    outputs=(
        Output("target_tokens_per_s", "float", "tokens_per_s"),
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
    ),
    verdicts=VERDICTS,
    notes=NOTES,
)


def validate(inp: dict[str, Any], raw: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Cross-field check: a request rate and an explicit token rate conflict.

    With a request rate, ``target_tokens_per_s`` is unused and left out of the
    normalized inputs (so they can be passed to ``run`` again).
    """
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
    node = inp["node_tokens_per_s"]
    planned = node * inp["utilization_target"]  # what one replica is planned to carry
    replicas = max(1, ceil_div(target, planned))
    spare = 1 if inp["spare"] else 0
    nodes = replicas + spare
    added = nodes - 1
    cluster_rate = nodes * inp["node_failure_rate"]
    if spare:
        notes.append(note("spare_node", spare_nodes=spare))
    if added:
        notes.append(note("replica_ops_tax", added_nodes=added))
    values = {
        "target_tokens_per_s": r(target, 2),
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
    }
    return {"values": values, "verdict": "one_node" if replicas == 1 else "dp_replicas", "notes": notes}
