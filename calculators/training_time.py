"""training_time: how long a training run of ``tokens_t`` trillion tokens takes, and what it draws.

- work = (6 x P_active + 12 x layers x width x seq_len) x D FLOPs: 6 x P per token
  (Kaplan et al. 2020; FLOPS_PER_PARAM_TOKEN) and attention's QK^T and AV at the run's
  sequence length (``scaling.training_flops_per_token``, the PaLM convention MFU is published
  in), D = tokens_t x 1e12
- the layout: the GPUs split as practitioners run a training job (``layouts``):
  tensor parallelism inside a box (a degree that divides the attention heads and
  the box's GPUs), pipeline stages across boxes (at most one per layer, one layer
  per interleaved model chunk), data parallelism over the rest, with gradients
  and optimizer states sharded (ZeRO-2); or plain DDP (``dp``) or fully sharded
  data parallel (``fsdp``, ZeRO-3). ``auto`` (the default) takes the layout the
  model projects fastest among those whose state and activations fit the GPUs and
  whose replicas each get at least one sequence of the global batch; Llama 3 405B
  on 16,384 H100 ran TP 8 x PP 16 x DP 128 (arXiv:2407.21783, Table 4).
- per GPU = training peak (catalog ``training_tflops``: dense, FP32 accumulate) x
  mfu x efficiency, where efficiency is ``scaling.layout_step``'s for that layout:
  ``global_batch`` sequences of ``seq_len`` tokens per optimizer step, the
  pipeline bubble, TP and pipeline traffic exposed, data-parallel traffic hidden
  behind the backward pass as far as it fits (overlap, as DDP and FSDP schedule it)
- seconds = work / (gpus x per GPU); gpu_hours = gpus x hours;
  gpu_months = gpu_hours / 730; days = seconds / 86,400
- gpus: the GPUs asked for, rounded up to whole nodes (note ``gpus_rounded_to_nodes``)
- range: *_low / *_high: GPU-hours and days x 0.43 / 0.52 and x 0.43 / 0.25, the published
  whole-run MFUs (assumptions.TRAINING_MFU_RANGE) around the calibration run's 43 %
- power: node_kw per node (power.py), cluster_kw, energy_mwh over the run.
``mfu`` is the share of the training peak the GPUs reach while computing; its
default is calibrated so that Llama 3 405B's layout on 8,192 H100 reaches the
43 % MFU Meta measured over whole steps (Table 4; ``mfu_achieved`` = mfu x
efficiency is that whole-step figure, attention's FLOPs counted as useful work).
"""

import math
from typing import Any

from . import assumptions as A
from .catalog.fabrics import FABRIC_BY_ID, Fabric
from .catalog.gpus import GPU_BY_ID, Gpu, training_tflops
from .catalog.models import MODEL_BY_ID, Model, resolve_model
from .common import GPU, MODEL_INPUTS_DENSE, r, sig
from .power import node_kw
from .scaling import NICS_PER_NODE, Layout, layout_step, resolve_nics, training_flops_per_token
from .spec import CalculatorSpec, Input, Output, Range, note
from .training_memory import gathered_unit_gb, layout_activations_gb, layout_state_gb
from .vram_fit import model_notes

VERDICTS = ("within_a_month", "months", "years")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident", "gpus_rounded_to_nodes",
         "state_exceeds_gpu_memory", "batch_below_dp")
DAYS_PER_MONTH = A.HOURS_PER_MONTH / 24
# ``auto``: the fastest layout that fits; the others as named (scaling's names, in a box and across).
LAYOUTS = ("auto", "dp", "fsdp", "tp", "pp", "tp_pp")
# Training precision of the matrix multiplications: the catalog's training rates.
TRAINING_PRECISIONS = ("bf16", "fp8")

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_DENSE,
        Input("tokens_t", "float", 15.0, unit="trillion_tokens", min=0.001, max=1000.0),
        GPU,
        Input("gpus", "int", 64, unit="gpus", min=1, max=100_000),
        Input("gpus_per_node", "int", 8, unit="gpus", min=1, max=64),
        Input("fabric", "choice", "ib-400", choices=tuple(FABRIC_BY_ID)),
        NICS_PER_NODE,
        Input("parallelism", "choice", "auto", choices=LAYOUTS),
        Input("seq_len", "int", A.PRETRAIN_SEQ_LEN, unit="tokens", min=1, max=1_048_576),
        Input("global_batch", "int", A.PRETRAIN_GLOBAL_BATCH, unit="sequences", min=1, max=1_048_576),
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
        Output("layout", "key"),
        Output("tp_degree", "count", "gpus"),
        Output("pp_degree", "count", "gpus"),
        Output("dp_degree", "count", "gpus"),
        Output("virtual_stages", "count", None),
        Output("micro_batches", "float", "micro_batches"),
        Output("nics_per_node", "count", "nics"),
        Output("efficiency", "ratio", "ratio"),
        Output("mfu_achieved", "ratio", "ratio"),
        Output("comm_share", "ratio", "ratio"),
        Output("bubble_share", "ratio", "ratio"),
        Output("recompute_share", "ratio", "ratio"),
        Output("memory_gb_per_gpu", "gb", "gb"),
        Output("gpu_memory_gb", "gb", "gb"),
        Output("layout_fits", "bool"),
        Output("peak_tflops", "float", "tflops"),
        Output("achieved_tflops", "float", "tflops"),
        Output("total_flops", "float", "flops"),
        Output("node_kw", "float", "kw"),
        Output("cluster_kw", "float", "kw"),
        Output("energy_mwh", "float", "mwh"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("gpu_months", "gpu_months_range", "days", "gpus", "layout", "efficiency", "mfu_achieved",
           "cluster_kw", "energy_mwh"),
    ranges=(Range("gpu_months_range", "gpu_months_low", "gpu_months_high", "float"),),
)


def layout(gpus: int, gpus_per_node: int) -> tuple[int, int]:
    """(GPUs per node, nodes) that hold ``gpus`` GPUs in whole nodes."""
    if gpus <= gpus_per_node:
        return gpus, 1
    return gpus_per_node, math.ceil(gpus / gpus_per_node)


def gpu_hours(flops_per_token: float, tokens_t: float, peak_tflops: float, mfu: float,
              efficiency: float = 1.0) -> float:
    """GPU-hours of ``flops_per_token`` x D FLOPs at ``peak_tflops`` x mfu x efficiency per GPU."""
    work = flops_per_token * tokens_t * 1e12
    return work / (peak_tflops * 1e12 * mfu * efficiency) / 3600


# --- Layouts as practitioners run them ------------------------------------------------------------

def tp_degrees(model: Model, gpus_per_node: int) -> tuple[int, ...]:
    """Tensor-parallel degrees a box runs: divisors of the box's GPUs that divide the attention heads.

    Megatron-LM splits the heads over the TP ranks (Shoeybi et al. 2019, arXiv:1909.08053,
    sec. 3: "the number of attention heads ... divisible by" the TP size), and keeps TP in the
    box: NVLink carries its per-layer all-reduces (Llama 3, arXiv:2407.21783, sec. 3.3.2: TP 8
    in an 8-GPU server).
    """
    return tuple(t for t in range(1, gpus_per_node + 1) if gpus_per_node % t == 0 and model.heads % t == 0)


def pp_degrees(model: Model, ranks: int) -> tuple[int, ...]:
    """Pipeline depths for ``ranks`` = GPUs / TP: divisors of it, at most one stage per layer."""
    return tuple(p for p in range(1, min(ranks, model.layers) + 1) if ranks % p == 0)


def virtual_stages(model: Model, pp: int) -> int:
    """Model chunks per pipeline stage: one layer per chunk (the interleaved schedule at its finest).

    NVIDIA's recipes interleave to one layer per chunk: Nemotron-4 340B, 96 layers on PP 8 or
    PP 4, VP 12 (NVIDIA/dgxc-benchmarking, nemotron4-340b/README.md); Llama 3 interleaves too
    (arXiv:2407.21783, sec. 3.3.2). ``pp`` 1: no pipeline, 1.
    """
    return max(1, model.layers // pp) if pp > 1 else 1


def name_of(lay: Layout) -> str:
    """The ``parallelism`` id a layout is an instance of."""
    if lay.tp > 1:
        return "tp_pp" if lay.pp > 1 else "tp"
    if lay.pp > 1:
        return "pp"
    return "fsdp" if lay.sharding == "full" else "dp"


def memory_per_gpu_gb(model: Model, lay: Layout, seq_len: int, micro_batches: float,
                      recompute: str = "full") -> float:
    """What one GPU holds (GB): the layout's state, its activations (``recompute``), FSDP's gathered blocks."""
    state = layout_state_gb(model, lay.tp, lay.pp, lay.dp, lay.sharding)
    acts = layout_activations_gb(model, lay.tp, lay.pp, lay.virtual, seq_len, 1, micro_batches, recompute)
    unit = gathered_unit_gb(model, "full") / lay.tp if lay.sharding == "full" and lay.dp > 1 else 0.0
    return state + acts + unit


def candidates(model: Model, n: int, g: int, parallelism: str) -> list[Layout]:
    """The layouts ``parallelism`` allows on n GPUs in boxes of g (``auto``: all of them)."""
    out: list[Layout] = []
    if parallelism in ("auto", "dp"):
        out.append(Layout(dp=n))
    if parallelism in ("auto", "fsdp"):
        out.append(Layout(dp=n, sharding="full"))
    if parallelism in ("auto", "tp", "pp", "tp_pp"):
        tps = tp_degrees(model, g)  # n is whole boxes of g (``layout``)
        if parallelism in ("tp", "tp_pp"):
            tps = (tps[-1],)  # the box's largest degree
        elif parallelism == "pp":
            tps = (1,)
        for t in tps:
            pps = pp_degrees(model, n // t)
            if parallelism == "tp":
                pps = (1,)
            elif parallelism in ("pp", "tp_pp"):
                pps = tuple(p for p in pps if p > 1) or (1,)  # no depth divides the GPUs: no pipeline
            for p in pps:
                if parallelism == "auto" and t == 1 and p == 1:
                    continue  # plain data parallel: dp and fsdp above
                out.append(Layout(tp=t, pp=p, dp=n // (t * p), sharding="optimizer",
                                  virtual=virtual_stages(model, p)))
    return out


def recompute_share(model: Model, gpu: Gpu, lay: Layout, seq_len: int, micro_batches: float) -> tuple[float, float]:
    """(share of layers recomputed, GB per GPU): the fewest layers recomputed for the layout to fit.

    Megatron-LM recomputes the activations of a set number of layers per stage when all
    of them do not fit (``--recompute-granularity full --recompute-method block
    --recompute-num-layers``, NVIDIA/Megatron-LM docs): the share grows linearly from 0
    (every activation kept) to 1 (every layer recomputed); 1 with the memory of full
    recomputation when even that does not fit 90 % of a GPU.
    """
    usable = gpu.memory_gb * (1.0 - A.RUNTIME_RESERVE)
    keep = memory_per_gpu_gb(model, lay, seq_len, micro_batches, "none")
    if keep <= usable:
        return 0.0, keep
    full = memory_per_gpu_gb(model, lay, seq_len, micro_batches, "full")
    if full >= usable:
        return 1.0, full
    return (keep - usable) / (keep - full), usable


def _evaluate(model: Model, gpu: Gpu, lay: Layout, g: int, nodes: int, inter: Fabric, nics: int,
              seq_len: int, global_batch: int, mfu: float, precision: str) -> dict[str, Any]:
    m = max(1.0, global_batch / lay.dp)
    share, mem = recompute_share(model, gpu, lay, seq_len, m)
    s = layout_step(model, gpu, lay, g, nodes, inter, nics, seq_len, 1, m, mfu, precision=precision,
                    overlap_dp=True, recompute_share=share, attention=True)
    usable = gpu.memory_gb * (1.0 - A.RUNTIME_RESERVE)
    return {"layout": lay, "step": s, "micro_batches": m, "memory": mem, "recompute_share": share,
            "fits": mem <= usable, "batch_ok": lay.dp <= global_batch}


def best_layout(model: Model, gpu: Gpu, n: int, g: int, nodes: int, inter: Fabric, nics: int, seq_len: int,
                global_batch: int, mfu: float, parallelism: str = "auto",
                precision: str = "bf16") -> dict[str, Any]:
    """The fastest layout of ``parallelism`` that fits, with its step (``_evaluate``'s dict).

    Preference: fits the GPUs' memory (state + activations under full recomputation,
    90 % of each GPU) and gives every replica at least one sequence of the global batch;
    then the highest efficiency. When none fits, the layout needing the least memory.
    """
    evaluated = [_evaluate(model, gpu, lay, g, nodes, inter, nics, seq_len, global_batch, mfu, precision)
                 for lay in candidates(model, n, g, parallelism)]
    for admissible in (lambda e: e["fits"] and e["batch_ok"], lambda e: e["fits"]):
        ok = [e for e in evaluated if admissible(e)]
        if ok:
            return max(ok, key=lambda e: e["step"]["efficiency"])
    return min(evaluated, key=lambda e: e["memory"])


def pretrain_days(model: Model | str, gpu: Gpu | str, gpus_total: int, gpus_per_node: int, tokens: float,
                  precision: str = "bf16", parallelism: str = "auto", nics_per_node: int = 0,
                  fabric: str = "ib-400", mfu: float = A.TRAINING_MFU, seq_len: int = A.PRETRAIN_SEQ_LEN,
                  global_batch: int = A.PRETRAIN_GLOBAL_BATCH) -> float:
    """Wall-clock days of pretraining on ``tokens`` tokens (e.g. 15e12) at the modelled MFU and efficiency.

    ``gpus_total`` GPUs in boxes of ``gpus_per_node`` (rounded up to whole boxes), on
    ``fabric`` with ``nics_per_node`` NICs (0: the GPU's usual server, ``scaling.default_nics``),
    in the layout ``parallelism`` (default ``auto``: the fastest that fits, as ``training_time``).
    ``precision`` ``fp8`` computes at the catalog's FP8 training rate with the same ``mfu``: an
    optimistic bound, since only the matrix multiplications run in FP8 (mfu is calibrated on BF16).
    """
    model = MODEL_BY_ID[model] if isinstance(model, str) else model
    gpu = GPU_BY_ID[gpu] if isinstance(gpu, str) else gpu
    g, nodes = layout(gpus_total, gpus_per_node)
    best = best_layout(model, gpu, g * nodes, g, nodes, FABRIC_BY_ID[fabric], resolve_nics(gpu, nics_per_node),
                       seq_len, global_batch, mfu, parallelism, precision)
    per_gpu = training_tflops(gpu, precision) * 1e12 * mfu * best["step"]["efficiency"]
    work = training_flops_per_token(model, seq_len) * tokens
    return work / (g * nodes * per_gpu) / 86400


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run training_time on normalized inputs."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    g, nodes = layout(inp["gpus"], inp["gpus_per_node"])
    n = g * nodes
    inter = FABRIC_BY_ID[inp["fabric"]]
    nics = resolve_nics(gpu, inp["nics_per_node"])
    peak = training_tflops(gpu)
    best = best_layout(model, gpu, n, g, nodes, inter, nics, inp["seq_len"], inp["global_batch"], inp["mfu"],
                       inp["parallelism"])
    lay, s, m = best["layout"], best["step"], best["micro_batches"]

    per_token = training_flops_per_token(model, inp["seq_len"])
    hours = gpu_hours(per_token, inp["tokens_t"], peak, inp["mfu"], s["efficiency"])
    fast, slow = (hours * A.LLAMA3_405B_8K_GPUS_MFU / end for end in reversed(A.TRAINING_MFU_RANGE))
    days = hours / n / 24
    kw = node_kw(gpu, g)
    cluster = kw * nodes
    values = {
        "gpu_months": r(hours / A.HOURS_PER_MONTH, 1),
        "gpu_months_low": r(fast / A.HOURS_PER_MONTH, 1),
        "gpu_months_high": r(slow / A.HOURS_PER_MONTH, 1),
        "gpu_hours": r(hours, 0),
        "days": r(days, 1),
        "days_low": r(fast / n / 24, 1),
        "days_high": r(slow / n / 24, 1),
        "gpus": n,
        "nodes": nodes,
        "layout": name_of(lay),
        "tp_degree": lay.tp,
        "pp_degree": lay.pp,
        "dp_degree": lay.dp,
        "virtual_stages": lay.virtual,
        "micro_batches": r(m, 2),
        "nics_per_node": nics,
        "efficiency": sig(s["efficiency"]),
        "mfu_achieved": sig(inp["mfu"] * s["efficiency"]),
        "comm_share": sig(s["comm"] / s["total"]),
        "bubble_share": sig(s["bubble"] / s["total"]),
        "recompute_share": sig(best["recompute_share"]),
        "memory_gb_per_gpu": r(best["memory"], 2),
        "gpu_memory_gb": gpu.memory_gb,
        "layout_fits": best["fits"],
        "peak_tflops": r(peak, 1),
        "achieved_tflops": r(peak * inp["mfu"] * s["efficiency"], 1),
        "total_flops": sig(per_token * inp["tokens_t"] * 1e12),
        "node_kw": r(kw, 2),
        "cluster_kw": r(cluster, 1),
        "energy_mwh": r(cluster * days * 24 / 1000, 1),
    }
    notes = model_notes(model, inp, raw)
    if n != inp["gpus"]:
        notes.append(note("gpus_rounded_to_nodes", gpus=n, nodes=nodes))
    if not best["fits"]:
        notes.append(note("state_exceeds_gpu_memory", state_gb_per_gpu=r(best["memory"], 2),
                          memory_gb=gpu.memory_gb))
    if lay.dp > inp["global_batch"]:
        notes.append(note("batch_below_dp", dp=lay.dp, global_batch=inp["global_batch"]))
    verdict = "within_a_month" if days <= DAYS_PER_MONTH else "months" if days <= 365 else "years"
    return {"values": values, "verdict": verdict, "notes": notes}


def layout_mfu(model: Model | str, gpu: Gpu | str, tp: int, pp: int, dp: int, gpus_per_node: int = 8,
               seq_len: int = A.PRETRAIN_SEQ_LEN, global_batch: int = A.PRETRAIN_GLOBAL_BATCH,
               fabric: str = "ib-400", nics_per_node: int = 0, mfu: float = A.TRAINING_MFU,
               sharding: str = "optimizer", precision: str = "bf16") -> float:
    """Whole-step MFU (mfu x efficiency) of one given TP x PP x DP layout, as published runs report it."""
    model = MODEL_BY_ID[model] if isinstance(model, str) else model
    gpu = GPU_BY_ID[gpu] if isinstance(gpu, str) else gpu
    n = tp * pp * dp
    g, nodes = layout(n, gpus_per_node)
    lay = Layout(tp=tp, pp=pp, dp=dp, sharding=sharding, virtual=virtual_stages(model, pp))
    e = _evaluate(model, gpu, lay, g, nodes, FABRIC_BY_ID[fabric], resolve_nics(gpu, nics_per_node), seq_len,
                  global_batch, mfu, precision)
    return mfu * e["step"]["efficiency"]
