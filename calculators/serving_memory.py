"""Memory a serving engine takes beyond the weights and the KV cache.

vLLM sizes its KV cache at start-up (vllm/v1/worker/gpu_worker.py,
``determine_available_memory``, commit 0012cf691b7e69423244d2b1405f4b6832156e19)::

    available_kv_cache_memory = total_gpu_memory * gpu_memory_utilization - peak_memory

where ``total_gpu_memory`` is what CUDA reports for the card (GiB, not the
nominal "GB") and ``peak_memory`` is the weights, the activation peak of a
profiling forward pass and the allocations outside PyTorch (CUDA context,
cuBLAS workspaces, NCCL buffers). Since v0.21 the CUDA graphs are estimated
and charged inside the same budget. Per GPU, in GiB:

    kv_budget = exposed x utilization - weights/tp - non_torch - activation - cuda_graphs

Every constant below cites the startup log or code it comes from. The model
is calibrated on Llama 3 8B logs (the only model with several published
profiles); for other models the activation peak scales with the hidden size,
an assumption stated where it is used. ``kv_budget_range_gib`` gives the
range the logged engines allow (utilization 0.90-0.93, non-torch 0.05-3.58 GiB).

Tensor parallelism and the KV cache (``kv_bytes_per_token_per_gpu``): with
grouped-query attention each TP rank holds kv_heads/tp heads of every token
(at least one: vLLM replicates KV heads when tp > kv_heads). Multi-head latent
attention (DeepSeek-V3) caches one 576-wide latent per token and layer with no
head dimension to split, so every TP rank holds the full latent of every token:
"DeepSeek models use MLA and only have one KV head. If we use tensor
parallelism on 8 GPUs, it will lead to duplicated KV cache and unwanted memory
usage" (LMSYS, SGLang v0.4, https://lmsys.org/blog/2024-12-04-sglang-v0-4/
#data-parallelism-attention-for-deepseek-models). The documented alternative
is data-parallel attention (SGLang ``--enable-dp-attention``): each rank keeps
the latents of its own requests only, so the node holds tp times more tokens.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .catalog.gpus import Gpu
from .catalog.models import Model

GIB = 2**30

# What CUDA exposes is nvidia-smi's memory.total minus ~0.42 GiB the driver
# keeps: H100 80GB 81559 MiB (79.65 GiB) -> vLLM's total_gpu_memory 79.22 GiB
# (https://github.com/vllm-project/vllm/pull/10511, comment 2024-12-14);
# RTX 3090 24576 MiB (24.00 GiB) -> 23.58 GiB
# (https://github.com/vllm-project/vllm/issues/10517, comment 2024-12-02).
# Mean of the two differences (0.427, 0.420). Checked in reference.py against
# the RTX 5090 (31.37 GiB logged), a 24 GB L4/A10-class card (22.07 GiB) and
# the B200 (178.35 GiB), which were not used to fit it.
CUDA_RESERVED_GIB = 0.42


@dataclass(frozen=True)
class Engine:
    """A serving engine's memory policy."""

    id: str
    utilization: float        # gpu_memory_utilization: share of the exposed memory it budgets
    graphs_in_budget: bool    # are CUDA graphs charged inside that budget?
    source: str


ENGINE_LIST: tuple[Engine, ...] = (
    # vLLM up to v0.20: default gpu_memory_utilization 0.90 (vllm/engine/arg_utils.py,
    # ``gpu_memory_utilization: float = 0.90``); CUDA graphs captured after the
    # profile, outside the budget: "CUDA graphs can take additional 1~3 GiB memory
    # per GPU" (V0 log, https://github.com/mlcommons/inference/issues/2267). Every
    # startup log in reference.py was written by such a release.
    Engine("vllm-v0", 0.90, False, "https://github.com/vllm-project/vllm/blob/main/vllm/engine/arg_utils.py"),
    # Current vLLM: vllm/config/cache.py ``gpu_memory_utilization: float =
    # Field(default=0.92, gt=0, le=1)`` (commit 002f10e0cfa1373a19a0d2756598a34b700d20e5);
    # "CUDA graph memory profiling is enabled (default since v0.21.0)"
    # (https://github.com/vllm-project/vllm/issues/46462).
    Engine("vllm", 0.92, True, "https://github.com/vllm-project/vllm/blob/main/vllm/config/cache.py"),
)
ENGINES: Mapping[str, Engine] = MappingProxyType({e.id: e for e in ENGINE_LIST})
DEFAULT_ENGINE = "vllm"

# Non-torch memory per GPU (GiB), as vLLM logs it:
# - PCIe cards: 0.35 (RTX 3090, TP 1, issue #10517) and 0.33 (RTX 5090, TP 2,
#   https://github.com/vllm-project/vllm/issues/14452, turn 90); 0.05 on a
#   24 GB datacenter card (oracle-samples/oci-data-science-ai-samples,
#   ai-quick-actions/troubleshooting-tips.md, commit 6a67e1f4...).
# - H100 (NVLink): 1.79 at TP 1 and 3.58 at TP 2 (PR #10511): NCCL buffers
#   ("NCCL operations, for example, can use a few GB during a forward pass",
#   vllm/v1/worker/gpu_worker.py).
NON_TORCH_PCIE_GIB = 0.35
NON_TORCH_NVLINK_GIB = 1.79
NON_TORCH_NVLINK_TP_GIB = 3.58
NON_TORCH_RANGE_GIB = (0.05, 3.58)
# By link, the logged ends: PCIe 0.05-0.35, NVLink 1.79 (TP 1) - 3.58 (TP 2).
NON_TORCH_RANGE_PCIE_GIB = (0.05, 0.35)
NON_TORCH_RANGE_NVLINK_GIB = (1.79, 3.58)

# Activation peak of the profiling pass: 27 bytes per batched token per unit
# of hidden size. Fitted on Llama 3.1 8B (hidden 4096), BF16:
# 2.07 GiB at 20,000 and 2.99 GiB at 29,000 batched tokens (RTX 3090,
# issue #10517: peak_torch_memory 17.06 / 17.98 GiB - weights 14.99 GiB) and
# 0.22 GiB at a chunked-prefill budget of 2,048 tokens (OCI log above):
# 27.1, 27.0 and 28.2 B per token per hidden unit. PR #10511 logs the same
# 1.26 GiB at TP 1 and TP 2, so it is not divided by TP. Other models: scaled
# by the hidden size (an assumption; no other model's profile was published
# with its batched-token count).
ACTIVATION_BYTES_PER_TOKEN_HIDDEN = 27
# vLLM V1's default max_num_batched_tokens for the OpenAI server: 8192 on
# cards with >= 70 GiB, 2048 below (vllm/engine/arg_utils.py,
# ``_set_default_args``; usage context OPENAI_API_SERVER).
BATCHED_TOKENS_LARGE_CARD = 8192
BATCHED_TOKENS_SMALL_CARD = 2048
LARGE_CARD_GIB = 70.0

# CUDA graphs charged inside the budget by vLLM >= 0.21: "Estimated CUDA graph
# memory: 0.36 GiB total" for a small model (https://github.com/gpustack/runner/pull/251),
# up to 6.24 GiB for a large MoE with speculative decoding (issue #46462);
# 2,464 MiB measured on 4 x RTX 4090 at TP 4 with v0.5.4, outside the budget
# (https://github.com/vllm-project/vllm/issues/7553). Default 0.5 GiB.
CUDA_GRAPHS_GIB = 0.5
CUDA_GRAPHS_RANGE_GIB = (0.36, 2.41)

# Upper end of the engines' memory fraction: SGLang --mem-fraction-static 0.93
# (https://github.com/vllm-project/vllm/issues/21348: the same 4 x H100 box held
# 178,880 tokens under vLLM and 367,404 under SGLang).
UTILIZATION_RANGE = (0.90, 0.93)


def exposed_gib(smi_mib: int) -> float:
    """Memory CUDA exposes (GiB) on a card whose nvidia-smi memory.total is ``smi_mib``."""
    return smi_mib / 1024 - CUDA_RESERVED_GIB


def gpu_exposed_gib(gpu: Gpu) -> float:
    """Memory CUDA exposes on a catalog GPU (GiB); nominal GB as GiB when smi_mib is unknown."""
    if gpu.smi_mib:
        return exposed_gib(gpu.smi_mib)
    return gpu.memory_gb * 1e9 / GIB


def non_torch_gib(nvlink: bool, tp: int) -> float:
    """Allocations outside PyTorch per GPU (GiB): CUDA context, workspaces, NCCL."""
    if not nvlink:
        return NON_TORCH_PCIE_GIB
    return NON_TORCH_NVLINK_TP_GIB if tp > 1 else NON_TORCH_NVLINK_GIB


def default_batched_tokens(total_gib: float) -> int:
    """vLLM V1's default max_num_batched_tokens for a card of ``total_gib``."""
    return BATCHED_TOKENS_LARGE_CARD if total_gib >= LARGE_CARD_GIB else BATCHED_TOKENS_SMALL_CARD


def activation_gib(hidden: int, batched_tokens: int) -> float:
    """Activation peak of the profiling forward pass (GiB per GPU)."""
    return ACTIVATION_BYTES_PER_TOKEN_HIDDEN * batched_tokens * hidden / GIB


def engine_memory(total_gib: float, nvlink: bool, hidden: int, tp: int = 1,
                  engine: str = DEFAULT_ENGINE, batched_tokens: int | None = None) -> dict[str, float]:
    """The engine's share of one GPU (GiB): budget, and what it spends besides weights and KV.

    ``overhead_gib`` = everything but weights and KV: the memory outside the
    utilization budget plus non-torch, activation peak and (when charged
    inside) CUDA graphs; ``usable_gib`` = ``total_gib`` - ``overhead_gib``.
    """
    e = ENGINES[engine]
    tokens = default_batched_tokens(total_gib) if batched_tokens is None else batched_tokens
    budget = total_gib * e.utilization
    non_torch = non_torch_gib(nvlink, tp)
    act = activation_gib(hidden, tokens)
    graphs = CUDA_GRAPHS_GIB if e.graphs_in_budget else 0.0
    usable = budget - non_torch - act - graphs
    return {"total_gib": total_gib, "utilization": e.utilization, "budget_gib": budget,
            "non_torch_gib": non_torch, "activation_gib": act, "cuda_graphs_gib": graphs,
            "batched_tokens": float(tokens), "usable_gib": usable, "overhead_gib": total_gib - usable}


def kv_budget_gib(total_gib: float, nvlink: bool, hidden: int, weights_gib_per_gpu: float,
                  tp: int = 1, engine: str = DEFAULT_ENGINE, batched_tokens: int | None = None) -> float:
    """KV-cache memory per GPU (GiB) the engine leaves after weights and its overhead (may be < 0)."""
    return engine_memory(total_gib, nvlink, hidden, tp, engine, batched_tokens)["usable_gib"] - weights_gib_per_gpu


def usable_range_gib(total_gib: float, nvlink: bool, hidden: int,
                     batched_tokens: int | None = None) -> tuple[float, float]:
    """(low, high) memory per GPU (GiB) left for weights and KV over the logged engine settings.

    Low: utilization 0.90, the largest non-torch memory logged for the link
    (PCIe 0.35, NVLink 3.58 GiB) and CUDA graphs of 2.41 GiB inside the
    budget. High: utilization 0.93, the smallest (PCIe 0.05, NVLink 1.79 GiB),
    no CUDA graphs. The activation peak is the same at both ends.
    """
    tokens = default_batched_tokens(total_gib) if batched_tokens is None else batched_tokens
    act = activation_gib(hidden, tokens)
    non_torch = NON_TORCH_RANGE_NVLINK_GIB if nvlink else NON_TORCH_RANGE_PCIE_GIB
    low = total_gib * UTILIZATION_RANGE[0] - non_torch[1] - CUDA_GRAPHS_RANGE_GIB[1] - act
    high = total_gib * UTILIZATION_RANGE[1] - non_torch[0] - act
    return low, high


def kv_budget_range_gib(total_gib: float, nvlink: bool, hidden: int, weights_gib_per_gpu: float,
                        batched_tokens: int | None = None) -> tuple[float, float]:
    """(low, high) KV budget per GPU (GiB) over the logged engine settings (``usable_range_gib``)."""
    low, high = usable_range_gib(total_gib, nvlink, hidden, batched_tokens)
    return low - weights_gib_per_gpu, high - weights_gib_per_gpu


def usable_range_gb_per_gpu(gpu: Gpu, model: Model) -> tuple[float, float]:
    """(low, high) of ``usable_gb_per_gpu`` over the logged engine settings (GB, 1e9 bytes)."""
    low, high = usable_range_gib(gpu_exposed_gib(gpu), gpu.link.startswith("nvlink"), model.hidden)
    return low * GIB / 1e9, high * GIB / 1e9


def usable_gb_per_gpu(gpu: Gpu, model: Model, tp: int = 1, engine: str = DEFAULT_ENGINE) -> float:
    """Memory (GB, 1e9 bytes) one catalog GPU holds for weights and KV under the engine."""
    total = gpu_exposed_gib(gpu)
    mem = engine_memory(total, gpu.link.startswith("nvlink"), model.hidden, tp, engine)
    return mem["usable_gib"] * GIB / 1e9


ATTENTION_PARALLEL = ("tp", "dp")


def kv_bytes_per_token_per_gpu(model: Model, kv_bytes: float, tp: int, attention: str = "tp") -> float:
    """KV bytes one token occupies on each GPU that holds it (all layers, no sliding window).

    ``tp``: attention tensor-parallel over ``tp`` ranks: GQA heads are split
    (at least one per rank), an MLA latent is replicated on every rank.
    ``dp``: data-parallel attention: one rank holds the token, in full.
    """
    if attention not in ATTENTION_PARALLEL:
        raise ValueError(attention)
    if model.mla_kv_dim or attention == "dp":
        elems = model.kv_elems_per_token_layer
    else:  # kv_heads / tp heads per rank (vLLM wants tp to divide kv_heads or be a multiple of it)
        elems = 2 * max(1.0, model.kv_heads / tp) * model.head_dim
    return model.layers * elems * kv_bytes


def kv_token_capacity(model: Model, kv_bytes: float, gpus: int, kv_budget_gib_per_gpu: float,
                      attention: str = "tp") -> int:
    """Tokens of KV cache ``gpus`` GPUs hold together, each with ``kv_budget_gib_per_gpu``.

    With ``tp`` every rank holds a share (GQA) or a copy (MLA) of every token;
    with ``dp`` every rank holds whole tokens of its own requests.
    """
    if kv_budget_gib_per_gpu <= 0:
        return 0
    per_token = kv_bytes_per_token_per_gpu(model, kv_bytes, gpus, attention)
    per_gpu = int(kv_budget_gib_per_gpu * GIB // per_token)
    return per_gpu * gpus if attention == "dp" else per_gpu
