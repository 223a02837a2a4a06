"""training_memory: memory of a full fine-tune, LoRA or QLoRA run.

Bytes per parameter (assumptions.py; ZeRO paper arXiv:1910.02054, QLoRA paper
arXiv:2305.14314):
- full:  2 (BF16 weights) + 2 (BF16 grads) + 12 (FP32 master + Adam m, v) = 16
- lora:  2 per frozen base weight; 16 per adapter parameter
- qlora: 4.127 bits (NF4 + double quantization) per base weight; 16 per adapter
Adapter parameters: rank x 20 x hidden per layer (all linear layers).
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
from .catalog.models import CUSTOM, Model, resolve_model
from .common import GPU, GPUS, MODEL_INPUTS_DENSE, ceil_div, r, sig
from .spec import CalculatorSpec, Input, Output, note
from .vram_fit import model_notes

METHODS = ("full", "lora", "qlora")
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
    base = A.TRAIN_WEIGHT_BYTES if method == "lora" else A.QLORA_BASE_BYTES
    return (p * base + adapters * A.TRAIN_WEIGHT_BYTES, adapters * A.TRAIN_GRAD_BYTES,
            adapters * A.TRAIN_OPTIMIZER_BYTES, adapters)


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
