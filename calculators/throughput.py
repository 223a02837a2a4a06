"""throughput: what one node serves of one model, as serving benchmarks measure it.

The load: ``concurrency`` requests at once (0: as many as the node's KV cache holds, at most
``A.MAX_OFFLINE_BATCH``: the maximum-throughput runs that are published), each a prompt of
``input_tokens`` (0: ``context`` less the answer) and an answer of ``output_tokens``; each request is
replaced by a new one when it ends (``served``).
Decode (one step yields one token for each request):
- memory time = bytes read / (gpus x memory bandwidth x MBU): every weight
  once (an MoE model: the active parameters of each request, at most all of
  them) and each request's KV cache at the mean length, prompt + answer / 2;
- compute time = FLOPs / (gpus x peak x MFU): 2 x active params per token plus
  attention over the cached tokens (4 x layers x heads x head_dim x length);
  peak = dense BF16, x2 for FP8 weights and activations;
- tensor-parallel communication: 2 all-reduces of concurrency x hidden x 2
  bytes per layer over the node's in-box link (scaling.allreduce_s, the same
  ring model and link catalog as the training projection), not overlapped;
- step = max(memory, compute) + communication; the larger of the two names the ``bound``.
Prefill of the batch's prompts (each request's once per answer): 2 x active params x prompt +
2 x layers x heads x head_dim x prompt^2 FLOPs each at the prefill MFU, or reading the weights once
if that takes longer, plus its all-reduces; not overlapped with decode steps.
node_tokens_per_s = concurrency x output / (output x step + prefill of the batch): output tokens over
whole requests, prefill included, as benchmark_serving and trtllm-bench report "output token
throughput"; tokens_per_s_per_request = 1 / the mean time between two tokens of a request;
decode_tokens_per_s = concurrency / step (the decode-only rate, an upper bound).
time_to_first_token_ms: one prompt on an idle node.
Ranges: *_low / *_high at the ends of the MBU and MFU ranges (assumptions.py).
Verdict: ``memory_bound`` / ``compute_bound``, or ``does_not_fit`` when the
load's KV cache does not fit next to the weights (vram_fit's verdict) — the
rate is then that of a load the node cannot hold.
Power: node_kw (power.py) and tokens per kWh at that draw.
"""

from typing import Any

from . import assumptions as A
from . import planner
from .catalog.gpus import GPU_BY_ID
from .catalog.models import resolve_model
from .common import CONTEXT, GPU, GPUS, KV_PRECISION, MAX_CONTEXT, MODEL_INPUTS_FULL, PRECISION, r, sig
from .inputs import error
from .power import node_kw
from .serving_rate import prefill_s, served
from .spec import CalculatorSpec, Input, Output, Range, note
from .vram_fit import fit, model_notes

VERDICTS = ("memory_bound", "compute_bound", "does_not_fit")
BOUNDS = ("memory", "compute")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident", "load_does_not_fit", "tp_comm_share",
         "concurrency_held", "lengths_set_context")
# The served load: requests at once (0: as many as the node holds, the maximum-throughput runs
# serving benchmarks publish) and each request's answer and prompt (0: the context less the answer).
SERVED_CONCURRENCY = Input("concurrency", "int", A.DEFAULT_CONCURRENCY, unit="requests", min=0, max=100_000)
OUTPUT_TOKENS = Input("output_tokens", "int", A.DEFAULT_OUTPUT_TOKENS, unit="tokens", min=1, max=MAX_CONTEXT)
INPUT_TOKENS = Input("input_tokens", "int", 0, unit="tokens", min=0, max=MAX_CONTEXT)

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_FULL,
        PRECISION,
        KV_PRECISION,
        GPU,
        GPUS,
        SERVED_CONCURRENCY,
        CONTEXT,
        OUTPUT_TOKENS,
        INPUT_TOKENS,
    ),
    outputs=(
        Output("node_tokens_per_s", "float", "tokens_per_s"),
        Output("concurrency", "count", "requests"),
        Output("context", "count", "tokens"),
        Output("copies", "count", "copies"),
        Output("tensor_parallel", "count", "gpus"),
        Output("input_tokens", "count", "tokens"),
        Output("output_tokens", "count", "tokens"),
        Output("decode_tokens_per_s", "float", "tokens_per_s"),
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
    shown=("node_tokens_per_s", "node_tokens_per_s_range", "concurrency", "copies", "tensor_parallel",
           "tokens_per_s_per_request",
           "time_to_first_token_ms", "bound", "max_concurrency", "node_kw"),
    ranges=(Range("node_tokens_per_s_range", "node_tokens_per_s_low", "node_tokens_per_s_high", "float"),),
)


SPEC_NAMES = frozenset(i.name for i in SPEC.inputs)


def lengths(inp: dict[str, Any]) -> tuple[int, int]:
    """(input_tokens, output_tokens) of one request: the typed prompt, else the context less the answer."""
    out = inp["output_tokens"]
    return (inp["input_tokens"] or max(0, inp["context"] - out)), out


def check_lengths(inp: dict[str, Any], raw: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The answer is part of a request's context: a typed answer longer than the context is an error;
    the default answer (500 tokens) shrinks to half a shorter context, so a short context stays valid."""
    if inp.get("input_tokens") or inp["output_tokens"] <= inp["context"]:
        return inp, []
    if raw.get("output_tokens") is not None:
        return {}, [error("output_tokens", "too_large", max=inp["context"])]
    return {**inp, "output_tokens": max(1, inp["context"] // 2)}, []


validate = check_lengths


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run throughput on normalized inputs."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    gpus, prec, kvp = inp["gpus"], inp["precision"], inp["kv_precision"]
    prompt, answer = lengths(inp)
    ctx = prompt + answer

    load = planner.Load(model, prec, kvp, gpu, gpus, ctx, answer, inp["concurrency"], 0.0)
    box = planner.box_layout(load, gpus)
    # No copy within the weights rule: one copy over all the GPUs, judged on its memory alone (tight).
    copies, tp = (box.copies, box.tp) if box else (1, gpus)
    f = fit(model, prec, kvp, gpu, tp, ctx, 1, A.DEFAULT_WEIGHTS_LIMIT)
    # A maximum-throughput run holds as many requests as the paged KV cache takes at their mean length.
    mean = fit(model, prec, kvp, gpu, tp, max(1, prompt + answer // 2), 1, A.DEFAULT_WEIGHTS_LIMIT)
    per_copy = (-(-inp["concurrency"] // copies) if inp["concurrency"]
                else max(1, min(A.MAX_OFFLINE_BATCH, mean["max_concurrency"])))
    conc = inp["concurrency"] or per_copy * copies
    args = (model, gpu, tp, prec, kvp, per_copy, prompt, answer)
    share = conc / per_copy  # copies' worth of the load: an uneven split runs at the fuller copy's pace
    s = served(*args)
    low = served(*args, mbu=A.DECODE_BANDWIDTH_RANGE[0], mfu=A.PREFILL_MFU_RANGE[0])
    high = served(*args, mbu=A.DECODE_BANDWIDTH_RANGE[1], mfu=A.PREFILL_MFU_RANGE[1])
    pre = prefill_s(model, gpu, tp, prec, prompt)
    pre_slow = prefill_s(model, gpu, tp, prec, prompt, A.DECODE_BANDWIDTH_RANGE[0], A.PREFILL_MFU_RANGE[0])
    pre_fast = prefill_s(model, gpu, tp, prec, prompt, A.DECODE_BANDWIDTH_RANGE[1], A.PREFILL_MFU_RANGE[1])
    max_conc = f["max_concurrency"] * copies
    kw = node_kw(gpu, gpus)
    bound = "memory" if s["memory"] >= s["compute"] else "compute"
    values = {
        "node_tokens_per_s": r(s["rate"] * share, 1),
        "concurrency": conc,
        "context": ctx,
        "copies": copies,
        "tensor_parallel": tp,
        "input_tokens": prompt,
        "output_tokens": answer,
        "decode_tokens_per_s": r(s["decode_rate"] * share, 1),
        "node_tokens_per_s_low": r(low["rate"] * share, 1),
        "node_tokens_per_s_high": r(high["rate"] * share, 1),
        "tokens_per_s_per_request": r(1 / s["itl"], 2),
        "time_to_first_token_ms": r(pre * 1e3, 1),
        "time_to_first_token_ms_low": r(pre_fast * 1e3, 1),
        "time_to_first_token_ms_high": r(pre_slow * 1e3, 1),
        "prefill_tokens_per_s": r(prompt / pre, 1),
        "bound": bound,
        "step_ms": r(s["step"] * 1e3, 3),
        "memory_ms": r(s["memory"] * 1e3, 3),
        "compute_ms": r(s["compute"] * 1e3, 3),
        "comm_ms": r(s["comm"] * 1e3, 3),
        "comm_share": sig(s["comm"] / s["step"]),
        "bytes_per_step_gb": r(s["bytes"] / 1e9, 2),
        "max_concurrency": max_conc,
        "node_kw": r(kw, 2),
        "tokens_per_kwh": r(s["rate"] * share * 3600 / kw, 0),
    }
    notes = model_notes(model, inp, raw)
    if inp["input_tokens"] and raw.get("context") is not None and ctx != inp["context"]:
        notes.append(note("lengths_set_context", context=ctx, input_tokens=prompt, output_tokens=answer))
    if not inp["concurrency"]:
        notes.append(note("concurrency_held", concurrency=conc, max_concurrency=max_conc))
    # concurrency 0 holds what fits, by definition; weights with no room for one request never fit
    overflows = max_conc < 1 or inp["concurrency"] > max_conc
    if overflows:
        notes.append(note("load_does_not_fit", max_concurrency=max_conc, concurrency=conc, context=ctx))
    if s["comm"] / s["step"] >= A.TP_COMM_NOTE_SHARE:
        notes.append(note("tp_comm_share", comm_share=sig(s["comm"] / s["step"]), gpus=gpus))
    verdict = "does_not_fit" if overflows else f"{bound}_bound"
    return {"values": values, "verdict": verdict, "notes": notes}
