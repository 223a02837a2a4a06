"""compare: one workload on one 8-GPU node, two 4-GPU nodes over a fabric, and an 8-GPU SXM node.

For each configuration, with the calculators above (no formula of its own):
- fits: ``vram_fit``'s verdict for the workload (``concurrency`` x ``context``) on the
  configuration's memory; ``max_concurrency`` the requests of ``context`` tokens it holds;
- serving: one node serves tensor parallel over its GPUs (``tp``). Two 4-GPU nodes
  serve as two data-parallel replicas of half the load each (``replicas``) when one
  4-GPU node holds the weights and half the requests; else tensor parallel across
  both nodes (``tp_across``: every layer's all-reduces cross ``fabric``, scaling's
  hierarchical ring);
- tokens_per_s and time_to_first_token_ms: ``throughput``'s decode and prefill model;
- efficiency: ``scaling``'s efficiency of a tensor-parallel training step of the model on
  that layout (8 x 1, 4 x 2 over ``fabric``, 8 x 1 on NVLink), at its defaults;
- kw: ``power``'s maximum draw of the nodes (two nodes: twice a 4-GPU node; the
  switch between them is not counted).
No prices: the configurations' cost is the reader's to enter elsewhere.
Verdict: ``one_node`` when one 8-GPU node holds the workload and the two 4-GPU nodes serve it
at most 10 % faster (within the model's precision it is even, and one node has no operations
tax); ``two_nodes`` when the two serve it more than 10 % faster (or only they hold it);
``does_not_fit`` when neither holds it (the SXM row may still).
"""

import math
from typing import Any

from . import assumptions as A
from . import scaling
from .catalog.fabrics import FABRIC_BY_ID, INTER_NODE_TABLE
from .catalog.gpus import GPU_BY_ID, GPU_LIST, Gpu
from .catalog.models import Model, resolve_model
from .common import CONCURRENCY, CONTEXT, GPU, KV_PRECISION, MODEL_INPUTS_FULL, PRECISION, r, sig
from .power import node_kw
from .spec import CalculatorSpec, Input, Output, note
from .throughput import decode_step, prefill_s
from .vram_fit import fit, model_notes

CONFIGS = ("one_node", "two_nodes", "sxm_node")
SERVING = ("tp", "replicas", "tp_across")
SXM_GPUS = tuple(g.id for g in GPU_LIST if g.link.startswith("nvlink"))
VERDICTS = ("one_node", "two_nodes", "does_not_fit")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident", "sxm_not_kentino_hardware")

ROW_FIELDS = (
    Output("config", "key"),
    Output("gpu", "key"),
    Output("nodes", "count", "nodes"),
    Output("gpus_per_node", "count", "gpus"),
    Output("fabric", "key"),
    Output("fits", "bool"),
    Output("max_concurrency", "count", "requests"),
    Output("serving", "key"),
    Output("tokens_per_s", "float", "tokens_per_s"),
    Output("time_to_first_token_ms", "float", "ms"),
    Output("efficiency", "ratio", "ratio"),
    Output("kw", "float", "kw"),
    Output("tokens_per_kwh", "float", "tokens_per_kwh"),
)

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_FULL,
        PRECISION,
        KV_PRECISION,
        CONCURRENCY,
        CONTEXT,
        GPU,
        Input("fabric", "choice", "ib-200", choices=INTER_NODE_TABLE),
        Input("sxm_gpu", "choice", "h100-sxm", choices=SXM_GPUS),
    ),
    outputs=(
        Output("two_nodes_vs_one", "multiplier"),
        Output("one_node_tokens_per_s", "float", "tokens_per_s"),
        Output("two_nodes_tokens_per_s", "float", "tokens_per_s"),
        Output("sxm_tokens_per_s", "float", "tokens_per_s"),
        Output("one_node_efficiency", "ratio", "ratio"),
        Output("two_nodes_efficiency", "ratio", "ratio"),
        Output("sxm_efficiency", "ratio", "ratio"),
        Output("one_node_kw", "float", "kw"),
        Output("two_nodes_kw", "float", "kw"),
        Output("sxm_kw", "float", "kw"),
        Output("rows", "list", None, ROW_FIELDS),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("two_nodes_vs_one",),
    figure="compare_table",
)


def _training_efficiency(model: Model, gpu: Gpu, g: int, nodes: int, fabric: str) -> float:
    """scaling's efficiency of a tensor-parallel training step on this layout, at its defaults."""
    inp = {"gpu": gpu.id, "parallelism": "tp", "gpus_per_node": g, "nodes": nodes, "fabric": fabric,
           "nics_per_node": A.DEFAULT_NICS_PER_NODE, "seq_len": A.DEFAULT_SEQ_LEN,
           "micro_batch": A.DEFAULT_MICRO_BATCH, "grad_accum": A.DEFAULT_GRAD_ACCUM, "mfu": A.DEFAULT_MFU,
           "pcie_placement": "switch"}
    return scaling.efficiency(inp, model)


def _row(config: str, model: Model, gpu: Gpu, inp: dict[str, Any]) -> dict[str, Any]:
    prec, kvp, conc, ctx = inp["precision"], inp["kv_precision"], inp["concurrency"], inp["context"]
    fabric = FABRIC_BY_ID[inp["fabric"]]
    whole = fit(model, prec, kvp, gpu, 8, ctx, conc, A.DEFAULT_WEIGHTS_LIMIT)
    fits, max_conc = whole["kv_fits"], whole["max_concurrency"]
    if config == "two_nodes":
        g, nodes = 4, 2
        half = math.ceil(conc / 2)
        four = fit(model, prec, kvp, gpu, 4, ctx, half, A.DEFAULT_WEIGHTS_LIMIT)
        if four["kv_fits"]:
            serving = "replicas"
            d = decode_step(model, gpu, 4, prec, kvp, half, ctx)
            rate = conc / d["step"]  # each replica steps its half (an odd load: one more on one of them)
            ttft = prefill_s(model, gpu, 4, prec, ctx)
            fits, max_conc = True, 2 * four["max_concurrency"]
        else:
            serving = "tp_across"
            rate = conc / decode_step(model, gpu, 8, prec, kvp, conc, ctx, nodes=2, inter=fabric)["step"]
            ttft = prefill_s(model, gpu, 8, prec, ctx, nodes=2, inter=fabric)
        kw = 2 * node_kw(gpu, 4)
    else:
        g, nodes, serving = 8, 1, "tp"
        rate = conc / decode_step(model, gpu, 8, prec, kvp, conc, ctx)["step"]
        ttft = prefill_s(model, gpu, 8, prec, ctx)
        kw = node_kw(gpu, 8)
    eff = _training_efficiency(model, gpu, g, nodes, inp["fabric"])
    return {"config": config, "gpu": gpu.id, "nodes": nodes, "gpus_per_node": g,
            "fabric": inp["fabric"] if nodes > 1 else gpu.link, "fits": fits, "max_concurrency": max_conc,
            "serving": serving, "tokens_per_s": r(rate, 1), "time_to_first_token_ms": r(ttft * 1e3, 1),
            "efficiency": sig(eff), "kw": r(kw, 2), "tokens_per_kwh": r(rate * 3600 / kw, 0)}


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run compare on normalized inputs."""
    model = resolve_model(inp)
    pcie, sxm = GPU_BY_ID[inp["gpu"]], GPU_BY_ID[inp["sxm_gpu"]]
    one, two, top = (_row("one_node", model, pcie, inp), _row("two_nodes", model, pcie, inp),
                     _row("sxm_node", model, sxm, inp))
    values = {
        "two_nodes_vs_one": r(two["tokens_per_s"] / one["tokens_per_s"], 3),
        "one_node_tokens_per_s": one["tokens_per_s"],
        "two_nodes_tokens_per_s": two["tokens_per_s"],
        "sxm_tokens_per_s": top["tokens_per_s"],
        "one_node_efficiency": one["efficiency"],
        "two_nodes_efficiency": two["efficiency"],
        "sxm_efficiency": top["efficiency"],
        "one_node_kw": one["kw"],
        "two_nodes_kw": two["kw"],
        "sxm_kw": top["kw"],
        "rows": [one, two, top],
    }
    if one["fits"] and (not two["fits"] or two["tokens_per_s"] <= one["tokens_per_s"] * A.COMPARE_EVEN):
        verdict = "one_node"
    elif two["fits"]:
        verdict = "two_nodes"
    else:
        verdict = "does_not_fit"
    notes = model_notes(model, inp, raw)
    notes.append(note("sxm_not_kentino_hardware", gpu=sxm.id))
    return {"values": values, "verdict": verdict, "notes": notes}
