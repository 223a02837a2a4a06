"""scaling: throughput per GPU of a training step against a single-GPU baseline.

Model (no compute/communication overlap; every assumption in assumptions.py):
- compute per micro-batch: 6 x P_active x tokens FLOPs, at mfu x the GPU's
  training peak (catalog ``training_tflops``: dense BF16 with FP32 accumulate,
  half the headline rate on GeForce cards)
- ring all-reduce of S bytes over n GPUs at bandwidth B, latency a per step
  (NCCL-tests PERFORMANCE.md, busbw = algbw x 2(n-1)/n):
      t = 2(n-1)/n x S/B + 2(n-1) x a
- across nodes, hierarchical: reduce-scatter + all-gather inside each node
  (2(g-1)/g x S/B_box) and an all-reduce between the N nodes over the node's
  NICs (2(N-1)/N x S/(min(nics, g) x B_fabric)), phases not overlapped
- tp: 4 all-reduces of b x s x h x 2 bytes per layer per micro-batch (Megatron)
- dp: one all-reduce of the BF16 gradients (2 x P bytes) per optimizer step
- fsdp: fully sharded data parallel (ZeRO-3 / PyTorch FSDP): per micro-batch,
  all-gather the weights for the forward and again for the backward pass and
  reduce-scatter the gradients, 1.5 x DDP's traffic (ZeRO paper,
  arXiv:1910.02054, sec. 7.2.2; FSDP paper, arXiv:2304.11277), one collective
  per layer each; the state sharded over every GPU (16 P / n bytes each)
- pp: one stage per GPU, at most one per layer (the rest data-parallel replicas
  of the pipeline), GPipe/1F1B bubble (p-1)/(m+p-1) with m = grad_accum
  micro-batches (Narayanan et al. 2021, arXiv:2104.04473), plus a
  b x s x h x 2-byte send forward and backward per micro-batch
- tp_pp: tensor parallel inside each node, pipeline stages across nodes (at
  most one per layer; replicas over the rest)
- nics_per_node 0: the GPU's usual server (``default_nics``: 8 on an SXM/HGX
  board, one NIC per GPU; 2 in a PCIe box, the calibration)
The general model, ``layout_step``, runs any TP x PP x DP ``Layout`` (ranks in
Llama 3's order [TP, PP, DP]), with the interleaved schedule, ZeRO sharding
of the DP group and, for ``training_time``, the DP traffic overlapped with the
backward pass as DDP and FSDP schedule it.
efficiency = useful compute time / step time, speedup = efficiency x GPUs.
Verdict: ``does_not_fit`` when the training state (16 B/param; replicated over
plain dp and the pipeline replicas, sharded otherwise:
``training_memory.layout_state_gb``) does not fit one GPU's memory: the layout cannot
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
from dataclasses import dataclass
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
from .catalog.gpus import GPU_BY_ID, Gpu, training_tflops
from .catalog.models import CUSTOM, Model, resolve_model
from .common import FABRIC, GPU, MODEL_INPUTS_DENSE, r, sig
from .inputs import normalize
from .spec import CalculatorSpec, Input, Output, Range, note
from .training_memory import layout_state_gb
from .vram_fit import model_notes

PARALLELISMS = ("tp", "dp", "fsdp", "pp", "tp_pp")
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

# Network cards per node: 0 = the GPU's usual server (``default_nics``: 8 on an SXM board, 2 in a
# PCIe box). Every calculator that projects a step across nodes takes it.
NICS_PER_NODE = Input("nics_per_node", "int", 0, unit="nics", min=0, max=16)

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
        NICS_PER_NODE,
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
        Output("nics_per_node", "count", "nics"),
        Output("tp_degree", "count", "gpus"),
        Output("pp_degree", "count", "gpus"),
        Output("dp_degree", "count", "gpus"),
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


def default_nics(gpu: Gpu) -> int:
    """Network cards per node of ``gpu``'s usual server: 8 on an SXM (HGX/DGX) board, else 2.

    An 8-GPU HGX/DGX node has one NIC per GPU (assumptions.NICS_PER_NODE_HGX: DGX H100/H200 and
    B200 "eight single-port NVIDIA ConnectX-7 VPI, up to 400 Gb/s", DGX A100 eight ConnectX-6
    200 Gb/s); a PCIe box the article's two (assumptions.DEFAULT_NICS_PER_NODE, the calibration).
    """
    return A.NICS_PER_NODE_HGX if gpu.link.startswith("nvlink") else A.DEFAULT_NICS_PER_NODE


def resolve_nics(gpu: Gpu, nics: int) -> int:
    """``nics`` per node, or the GPU's usual server's (``default_nics``) when 0."""
    return nics if nics > 0 else default_nics(gpu)


@dataclass(frozen=True)
class Layout:
    """How ``tp`` x ``pp`` x ``dp`` GPUs split a training step.

    Ranks are ordered [TP, PP, DP] (Llama 3, arXiv:2407.21783, sec. 3.3.2 and Figure 5:
    the innermost dimension needs the most bandwidth): a TP group is ``tp`` neighbouring
    GPUs (in one box when ``tp`` <= GPUs per node), a pipeline ``tp`` x ``pp`` of them, and
    the ``dp`` replicas of the pipeline the outermost dimension. ``sharding`` is what the
    data-parallel group shards: ``none`` (plain DDP: every replica holds the 16 B/param),
    ``optimizer`` (gradients and optimizer states, ZeRO-2; Megatron-LM's distributed
    optimizer and Llama 3's FSDP without resharding after forward: the same traffic as
    DDP) or ``full`` (weights too: ZeRO-3 / PyTorch FSDP). ``virtual``: model chunks per
    pipeline stage (the interleaved schedule).
    """

    tp: int = 1
    pp: int = 1
    dp: int = 1
    sharding: str = "none"
    virtual: int = 1

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.dp


SHARDINGS = ("none", "optimizer", "full")


def _dp_collective_s(nbytes: float, lay: Layout, g: int, intra: Fabric, inter: Fabric, nics: int,
                     share: float = 1.0) -> tuple[float, float]:
    """(bandwidth seconds, latency seconds) of one all-reduce of ``nbytes`` over the ``dp`` replicas.

    The DP group's members are ``tp`` x ``pp`` ranks apart: ``k`` of them share a box
    (a ring there), the rest sit in ``dp / k`` boxes, reached over the box's NICs, which
    the box's ``g / k`` concurrent DP groups share. ``share`` scales the volume: 0.5 is an
    all-gather or a reduce-scatter (half an all-reduce, NCCL-tests PERFORMANCE.md).
    """
    stride = lay.tp * lay.pp
    k = max(1, min(lay.dp, g // stride)) if stride < g else 1
    boxes = max(1, lay.dp // k)
    bw_t = lat_t = 0.0
    if k > 1:
        bw_t += 2 * (k - 1) / k * nbytes / (intra.bandwidth_gbs * 1e9)
        lat_t += 2 * (k - 1) * intra.latency_us * 1e-6
    if boxes > 1:
        group_bw = min(nics, g) * k / g * inter.bandwidth_gbs * 1e9
        bw_t += 2 * (boxes - 1) / boxes * nbytes / group_bw
        lat_t += 2 * (boxes - 1) * inter.latency_us * 1e-6
    return bw_t * share, lat_t * share


# Attention in a training step (training_time): QK^T and AV are 2 matrix multiplications forward and
# 4 backward of seq_len x width each per layer and token, at 2 FLOPs per multiply-add: 12 x layers x
# width x seq_len FLOPs per token on top of 6 x P, causal masking not subtracted. The convention MFU is
# published in: PaLM (Chowdhery et al. 2022, arXiv:2204.02311, Appendix B: 6N + 12LHQT), Meta's
# torchtitan (pytorch/torchtitan torchtitan/utils.py, get_num_flop_per_token: "6 * num_params + 12 * l
# * h * q * t"), MosaicML's llm-foundry (scripts/train/benchmarking/README.md, attn_flops_per_seq) and
# NVIDIA's NeMo recipes (NVIDIA/dgxc-benchmarking llama3.1/README_70b.md, the (sequence length) /
# (hidden size) term). At 8,192 tokens it adds 27 % to Llama 3.1 8B's 6 P, 15 % to 70B's, 8 % to 405B's.
ATTENTION_FLOPS_PER_LAYER_WIDTH_TOKEN = 12


def attention_width(model: Model) -> int:
    """heads x head_dim, the width QK^T and AV run over; a custom model's: its (estimated) hidden size.

    scaling and training_time take no ``heads`` for a custom model (MODEL_INPUTS_DENSE), and a dense
    decoder's query width is its hidden size (Llama 2, MPT, BLOOM: heads x 128 = hidden).
    """
    return model.hidden if model.id == CUSTOM else model.heads * model.head_dim


def training_flops_per_token(model: Model, seq_len: int, attention: bool = True) -> float:
    """FLOPs one token costs in a training step: 6 x P_active, plus attention's at ``seq_len`` tokens."""
    flops = A.FLOPS_PER_PARAM_TOKEN * model.active_params_b * 1e9
    if attention:
        flops += ATTENTION_FLOPS_PER_LAYER_WIDTH_TOKEN * model.layers * attention_width(model) * seq_len
    return flops


def layout_step(model: Model, gpu: Gpu, lay: Layout, g: int, nodes: int, inter: Fabric, nics: int,
                seq_len: int, micro_batch: int, micro_batches: float, mfu: float,
                intra_factor: float = 1.0, placement: str = "switch", precision: str = "bf16",
                overlap_dp: bool = False, recompute_share: float = 0.0,
                attention: bool = False) -> dict[str, float]:
    """Unrounded per-optimizer-step times (seconds) and efficiency of one layout.

    Each of the ``dp`` replicas runs ``micro_batches`` micro-batches of ``micro_batch`` x
    ``seq_len`` tokens per step. Compute: 6 x P_active FLOPs per token at ``mfu`` x the
    GPU's training peak (catalog ``training_tflops``: FP32 accumulate). Exposed
    communication (not overlapped): Megatron TP's 4 all-reduces of b x s x h x 2 bytes per
    layer; two pipeline sends per micro-batch and model chunk over the slowest stage
    boundary; the pipeline bubble (pp - 1) / virtual micro-batch slots (Narayanan et al.
    2021, arXiv:2104.04473, sec. 2.2: the interleaved schedule divides it by the chunks per
    stage; Llama 3's "(PP - 1) / (V * M)", arXiv:2407.21783, sec. 3.3.2); and the DP
    gradient traffic: one all-reduce of 2 x P / (tp x pp) bytes per step for ``none`` and
    ``optimizer`` (ZeRO-2's reduce-scatter + all-gather move the same volume, ZeRO paper
    arXiv:1910.02054, sec. 7.2.1), and per micro-batch two all-gathers of the weights
    (forward and backward) and a reduce-scatter of the gradients for ``full`` (1.5 x DDP's
    volume, sec. 7.2.2; PyTorch FSDP, arXiv:2304.11277, sec. 3.2), one collective per layer
    each (FSDP wraps each transformer block). With ``overlap_dp`` the DP traffic hides
    behind compute as the frameworks schedule it (DDP's bucketed all-reduce during the
    backward pass, arXiv:2006.15704, sec. 3.2.3; FSDP's forward and backward prefetch,
    arXiv:2304.11277, sec. 3.3): only what exceeds the backward pass (``none``,
    ``optimizer``), or the forward pass and the backward pass of each micro-batch
    (``full``), is exposed. ``recompute_share``: the share of layers whose activations are
    recomputed in the backward pass (one more forward pass of them: 2 of the 6 FLOPs per
    parameter and token), time that does no useful work. ``attention``: the compute counts
    attention's FLOPs too (``training_flops_per_token``; training_time); scaling's own widget
    keeps the article's 6 x P.
    """
    intra = intra_link(gpu, placement)
    if intra_factor != 1.0:
        intra = dataclasses.replace(intra, bandwidth_gbs=intra.bandwidth_gbs * intra_factor)
    n = g * nodes
    flops = mfu * training_tflops(gpu, precision) * 1e12
    tokens = seq_len * micro_batch
    work = training_flops_per_token(model, seq_len, attention) * tokens  # FLOPs per micro-batch
    act_bytes = tokens * model.hidden * A.ACT_ELEMENT_BYTES
    m = micro_batches
    t, p, v = lay.tp, lay.pp, max(1, lay.virtual)
    t_mb = work / (t * p * flops)  # one micro-batch on one pipeline rank
    if t == 1:
        t_tp = 0.0
    elif t <= g:  # in the box
        t_tp = A.TP_ALLREDUCES_PER_LAYER * model.layers / p * allreduce_s(act_bytes, t, 1, intra, inter, nics)
    else:  # the TP group spans boxes: hierarchical all-reduce
        t_tp = A.TP_ALLREDUCES_PER_LAYER * model.layers / p * allreduce_s(act_bytes, g, t // g, intra, inter,
                                                                           nics)
    if p == 1:
        t_p2p = 0.0
    elif t * p > g:  # the pipeline spans boxes: its slowest boundary crosses the network
        bw = min(nics, t) * inter.bandwidth_gbs * 1e9
        t_p2p = 2 * v * (act_bytes / bw + inter.latency_us * 1e-6)
    else:
        t_p2p = 2 * v * (act_bytes / (intra.bandwidth_gbs * 1e9) + intra.latency_us * 1e-6)
    slots = m + (p - 1) / v
    compute = m * t_mb
    comm_tp = slots * t_tp
    comm_p2p = slots * t_p2p
    bubble = (p - 1) / v * t_mb
    comm_dp = 0.0
    if lay.dp > 1:
        grad_bytes = A.GRAD_BYTES * model.params_b * 1e9 / (t * p)
        if lay.sharding == "full":
            bw_s, lat_s = _dp_collective_s(grad_bytes, lay, g, intra, inter, nics, 0.5)
            collective = bw_s + lat_s * model.layers / p  # one all-gather (or reduce-scatter) per layer
            if overlap_dp:
                per_mb = max(0.0, collective - t_mb / 3) + max(0.0, 2 * collective - 2 * t_mb / 3)
            else:
                per_mb = A.FSDP_COLLECTIVES_PER_MICRO_BATCH * collective
            comm_dp = m * per_mb
        else:
            bw_s, lat_s = _dp_collective_s(grad_bytes, lay, g, intra, inter, nics)
            comm_dp = bw_s + lat_s
            if overlap_dp:
                comm_dp = max(0.0, comm_dp - 2 * t_mb / 3)
    comm = comm_tp + comm_p2p + comm_dp
    recompute = compute * recompute_share * A.FORWARD_FLOPS_PER_PARAM_TOKEN / A.FLOPS_PER_PARAM_TOKEN
    total = compute + comm + bubble + recompute
    return {"compute": compute, "comm": comm, "comm_tp": comm_tp, "comm_p2p": comm_p2p, "comm_dp": comm_dp,
            "bubble": bubble, "recompute": recompute, "total": total, "efficiency": compute / total, "gpus": n,
            "flops": flops}


def largest_divisor_at_most(n: int, cap: int) -> int:
    """The largest divisor of ``n`` that is at most ``cap`` (at least 1)."""
    best = 1
    i = 1
    while i * i <= n:
        if n % i == 0:
            for d in (i, n // i):
                if best < d <= cap:
                    best = d
        i += 1
    return best


def scaling_layout(model: Model, parallelism: str, g: int, nodes: int) -> Layout:
    """The layout ``scaling``'s ``parallelism`` runs on g GPUs x ``nodes`` nodes.

    ``tp``: one tensor-parallel group over every GPU (across the boxes when ``nodes`` > 1:
    the article's case against it); ``dp``: plain data parallel; ``fsdp``: fully sharded
    data parallel (ZeRO-3) over every GPU; ``pp``: one pipeline stage per GPU, at most one
    per layer (the rest data-parallel replicas of the pipeline); ``tp_pp``: TP inside each
    box, one stage per box, at most one per layer.
    """
    n = g * nodes
    if parallelism == "dp":
        return Layout(dp=n)
    if parallelism == "fsdp":
        return Layout(dp=n, sharding="full")
    if parallelism == "tp":
        return Layout(tp=n)
    if parallelism == "pp":
        p = largest_divisor_at_most(n, model.layers)
        return Layout(pp=p, dp=n // p)
    p = largest_divisor_at_most(nodes, model.layers)
    return Layout(tp=g, pp=p, dp=nodes // p)


def step(model: Model, gpu: Gpu, parallelism: str, g: int, nodes: int, inter: Fabric,
         nics: int, seq_len: int, micro_batch: int, grad_accum: int, mfu: float,
         intra_factor: float = 1.0, placement: str = "switch") -> dict[str, float]:
    """Unrounded per-optimizer-step times (seconds) and efficiency for one configuration.

    ``intra_factor`` scales the in-box link's bandwidth (the uncertainty range);
    ``placement`` is the PCIe topology (``intra_link``). ``nics`` 0 is the GPU's
    usual server's (``default_nics``). No overlap of compute and communication.
    """
    lay = scaling_layout(model, parallelism, g, nodes)
    return layout_step(model, gpu, lay, g, nodes, inter, resolve_nics(gpu, nics), seq_len, micro_batch,
                       grad_accum, mfu, intra_factor, placement)


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
    lay = scaling_layout(model, inp["parallelism"], g, nodes)
    per_gpu = layout_state_gb(model, lay.tp, lay.pp, lay.dp, lay.sharding)
    state_fits = per_gpu <= gpu.memory_gb
    changes = (sig(low) < A.EFFICIENCY_THRESHOLD) != (sig(high) < A.EFFICIENCY_THRESHOLD)  # as shown, like `below`
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
        "nics_per_node": resolve_nics(gpu, inp["nics_per_node"]),
        "tp_degree": lay.tp,
        "pp_degree": lay.pp,
        "dp_degree": lay.dp,
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
