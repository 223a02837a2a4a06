"""decision: the article's five-step flow, on the reader's hardware and load, answered by the planner.

Serving (``workload: inference``): every step reads ``planner.plan`` (the article's order of
deployments: one GPU, more GPUs in the box, copies inside the box, a bigger box, copies of boxes, one
model across boxes) for the reader's load: ``concurrency`` requests of ``context`` tokens (of which
``output_tokens`` the answer) and an output-token target (0: none).
1. ``fits_one_node_fp8``: at FP8 weights and the reader's KV-cache precision the plan is one box
   (of the reader's GPUs, or a bigger box of the same card) -> ``one_node``;
2. ``fits_one_node_fp8_kv`` (a BF16 KV cache only): the same with an FP8 KV cache, which doubles the
   cache's room and leaves the weights alone -> ``one_node_fp8_kv``; then ``fits_one_node_int4``:
   INT4 weights -> ``one_node_int4``;
3. ``throughput_bound_replicas``: the plan is copies of whole boxes (the load, not the model, is
   what exceeds one box) -> ``dp_replicas``, ``min_nodes`` the plan's boxes;
4. ``needs_multi_node``: only the plan's last step, one model across boxes (the weights do not fit
   the biggest box) -> ``multi_node_ib``, with the projected efficiency on ``fabric`` with
   ``nics_per_node``.
Training: memory as published recipes run it (``seq_len``, ``recompute``: gradient checkpointing by
default); a fine-tune with checkpointing the reader's box does not hold is tried with its checkpoints offloaded to CPU
memory (Unsloth's recipe) before more GPUs (note ``offload_checkpoints``); the job's GPUs in the
reader's box, else the smallest bigger box (2, 4, 8), else whole boxes. Pretraining is also sized
by time: ``tokens_t`` trillion tokens within ``max_days`` at the training_time model's MFU. Step 1
``training_fits_one_node``; 2 never (INT4 cannot carry gradients); 3 never; 4 ``needs_multi_node``
-> ``multi_node_ib``; 5 ``pretrain_frontier``: a pretraining run that needs at least 32 GPUs (the
article: 32-128+ GPUs and an SXM fabric) -> ``frontier``.
``min_nodes`` and ``gpus_per_node`` are the answer's boxes; ``step`` the last step asked.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import assumptions as A
from . import planner, scaling, training_memory, training_time, vram_fit
from .catalog.gpus import GPU_BY_ID, Gpu
from .catalog.models import Model, resolve_model
from .common import (
    CONCURRENCY,
    CONTEXT,
    FABRIC,
    GPU,
    GPUS,
    KV_PRECISION,
    MODEL_INPUTS_FULL,
    TARGET_TOKENS_PER_S,
    ceil_div,
    r,
    sig,
)
from .spec import CalculatorSpec, Input, Output, note
from .throughput import OUTPUT_TOKENS, check_lengths

WORKLOADS = ("inference", "lora", "qlora", "full_finetune", "pretrain")
METHOD_OF: Mapping[str, str] = MappingProxyType(
    {"lora": "lora", "qlora": "qlora", "full_finetune": "full", "pretrain": "full"})
RECOMMENDATIONS = ("one_node", "one_node_fp8_kv", "one_node_int4", "dp_replicas", "multi_node_ib", "frontier")
QUESTIONS = (
    "fits_one_node_fp8",
    "training_fits_one_node",
    "fits_one_node_fp8_kv",
    "fits_one_node_int4",
    "throughput_bound_replicas",
    "needs_multi_node",
    "pretrain_frontier",
)
NOTES = (
    "custom_inputs_ignored",
    "moe_all_experts_resident",
    "int4_not_for_training",
    "offload_checkpoints",
    "add_replicas",
    "restructure",
    "multi_node_ops_tax",
    "pretrain_compute_bound",
    "frontier_not_kentino_hardware",
)

TRACE_VALUE_FIELDS = (
    Output("precision", "key"),
    Output("kv_precision", "key"),
    Output("method", "key"),
    Output("recompute", "key"),
    Output("verdict", "key"),
    Output("deployment", "key"),
    Output("gpus_per_node", "count", "gpus"),
    Output("node_tokens_per_s", "float", "tokens_per_s"),
    Output("days", "float", "days"),
    Output("max_days", "float", "days"),
    Output("weights_gb", "gb", "gb"),
    Output("weights_share", "ratio", "ratio"),
    Output("weights_limit", "ratio", "ratio"),
    Output("weights_within_limit", "bool"),
    Output("kv_gb", "gb", "gb"),
    Output("kv_budget_gb", "gb", "gb"),
    Output("max_concurrency", "count", "requests"),
    Output("concurrency", "count", "requests"),
    Output("max_context", "count", "tokens"),
    Output("context", "count", "tokens"),
    Output("total_gb", "gb", "gb"),
    Output("usable_gb", "gb", "gb"),
    Output("fits", "bool"),
    Output("load_exceeds_node", "bool"),
    Output("min_gpus", "count", "gpus"),
    Output("min_nodes", "count", "nodes"),
    Output("fabric", "key"),
    Output("efficiency", "ratio", "ratio"),
    Output("below_threshold", "bool"),
    Output("restructured_efficiency", "ratio", "ratio"),
    Output("params_b", "float", "billion_params"),
    Output("frontier_params_b", "float", "billion_params"),
    Output("workload", "key"),
)

TRACE_FIELDS = (
    Output("step", "count", "step"),
    Output("question", "key"),
    Output("answer", "bool"),
    Output("values", "object", None, TRACE_VALUE_FIELDS),
)

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_FULL,
        Input("workload", "choice", "inference", choices=WORKLOADS),
        GPU,
        GPUS,
        CONTEXT,
        CONCURRENCY,
        OUTPUT_TOKENS,
        Input("target_tokens_per_s", "float", 0.0, unit="tokens_per_s", min=0.0, max=TARGET_TOKENS_PER_S.max),
        KV_PRECISION,
        # Training as published recipes run it (training_memory.RECIPE_*: QLoRA, axolotl, Unsloth, PEFT).
        Input("seq_len", "int", training_memory.RECIPE_SEQ_LEN, unit="tokens", min=16, max=1_048_576),
        Input("recompute", "choice", training_memory.RECIPE_RECOMPUTE, choices=training_memory.RECOMPUTE),
        # Pretraining: Llama 3's 15T tokens (training_time's default), within a quarter of a year.
        Input("tokens_t", "float", 15.0, unit="trillion_tokens", min=0.001, max=1000.0),
        Input("max_days", "float", 90.0, unit="days", min=1.0, max=3650.0),
        FABRIC,
        Input("nics_per_node", "int", 0, unit="nics", min=0, max=16),  # 0: the GPU's server (scaling.default_nics)
    ),
    outputs=(
        Output("step", "count", "step"),
        Output("recommendation", "key"),
        Output("min_nodes", "count", "nodes"),
        Output("gpus_per_node", "count", "gpus"),
        Output("trace", "list", None, TRACE_FIELDS),
    ),
    verdicts=RECOMMENDATIONS,
    notes=NOTES,
    shown=("recommendation", "step", "min_nodes", "gpus_per_node"),
)


validate = check_lengths


def _load(model: Model, inp: dict[str, Any], precision: str, kv_precision: str) -> planner.Load:
    """The planner's load for this form at a weight and KV-cache precision."""
    return planner.Load(model, precision, kv_precision, GPU_BY_ID[inp["gpu"]], inp["gpus"], inp["context"],
                        inp["output_tokens"], inp["concurrency"],
                        inp["target_tokens_per_s"])


def _plan_values(p: planner.Plan, precision: str, kv_precision: str) -> dict[str, Any]:
    layout = p.layout
    values: dict[str, Any] = {"precision": precision, "kv_precision": kv_precision,
                              "deployment": layout.step if layout else "none",
                              "fits": bool(layout) and layout.nodes == 1 and layout.pp == 1}
    if layout:
        values.update({"min_nodes": layout.nodes, "gpus_per_node": layout.gpus_per_node,
                       "max_concurrency": layout.max_concurrency,
                       "node_tokens_per_s": r(layout.tokens_per_s / layout.nodes, 1)})
    return values


def _one_node(p: planner.Plan) -> bool:
    return bool(p.layout) and p.layout.nodes == 1 and p.layout.pp == 1


def _training_boxes(min_gpus: int, gpus: int) -> tuple[int, int]:
    """(GPUs per box, boxes) for a job that needs ``min_gpus`` GPUs: the reader's box, else the
    smallest box of 2, 4 or 8 that holds it, else whole boxes of the largest."""
    if min_gpus <= gpus:
        return gpus, 1
    for size in planner.BOX_SIZES:
        if min_gpus <= size:
            return size, 1
    top = max(gpus, planner.BOX_SIZES[-1])
    return top, ceil_div(min_gpus, top)


def _project(model: Model, inp: dict[str, Any], nodes: int, gpus_per_node: int) -> dict[str, Any]:
    """Efficiency of a training step across `nodes` boxes: TP inside a box, and the layout practitioners run."""
    base = {**{i.name: i.default for i in scaling.SPEC.inputs}, "model": inp["model"],
            "gpu": inp["gpu"], "gpus_per_node": gpus_per_node, "nodes": nodes, "fabric": inp["fabric"],
            "nics_per_node": inp["nics_per_node"]}
    eff = scaling.efficiency({**base, "parallelism": "tp"}, model)
    values = {"fabric": inp["fabric"], "efficiency": sig(eff), "below_threshold": eff < A.EFFICIENCY_THRESHOLD}
    if eff < A.EFFICIENCY_THRESHOLD:
        values["restructured_efficiency"] = sig(scaling.efficiency({**base, "parallelism": "tp_pp"}, model))
    return values


def _pretrain_days(model: Model, inp: dict[str, Any], gpus: int) -> float:
    """Days a pretraining run of ``tokens_t`` trillion tokens takes on ``gpus`` GPUs in the reader's boxes
    (training_time's model: the fastest layout that fits, at its calibrated MFU and efficiency)."""
    return training_time.pretrain_days(model, GPU_BY_ID[inp["gpu"]], gpus, inp["gpus"], inp["tokens_t"] * 1e12,
                                       nics_per_node=inp["nics_per_node"], fabric=inp["fabric"])


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run the decision flow on normalized inputs."""
    model = resolve_model(inp)
    workload = inp["workload"]
    notes = vram_fit.model_notes(model, inp, raw)
    trace: list[dict[str, Any]] = []

    def ask(step: int, question: str, answer: bool, values: dict[str, Any]) -> bool:
        trace.append({"step": step, "question": question, "answer": answer, "values": values})
        return answer

    if workload == "inference":
        recommendation, min_nodes, gpus_per_node = _inference(model, inp, ask, notes)
    else:
        recommendation, min_nodes, gpus_per_node = _training(model, inp, ask, notes)
    values = {"step": trace[-1]["step"], "recommendation": recommendation, "min_nodes": min_nodes,
              "gpus_per_node": gpus_per_node, "trace": trace}
    return {"values": values, "verdict": recommendation, "notes": notes}


def _inference(model: Model, inp: dict[str, Any], ask: Any, notes: list[dict[str, Any]]) -> tuple[str, int, int]:
    """Steps 1-4 for serving, each answered by the planner."""
    kvp = inp["kv_precision"]
    fp8 = planner.plan(_load(model, inp, "fp8", kvp))
    if ask(1, "fits_one_node_fp8", _one_node(fp8), _plan_values(fp8, "fp8", kvp)):
        return "one_node", 1, fp8.layout.gpus_per_node
    if kvp != "fp8":
        kv8 = planner.plan(_load(model, inp, "fp8", "fp8"))
        if ask(2, "fits_one_node_fp8_kv", _one_node(kv8), _plan_values(kv8, "fp8", "fp8")):
            return "one_node_fp8_kv", 1, kv8.layout.gpus_per_node
    int4 = planner.plan(_load(model, inp, "int4", kvp))
    if ask(2, "fits_one_node_int4", _one_node(int4), _plan_values(int4, "int4", kvp)):
        return "one_node_int4", 1, int4.layout.gpus_per_node
    # Copies of whole boxes at FP8, else at INT4 weights: never a cluster for weights one box holds.
    precision, chosen = ("fp8", fp8) if fp8.layout and fp8.layout.pp == 1 else ("int4", int4)
    layout = chosen.layout
    replicas = bool(layout) and layout.pp == 1
    values = _plan_values(chosen, precision, kvp)
    if ask(3, "throughput_bound_replicas", replicas, values):
        notes.append(note("add_replicas", calculator="replicas"))
        return "dp_replicas", layout.nodes, layout.gpus_per_node
    layout = fp8.layout
    values = _plan_values(fp8, "fp8", kvp)
    nodes = layout.nodes if layout else 0
    gpus_per_node = layout.gpus_per_node if layout else inp["gpus"]
    ask(4, "needs_multi_node", True, {**values, **(_project(model, inp, max(nodes, 2), gpus_per_node))})
    notes.append(note("multi_node_ops_tax", added_nodes=max(nodes, 2) - 1))
    return "multi_node_ib", nodes, gpus_per_node


def _fine_tune_memory(model: Model, method: str, gpu: Gpu, inp: dict[str, Any], workload: str,
                      notes: list[dict[str, Any]]) -> dict[str, Any]:
    """The job's memory at the reader's recipe; a fine-tune with gradient checkpointing that does not fit the
    reader's box is tried with its checkpoints offloaded to CPU memory (Unsloth's recipe, about 1 % slower)
    before more GPUs, and taken so when that needs fewer (note ``offload_checkpoints``)."""
    m = training_memory.fits_training(model, method, gpu, inp["gpus"], inp["seq_len"], inp["recompute"])
    if m["fits"] or workload == "pretrain" or inp["recompute"] != "full":  # "none": no checkpoints to move
        return m
    off = training_memory.fits_training(model, method, gpu, inp["gpus"], inp["seq_len"], "offload")
    if off["min_gpus"] and (not m["min_gpus"] or off["min_gpus"] < m["min_gpus"]):
        notes.append(note("offload_checkpoints", gpus=inp["gpus"], gpus_per_node=off["min_gpus"],
                          seq_len=inp["seq_len"]))
        return off
    return m


def _training(model: Model, inp: dict[str, Any], ask: Any, notes: list[dict[str, Any]]) -> tuple[str, int, int]:
    """Steps 1-5 for training: memory as the recipes run it, a bigger box before a cluster; a
    pretraining run is sized by its time as well as its memory."""
    workload = inp["workload"]
    method = METHOD_OF[workload]
    gpu = GPU_BY_ID[inp["gpu"]]
    m = _fine_tune_memory(model, method, gpu, inp, workload, notes)
    # 0: one micro-batch's activations alone exceed a GPU; sharding cannot help (a smaller seq_len can)
    min_gpus = m["min_gpus"] or A.FRONTIER_MIN_GPUS
    days = 0.0
    if workload == "pretrain":
        days = _pretrain_days(model, inp, inp["gpus"])
        min_gpus = max(min_gpus, ceil_div(days * inp["gpus"], inp["max_days"]))
    gpus_per_node, nodes = _training_boxes(min_gpus, inp["gpus"])
    train_values = {"method": method, "recompute": m["recompute"], "total_gb": r(m["total_gb"], 2),
                    "usable_gb": r(m["usable_gb_per_gpu"] * inp["gpus"], 2), "fits": nodes == 1,
                    "min_gpus": min_gpus, "min_nodes": nodes, "gpus_per_node": gpus_per_node}
    if workload == "pretrain":
        train_values.update({"days": r(days, 1), "max_days": inp["max_days"]})
    if ask(1, "training_fits_one_node", nodes == 1, train_values):
        return "one_node", 1, gpus_per_node
    ask(2, "fits_one_node_int4", False, {"workload": workload})
    notes.append(note("int4_not_for_training", workload=workload))
    ask(3, "throughput_bound_replicas", False, {"fits": False})
    frontier = workload == "pretrain" and min_gpus >= A.FRONTIER_MIN_GPUS
    if ask(4, "needs_multi_node", not frontier, {**train_values, **_project(model, inp, nodes, gpus_per_node)}):
        values = trace_values = _project(model, inp, nodes, gpus_per_node)
        if trace_values["below_threshold"]:
            notes.append(note("restructure", efficiency=values["efficiency"],
                              restructured_efficiency=values["restructured_efficiency"]))
        notes.append(note("multi_node_ops_tax", added_nodes=nodes - 1))
        return "multi_node_ib", nodes, gpus_per_node
    ask(5, "pretrain_frontier", True, {"workload": workload, "params_b": r(model.params_b, 3),
                                        "min_gpus": min_gpus, "min_nodes": nodes})
    notes.append(note("pretrain_compute_bound", min_gpus=min_gpus, frontier_gpus=A.FRONTIER_MIN_GPUS))
    notes.append(note("frontier_not_kentino_hardware"))
    return "frontier", nodes, gpus_per_node
