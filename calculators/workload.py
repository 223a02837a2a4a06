"""workload: the reader's serving workload, and the short answer to "one box or more?".

The inputs are the workload every widget of the article follows (the page script copies each one the
reader changes into the same-named field of the other widgets): model, precision, KV-cache precision,
GPU, GPUs per node, context, concurrency and the throughput target. No formula of its own:
- fits: ``vram_fit`` for the load on one node (``weights_limit`` and ``attention`` at their defaults);
- node rate, nodes, power: ``replicas`` with the node rate from ``throughput`` (its default).
Verdict: ``does_not_fit`` when the load does not fit one node; else ``replicas``' verdict,
``one_node`` (one node carries the target) or ``dp_replicas`` (more nodes, as data-parallel replicas).
"""

from typing import Any

from . import replicas, vram_fit
from .common import CONCURRENCY, CONTEXT, GPU, GPUS, KV_PRECISION, MODEL_INPUTS_FULL, PRECISION, TARGET_TOKENS_PER_S
from .inputs import normalize
from .spec import CalculatorSpec, Output

VERDICTS = ("one_node", "dp_replicas", "does_not_fit")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident")

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_FULL,
        PRECISION,
        KV_PRECISION,
        GPU,
        GPUS,
        CONTEXT,
        CONCURRENCY,
        TARGET_TOKENS_PER_S,
    ),
    outputs=(
        Output("target_tokens_per_s", "float", "tokens_per_s"),
        Output("vram_gb", "gb", "gb"),
        Output("weights_gb", "gb", "gb"),
        Output("fit", "key"),
        Output("max_concurrency", "count", "requests"),
        Output("node_tokens_per_s", "float", "tokens_per_s"),
        Output("min_nodes", "count", "nodes"),
        Output("node_kw", "float", "kw"),
        Output("cluster_kw", "float", "kw"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("vram_gb", "weights_gb", "max_concurrency", "node_tokens_per_s", "min_nodes", "cluster_kw"),
)
_MODEL_NOTES = frozenset(NOTES)


def _run(spec: CalculatorSpec, compute: Any, inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Another calculator's compute on the workload's values (its other inputs at their defaults)."""
    names = {i.name for i in spec.inputs}
    normalized, errors = normalize(spec, {k: v for k, v in inp.items() if k in names})
    if errors:  # the workload's inputs are validated by the same rules; this is a programming error
        raise ValueError(errors)
    return compute(normalized, raw)


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run workload on normalized inputs."""
    fit = _run(vram_fit.SPEC, vram_fit.compute, inp, raw)
    rep = _run(replicas.SPEC, replicas.compute, inp, raw)
    fv, rv = fit["values"], rep["values"]
    verdict = "does_not_fit" if fit["verdict"] == "does_not_fit" else rep["verdict"]
    values = {
        "target_tokens_per_s": rv["target_tokens_per_s"],
        "vram_gb": fv["vram_gb"],
        "weights_gb": fv["weights_gb"],
        "fit": fit["verdict"],
        "max_concurrency": fv["max_concurrency"],
        "node_tokens_per_s": rv["node_tokens_per_s"],
        "min_nodes": rv["nodes"],
        "node_kw": rv["node_kw"],
        "cluster_kw": rv["cluster_kw"],
    }
    notes = [n for n in fit["notes"] if n["code"] in _MODEL_NOTES]
    return {"values": values, "verdict": verdict, "notes": notes}
