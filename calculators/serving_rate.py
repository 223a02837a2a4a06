"""serving_rate: how fast a replica serves a steady load, the model `throughput` shows and the planner plans with.

Decode steps (memory, compute and tensor-parallel communication), the prefill of each new prompt, and the
rate of a load whose requests are replaced as they end (``served``), with the load a replica holds within
the latency bound (``held_concurrency``). The formulas are described in ``throughput``'s docstring; this
module holds them below both the ``throughput`` calculator and ``planner``, which read them.
"""

from __future__ import annotations

from . import assumptions as A
from .catalog.fabrics import Fabric
from .catalog.gpus import Gpu, tensor_tflops
from .catalog.models import Model, touched_params_b
from .scaling import allreduce_s, intra_link
from .vram_fit import kv_bytes_per_sequence


def _tp_s(model: Model, gpu: Gpu, gpus: int, tokens: int, nodes: int = 1, inter: Fabric | None = None) -> float:
    """Forward-pass tensor-parallel all-reduces, seconds: over the in-box link, and with ``nodes`` > 1
    hierarchically over ``inter`` too (``gpus`` in all, split evenly over the nodes; scaling's model)."""
    if gpus == 1:
        return 0.0
    link = intra_link(gpu)
    nbytes = tokens * model.hidden * A.ACT_ELEMENT_BYTES
    per_node = gpus // nodes
    t = allreduce_s(nbytes, per_node, nodes, link, inter or link, A.DEFAULT_NICS_PER_NODE)
    return A.TP_FORWARD_ALLREDUCES_PER_LAYER * model.layers * t


def _peak(gpu: Gpu, gpus: int, precision: str) -> float:
    """Dense peak FLOP/s of ``gpus`` GPUs for this weight precision (catalog.gpus.tensor_tflops)."""
    return gpus * tensor_tflops(gpu, precision) * 1e12


def _moe(model: Model) -> float:
    """The share of a dense layer's bandwidth and peak a model's layers reach (assumptions.MOE_EFFICIENCY)."""
    return A.MOE_EFFICIENCY if model.experts else 1.0


def _attention_width(model: Model) -> int:
    """heads x head_dim: the width QK^T and AV run over (a custom model: its hidden size)."""
    return model.heads * model.head_dim if model.heads else model.hidden


def decode_step(model: Model, gpu: Gpu, gpus: int, precision: str, kv_precision: str, concurrency: int,
                context: int, mbu: float = A.DECODE_BANDWIDTH_SHARE, mfu: float = A.PREFILL_MFU,
                nodes: int = 1, inter: Fabric | None = None) -> dict[str, float]:
    """Unrounded times (seconds) of one decode step and what it reads (tensor parallel over ``gpus``,
    across ``nodes`` on ``inter`` when more than one)."""
    mbu, mfu = mbu * _moe(model), mfu * _moe(model)
    weight_params = touched_params_b(model, concurrency) * 1e9  # MoE: the experts the batch's tokens touch
    weights = weight_params * A.WEIGHT_BYTES[precision]
    kv = concurrency * kv_bytes_per_sequence(model, context, kv_precision)
    memory = (weights + kv) / (gpus * gpu.memory_bandwidth_gbs * 1e9 * mbu)
    flops = concurrency * (A.FORWARD_FLOPS_PER_PARAM_TOKEN * model.active_params_b * 1e9
                           + 4 * model.layers * _attention_width(model) * context)
    compute = flops / (_peak(gpu, gpus, precision) * mfu)
    comm = _tp_s(model, gpu, gpus, concurrency, nodes, inter)
    step = max(memory, compute) + comm
    return {"memory": memory, "compute": compute, "comm": comm, "step": step, "bytes": weights + kv}


def prefill_batch_s(model: Model, gpu: Gpu, gpus: int, precision: str, input_tokens: int, count: int = 1,
                    mbu: float = A.DECODE_BANDWIDTH_SHARE, mfu: float = A.PREFILL_MFU,
                    nodes: int = 1, inter: Fabric | None = None) -> float:
    """Seconds to prefill ``count`` prompts of ``input_tokens`` each in one batch (the weights read once)."""
    mbu, mfu = mbu * _moe(model), mfu * _moe(model)
    flops = count * (A.FORWARD_FLOPS_PER_PARAM_TOKEN * model.active_params_b * 1e9 * input_tokens
                     + 2 * model.layers * _attention_width(model) * input_tokens * input_tokens)
    compute = flops / (_peak(gpu, gpus, precision) * mfu)
    weights = model.params_b * 1e9 * A.WEIGHT_BYTES[precision] / (gpus * gpu.memory_bandwidth_gbs * 1e9 * mbu)
    return max(compute, weights) + _tp_s(model, gpu, gpus, count * input_tokens, nodes, inter)


def prefill_s(model: Model, gpu: Gpu, gpus: int, precision: str, context: int,
              mbu: float = A.DECODE_BANDWIDTH_SHARE, mfu: float = A.PREFILL_MFU,
              nodes: int = 1, inter: Fabric | None = None) -> float:
    """Seconds to prefill one request of ``context`` tokens on an idle node."""
    return prefill_batch_s(model, gpu, gpus, precision, context, 1, mbu, mfu, nodes, inter)


def served(model: Model, gpu: Gpu, gpus: int, precision: str, kv_precision: str, concurrency: int,
           input_tokens: int, output_tokens: int, mbu: float = A.DECODE_BANDWIDTH_SHARE,
           mfu: float = A.PREFILL_MFU, nodes: int = 1, inter: Fabric | None = None) -> dict[str, float]:
    """A steady load of ``concurrency`` requests, each replaced by a new one when it ends, as serving
    benchmarks run it (unrounded, seconds and output tokens/s).

    While the batch emits ``output_tokens`` decode steps (at the mean KV length, input + output / 2),
    each of its requests is replaced once, so ``concurrency`` prompts are prefilled, stalling the
    decode steps (no overlap: the conservative end of chunked prefill). ``rate`` counts output tokens
    over whole requests, prefill included (benchmark_serving's and trtllm-bench's "output token
    throughput"); ``itl`` is the mean time between two tokens of one request.
    """
    d = decode_step(model, gpu, gpus, precision, kv_precision, concurrency, input_tokens + output_tokens // 2,
                    mbu, mfu, nodes, inter)
    pre = prefill_batch_s(model, gpu, gpus, precision, input_tokens, concurrency, mbu, mfu, nodes, inter)
    cycle = output_tokens * d["step"] + pre
    return {**d, "prefill": pre, "rate": concurrency * output_tokens / cycle, "itl": cycle / output_tokens,
            "decode_rate": concurrency / d["step"]}


def held_concurrency(model: Model, gpu: Gpu, gpus: int, precision: str, kv_precision: str,
                     input_tokens: int, output_tokens: int, max_concurrency: int,
                     max_itl_s: float = A.MAX_ITL_MS / 1e3, nodes: int = 1, inter: Fabric | None = None) -> int:
    """The most requests a replica serves at once: at most ``max_concurrency`` (what its KV cache holds)
    and at most as many as keep the time between two tokens within ``max_itl_s`` (0 when none fits)."""
    def ok(c: int) -> bool:
        return served(model, gpu, gpus, precision, kv_precision, c, input_tokens, output_tokens,
                      nodes=nodes, inter=inter)["itl"] <= max_itl_s

    top = min(max_concurrency, A.MAX_BATCH)
    if top < 1:
        return 0
    if ok(top):
        return top
    if not ok(1):
        return 1  # one request always runs, however slowly: its latency is the model's, not the load's
    low, high = 1, top  # ok(low), not ok(high); the latency grows with the batch
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if ok(mid) else (low, mid)
    return low
