"""scaling: throughput per GPU of a training step against a single-GPU baseline.

Model (no compute/communication overlap; every assumption in assumptions.py):
- compute per micro-batch: 6 x P_active x tokens FLOPs, at mfu x peak per GPU
- ring all-reduce of S bytes over n GPUs at bandwidth B, latency a per step
  (NCCL-tests PERFORMANCE.md, busbw = algbw x 2(n-1)/n):
      t = 2(n-1)/n x S/B + 2(n-1) x a
- across nodes, hierarchical: reduce-scatter + all-gather inside each node
  (2(g-1)/g x S/B_box) and an all-reduce between the N nodes over the node's
  NICs (2(N-1)/N x S/(min(nics, g) x B_fabric)), phases not overlapped
- tp: 4 all-reduces of b x s x h x 2 bytes per layer per micro-batch (Megatron)
- dp: one all-reduce of the BF16 gradients (2 x P bytes) per optimizer step
- pp: one stage per GPU, GPipe/1F1B bubble (p-1)/(m+p-1) with m = grad_accum
  micro-batches (Narayanan et al. 2021, arXiv:2104.04473), plus a
  b x s x h x 2-byte send forward and backward per micro-batch
- tp_pp: tensor parallel inside each node, pipeline stages across nodes
efficiency = useful compute time / step time, speedup = efficiency x GPUs.
Verdict: ``does_not_fit`` when the training state (16 B/param, sharded over
the GPUs except with plain dp) does not fit one GPU's memory: the layout cannot
run the step, whatever its projected efficiency; else ``restructure`` under
the 0.60 line, ``scales`` above it.
Range: efficiency_low / efficiency_high recompute the step with the achieved
bandwidths at the ends of their uncertainty ranges (assumptions.py); when the
0.60 line falls inside, the note ``verdict_depends_on_bandwidth`` says so.
efficiency_compute_low recomputes it at the best published MFU (0.52; never
below the input ``mfu``); when that falls under the line while ``efficiency``
does not, the note ``verdict_depends_on_compute`` says so.
PCIe topology (``pcie_placement``, PCIe cards only): ``switch`` is the
article's ~50 GB/s (Gen5) between GPUs under one PCIe switch; ``cross_socket``
is a ring that crosses the CPUs, at NCCL's inter-socket figure (22 GB/s,
Sapphire Rapids; range 10-32 GB/s, catalog/fabrics.py).
"""

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import assumptions as A
from .catalog.fabrics import (
    FABRIC_BY_ID,
    INTER_NODE_TABLE,
    PCIE_PLACEMENTS,
    Fabric,
    pcie_allreduce_gbs,
    pcie_allreduce_range_gbs,
)
from .catalog.gpus import GPU_BY_ID, Gpu
from .catalog.models import Model, resolve_model
from .common import FABRIC, GPU, MODEL_INPUTS_DENSE, r, sig
from .inputs import normalize
from .spec import CalculatorSpec, Input, Output, Range, note
from .training_memory import state_gb
from .vram_fit import model_notes

PARALLELISMS = ("tp", "dp", "pp", "tp_pp")
VERDICTS = ("scales", "restructure", "does_not_fit")
NOTES = (
    "custom_inputs_ignored",
    "moe_all_experts_resident",
    "fabric_unused_single_node",
    "tp_across_nodes",
    "state_exceeds_gpu_memory",
    "verdict_depends_on_bandwidth",
    "verdict_depends_on_compute",
)

SERIES_FIELDS = (
    Output("gpus_per_node", "count", "gpus"),
    Output("nodes", "count", "nodes"),
    Output("gpus", "count", "gpus"),
    Output("fabric", "key"),
    Output("efficiency", "ratio", "ratio"),
    Output("speedup", "multiplier"),
    Output("comm_share", "ratio", "ratio"),
    Output("below_threshold", "bool"),
    Output("fabric_penalty", "multiplier"),
)

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_DENSE,
        GPU,
        Input("parallelism", "choice", "tp", choices=PARALLELISMS),
        Input("gpus_per_node", "int", 8, unit="gpus", min=1, max=64),
        Input("nodes", "int", 1, unit="nodes", min=1, max=1024),
        FABRIC,
        Input("nics_per_node", "int", A.DEFAULT_NICS_PER_NODE, unit="nics", min=1, max=16),
        Input("seq_len", "int", A.DEFAULT_SEQ_LEN, unit="tokens", min=1, max=1_048_576),
        Input("micro_batch", "int", A.DEFAULT_MICRO_BATCH, unit="sequences", min=1, max=1024),
        Input("grad_accum", "int", A.DEFAULT_GRAD_ACCUM, unit="micro_batches", min=1, max=4096),
        Input("mfu", "float", A.DEFAULT_MFU, unit="ratio", min=0.01, max=1.0),
        Input("pcie_placement", "choice", "switch", choices=PCIE_PLACEMENTS),
    ),
    outputs=(
        Output("gpus", "count", "gpus"),
        Output("efficiency", "ratio", "ratio"),
        Output("efficiency_low", "ratio", "ratio"),
        Output("efficiency_high", "ratio", "ratio"),
        Output("verdict_changes_in_range", "bool"),
        Output("efficiency_compute_low", "ratio", "ratio"),
        Output("speedup", "multiplier"),
        Output("comm_share", "ratio", "ratio"),
        Output("bubble_share", "ratio", "ratio"),
        Output("below_threshold", "bool"),
        Output("threshold", "ratio", "ratio"),
        Output("fabric_penalty", "multiplier"),
        Output("intra_link", "key"),
        Output("intra_bandwidth_gbs", "float", "gb_per_s"),
        Output("fabric_bandwidth_gbs", "float", "gb_per_s"),
        Output("achieved_tflops", "float", "tflops"),
        Output("step_ms", "float", "ms"),
        Output("compute_ms", "float", "ms"),
        Output("comm_ms", "float", "ms"),
        Output("bubble_ms", "float", "ms"),
        Output("state_gb_per_gpu", "gb", "gb"),
        Output("gpu_memory_gb", "gb", "gb"),
        Output("state_fits", "bool"),
        Output("series", "list", None, SERIES_FIELDS),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("efficiency", "efficiency_range", "speedup", "comm_share", "fabric_penalty"),
    ranges=(Range("efficiency_range", "efficiency_low", "efficiency_high", "ratio"),),
    figure="scaling_chart",
)


def allreduce_s(nbytes: float, g: int, nodes: int, intra: Fabric, inter: Fabric, nics: int) -> float:
    """Seconds for an all-reduce of ``nbytes`` over g GPUs x ``nodes`` nodes."""
    t = 0.0
    if g > 1:  # ring inside the box, or reduce-scatter + all-gather before/after the network
        t += 2 * (g - 1) / g * nbytes / (intra.bandwidth_gbs * 1e9) + 2 * (g - 1) * intra.latency_us * 1e-6
    if nodes > 1:
        node_bw = min(nics, g) * inter.bandwidth_gbs * 1e9
        t += 2 * (nodes - 1) / nodes * nbytes / node_bw + 2 * (nodes - 1) * inter.latency_us * 1e-6
    return t


def step(model: Model, gpu: Gpu, parallelism: str, g: int, nodes: int, inter: Fabric,
         nics: int, seq_len: int, micro_batch: int, grad_accum: int, mfu: float,
         intra_factor: float = 1.0, placement: str = "switch") -> dict[str, float]:
    """Unrounded per-optimizer-step times (seconds) and efficiency for one configuration.

    ``intra_factor`` scales the in-box link's bandwidth (the uncertainty range);
    ``placement`` is the PCIe topology (``intra_link``).
    """
    intra = intra_link(gpu, placement)
    if intra_factor != 1.0:
        intra = dataclasses.replace(intra, bandwidth_gbs=intra.bandwidth_gbs * intra_factor)
    n = g * nodes
    flops = mfu * gpu.bf16_tflops * 1e12
    tokens = seq_len * micro_batch
    work = A.FLOPS_PER_PARAM_TOKEN * model.active_params_b * 1e9 * tokens  # FLOPs per micro-batch
    act_bytes = tokens * model.hidden * A.ACT_ELEMENT_BYTES
    m = grad_accum
    bubble = 0.0
    if parallelism == "dp":
        compute = m * work / flops
        comm = allreduce_s(A.GRAD_BYTES * model.params_b * 1e9, g, nodes, intra, inter, nics)
    elif parallelism == "tp":
        compute = m * work / (n * flops)
        per_layer = allreduce_s(act_bytes, g, nodes, intra, inter, nics)
        comm = m * A.TP_ALLREDUCES_PER_LAYER * model.layers * per_layer
    else:
        stages = n if parallelism == "pp" else nodes
        tp = 1 if parallelism == "pp" else g
        t_mb = work / (n * flops)
        per_layer = allreduce_s(act_bytes, tp, 1, intra, inter, nics)
        t_tp = A.TP_ALLREDUCES_PER_LAYER * model.layers / stages * per_layer
        if stages == 1:
            t_p2p = 0.0
        elif nodes > 1:  # the slowest stage boundary crosses the network
            bw = min(nics, tp) * inter.bandwidth_gbs * 1e9
            t_p2p = 2 * (act_bytes / bw + inter.latency_us * 1e-6)
        else:
            t_p2p = 2 * (act_bytes / (intra.bandwidth_gbs * 1e9) + intra.latency_us * 1e-6)
        slots = m + stages - 1
        compute = m * t_mb
        comm = slots * (t_tp + t_p2p)
        bubble = (stages - 1) * t_mb
    total = compute + comm + bubble
    return {"compute": compute, "comm": comm, "bubble": bubble, "total": total,
            "efficiency": compute / total, "gpus": n, "flops": flops}


def intra_link(gpu: Gpu, placement: str = "switch") -> Fabric:
    """The in-box link of ``gpu``, at the bandwidth of its PCIe ``placement`` (NVLink: as catalogued)."""
    link = FABRIC_BY_ID[gpu.link]
    if placement == "cross_socket" and gpu.link.startswith("pcie"):
        return dataclasses.replace(link, bandwidth_gbs=pcie_allreduce_gbs(int(gpu.link[-1]), "cross_socket"))
    return link


def intra_range_factors(gpu: Gpu, placement: str = "switch") -> tuple[float, float]:
    """(low, high) factors on the in-box bandwidth for the uncertainty range."""
    if placement == "cross_socket" and gpu.link.startswith("pcie"):
        central = intra_link(gpu, placement).bandwidth_gbs
        low, high = pcie_allreduce_range_gbs(int(gpu.link[-1]), "cross_socket")
        return low / central, high / central
    return A.INTRA_BANDWIDTH_RANGE


def _row(model: Model, gpu: Gpu, inp: Mapping[str, Any], g: int, nodes: int,
         fabric_id: str) -> dict[str, Any]:
    inter = FABRIC_BY_ID[fabric_id]
    s = step(model, gpu, inp["parallelism"], g, nodes, inter, inp["nics_per_node"],
             inp["seq_len"], inp["micro_batch"], inp["grad_accum"], inp["mfu"],
             placement=inp.get("pcie_placement", "switch"))
    intra_bw = intra_link(gpu, inp.get("pcie_placement", "switch")).bandwidth_gbs
    shown = fabric_id if nodes > 1 else gpu.link
    eff = s["efficiency"]
    return {
        "gpus_per_node": g,
        "nodes": nodes,
        "gpus": s["gpus"],
        "fabric": shown,
        "efficiency": sig(eff),
        "speedup": r(eff * s["gpus"], 3),
        "comm_share": sig(s["comm"] / s["total"]),
        "below_threshold": sig(eff) < A.EFFICIENCY_THRESHOLD,  # the efficiency as reported
        "fabric_penalty": r(intra_bw / (FABRIC_BY_ID[shown].bandwidth_gbs if nodes > 1 else intra_bw), 3),
    }


TABLE_CONFIGS: tuple[tuple[int, int, str | None], ...] = (
    (1, 1, None), (2, 1, None), (4, 1, None), (8, 1, None),
    *((4, 2, f) for f in INTER_NODE_TABLE),
    *((8, 2, f) for f in INTER_NODE_TABLE),
)


def _series(model: Model, gpu: Gpu, inp: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [_row(model, gpu, inp, g, nodes, f or gpu.link) for g, nodes, f in TABLE_CONFIGS]


def table(inputs: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The article's missing efficiency table for these inputs.

    Rows: 1 GPU; 2, 4, 8 GPUs in one box; 2 x 4 and 2 x 8 GPUs over each
    inter-node fabric (ib-400, ib-200, eth-100, eth-25). ``gpus_per_node``,
    ``nodes`` and ``fabric`` in ``inputs`` are ignored (each row sets them).
    Raises ValueError with the error list if the inputs are invalid.
    """
    inp, errors = normalize(SPEC, dict(inputs or {}))
    if errors:
        raise ValueError(errors)
    return _series(resolve_model(inp), GPU_BY_ID[inp["gpu"]], inp)


def efficiency(inp: Mapping[str, Any], model: Model) -> float:
    """Unrounded efficiency for normalized inputs (used by `decision`)."""
    s = step(model, GPU_BY_ID[inp["gpu"]], inp["parallelism"], inp["gpus_per_node"], inp["nodes"],
             FABRIC_BY_ID[inp["fabric"]], inp["nics_per_node"], inp["seq_len"], inp["micro_batch"],
             inp["grad_accum"], inp["mfu"], placement=inp.get("pcie_placement", "switch"))
    return s["efficiency"]


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run scaling on normalized inputs."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    g, nodes = inp["gpus_per_node"], inp["nodes"]
    placement = inp["pcie_placement"]
    intra = intra_link(gpu, placement)
    inter = FABRIC_BY_ID[inp["fabric"]]
    s = step(model, gpu, inp["parallelism"], g, nodes, inter, inp["nics_per_node"],
             inp["seq_len"], inp["micro_batch"], inp["grad_accum"], inp["mfu"], placement=placement)
    eff = s["efficiency"]
    below = sig(eff) < A.EFFICIENCY_THRESHOLD  # the efficiency as reported: 0.59996 is shown, and counts, as 0.6
    low, high = efficiency_range(model, gpu, inp, inter)
    fast = step(model, gpu, inp["parallelism"], g, nodes, inter, inp["nics_per_node"], inp["seq_len"],
                inp["micro_batch"], inp["grad_accum"], max(inp["mfu"], A.PUBLISHED_MFU_MAX),
                placement=placement)["efficiency"]
    weights, grads, optimizer, _ = state_gb(model, "full", 0)
    shards = 1 if inp["parallelism"] == "dp" else s["gpus"]
    per_gpu = (weights + grads + optimizer) / shards
    state_fits = per_gpu <= gpu.memory_gb
    changes = (low < A.EFFICIENCY_THRESHOLD) != (high < A.EFFICIENCY_THRESHOLD)
    values = {
        "gpus": s["gpus"],
        "efficiency": sig(eff),
        "efficiency_low": sig(low),
        "efficiency_high": sig(high),
        "verdict_changes_in_range": changes,
        "efficiency_compute_low": sig(fast),
        "speedup": r(eff * s["gpus"], 3),
        "comm_share": sig(s["comm"] / s["total"]),
        "bubble_share": sig(s["bubble"] / s["total"]),
        "below_threshold": below,
        "threshold": A.EFFICIENCY_THRESHOLD,
        "fabric_penalty": r(intra.bandwidth_gbs / inter.bandwidth_gbs, 3),
        "intra_link": gpu.link,
        "intra_bandwidth_gbs": intra.bandwidth_gbs,
        "fabric_bandwidth_gbs": inter.bandwidth_gbs,
        "achieved_tflops": r(s["flops"] / 1e12, 2),
        "step_ms": r(s["total"] * 1e3, 3),
        "compute_ms": r(s["compute"] * 1e3, 3),
        "comm_ms": r(s["comm"] * 1e3, 3),
        "bubble_ms": r(s["bubble"] * 1e3, 3),
        "state_gb_per_gpu": r(per_gpu, 2),
        "gpu_memory_gb": gpu.memory_gb,
        "state_fits": state_fits,
        "series": _series(model, gpu, inp),
    }
    notes = model_notes(model, inp, raw)
    if nodes == 1:
        notes.append(note("fabric_unused_single_node", fabric=inp["fabric"], intra_link=gpu.link))
    elif inp["parallelism"] == "tp":
        notes.append(note("tp_across_nodes", nodes=nodes))
    if not state_fits:
        notes.append(note("state_exceeds_gpu_memory", state_gb_per_gpu=r(per_gpu, 2),
                          memory_gb=gpu.memory_gb))
    if changes:
        notes.append(note("verdict_depends_on_bandwidth", efficiency_low=sig(low), efficiency_high=sig(high),
                          threshold=A.EFFICIENCY_THRESHOLD))
    if not below and fast < A.EFFICIENCY_THRESHOLD:
        notes.append(note("verdict_depends_on_compute", efficiency_compute_low=sig(fast),
                          mfu=max(inp["mfu"], A.PUBLISHED_MFU_MAX), threshold=A.EFFICIENCY_THRESHOLD))
    verdict = "does_not_fit" if not state_fits else "restructure" if below else "scales"
    return {"values": values, "verdict": verdict, "notes": notes}


def efficiency_range(model: Model, gpu: Gpu, inp: Mapping[str, Any], inter: Fabric) -> tuple[float, float]:
    """Unrounded (low, high) efficiency with the achieved bandwidths at the ends of their ranges."""
    ends = []
    placement = inp.get("pcie_placement", "switch")
    for intra_f, inter_f in zip(intra_range_factors(gpu, placement), A.INTER_BANDWIDTH_RANGE, strict=True):
        fabric = dataclasses.replace(inter, bandwidth_gbs=inter.bandwidth_gbs * inter_f)
        ends.append(step(model, gpu, inp["parallelism"], inp["gpus_per_node"], inp["nodes"], fabric,
                         inp["nics_per_node"], inp["seq_len"], inp["micro_batch"], inp["grad_accum"],
                         inp["mfu"], intra_f, placement)["efficiency"])
    return ends[0], ends[1]
