"""compare: one workload on one 8-GPU node, two 4-GPU nodes over a fabric, and an 8-GPU SXM node.

For each configuration, with the calculators above (no formula of its own):
- serving: each box is filled the way the planner fills a box (``planner.box_layout``: copies of
  the model, each tensor parallel on a degree that divides its heads, the TP degree that serves
  the most): one copy (``tp``) or several (``replicas``, the load split evenly over the copies of
  both nodes); a model no box holds runs tensor parallel across both nodes (``tp_across``: every
  layer's all-reduces cross ``fabric``, scaling's hierarchical ring);
- fits: the copies' KV caches hold ``concurrency`` requests of ``context`` tokens (vram_fit);
  ``max_concurrency`` the requests they hold;
- tokens_per_s: ``serving_rate.served`` at the workload (whole requests of ``context`` tokens, of
  which ``output_tokens`` the answer, prefill included); time_to_first_token_ms: one prompt;
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
from . import planner, scaling
from .catalog.fabrics import FABRIC_BY_ID, INTER_NODE_TABLE
from .catalog.gpus import GPU_BY_ID, GPU_LIST, Gpu
from .catalog.models import Model, resolve_model
from .common import CONCURRENCY, CONTEXT, GPU, KV_PRECISION, MODEL_INPUTS_FULL, PRECISION, r, sig
from .power import node_kw
from .serving_rate import prefill_s, served
from .spec import CalculatorSpec, Input, Output, note
from .throughput import OUTPUT_TOKENS, check_lengths
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
        OUTPUT_TOKENS,
        GPU,
        Input("fabric", "choice", "ib-200", choices=INTER_NODE_TABLE),
        Input("sxm_gpu", "choice", "h100-sxm", choices=SXM_GPUS),
        scaling.NICS_PER_NODE,  # 0: the GPU's usual server (scaling.default_nics)
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


validate = check_lengths


def _training_efficiency(model: Model, gpu: Gpu, g: int, nodes: int, fabric: str, nics: int) -> float:
    """scaling's efficiency of a tensor-parallel training step on this layout, at its defaults."""
    inp = {"gpu": gpu.id, "parallelism": "tp", "gpus_per_node": g, "nodes": nodes, "fabric": fabric,
           "nics_per_node": nics, "seq_len": A.DEFAULT_SEQ_LEN,
           "micro_batch": A.DEFAULT_MICRO_BATCH, "grad_accum": A.DEFAULT_GRAD_ACCUM, "mfu": A.DEFAULT_MFU,
           "pcie_placement": "switch"}
    return scaling.efficiency(inp, model)


def _row(config: str, model: Model, gpu: Gpu, inp: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """One configuration serving the workload: the planner's best way to fill each box with copies of
    the model (tensor parallel inside a copy), the load split evenly over the copies; a model that no
    box of the configuration holds runs tensor parallel across both nodes over ``fabric``."""
    g, nodes = (4, 2) if config == "two_nodes" else (8, 1)
    conc = inp["concurrency"]
    # Each box fills itself for its share of the requests (the load split evenly over the nodes).
    load = planner.Load(model, inp["precision"], inp["kv_precision"], gpu, g, inp["context"],
                        inp["output_tokens"], math.ceil(conc / nodes), 0.0)
    box = planner.box_layout(load, g)
    fabric = FABRIC_BY_ID[inp["fabric"]]
    if box is not None:
        copies, tp, span = box.copies * nodes, box.tp, 1
        serving = "tp" if copies == 1 else "replicas"
        max_conc = box.max_concurrency * nodes
    else:
        copies, tp, span, serving = 1, g * nodes, nodes, "tp_across"
        max_conc = fit(model, load.precision, load.kv_precision, gpu, tp, load.context, 1,
                       A.DEFAULT_WEIGHTS_LIMIT)["max_concurrency"]
    per_copy = math.ceil(conc / copies)
    inter = fabric if span > 1 else None
    s = served(model, gpu, tp, load.precision, load.kv_precision, per_copy, load.input_tokens, load.output_tokens,
               nodes=span, inter=inter)
    rate = s["rate"] * conc / per_copy  # copies x per-copy rate, an uneven split counted at the fuller copy's pace
    ttft = prefill_s(model, gpu, tp, load.precision, load.input_tokens, nodes=span, inter=inter)
    kw = nodes * node_kw(gpu, g)
    eff = _training_efficiency(model, gpu, g, nodes, inp["fabric"], inp["nics_per_node"])
    fits = max_conc >= conc and (box is not None or max_conc >= 1)
    return {"config": config, "gpu": gpu.id, "nodes": nodes, "gpus_per_node": g,
            "fabric": inp["fabric"] if nodes > 1 else gpu.link, "fits": fits, "max_concurrency": max_conc,
            "serving": serving, "tokens_per_s": r(rate, 1), "time_to_first_token_ms": r(ttft * 1e3, 1),
            "efficiency": sig(eff), "kw": r(kw, 2), "tokens_per_kwh": r(rate * 3600 / kw, 0)}, rate


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run compare on normalized inputs."""
    model = resolve_model(inp)
    pcie, sxm = GPU_BY_ID[inp["gpu"]], GPU_BY_ID[inp["sxm_gpu"]]
    one, one_rate = _row("one_node", model, pcie, inp)
    two, two_rate = _row("two_nodes", model, pcie, inp)
    top, _ = _row("sxm_node", model, sxm, inp)
    values = {
        "two_nodes_vs_one": r(two_rate / one_rate, 3),
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
    if one["fits"] and (not two["fits"] or two_rate <= one_rate * A.COMPARE_EVEN):
        verdict = "one_node"
    elif two["fits"]:
        verdict = "two_nodes"
    else:
        verdict = "does_not_fit"
    notes = model_notes(model, inp, raw)
    notes.append(note("sxm_not_kentino_hardware", gpu=sxm.id))
    return {"values": values, "verdict": verdict, "notes": notes}
