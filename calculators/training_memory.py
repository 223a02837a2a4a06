"""training_memory: memory of a full fine-tune, LoRA or QLoRA run.

Bytes per parameter (assumptions.py; ZeRO paper arXiv:1910.02054, QLoRA paper
arXiv:2305.14314):
- full:  2 (BF16 weights) + 2 (BF16 grads) + 12 (FP32 master + Adam m, v) = 16
- lora:  2 per frozen base weight; 16 per adapter parameter
- qlora, as published (QLoRA, arXiv:2305.14314): the transformer blocks'
  linear weights in NF4 with double-quantized constants, 4 + 0.127 bits; the
  embeddings and output head stay BF16 (2); adapters in BF16 (2), their
  gradients BF16 (2) and a paged 32-bit AdamW (m and v in FP32, 8): 12 per
  adapter parameter. "Paged" means the optimizer states move to CPU RAM
  under memory pressure instead of failing; they are counted on the GPU here,
  as in the paper's Figure 6 (optimizer bar = 4 x the BF16 adapter bar).
Adapter parameters: rank x 20 x hidden per layer (all linear layers).
ZeRO (``zero_model_states_gb``): model states per GPU for ZeRO stages 0-3, in
the paper's accounting and in DeepSpeed's estimator's (see the function).
Activations (Korthikanti et al. 2022, arXiv:2205.05198), one micro-batch:
- recompute "none": 34 x s x b x h bytes per layer (FlashAttention: no s x s scores)
- recompute "full": 2 x s x b x h per layer (checkpoints) + 34 x s x b x h (one layer)
The micro-batch's activations are assumed split over the GPUs (tensor +
sequence parallelism); with pure FSDP each GPU holds its own micro-batch.
fits = total_gb <= usable_gb (90 % of VRAM); min_gpus = ceil(total / (0.9 x memory)).
"""

from typing import Any

from . import assumptions as A
from .catalog.gpus import GPU_BY_ID
from .catalog.models import CUSTOM, Model, block_params_b, embedding_params_b, resolve_model
from .common import GPU, GPUS, MODEL_INPUTS_DENSE, ceil_div, r, sig
from .spec import CalculatorSpec, Input, Output, note
from .vram_fit import model_notes

METHODS = ("full", "lora", "qlora")

# QLoRA (Dettmers et al. 2023, arXiv:2305.14314, sec. 3 and Figure 6):
# BF16 adapters and gradients; paged 32-bit AdamW keeps m and v in FP32
# (bitsandbytes ``paged_adamw_32bit``), no FP32 master copy of the adapters.
QLORA_ADAPTER_BYTES = 2.0
QLORA_ADAPTER_GRAD_BYTES = 2.0
QLORA_OPTIMIZER_BYTES = 8.0
# The embeddings and the output head are not quantized (only the linear layers
# of the transformer blocks become NF4 ``Linear4bit``): 2 bytes in BF16.
QLORA_EMBEDDING_BYTES = 2.0
RECOMPUTE = ("none", "full")
VERDICTS = ("fits", "does_not_fit")
NOTES = ("custom_inputs_ignored", "moe_all_experts_resident", "hidden_size_estimated")

SPEC = CalculatorSpec(
    inputs=(
        *MODEL_INPUTS_DENSE,
        Input("method", "choice", "full", choices=METHODS),
        GPU,
        GPUS,
        Input("seq_len", "int", A.DEFAULT_SEQ_LEN, unit="tokens", min=1, max=1_048_576),
        Input("micro_batch", "int", A.DEFAULT_MICRO_BATCH, unit="sequences", min=1, max=1024),
        Input("recompute", "choice", "none", choices=RECOMPUTE),
        Input("lora_rank", "int", A.DEFAULT_LORA_RANK, unit="rank", min=1, max=4096),
    ),
    outputs=(
        Output("params_b", "float", "billion_params"),
        Output("trainable_params_b", "float", "billion_params"),
        Output("bytes_per_param", "float", "bytes"),
        Output("weights_gb", "gb", "gb"),
        Output("gradients_gb", "gb", "gb"),
        Output("optimizer_gb", "gb", "gb"),
        Output("state_gb", "gb", "gb"),
        Output("activations_gb", "gb", "gb"),
        Output("total_gb", "gb", "gb"),
        Output("vram_gb", "gb", "gb"),
        Output("usable_gb", "gb", "gb"),
        Output("total_share", "ratio", "ratio"),
        Output("fits", "bool"),
        Output("min_gpus", "count", "gpus"),
        Output("min_nodes", "count", "nodes"),
    ),
    verdicts=VERDICTS,
    notes=NOTES,
    shown=("state_gb", "activations_gb", "total_gb", "vram_gb", "min_gpus"),
)


def adapter_params_b(model: Model, rank: int) -> float:
    """LoRA adapter parameters (billions) on every linear layer."""
    return rank * A.LORA_DIMS_PER_HIDDEN * model.hidden * model.layers / 1e9


def state_gb(model: Model, method: str, rank: int) -> tuple[float, float, float, float]:
    """(weights, gradients, optimizer, trainable params) in GB / billions."""
    p = model.params_b
    if method == "full":
        return p * A.TRAIN_WEIGHT_BYTES, p * A.TRAIN_GRAD_BYTES, p * A.TRAIN_OPTIMIZER_BYTES, p
    adapters = adapter_params_b(model, rank)
    if method == "lora":
        return (p * A.TRAIN_WEIGHT_BYTES + adapters * A.TRAIN_WEIGHT_BYTES, adapters * A.TRAIN_GRAD_BYTES,
                adapters * A.TRAIN_OPTIMIZER_BYTES, adapters)
    base = block_params_b(model) * A.QLORA_BASE_BYTES + embedding_params_b(model) * QLORA_EMBEDDING_BYTES
    return (base + adapters * QLORA_ADAPTER_BYTES, adapters * QLORA_ADAPTER_GRAD_BYTES,
            adapters * QLORA_OPTIMIZER_BYTES, adapters)


# ZeRO (Rajbhandari et al. 2020, arXiv:1910.02054, sec. 3.1 and Figure 1):
# mixed-precision Adam holds 2 (FP16 weights) + 2 (FP16 gradients) + K = 12
# (FP32 weights, momentum, variance) bytes per parameter. Bytes per parameter
# (replicated on every GPU, sharded over the N GPUs) per stage:
# 0 = plain data parallel, 1 = P_os, 2 = P_os+g, 3 = P_os+g+p.
ZERO_PAPER_BYTES: dict[int, tuple[float, float]] = {0: (16.0, 0.0), 1: (4.0, 12.0), 2: (2.0, 14.0), 3: (0.0, 16.0)}
# DeepSpeed's estimators (microsoft/DeepSpeed docs/code-docs/source/memory.rst,
# commit 077e6740178eba4ccff1b3ea9a7981578d3d42e4, "API To Estimate Memory
# Usage"): ZeRO-2 "4 params + 16 params / (total number of gpus)" ("16b for
# fp32: 4b params, 4b grads, 4b momentum and 4b variance"), with the optimizer
# offloaded "2 * params"; ZeRO-3 "largest_layer_memory + 18 * params / total
# number of gpus", largest_layer_memory = 4 x largest layer's params, with the
# optimizer offloaded 2 * params / gpus + largest layer. They print "GB" but
# divide by 2^30 (GiB).
ZERO_STAGES = (0, 1, 2, 3)
ZERO_ACCOUNTINGS = ("paper", "deepspeed")


def zero_model_states_gb(params_b: float, stage: int, gpus: int, accounting: str = "paper",
                         largest_layer_params_b: float = 0.0, offload_optimizer: bool = False) -> float:
    """Model states per GPU (GB, 1e9 bytes) under ZeRO ``stage`` over ``gpus`` data-parallel GPUs.

    ``paper``: the ZeRO paper's 16 B/param split (stages 0-3, no offload).
    ``deepspeed``: DeepSpeed's estimator for stages 2 and 3 (optionally with
    the optimizer offloaded to CPU).
    """
    p = params_b * 1e9
    if accounting == "paper":
        if offload_optimizer or stage not in ZERO_PAPER_BYTES:
            raise ValueError("the paper's accounting has stages 0-3 and no offload")
        replicated, sharded = ZERO_PAPER_BYTES[stage]
        return (replicated * p + sharded * p / gpus) / 1e9
    if accounting != "deepspeed" or stage not in (2, 3):
        raise ValueError("DeepSpeed's estimator covers stages 2 and 3")
    if stage == 2:
        return (2 * p if offload_optimizer else 4 * p + 16 * p / gpus) / 1e9
    largest = 4 * largest_layer_params_b * 1e9
    return (largest + (2 if offload_optimizer else 18) * p / gpus) / 1e9


def activations_gb(model: Model, seq_len: int, micro_batch: int, recompute: str) -> float:
    """Activation memory of one micro-batch (GB)."""
    sbh = seq_len * micro_batch * model.hidden
    if recompute == "full":
        return (A.ACT_CHECKPOINT_BYTES_PER_SBH * model.layers + A.ACT_BYTES_PER_SBH) * sbh / 1e9
    return A.ACT_BYTES_PER_SBH * model.layers * sbh / 1e9


def memory(model: Model, method: str, rank: int, seq_len: int, micro_batch: int,
           recompute: str, memory_gb: float, gpus: int) -> dict[str, Any]:
    """Unrounded training-memory numbers (shared with `decision` and `scaling`)."""
    weights, grads, optimizer, trainable = state_gb(model, method, rank)
    state = weights + grads + optimizer
    acts = activations_gb(model, seq_len, micro_batch, recompute)
    total = state + acts
    vram = gpus * memory_gb
    usable = vram * (1.0 - A.RUNTIME_RESERVE)
    per_gpu = memory_gb * (1.0 - A.RUNTIME_RESERVE)
    min_gpus = max(1, ceil_div(total, per_gpu))
    return {
        "weights": weights, "grads": grads, "optimizer": optimizer, "trainable": trainable,
        "state": state, "acts": acts, "total": total, "vram": vram, "usable": usable,
        "fits": total <= usable, "min_gpus": min_gpus, "min_nodes": ceil_div(min_gpus, gpus),
    }


def compute(inp: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Run training_memory on normalized inputs."""
    model = resolve_model(inp)
    gpu = GPU_BY_ID[inp["gpu"]]
    m = memory(model, inp["method"], inp["lora_rank"], inp["seq_len"], inp["micro_batch"],
               inp["recompute"], gpu.memory_gb, inp["gpus"])
    values = {
        "params_b": r(model.params_b, 3),
        "trainable_params_b": sig(m["trainable"]),
        "bytes_per_param": r(m["state"] / model.params_b, 4),
        "weights_gb": r(m["weights"], 2),
        "gradients_gb": r(m["grads"], 2),
        "optimizer_gb": r(m["optimizer"], 2),
        "state_gb": r(m["state"], 2),
        "activations_gb": r(m["acts"], 2),
        "total_gb": r(m["total"], 2),
        "vram_gb": r(m["vram"], 2),
        "usable_gb": r(m["usable"], 2),
        "total_share": sig(m["total"] / m["vram"]),
        "fits": m["fits"],
        "min_gpus": m["min_gpus"],
        "min_nodes": m["min_nodes"],
    }
    notes = model_notes(model, inp, raw)
    if model.id == CUSTOM:
        notes.append(note("hidden_size_estimated", hidden=model.hidden))
    return {"values": values, "verdict": "fits" if m["fits"] else "does_not_fit", "notes": notes}
