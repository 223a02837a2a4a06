"""vram_fit: does a model fit a node for inference, at the load the reader asks for?

Formulas (sources in assumptions.py and README.md):
- vram_gb      = gpus x memory_gb
- weights_gb   = params x bytes(precision)                      (1 GB = 1e9 B)
- kv per token = layers x kv_elems_per_token_layer x bytes(kv_precision)
                 (kv_elems = 2 x kv_heads x head_dim; MLA: kv_lora_rank + rope dim;
                 sliding-window layers hold at most `window` tokens)
- kv_gb        = kv per sequence at `context` x concurrency x kv_copies
- usable_gb    = gpus x what the serving engine leaves per GPU for weights and KV
                 (serving_memory.usable_gb_per_gpu: the memory CUDA exposes, GiB,
                 x vLLM's gpu_memory_utilization 0.92, minus non-torch memory,
                 the activation peak of its profiling pass and CUDA graphs)
- overhead_gb  = vram_gb - usable_gb;  kv_budget_gb = usable_gb - weights_gb
- kv_copies    = copies of each token's KV the GPUs hold together: 1, except when
                 tensor parallelism exceeds the KV heads (gpus / kv_heads: vLLM
                 replicates each head) and an MLA latent under attention "tp" (one on
                 every GPU); from serving_memory.kv_bytes_per_token_per_gpu
- max_concurrency = floor(kv_budget / kv per sequence)   (at `context`);
  max_concurrency_low / _high: the same at the ends of the engine settings'
  range (serving_memory.usable_range_gib); note verdict_depends_on_engine
  when the requested concurrency lies between them
- max_context     = the longest context whose KV cache for `concurrency`
                    requests fits kv_budget (at `concurrency`), at most the model's
- min_gpus        = the smallest tensor-parallel degree (``tp_degrees``: divides the
                    attention heads, divides or is a multiple of the KV heads, at most 64)
                    at which the verdict is ``fits``; 0 when none is
Verdict, for the requested load (concurrency x context):
``fits`` when its KV cache fits and weights_share <= weights_limit;
``tight`` when its KV cache fits but the weights are above the rule;
``does_not_fit`` when its KV cache does not fit next to the weights (or the
weights alone do not fit).
Tensor parallelism shards grouped-query KV heads over the GPUs; when gpus >
kv_heads, vLLM replicates each head on gpus / kv_heads GPUs. An MLA latent has no head dimension to
split: under ``attention: tp`` every GPU holds the full latent of every token;
``attention: dp`` (default) is data-parallel attention, each GPU holding its
own requests' latents, the way SGLang (--enable-dp-attention) and vLLM
(data-parallel deployment) serve DeepSeek models. See serving_memory.py.
"""

from itertools import pairwise
from typing import Any

from . import assumptions as A
from . import serving_memory as S
from .catalog.gpus import GPU_BY_ID, Gpu
from .catalog.models import CUSTOM, Model, fp8_weights_gb, resolve_model
from .common import (
    CONCURRENCY,
    CONTEXT,
    GPU,
    GPUS,
    KV_PRECISION,
    MAX_CONTEXT,
    MAX_GPUS,
    MODEL_INPUTS_FULL,
    PRECISION,
    ceil_div,
    r,
    sig,
)
from .spec import CUSTOM_MODEL_FIELDS, CalculatorSpec, Input, Output, note

VERDICTS = ("fits", "tight", "does_not_fit")
NOTES = (
    "custom_inputs_ignored",
    "weights_above_limit",
    "kv_does_not_fit",
    "weights_do_not_fit",
    "sliding_window_applied",
    "mla_kv_cache",
    "mla_attention",
    "fp8_checkpoint_keeps_bf16",
    "verdict_depends_on_engine",
    "moe_all_experts_resident",
)

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_FULL,
        PRECISION,
        KV_PRECISION,
        GPU,
        GPUS,
        CONTEXT,
        CONCURRENCY,
        Input("weights_limit", "float", A.DEFAULT_WEIGHTS_LIMIT, unit="ratio", min=0.05, max=1.0),
        Input("attention", "choice", "dp", choices=S.ATTENTION_PARALLEL[::-1]),
    ),
    outputs=(
        Output("params_b", "float", "billion_params"),
        Output("bytes_per_param", "float", "bytes"),
        Output("vram_gb", "gb", "gb"),
        Output("weights_gb", "gb", "gb"),
        Output("weights_share", "ratio", "ratio"),
        Output("weights_limit_gb", "gb", "gb"),
        Output("weights_within_limit", "bool"),
        Output("overhead_gb", "gb", "gb"),
        Output("usable_gb", "gb", "gb"),
        Output("kv_budget_gb", "gb", "gb"),
        Output("kv_bytes_per_token", "bytes", "bytes"),
        Output("kv_gb_per_sequence", "gb", "gb"),
        Output("kv_copies", "multiplier"),
        Output("kv_gb", "gb", "gb"),
        Output("kv_fits", "bool"),
        Output("max_concurrency", "count", "requests"),
        Output("max_concurrency_low", "count", "requests"),
        Output("max_concurrency_high", "count", "requests"),
        Output("max_context", "count", "tokens"),
        Output("total_gb", "gb", "gb"),
        Output("total_share", "ratio", "ratio"),
        Output("min_gpus", "count", "gpus"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("vram_gb", "weights_gb", "weights_share", "kv_bytes_per_token", "kv_gb", "kv_budget_gb",
           "max_concurrency", "max_context"),
    figure="vram_bar",
)


def kv_bytes_per_sequence(model: Model, context: int, kv_precision: str) -> float:
    """KV-cache bytes one sequence of ``context`` tokens holds (all layers)."""
    per_layer_token = model.kv_elems_per_token_layer * A.KV_BYTES[kv_precision]
    full_layers = model.layers - model.sliding_layers
    windowed = min(context, model.sliding_window) if model.sliding_layers else 0
    return per_layer_token * (full_layers * context + model.sliding_layers * windowed)


def max_context(model: Model, kv_precision: str, concurrency: int, budget_gb: float) -> int:
    """Longest context (tokens, <= MAX_CONTEXT) whose KV cache for ``concurrency`` requests fits ``budget_gb``.

    Exact for every attention kind (sliding windows included): read off the linear pieces of the same
    ``kv_bytes_per_sequence`` the fit test uses and confirmed by that test, else a bisection on it; 0 when
    not even one token fits.
    """
    def gb(ctx: int) -> float:
        return kv_bytes_per_sequence(model, ctx, kv_precision) / 1e9 * concurrency

    def fits(ctx: int) -> bool:
        return gb(ctx) <= budget_gb

    # The cache grows linearly in the context on each side of a sliding window: the answer read off the
    # line through the ends of its piece, confirmed by the same test, spares the bisection (float
    # rounding may move it by one).
    window = model.sliding_window if model.sliding_layers and 1 < model.sliding_window < MAX_CONTEXT else None
    at = {ctx: gb(ctx) for ctx in ((1, window, MAX_CONTEXT) if window else (1, MAX_CONTEXT))}
    if budget_gb <= 0 or at[1] > budget_gb:
        return 0
    if at[MAX_CONTEXT] <= budget_gb:
        return MAX_CONTEXT
    for (a, gb_a), (b, gb_b) in pairwise(at.items()):
        if gb_a <= budget_gb < gb_b:
            guess = int(a + (budget_gb - gb_a) * (b - a) / (gb_b - gb_a))
            for ctx in (guess, guess - 1, guess + 1):
                if 1 <= ctx < MAX_CONTEXT and fits(ctx) and not fits(ctx + 1):
                    return ctx
    low, high = 1, MAX_CONTEXT  # fits(low), not fits(high)
    while high - low > 1:
        mid = (low + high) // 2
        if fits(mid):
            low = mid
        else:
            high = mid
    return low


def kv_copies(model: Model, gpus: int, attention: str) -> float:
    """Copies of each token's KV cache ``gpus`` tensor-parallel GPUs hold together.

    Read off ``serving_memory.kv_bytes_per_token_per_gpu``: grouped-query heads are split over
    the GPUs, each held once while gpus <= kv_heads and by gpus / kv_heads GPUs beyond (vLLM
    replicates KV heads when the tensor-parallel size exceeds them: Qwen2.5-7B's 4 KV heads on
    8 GPUs are held twice); an MLA latent is held whole by every GPU under ``attention`` "tp",
    once under "dp" (data-parallel attention). ``attention`` only concerns MLA models.
    """
    mode = attention if model.mla_kv_dim else "tp"
    if mode == "dp":
        return 1.0
    whole = S.kv_bytes_per_token_per_gpu(model, 1.0, 1, mode)
    # rounded off float noise: 7 GPUs x (8/7 heads) / 8 heads is 1, not 0.9999999999999998
    return round(gpus * S.kv_bytes_per_token_per_gpu(model, 1.0, gpus, mode) / whole, 12)


def tp_degrees(model: Model, max_gpus: int) -> tuple[int, ...]:
    """Tensor-parallel degrees (ascending, at most ``max_gpus``) a serving engine can run ``model`` at.

    vLLM requires the degree to divide the attention heads and to divide the KV heads or be a
    multiple of them (vllm/config: "Total number of attention heads must be divisible by tensor
    parallel size"; KV heads are replicated when the degree exceeds them, split when it divides
    them). Llama 3.1 70B (64 heads, 8 KV): 1, 2, 4, 8, 16, 32, 64; Qwen2.5-7B (28, 4): 1, 2, 4,
    28; never 3, 9 or 14 for any catalog model.
    """
    heads = model.heads or model.kv_heads
    kv = model.kv_heads or heads
    return tuple(t for t in range(1, max(1, max_gpus) + 1)
                 if heads % t == 0 and (kv % t == 0 or t % kv == 0))


def fit(model: Model, precision: str, kv_precision: str, gpu: Gpu, gpus: int,
        context: int, concurrency: int, weights_limit: float, attention: str = "dp") -> dict[str, Any]:
    """Unrounded fit numbers (shared with `decision`)."""
    bytes_per_param = A.WEIGHT_BYTES[precision]
    weights = model.params_b * bytes_per_param
    kv_seq = kv_bytes_per_sequence(model, context, kv_precision) / 1e9  # one copy
    memory_gb = gpu.memory_gb

    def usable_of(n: int) -> float:
        return n * S.usable_gb_per_gpu(gpu, model, n)

    def fits_in(n: int) -> tuple[bool, bool]:
        budget = usable_of(n) - weights
        return (weights <= weights_limit * n * memory_gb,
                budget >= 0 and kv_seq * concurrency * kv_copies(model, n, attention) <= budget)

    vram = gpus * memory_gb
    usable = usable_of(gpus)
    budget = usable - weights
    copies = kv_copies(model, gpus, attention)
    seq_cost = kv_seq * copies
    kv = seq_cost * concurrency
    max_conc = int(budget // seq_cost) if budget > 0 else 0
    # Keep max_concurrency consistent with the seq_cost * n <= budget test.
    for _ in range(2):  # bounded: float noise moves it by one at most
        if max_conc > 0 and seq_cost * max_conc > budget:
            max_conc -= 1
        elif budget > 0 and seq_cost * (max_conc + 1) <= budget:
            max_conc += 1
    # The same at the ends of the engine settings' range (serving_memory.usable_range_gib).
    ends = [max(0, int((gpus * u - weights) // seq_cost)) for u in S.usable_range_gb_per_gpu(gpu, model)]
    within, kv_fits = fits_in(gpus)
    if not kv_fits:
        verdict = "does_not_fit"  # the requested load does not fit next to the weights
    elif within:
        verdict = "fits"
    else:
        verdict = "tight"  # the load fits, the weights are above the rule
    return {
        "vram": vram, "bytes_per_param": bytes_per_param, "weights": weights,
        "overhead": vram - usable, "usable": usable, "budget": budget, "kv_seq": kv_seq,
        "kv_copies": copies, "kv": kv, "max_concurrency": max_conc,
        "max_concurrency_range": (min(ends[0], max_conc), max(ends[1], max_conc)),
        # the model's own maximum caps it too (a longer context is an input error)
        "max_context": min(max_context(model, kv_precision, concurrency, budget / copies),
                           model.max_context or MAX_CONTEXT),
        "within": within, "kv_fits": kv_fits, "verdict": verdict,
        "min_gpus": _min_gpus(model, gpu, weights, kv_seq * concurrency, weights_limit, fits_in),
    }


def _min_gpus(model: Model, gpu: Gpu, weights: float, kv_once: float, weights_limit: float, fits_in: Any) -> int:
    """Smallest tensor-parallel degree (``tp_degrees``, up to the form's 64 GPUs) for verdict "fits"; 0 when none.

    Degrees below the lower bound are skipped: the weights rule, and weights + one copy of the
    KV cache in the most a GPU can hold (one GPU: no NCCL).
    """
    first = S.usable_gb_per_gpu(gpu, model, 1)
    bound = max(1, ceil_div(weights / weights_limit, gpu.memory_gb), ceil_div(weights + kv_once, first))
    for n in tp_degrees(model, MAX_GPUS):
        if n >= bound and all(fits_in(n)):
            return n
    return 0


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run vram_fit on normalized inputs (``raw`` is used for notes only)."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    f = fit(model, inp["precision"], inp["kv_precision"], gpu, inp["gpus"],
            inp["context"], inp["concurrency"], inp["weights_limit"], inp["attention"])
    vram = f["vram"]
    kv_per_token = f["kv_seq"] * 1e9 / inp["context"]
    values = {
        "params_b": r(model.params_b, 3),
        "bytes_per_param": f["bytes_per_param"],
        "vram_gb": r(vram, 2),
        "weights_gb": r(f["weights"], 2),
        "weights_share": sig(f["weights"] / vram),
        "weights_limit_gb": r(inp["weights_limit"] * vram, 2),
        "weights_within_limit": f["within"],
        "overhead_gb": r(f["overhead"], 2),
        "usable_gb": r(f["usable"], 2),
        "kv_budget_gb": r(max(f["budget"], 0.0), 2),
        "kv_bytes_per_token": round(kv_per_token),
        "kv_gb_per_sequence": r(f["kv_seq"], 3),
        "kv_copies": r(f["kv_copies"], 3),
        "kv_gb": r(f["kv"], 2),
        "kv_fits": f["kv_fits"],
        "max_concurrency": f["max_concurrency"],
        "max_concurrency_low": f["max_concurrency_range"][0],
        "max_concurrency_high": f["max_concurrency_range"][1],
        "max_context": f["max_context"],
        "total_gb": r(f["weights"] + f["kv"] + f["overhead"], 2),
        "total_share": sig((f["weights"] + f["kv"] + f["overhead"]) / vram),
        "min_gpus": f["min_gpus"],
    }
    notes = model_notes(model, inp, raw)
    if f["budget"] <= 0:
        notes.append(note("weights_do_not_fit", weights_gb=values["weights_gb"],
                          usable_gb=values["usable_gb"]))
    elif not f["within"]:
        notes.append(note("weights_above_limit", weights_share=values["weights_share"],
                          weights_limit=inp["weights_limit"]))
    if f["budget"] > 0 and not f["kv_fits"]:
        notes.append(note("kv_does_not_fit", kv_gb=values["kv_gb"],
                          kv_budget_gb=values["kv_budget_gb"],
                          max_concurrency=f["max_concurrency"],
                          concurrency=inp["concurrency"], max_context=f["max_context"]))
    if model.sliding_layers and inp["context"] > model.sliding_window:
        notes.append(note("sliding_window_applied", window=model.sliding_window,
                          sliding_layers=model.sliding_layers, layers=model.layers))
    if model.mla_kv_dim:
        notes.append(note("mla_kv_cache", kv_elems_per_token_layer=model.mla_kv_dim))
        if inp["gpus"] > 1:
            other = "tp" if inp["attention"] == "dp" else "dp"
            g = fit(model, inp["precision"], inp["kv_precision"], gpu, inp["gpus"], inp["context"],
                    inp["concurrency"], inp["weights_limit"], other)
            by = {inp["attention"]: f["max_concurrency"], other: g["max_concurrency"]}
            notes.append(note("mla_attention", attention=inp["attention"], gpus=inp["gpus"],
                              max_concurrency_tp=by["tp"], max_concurrency_dp=by["dp"]))
    low, high = f["max_concurrency_range"]
    if low < inp["concurrency"] <= high:
        notes.append(note("verdict_depends_on_engine", max_concurrency_low=low, max_concurrency_high=high,
                          concurrency=inp["concurrency"]))
    if inp["precision"] == "fp8" and model.fp8_bf16_params_b:
        notes.append(note("fp8_checkpoint_keeps_bf16", bf16_params_b=r(model.fp8_bf16_params_b, 2),
                          weights_gb=r(fp8_weights_gb(model, "official"), 2)))
    return {"values": values, "verdict": f["verdict"], "notes": notes}


def model_notes(model: Model, inp: dict[str, Any], raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Notes every model-taking calculator shares."""
    notes = []
    if inp["model"] != CUSTOM:
        given = [k for k in CUSTOM_MODEL_FIELDS if raw.get(k) is not None]
        if given:
            notes.append(note("custom_inputs_ignored", fields=given))
    if model.is_moe:
        notes.append(note("moe_all_experts_resident", params_b=model.params_b,
                          active_params_b=model.active_params_b))
    return notes
