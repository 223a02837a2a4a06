"""throughput: decode and prefill rate of one node serving one model.

Decode (one step yields one token for each of ``concurrency`` requests):
- memory time = bytes read / (gpus x memory bandwidth x MBU): every weight
  once (an MoE model: the active parameters of each request, at most all of
  them) and each request's KV cache at ``context`` tokens (vram_fit's bytes);
- compute time = FLOPs / (gpus x peak x MFU): 2 x active params per token plus
  attention over the cached tokens (4 x layers x heads x head_dim x context);
  peak = dense BF16, x2 for FP8 weights and activations;
- tensor-parallel communication: 2 all-reduces of concurrency x hidden x 2
  bytes per layer over the node's in-box link (scaling.allreduce_s, the same
  ring model and link catalog as the training projection), not overlapped;
- step = max(memory, compute) + communication; the larger of the two names
  the ``bound``. node_tokens_per_s = concurrency / step,
  tokens_per_s_per_request = 1 / step.
Prefill of one request of ``context`` tokens on an idle node:
2 x active params x context + 2 x layers x heads x head_dim x context^2
(causal attention) FLOPs at the prefill MFU, or reading the weights once if
that takes longer, plus 2 all-reduces of context x hidden x 2 bytes per layer:
time_to_first_token_ms. Under load, prefills queue behind each other and
share the GPUs with decode steps: TTFT grows.
Ranges: *_low / *_high at the ends of the MBU and MFU ranges (assumptions.py).
Verdict: ``memory_bound`` / ``compute_bound``, or ``does_not_fit`` when the
load's KV cache does not fit next to the weights (vram_fit's verdict) — the
rate is then that of a load the node cannot hold.
Power: node_kw (power.py) and tokens per kWh at that draw.
"""

from typing import Any

from . import assumptions as A
from .catalog.fabrics import Fabric
from .catalog.gpus import GPU_BY_ID, Gpu
from .catalog.models import Model, resolve_model
from .common import CONCURRENCY, CONTEXT, GPU, GPUS, KV_PRECISION, MODEL_INPUTS_FULL, PRECISION, r, sig
from .power import node_kw
from .scaling import allreduce_s, intra_link
from .spec import CalculatorSpec, Output, Range, note
from .vram_fit import fit, kv_bytes_per_sequence, model_notes

VERDICTS = ("memory_bound", "compute_bound", "does_not_fit")
BOUNDS = ("memory", "compute")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident", "load_does_not_fit", "tp_comm_share", "decode_only")

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_FULL,
        PRECISION,
        KV_PRECISION,
        GPU,
        GPUS,
        CONCURRENCY,
        CONTEXT,
    ),
    outputs=(
        Output("node_tokens_per_s", "float", "tokens_per_s"),
        Output("node_tokens_per_s_low", "float", "tokens_per_s"),
        Output("node_tokens_per_s_high", "float", "tokens_per_s"),
        Output("tokens_per_s_per_request", "float", "tokens_per_s"),
        Output("time_to_first_token_ms", "float", "ms"),
        Output("time_to_first_token_ms_low", "float", "ms"),
        Output("time_to_first_token_ms_high", "float", "ms"),
        Output("prefill_tokens_per_s", "float", "tokens_per_s"),
        Output("bound", "key"),
        Output("step_ms", "float", "ms"),
        Output("memory_ms", "float", "ms"),
        Output("compute_ms", "float", "ms"),
        Output("comm_ms", "float", "ms"),
        Output("comm_share", "ratio", "ratio"),
        Output("bytes_per_step_gb", "gb", "gb"),
        Output("max_concurrency", "count", "requests"),
        Output("node_kw", "float", "kw"),
        Output("tokens_per_kwh", "float", "tokens_per_kwh"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("node_tokens_per_s", "node_tokens_per_s_range", "tokens_per_s_per_request", "time_to_first_token_ms",
           "bound", "max_concurrency", "node_kw"),
    ranges=(Range("node_tokens_per_s_range", "node_tokens_per_s_low", "node_tokens_per_s_high", "float"),),
)


SPEC_NAMES = frozenset(i.name for i in SPEC.inputs)


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
    """Dense peak FLOP/s of the node for this weight precision."""
    return gpus * gpu.bf16_tflops * 1e12 * A.COMPUTE_RATE_BY_PRECISION[precision]


def _attention_width(model: Model) -> int:
    """heads x head_dim: the width QK^T and AV run over (a custom model: its hidden size)."""
    return model.heads * model.head_dim if model.heads else model.hidden


def decode_step(model: Model, gpu: Gpu, gpus: int, precision: str, kv_precision: str, concurrency: int,
                context: int, mbu: float = A.DECODE_BANDWIDTH_SHARE, mfu: float = A.PREFILL_MFU,
                nodes: int = 1, inter: Fabric | None = None) -> dict[str, float]:
    """Unrounded times (seconds) of one decode step and what it reads (tensor parallel over ``gpus``,
    across ``nodes`` on ``inter`` when more than one)."""
    weight_params = min(model.params_b, model.active_params_b * concurrency) * 1e9
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


def offline_tokens_per_s(model: str, gpu: str, gpus: int, precision: str, kv_precision: str,
                         input_len: int, output_len: int, max_batch: int = A.MAX_OFFLINE_BATCH) -> float:
    """Output tokens/s of an offline benchmark (requests queued at once, fixed lengths).

    As many requests run as the KV cache holds at the mean length (input +
    output / 2; at most ``max_batch``); each is prefilled once, then decoded
    ``output_len`` steps: output_len x batch / (output_len x step + batch x
    prefill). Used by the reference suite against trtllm-bench / vLLM figures.
    """
    from .catalog.models import MODEL_BY_ID
    m, g = MODEL_BY_ID[model], GPU_BY_ID[gpu]
    f = fit(m, precision, kv_precision, g, gpus, input_len + output_len // 2, 1, 1.0)
    batch = max(1, min(max_batch, f["max_concurrency"]))
    return served(m, g, gpus, precision, kv_precision, batch, input_len, output_len)["rate"]


def node_rate(inp: dict[str, Any]) -> float:
    """Unrounded node_tokens_per_s for normalized throughput inputs (used by `replicas`)."""
    d = decode_step(resolve_model(inp), GPU_BY_ID[inp["gpu"]], inp["gpus"], inp["precision"],
                    inp.get("kv_precision", "bf16"), inp["concurrency"], inp["context"])
    return inp["concurrency"] / d["step"]


def serving_itl_ms(model: str, gpu: str, gpus: int, precision: str, kv_precision: str, input_len: int,
                   output_len: int, concurrency: int) -> float:
    """Mean time between two output tokens of a request under a steady load, milliseconds.

    ``concurrency`` requests of ``input_len`` prompt and ``output_len`` output tokens, each replaced by a
    new one when it ends: while one request emits its ``output_len`` tokens, the other requests'
    prompts are prefilled once each, and their prefill stalls its decode steps:
    step + (concurrency - 1) x prefill / output_len. The decode step is at the mean length. Used by the
    reference suite against NVIDIA NIM's published inter-token latencies; ``node_tokens_per_s`` is the
    step alone (decode only, an upper bound under a load of long new prompts).
    """
    from .catalog.models import MODEL_BY_ID
    m, g = MODEL_BY_ID[model], GPU_BY_ID[gpu]
    step = decode_step(m, g, gpus, precision, kv_precision, concurrency, input_len + output_len // 2)["step"]
    return (step + (concurrency - 1) * prefill_s(m, g, gpus, precision, input_len) / output_len) * 1e3


def decode_only_note(inp: dict[str, Any]) -> dict[str, Any]:
    """The note that a node rate counts generation only: a new prompt of ``context`` tokens first takes
    the whole node ``prefill_ms`` (prefill), which the rate leaves out (see ``serving_itl_ms``)."""
    prefill = prefill_s(resolve_model(inp), GPU_BY_ID[inp["gpu"]], inp["gpus"], inp["precision"], inp["context"])
    return note("decode_only", context=inp["context"], prefill_ms=round(prefill * 1e3))


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run throughput on normalized inputs."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    gpus, conc, ctx = inp["gpus"], inp["concurrency"], inp["context"]
    args = (model, gpu, gpus, inp["precision"], inp["kv_precision"], conc, ctx)
    d = decode_step(*args)
    low = decode_step(*args, mbu=A.DECODE_BANDWIDTH_RANGE[0], mfu=A.PREFILL_MFU_RANGE[0])
    high = decode_step(*args, mbu=A.DECODE_BANDWIDTH_RANGE[1], mfu=A.PREFILL_MFU_RANGE[1])
    pre = prefill_s(model, gpu, gpus, inp["precision"], ctx)
    pre_slow = prefill_s(model, gpu, gpus, inp["precision"], ctx, A.DECODE_BANDWIDTH_RANGE[0],
                         A.PREFILL_MFU_RANGE[0])
    pre_fast = prefill_s(model, gpu, gpus, inp["precision"], ctx, A.DECODE_BANDWIDTH_RANGE[1],
                         A.PREFILL_MFU_RANGE[1])
    f = fit(model, inp["precision"], inp["kv_precision"], gpu, gpus, ctx, conc, A.DEFAULT_WEIGHTS_LIMIT)
    rate = conc / d["step"]
    kw = node_kw(gpu, gpus)
    bound = "memory" if d["memory"] >= d["compute"] else "compute"
    values = {
        "node_tokens_per_s": r(rate, 1),
        "node_tokens_per_s_low": r(conc / low["step"], 1),
        "node_tokens_per_s_high": r(conc / high["step"], 1),
        "tokens_per_s_per_request": r(1 / d["step"], 2),
        "time_to_first_token_ms": r(pre * 1e3, 1),
        "time_to_first_token_ms_low": r(pre_fast * 1e3, 1),
        "time_to_first_token_ms_high": r(pre_slow * 1e3, 1),
        "prefill_tokens_per_s": r(ctx / pre, 1),
        "bound": bound,
        "step_ms": r(d["step"] * 1e3, 3),
        "memory_ms": r(d["memory"] * 1e3, 3),
        "compute_ms": r(d["compute"] * 1e3, 3),
        "comm_ms": r(d["comm"] * 1e3, 3),
        "comm_share": sig(d["comm"] / d["step"]),
        "bytes_per_step_gb": r(d["bytes"] / 1e9, 2),
        "max_concurrency": f["max_concurrency"],
        "node_kw": r(kw, 2),
        "tokens_per_kwh": r(rate * 3600 / kw, 0),
    }
    notes = model_notes(model, inp, raw)
    if not f["kv_fits"]:
        notes.append(note("load_does_not_fit", max_concurrency=f["max_concurrency"], concurrency=conc,
                          context=ctx))
    if d["comm"] / d["step"] >= A.TP_COMM_NOTE_SHARE:
        notes.append(note("tp_comm_share", comm_share=sig(d["comm"] / d["step"]), gpus=gpus))
    notes.append(decode_only_note(inp))
    verdict = "does_not_fit" if not f["kv_fits"] else f"{bound}_bound"
    return {"values": values, "verdict": verdict, "notes": notes}
