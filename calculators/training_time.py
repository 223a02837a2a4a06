"""training_time: how long a training run of ``tokens_t`` trillion tokens takes, and what it draws.

- work = 6 x P_active x D FLOPs (Kaplan et al. 2020; the scaling model's
  FLOPS_PER_PARAM_TOKEN), D = tokens_t x 1e12
- per GPU = dense BF16 peak x mfu x efficiency, where efficiency is the
  ``scaling`` model's for this layout (scaling.step: ``parallelism`` over
  ``gpus_per_node`` GPUs x nodes on ``fabric``, its default workload)
- seconds = work / (gpus x per GPU); gpu_hours = gpus x hours;
  gpu_months = gpu_hours / 730; days = seconds / 86,400
- gpus: the GPUs asked for, rounded up to whole nodes (note ``gpus_rounded_to_nodes``)
- range: *_low / *_high at the ends of the MFU range (0.25-0.52, assumptions.py)
- power: node_kw per node (power.py), cluster_kw, energy_mwh over the run.
``mfu`` is the share of peak the GPUs reach while computing; the published
figures it comes from (Llama 3, Megatron-LM) are for whole runs, overlap
included, so multiplying by the layout's efficiency counts some communication
twice: a slightly long estimate (default layout: data parallel, efficiency ~0.97).
"""

import math
from typing import Any

from . import assumptions as A
from .catalog.fabrics import FABRIC_BY_ID
from .catalog.gpus import GPU_BY_ID
from .catalog.models import Model, resolve_model
from .common import GPU, MODEL_INPUTS_DENSE, r, sig
from .power import node_kw
from .scaling import PARALLELISMS, step
from .spec import CalculatorSpec, Input, Output, Range, note
from .vram_fit import model_notes

VERDICTS = ("within_a_month", "months", "years")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident", "gpus_rounded_to_nodes")
DAYS_PER_MONTH = A.HOURS_PER_MONTH / 24

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_DENSE,
        Input("tokens_t", "float", 15.0, unit="trillion_tokens", min=0.001, max=1000.0),
        GPU,
        Input("gpus", "int", 64, unit="gpus", min=1, max=100_000),
        Input("gpus_per_node", "int", 8, unit="gpus", min=1, max=64),
        Input("fabric", "choice", "ib-400", choices=tuple(FABRIC_BY_ID)),
        Input("parallelism", "choice", "dp", choices=PARALLELISMS),
        Input("mfu", "float", A.TRAINING_MFU, unit="ratio", min=0.01, max=1.0),
    ),
    outputs=(
        Output("gpu_months", "float", "gpu_months"),
        Output("gpu_months_low", "float", "gpu_months"),
        Output("gpu_months_high", "float", "gpu_months"),
        Output("gpu_hours", "float", "gpu_hours"),
        Output("days", "float", "days"),
        Output("days_low", "float", "days"),
        Output("days_high", "float", "days"),
        Output("gpus", "count", "gpus"),
        Output("nodes", "count", "nodes"),
        Output("efficiency", "ratio", "ratio"),
        Output("achieved_tflops", "float", "tflops"),
        Output("total_flops", "float", "flops"),
        Output("node_kw", "float", "kw"),
        Output("cluster_kw", "float", "kw"),
        Output("energy_mwh", "float", "mwh"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("gpu_months", "gpu_months_range", "days", "gpus", "efficiency", "cluster_kw", "energy_mwh"),
    ranges=(Range("gpu_months_range", "gpu_months_low", "gpu_months_high", "float"),),
)


def layout(gpus: int, gpus_per_node: int) -> tuple[int, int]:
    """(GPUs per node, nodes) that hold ``gpus`` GPUs in whole nodes."""
    if gpus <= gpus_per_node:
        return gpus, 1
    return gpus_per_node, math.ceil(gpus / gpus_per_node)


def gpu_hours(params_b: float, tokens_t: float, peak_tflops: float, mfu: float, efficiency: float = 1.0) -> float:
    """GPU-hours of 6 x P x D FLOPs at ``peak_tflops`` x mfu x efficiency per GPU."""
    work = A.FLOPS_PER_PARAM_TOKEN * params_b * 1e9 * tokens_t * 1e12
    return work / (peak_tflops * 1e12 * mfu * efficiency) / 3600


def _run(model: Model, inp: dict[str, Any], mfu: float) -> dict[str, float]:
    gpu = GPU_BY_ID[inp["gpu"]]
    g, nodes = layout(inp["gpus"], inp["gpus_per_node"])
    s = step(model, gpu, inp["parallelism"], g, nodes, FABRIC_BY_ID[inp["fabric"]], A.DEFAULT_NICS_PER_NODE,
             A.DEFAULT_SEQ_LEN, A.DEFAULT_MICRO_BATCH, A.DEFAULT_GRAD_ACCUM, mfu)
    hours = gpu_hours(model.active_params_b, inp["tokens_t"], gpu.bf16_tflops, mfu, s["efficiency"])
    n = g * nodes
    return {"gpu_hours": hours, "days": hours / n / 24, "efficiency": s["efficiency"], "g": g, "nodes": nodes,
            "gpus": n, "tflops": gpu.bf16_tflops * mfu * s["efficiency"]}


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run training_time on normalized inputs."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    t = _run(model, inp, inp["mfu"])
    fast = _run(model, inp, max(inp["mfu"], A.TRAINING_MFU_RANGE[1]))
    slow = _run(model, inp, min(inp["mfu"], A.TRAINING_MFU_RANGE[0]))
    kw = node_kw(gpu, t["g"])
    cluster = kw * t["nodes"]
    months = t["gpu_hours"] / A.HOURS_PER_MONTH
    values = {
        "gpu_months": r(months, 1),
        "gpu_months_low": r(fast["gpu_hours"] / A.HOURS_PER_MONTH, 1),
        "gpu_months_high": r(slow["gpu_hours"] / A.HOURS_PER_MONTH, 1),
        "gpu_hours": r(t["gpu_hours"], 0),
        "days": r(t["days"], 1),
        "days_low": r(fast["days"], 1),
        "days_high": r(slow["days"], 1),
        "gpus": t["gpus"],
        "nodes": t["nodes"],
        "efficiency": sig(t["efficiency"]),
        "achieved_tflops": r(t["tflops"], 1),
        "total_flops": sig(A.FLOPS_PER_PARAM_TOKEN * model.active_params_b * 1e9 * inp["tokens_t"] * 1e12),
        "node_kw": r(kw, 2),
        "cluster_kw": r(cluster, 1),
        "energy_mwh": r(cluster * t["days"] * 24 / 1000, 1),
    }
    notes = model_notes(model, inp, raw)
    if t["gpus"] != inp["gpus"]:
        notes.append(note("gpus_rounded_to_nodes", gpus=t["gpus"], nodes=t["nodes"]))
    verdict = "within_a_month" if t["days"] <= DAYS_PER_MONTH else "months" if t["days"] <= 365 else "years"
    return {"values": values, "verdict": verdict, "notes": notes}
