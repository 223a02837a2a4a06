"""decision: the article's five-step flow; the first "yes" ends it.

Steps (question keys in the trace):
1. ``fits_one_node_fp8`` (inference) / ``training_fits_one_node`` (training):
   the job fits the node with headroom (vram_fit at FP8 -> "fits", or
   training_memory -> fits) and one node's throughput is enough
   (throughput_bound is false). A pretrain of a 70B+ model never answers yes
   here: it is compute-bound, not memory-bound.
2. ``fits_one_node_int4``: inference only; vram_fit at INT4 -> "fits" and not
   throughput-bound. INT4 weights cannot carry training gradients.
3. ``throughput_bound_replicas``: throughput_bound and the job fits one node
   (step 1 or 2's fit) -> data-parallel replicas of that node.
4. ``needs_multi_node``: the job does not fit one node (and is not a 70B+
   pretrain) -> multi-node over InfiniBand. Training projects the tensor-
   parallel efficiency over the minimum node count with `scaling`; under 0.60
   the note ``restructure`` gives the TP-inside/PP-across alternative.
5. ``pretrain_frontier``: pretraining a 70B+ model from scratch.
Every number comes from vram_fit, training_memory and scaling.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import assumptions as A
from . import scaling, training_memory, vram_fit
from .catalog.gpus import GPU_BY_ID
from .catalog.models import Model, resolve_model
from .common import FABRIC, GPU, GPUS, MODEL_INPUTS_FULL, r, sig
from .spec import CalculatorSpec, Input, Output, note

WORKLOADS = ("inference", "lora", "qlora", "full_finetune", "pretrain")
METHOD_OF: Mapping[str, str] = MappingProxyType(
    {"lora": "lora", "qlora": "qlora", "full_finetune": "full", "pretrain": "full"})
RECOMMENDATIONS = ("one_node", "one_node_int4", "dp_replicas", "multi_node_ib", "frontier")
QUESTIONS = (
    "fits_one_node_fp8",
    "training_fits_one_node",
    "fits_one_node_int4",
    "throughput_bound_replicas",
    "needs_multi_node",
    "pretrain_frontier",
)
NOTES = (
    "custom_inputs_ignored",
    "moe_all_experts_resident",
    "int4_not_for_training",
    "add_replicas",
    "restructure",
    "pretrain_compute_bound",
)

TRACE_VALUE_FIELDS = (
    Output("precision", "key"),
    Output("method", "key"),
    Output("verdict", "key"),
    Output("throughput_bound", "bool"),
    Output("weights_gb", "gb", "gb"),
    Output("weights_share", "ratio", "ratio"),
    Output("weights_limit", "ratio", "ratio"),
    Output("kv_gb", "gb", "gb"),
    Output("kv_budget_gb", "gb", "gb"),
    Output("max_concurrency", "count", "requests"),
    Output("concurrency", "count", "requests"),
    Output("total_gb", "gb", "gb"),
    Output("usable_gb", "gb", "gb"),
    Output("fits", "bool"),
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
        Input("throughput_bound", "bool", False),
        GPU,
        GPUS,
        Input("context", "int", A.DEFAULT_CONTEXT, unit="tokens", min=1, max=1_048_576),
        Input("concurrency", "int", A.DEFAULT_CONCURRENCY, unit="requests", min=1, max=100_000),
        FABRIC,
    ),
    outputs=(
        Output("step", "count", "step"),
        Output("recommendation", "key"),
        Output("min_nodes", "count", "nodes"),
        Output("trace", "list", None, TRACE_FIELDS),
    ),
    verdicts=RECOMMENDATIONS,
    notes=NOTES,
)


def _inference_fit(model: Model, inp: dict[str, Any], precision: str, gpus: int) -> dict[str, Any]:
    gpu = GPU_BY_ID[inp["gpu"]]
    return vram_fit.fit(model, precision, "bf16", gpu.memory_gb, gpus, inp["context"],
                        inp["concurrency"], A.DEFAULT_WEIGHTS_LIMIT)


def _fit_values(f: dict[str, Any], precision: str, inp: dict[str, Any]) -> dict[str, Any]:
    return {
        "precision": precision,
        "verdict": f["verdict"],
        "weights_gb": r(f["weights"], 2),
        "weights_share": sig(f["weights"] / f["vram"]),
        "weights_limit": A.DEFAULT_WEIGHTS_LIMIT,
        "kv_gb": r(f["kv"], 2),
        "kv_budget_gb": r(max(f["budget"], 0.0), 2),
        "max_concurrency": f["max_concurrency"],
        "concurrency": inp["concurrency"],
        "throughput_bound": inp["throughput_bound"],
    }


def _train_values(m: dict[str, Any], method: str, inp: dict[str, Any]) -> dict[str, Any]:
    return {
        "method": method,
        "total_gb": r(m["total"], 2),
        "usable_gb": r(m["usable"], 2),
        "fits": m["fits"],
        "min_gpus": m["min_gpus"],
        "min_nodes": m["min_nodes"],
        "throughput_bound": inp["throughput_bound"],
    }


def _project(model: Model, inp: dict[str, Any], nodes: int) -> dict[str, Any]:
    """Tensor-parallel efficiency across `nodes` nodes, and the TP/PP restructure."""
    base = {**{i.name: i.default for i in scaling.SPEC.inputs}, "model": inp["model"],
            "gpu": inp["gpu"], "gpus_per_node": inp["gpus"], "nodes": nodes, "fabric": inp["fabric"]}
    eff = scaling.efficiency({**base, "parallelism": "tp"}, model)
    values = {"fabric": inp["fabric"], "efficiency": sig(eff),
              "below_threshold": eff < A.EFFICIENCY_THRESHOLD}
    if eff < A.EFFICIENCY_THRESHOLD:
        values["restructured_efficiency"] = sig(scaling.efficiency({**base, "parallelism": "tp_pp"}, model))
    return values


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run the decision flow on normalized inputs."""
    model = resolve_model(inp)
    workload = inp["workload"]
    tb = inp["throughput_bound"]
    gpu = GPU_BY_ID[inp["gpu"]]
    notes = vram_fit.model_notes(model, inp, raw)
    trace: list[dict[str, Any]] = []
    frontier = workload == "pretrain" and model.params_b >= A.FRONTIER_PARAMS_B

    def ask(question: str, answer: bool, values: dict[str, Any]) -> bool:
        trace.append({"step": len(trace) + 1, "question": question, "answer": answer, "values": values})
        return answer

    if workload == "inference":
        fp8 = _inference_fit(model, inp, "fp8", inp["gpus"])
        int4 = _inference_fit(model, inp, "int4", inp["gpus"])
        fits_fp8, fits_int4 = fp8["verdict"] == "fits", int4["verdict"] == "fits"
        fits_node = fits_fp8 or fits_int4
        min_nodes = -(-fp8["min_gpus"] // inp["gpus"])
        steps = [
            ("fits_one_node_fp8", fits_fp8 and not tb, _fit_values(fp8, "fp8", inp), "one_node"),
            ("fits_one_node_int4", fits_int4 and not tb, _fit_values(int4, "int4", inp), "one_node_int4"),
        ]
        multi_values = {"min_nodes": min_nodes, "min_gpus": fp8["min_gpus"], "precision": "fp8"}
    else:
        method = METHOD_OF[workload]
        m = training_memory.memory(model, method, A.DEFAULT_LORA_RANK, A.DEFAULT_SEQ_LEN,
                                   A.DEFAULT_MICRO_BATCH, "none", gpu.memory_gb, inp["gpus"])
        fits_node = m["fits"] and not frontier
        min_nodes = m["min_nodes"]
        train_values = _train_values(m, method, inp)
        if frontier:
            train_values["params_b"] = r(model.params_b, 3)
            train_values["frontier_params_b"] = A.FRONTIER_PARAMS_B
        steps = [
            ("training_fits_one_node", fits_node and not tb, train_values, "one_node"),
            ("fits_one_node_int4", False, {"workload": workload}, "one_node_int4"),
        ]
        multi_values = {"min_nodes": min_nodes, "min_gpus": m["min_gpus"], "method": method}
        if not frontier and not fits_node:
            multi_values.update(_project(model, inp, max(2, min_nodes)))

    steps.append(("throughput_bound_replicas", tb and fits_node,
                  {"throughput_bound": tb, "fits": fits_node}, "dp_replicas"))
    steps.append(("needs_multi_node", not fits_node and not frontier, multi_values, "multi_node_ib"))
    steps.append(("pretrain_frontier", frontier,
                  {"workload": workload, "params_b": r(model.params_b, 3),
                   "frontier_params_b": A.FRONTIER_PARAMS_B, "min_nodes": min_nodes}, "frontier"))

    recommendation = "frontier"
    for question, answer, values, rec in steps:
        if ask(question, answer, values):
            recommendation = rec
            break

    step = len(trace)
    if workload != "inference" and step >= 2:
        notes.append(note("int4_not_for_training", workload=workload))
    if recommendation == "dp_replicas":
        notes.append(note("add_replicas", calculator="replicas"))
    if recommendation == "multi_node_ib" and multi_values.get("below_threshold"):
        notes.append(note("restructure", efficiency=multi_values["efficiency"],
                          restructured_efficiency=multi_values["restructured_efficiency"]))
    if recommendation == "frontier":
        notes.append(note("pretrain_compute_bound", min_gpus=A.FRONTIER_MIN_GPUS))
    if recommendation in ("one_node", "one_node_int4", "dp_replicas"):
        min_nodes = 1
    values = {"step": step, "recommendation": recommendation, "min_nodes": min_nodes, "trace": trace}
    return {"values": values, "verdict": recommendation, "notes": notes}
