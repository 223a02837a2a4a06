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
- recompute "offload": the checkpoints in CPU memory (Unsloth's and axolotl's offloading):
  one 2 x s x b x h checkpoint + 34 x s x b x h (the layer being recomputed) on the GPU
The micro-batch's activations are assumed split over the GPUs (tensor +
sequence parallelism); with pure FSDP each GPU holds its own micro-batch.
fits = total_gb <= usable_gb (90 % of VRAM); min_gpus = ceil(total / (0.9 x memory)).
For the other calculators and the planner: ``fits_training`` (a run on N GPUs,
sharded with FSDP / ZeRO-3 beyond one, at the published recipes' defaults:
gradient checkpointing, 2,048 tokens), ``layout_state_gb`` and
``layout_activations_gb`` (per GPU of a TP x PP x DP layout).
"""

from typing import Any

from . import assumptions as A
from .catalog.gpus import GPU_BY_ID, Gpu
from .catalog.models import CUSTOM, MODEL_BY_ID, Model, block_params_b, embedding_params_b, resolve_model
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
RECOMPUTE = ("none", "full", "offload")
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


# Sharded data parallel (ZeRO-3 / PyTorch FSDP) holds, besides its shard, the
# unsharded weights of the unit it computes and of the one it prefetches (FSDP
# wraps each transformer block: Zhao et al. 2023, arXiv:2304.11277, sec. 3.1 and
# 3.3, forward and backward prefetch): 2 blocks' weights.
FSDP_GATHERED_UNITS = 2


def layout_state_gb(model: Model, tp: int, pp: int, dp: int, sharding: str) -> float:
    """Full-training state per GPU (GB) of a TP x PP x DP layout, 16 B/param (ZeRO paper, sec. 3.1).

    ``sharding`` (scaling.SHARDINGS): ``none`` replicates the state over the ``dp``
    replicas (DDP, ZeRO's baseline), ``optimizer`` shards gradients and optimizer states
    (ZeRO-2: 2 + 14 / dp bytes per parameter), ``full`` everything (ZeRO-3 / FSDP: 16 / dp).
    Each pipeline rank holds 1 / (tp x pp) of the parameters.
    """
    p = model.params_b / (tp * pp)
    per_param = A.TRAIN_WEIGHT_BYTES + A.TRAIN_GRAD_BYTES + A.TRAIN_OPTIMIZER_BYTES
    if sharding == "none":
        return p * per_param
    if sharding == "optimizer":
        return p * (A.TRAIN_WEIGHT_BYTES + (A.TRAIN_GRAD_BYTES + A.TRAIN_OPTIMIZER_BYTES) / dp)
    return p * per_param / dp


def gathered_unit_gb(model: Model, method: str) -> float:
    """Weights (GB) FSDP holds unsharded while it computes: ``FSDP_GATHERED_UNITS`` transformer blocks."""
    base_bytes = A.QLORA_BASE_BYTES if method == "qlora" else A.TRAIN_WEIGHT_BYTES
    return FSDP_GATHERED_UNITS * block_params_b(model) / model.layers * base_bytes


def activations_gb(model: Model, seq_len: int, micro_batch: int, recompute: str) -> float:
    """Activation memory of one micro-batch (GB)."""
    sbh = seq_len * micro_batch * model.hidden
    if recompute == "full":
        return (A.ACT_CHECKPOINT_BYTES_PER_SBH * model.layers + A.ACT_BYTES_PER_SBH) * sbh / 1e9
    if recompute == "offload":
        resident = min(model.layers, A.ACT_OFFLOAD_RESIDENT_CHECKPOINTS)
        return (A.ACT_CHECKPOINT_BYTES_PER_SBH * resident + A.ACT_BYTES_PER_SBH) * sbh / 1e9
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


def layout_activations_gb(model: Model, tp: int, pp: int, virtual: int, seq_len: int, micro_batch: int,
                          micro_batches: float, recompute: str) -> float:
    """Activations (GB) one GPU holds in a TP x PP layout with the 1F1B schedule.

    Tensor + sequence parallelism split a layer's activations over the ``tp`` GPUs; the
    first pipeline stage holds min(pp, micro-batches) micro-batches of its L / pp layers in
    flight, i.e. up to the whole model's L layers, times 1 + (pp - 1) / (pp x virtual) with
    the interleaved schedule (Korthikanti et al. 2022, arXiv:2205.05198, sec. 4.2.3).
    """
    sbh = seq_len * micro_batch * model.hidden
    inflight = 1.0 if pp == 1 else min(pp, max(1.0, micro_batches)) * (1 + (pp - 1) / (pp * max(1, virtual)))
    if recompute == "offload":  # the checkpoints in CPU memory: whatever the layout, one layer's worth on a GPU
        return activations_gb(model, seq_len, micro_batch, recompute) / tp
    per_layer = A.ACT_CHECKPOINT_BYTES_PER_SBH if recompute == "full" else A.ACT_BYTES_PER_SBH
    acts = per_layer * sbh * model.layers / pp * inflight
    if recompute == "full":
        acts += A.ACT_BYTES_PER_SBH * sbh  # the layer being recomputed
    return acts / tp / 1e9


# What published fine-tuning recipes run (fits_training's defaults): gradient
# checkpointing on, 2,048-token sequences, micro-batch 1. QLoRA trains with
# gradient checkpointing (Dettmers et al. 2023, arXiv:2305.14314, sec. 3: "gradient
# checkpointing" in its 48 GB 65B run); Unsloth's notebooks set max_seq_length = 2048
# with use_gradient_checkpointing="unsloth" (the checkpoints offloaded: `decision`
# tries that before more GPUs); LLaMA-Factory's LoRA and QLoRA examples
# "cutoff_len: 2048" (hiyouga/LLaMA-Factory, examples/train_qlora/llama3_lora_sft_otfq.yaml);
# axolotl's Llama 3 recipes "sequence_len: 4096" with "gradient_checkpointing: true"
# (axolotl-ai-cloud/axolotl, examples/llama-3/qlora.yml); Hugging Face PEFT's QLoRA guide
# turns on gradient checkpointing (prepare_model_for_kbit_training). 2,048 is what two of
# the three recipe sets run (4,096 until 2026-12-05).
RECIPE_SEQ_LEN = 2048  # source: Unsloth notebooks max_seq_length = 2048; LLaMA-Factory examples cutoff_len: 2048
RECIPE_RECOMPUTE = "full"
# min_gpus is searched over the counts clusters are built from (1, 2, 4, ... GPUs).
MAX_SHARDED_GPUS = 65536


def _sharded_per_gpu_gb(model: Model, method: str, rank: int, gpus: int, seq_len: int, micro_batch: int,
                        recompute: str) -> tuple[float, float, float]:
    """(per-GPU GB, state GB, activations GB per GPU) with the state sharded over ``gpus`` GPUs (FSDP)."""
    weights, grads, optimizer, _ = state_gb(model, method, rank)
    state = weights + grads + optimizer
    acts = activations_gb(model, seq_len, micro_batch, recompute)  # each GPU its own micro-batch
    unit = gathered_unit_gb(model, method) if gpus > 1 else 0.0
    return state / gpus + acts + unit, state, acts


def fits_training(model: Model | str, method: str, gpu: Gpu | str, gpus: int,
                  seq_len: int = RECIPE_SEQ_LEN, recompute: str = RECIPE_RECOMPUTE, micro_batch: int = 1,
                  lora_rank: int = A.DEFAULT_LORA_RANK) -> dict[str, Any]:
    """Does a ``method`` (full, lora, qlora) run fit ``gpus`` of ``gpu``, and on how few would it?

    One GPU holds the whole state; more shard it with FSDP / ZeRO-3 (every GPU its own
    micro-batch of activations and the ``FSDP_GATHERED_UNITS`` blocks it works on).
    Defaults are the published recipes' (``RECIPE_SEQ_LEN``, ``RECIPE_RECOMPUTE``).
    Returns ``fits``, ``per_gpu_gb``, ``total_gb`` (all ``gpus`` together), ``usable_gb_per_gpu``
    (90 % of a GPU), ``state_gb``, ``activations_gb`` (one micro-batch), ``min_gpus``: the
    fewest of 1, 2, 4, 8, ... that hold it (0 when none does: one micro-batch's activations
    alone exceed a GPU).
    """
    if isinstance(model, str):
        model = MODEL_BY_ID[model]
    if isinstance(gpu, str):
        gpu = GPU_BY_ID[gpu]
    usable = gpu.memory_gb * (1.0 - A.RUNTIME_RESERVE)
    per_gpu, state, acts = _sharded_per_gpu_gb(model, method, lora_rank, gpus, seq_len, micro_batch, recompute)
    min_gpus, n = 0, 1
    while n <= MAX_SHARDED_GPUS:
        if _sharded_per_gpu_gb(model, method, lora_rank, n, seq_len, micro_batch, recompute)[0] <= usable:
            min_gpus = n
            break
        n *= 2
    return {"fits": per_gpu <= usable, "per_gpu_gb": per_gpu, "total_gb": per_gpu * gpus,
            "usable_gb_per_gpu": usable, "state_gb": state, "activations_gb": acts, "min_gpus": min_gpus,
            "seq_len": seq_len, "recompute": recompute, "micro_batch": micro_batch, "lora_rank": lora_rank}
