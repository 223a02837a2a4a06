"""decision: the article's five-step flow, on the reader's hardware and load.

Each step answers its own question only, from the reader's GPU, GPU count,
context, concurrency and KV-cache precision (the same `vram_fit` numbers the
vram_fit widget shows). The trace lists the steps asked, each with its
article step number; the last one asked decides (`step`, `recommendation`).

1. ``fits_one_node_fp8`` (inference) / ``training_fits_one_node`` (training):
   vram_fit at FP8 says ``fits`` for the requested load (weights within the
   rule and the KV cache of concurrency x context fits), or training_memory
   fits. A pretrain of a 70B+ model never fits one node: it is compute-bound
   (the article: 32-128+ GPUs), whatever its memory.
2. ``fits_one_node_int4``: inference only, vram_fit at INT4 says ``fits``
   (training: always no, INT4 weights cannot carry training gradients).
   A "yes" at step 1 or 2 ends the flow (``one_node`` / ``one_node_int4``)
   unless the reader says the workload is throughput-bound: then the flow
   goes on to step 3, which answers yes. Steps are asked in order, none is
   skipped: trace item i is step i + 1.
3. ``throughput_bound_replicas``: the load, not the model's size, is what
   exceeds one node: throughput_bound and the job fits one node, or (inference)
   the weights fit one node within the rule and at least one request fits, but
   the KV cache of the requested load does not. -> ``dp_replicas``: replicas of
   one node (``min_nodes`` = ceil(concurrency / max_concurrency), at least 2
   when throughput-bound), with the other ways out as notes (a smaller load,
   an FP8 KV cache, a bigger single node). Never a tensor-parallel cluster for
   a model whose weights fit one node.
4. ``needs_multi_node``: the job (not a frontier pretrain) does not fit one node
   -> ``multi_node_ib``. Training projects the tensor-parallel efficiency over
   the minimum node count with `scaling`; under 0.60 the note ``restructure``
   gives the TP-inside/PP-across alternative.
5. ``pretrain_frontier``: pretraining a 70B+ model from scratch -> ``frontier``,
   at least 32 GPUs (``min_nodes`` = ceil(32 / gpus): 4 nodes of 8).
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import assumptions as A
from . import scaling, training_memory, vram_fit
from .catalog.gpus import GPU_BY_ID
from .catalog.models import Model, resolve_model
from .common import CONCURRENCY, CONTEXT, FABRIC, GPU, GPUS, KV_PRECISION, MODEL_INPUTS_FULL, ceil_div, r, sig
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
    "load_exceeds_node",
    "kv_fp8_fits",
    "bigger_node_fits",
    "restructure",
    "multi_node_ops_tax",
    "pretrain_compute_bound",
    "frontier_not_kentino_hardware",
)

TRACE_VALUE_FIELDS = (
    Output("precision", "key"),
    Output("kv_precision", "key"),
    Output("method", "key"),
    Output("verdict", "key"),
    Output("throughput_bound", "bool"),
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
        Input("throughput_bound", "bool", False),
        GPU,
        GPUS,
        CONTEXT,
        CONCURRENCY,
        KV_PRECISION,
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
    shown=("recommendation", "step", "min_nodes"),
)


def _inference_fit(model: Model, inp: dict[str, Any], precision: str, kv_precision: str,
                   gpus: int) -> dict[str, Any]:
    gpu = GPU_BY_ID[inp["gpu"]]
    return vram_fit.fit(model, precision, kv_precision, gpu, gpus, inp["context"],
                        inp["concurrency"], A.DEFAULT_WEIGHTS_LIMIT)


def _fit_values(f: dict[str, Any], precision: str, inp: dict[str, Any]) -> dict[str, Any]:
    return {
        "precision": precision,
        "kv_precision": inp["kv_precision"],
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


def _ways_out(model: Model, inp: dict[str, Any], precision: str, f: dict[str, Any]) -> list[dict[str, Any]]:
    """Notes for a load that exceeds one node whose weights fit: smaller load, FP8 KV, bigger node."""
    notes = [note("load_exceeds_node", max_concurrency=f["max_concurrency"], concurrency=inp["concurrency"],
                  max_context=f["max_context"], context=inp["context"])]
    if inp["kv_precision"] != "fp8":
        fp8_kv = _inference_fit(model, inp, precision, "fp8", inp["gpus"])
        if fp8_kv["kv_fits"]:
            notes.append(note("kv_fp8_fits", max_concurrency=fp8_kv["max_concurrency"]))
    if inp["gpus"] < f["min_gpus"] <= A.MAX_GPUS_PER_NODE:
        notes.append(note("bigger_node_fits", gpus=f["min_gpus"]))
    return notes


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run the decision flow on normalized inputs."""
    model = resolve_model(inp)
    workload = inp["workload"]
    tb = inp["throughput_bound"]
    gpu = GPU_BY_ID[inp["gpu"]]
    notes = vram_fit.model_notes(model, inp, raw)
    trace: list[dict[str, Any]] = []
    frontier = workload == "pretrain" and model.params_b >= A.FRONTIER_PARAMS_B
    way_out: list[dict[str, Any]] = []

    def ask(step: int, question: str, answer: bool, values: dict[str, Any]) -> bool:
        trace.append({"step": step, "question": question, "answer": answer, "values": values})
        return answer

    recommendation = ""
    min_nodes = 1
    if workload == "inference":
        fp8 = _inference_fit(model, inp, "fp8", inp["kv_precision"], inp["gpus"])
        int4 = _inference_fit(model, inp, "int4", inp["kv_precision"], inp["gpus"])
        if ask(1, "fits_one_node_fp8", fp8["verdict"] == "fits", _fit_values(fp8, "fp8", inp)):
            recommendation, node = "one_node", ("fp8", fp8)
        if (tb or not recommendation) and ask(2, "fits_one_node_int4", int4["verdict"] == "fits",
                                              _fit_values(int4, "int4", inp)):
            recommendation, node = recommendation or "one_node_int4", node if recommendation else ("int4", int4)
        if not recommendation:
            # Weights within the rule at FP8 (else INT4): does only the load's KV cache overflow?
            node = ("fp8", fp8) if fp8["within"] else ("int4", int4)
        precision, f = node
        fits_node = recommendation != ""
        load_only = not fits_node and f["within"] and f["max_concurrency"] >= 1
        if tb or not fits_node:
            replicas = ceil_div(inp["concurrency"], f["max_concurrency"]) if load_only else 1
            replicas = max(replicas, 2 if tb else 1)
            values = {"throughput_bound": tb, "fits": fits_node, "load_exceeds_node": load_only,
                      "precision": precision, "weights_within_limit": f["within"],
                      "max_concurrency": f["max_concurrency"], "concurrency": inp["concurrency"],
                      "max_context": f["max_context"], "context": inp["context"], "min_nodes": replicas}
            if ask(3, "throughput_bound_replicas", (tb and fits_node) or load_only, values):
                recommendation, min_nodes = "dp_replicas", replicas
                if load_only:
                    way_out = _ways_out(model, inp, precision, f)
            else:
                min_nodes = ceil_div(fp8["min_gpus"], inp["gpus"])
                ask(4, "needs_multi_node", True,
                    {"min_nodes": min_nodes, "min_gpus": fp8["min_gpus"], "precision": "fp8"})
                recommendation = "multi_node_ib"
        multi_values: dict[str, Any] = {}
    else:
        method = METHOD_OF[workload]
        m = training_memory.memory(model, method, A.DEFAULT_LORA_RANK, A.DEFAULT_SEQ_LEN,
                                   A.DEFAULT_MICRO_BATCH, "none", gpu.memory_gb, inp["gpus"])
        fits_node = m["fits"] and not frontier
        train_values = _train_values(m, method, inp)
        if frontier:
            train_values["params_b"] = r(model.params_b, 3)
            train_values["frontier_params_b"] = A.FRONTIER_PARAMS_B
        multi_values = {"min_nodes": m["min_nodes"], "min_gpus": m["min_gpus"], "method": method}
        if ask(1, "training_fits_one_node", fits_node, train_values) and not tb:
            recommendation = "one_node"
        else:
            ask(2, "fits_one_node_int4", False, {"workload": workload})
            notes.append(note("int4_not_for_training", workload=workload))
            if ask(3, "throughput_bound_replicas", tb and fits_node, {"throughput_bound": tb, "fits": fits_node}):
                recommendation, min_nodes = "dp_replicas", 2
            else:
                if not frontier:
                    multi_values.update(_project(model, inp, max(2, m["min_nodes"])))
                if ask(4, "needs_multi_node", not frontier, multi_values):
                    recommendation, min_nodes = "multi_node_ib", m["min_nodes"]
                else:
                    min_nodes = ceil_div(A.FRONTIER_MIN_GPUS, inp["gpus"])
                    ask(5, "pretrain_frontier", True,
                        {"workload": workload, "params_b": r(model.params_b, 3),
                         "frontier_params_b": A.FRONTIER_PARAMS_B, "min_gpus": A.FRONTIER_MIN_GPUS,
                         "min_nodes": min_nodes})
                    recommendation = "frontier"

    if recommendation == "dp_replicas":
        notes.append(note("add_replicas", calculator="replicas"))
        notes.extend(way_out)
    if recommendation == "multi_node_ib":
        if multi_values.get("below_threshold"):
            notes.append(note("restructure", efficiency=multi_values["efficiency"],
                              restructured_efficiency=multi_values["restructured_efficiency"]))
        notes.append(note("multi_node_ops_tax", added_nodes=max(min_nodes, 2) - 1))
    if recommendation == "frontier":
        notes.append(note("pretrain_compute_bound", min_gpus=A.FRONTIER_MIN_GPUS,
                          max_gpus=A.FRONTIER_MAX_GPUS))
        notes.append(note("frontier_not_kentino_hardware"))
    values = {"step": trace[-1]["step"], "recommendation": recommendation, "min_nodes": min_nodes,
              "trace": trace}
    return {"values": values, "verdict": recommendation, "notes": notes}
