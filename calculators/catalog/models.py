"""Model catalog: the shapes the sizing math needs, from the official configs.

Parameter counts are computed from each config.json (embeddings, attention,
MLP and norms; untied embeddings counted twice) and match the totals the
Hugging Face model pages report. ``kv_elems_per_token_layer`` is what one
token stores per layer in the KV cache:
- standard / grouped-query attention: 2 (K and V) x kv_heads x head_dim;
- DeepSeek-V3 multi-head latent attention (MLA): kv_lora_rank +
  qk_rope_head_dim = 512 + 64 = 576 (one compressed latent shared by all
  heads, no factor 2), see the DeepSeek-V3 paper, arXiv:2412.19437, sec. 2.1.1.
Sliding-window layers (Gemma 2 alternates local 4096-token and global layers)
never hold more than ``sliding_window`` tokens.

``intermediate`` (the MLP width), ``vocab`` and ``tied_embeddings`` come from
the same configs; they split the parameters into the transformer blocks'
linear layers (what NF4 or FP8 quantizes) and the embeddings and output head
(which QLoRA and Meta's FP8 checkpoint keep in BF16).

FP8 checkpoints: ``fp8_bf16_params_b`` is the part of the parameters the
model's official FP8 checkpoint keeps in BF16 (0 = no such split is known).
Meta's Llama 3.1 405B FP8 ("fp8_mixed") quantizes only the feed-forward
weights w1, w2, w3 of layers 1..124, row-wise; layer 0, layer 125, all
attention, the embeddings and the output head stay BF16:
meta-llama/llama-models, models/llama3/quantization/loader.py
(``convert_to_fp8_quantized_model``: "if block.layer_id == 0 or
block.layer_id == (model.n_layers - 1): continue"; ``for key in ("w1", "w3",
"w2")``), commit 7798f83ab724dcafe86567cb995e353de2a564d0. FP8 FFN
parameters = 124 x 3 x 16384 x 53248 = 324.54e9, so 81.32e9 stay BF16 and the
checkpoint holds 487.2 GB of weights, not the 405.9 GB of "1 byte per
parameter". Meta sizes it at 8 GPUs x 70 GB (models/llama3_1/api/sku_list.py,
``llama3_1_405b_fp8_mp8``: gpu_count=8, memory_gb_per_gpu=70,
quantization_format=fp8_mixed), commit 1768925a9d343b19459b5bc2acc893c842874179.
The row-wise FP32 scales (one per output row) add < 0.01 %.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Model:
    id: str
    name: str
    params_b: float          # total parameters, billions
    active_params_b: float   # parameters used per token (differs for MoE)
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    max_context: int         # 0 = unknown (custom)
    sliding_window: int = 0  # 0 = no sliding-window layers
    sliding_layers: int = 0
    mla_kv_dim: int = 0      # 0 = standard attention
    source: str = ""
    intermediate: int = 0    # MLP width (intermediate_size); 0 = unknown
    vocab: int = 0           # vocab_size; 0 = unknown (custom)
    tied_embeddings: bool = False
    fp8_bf16_params_b: float = 0.0  # params the official FP8 checkpoint keeps in BF16

    @property
    def kv_elems_per_token_layer(self) -> int:
        if self.mla_kv_dim:
            return self.mla_kv_dim
        return 2 * self.kv_heads * self.head_dim

    @property
    def is_moe(self) -> bool:
        return self.active_params_b != self.params_b


# Meta's Llama 3.1 405B FP8 checkpoint: FFN w1, w2, w3 of layers 1..124 in FP8
# (loader.py above): 124 layers x 3 matrices x dim 16384 x ffn 53248.
FP8_MIXED_405B_FFN_PARAMS_B = 124 * 3 * 16384 * 53248 / 1e9

MODEL_LIST: tuple[Model, ...] = (
    # https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json
    Model("llama-3.1-8b", "Llama 3.1 8B", 8.030261248, 8.030261248, 32, 4096, 32, 8, 128, 131072,
          source="https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json",
          intermediate=14336, vocab=128256),
    # https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json
    Model("llama-3.1-70b", "Llama 3.1 70B", 70.553706496, 70.553706496, 80, 8192, 64, 8, 128, 131072,
          source="https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json",
          intermediate=28672, vocab=128256),
    # https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json
    # num_key_value_heads = 8. Early copies of this config said 16, which
    # doubles the KV cache; the official value is 8.
    Model("llama-3.1-405b", "Llama 3.1 405B", 405.8533888, 405.8533888, 126, 16384, 128, 8, 128, 131072,
          source="https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json",
          intermediate=53248, vocab=128256,
          fp8_bf16_params_b=405.8533888 - FP8_MIXED_405B_FFN_PARAMS_B),
    # https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json (context per the model card)
    Model("qwen2.5-7b", "Qwen2.5 7B", 7.615616512, 7.615616512, 28, 3584, 28, 4, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json",
          intermediate=18944, vocab=152064),
    # https://huggingface.co/Qwen/Qwen2.5-14B/blob/main/config.json
    Model("qwen2.5-14b", "Qwen2.5 14B", 14.770033664, 14.770033664, 48, 5120, 40, 8, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen2.5-14B/blob/main/config.json",
          intermediate=13824, vocab=152064),
    # https://huggingface.co/Qwen/Qwen2.5-32B/blob/main/config.json
    # (the model card rounds to "32.5B"; the config's shapes give 32.76B)
    Model("qwen2.5-32b", "Qwen2.5 32B", 32.763876352, 32.763876352, 64, 5120, 40, 8, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen2.5-32B/blob/main/config.json",
          intermediate=27648, vocab=152064),
    # https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json
    Model("qwen2.5-72b", "Qwen2.5 72B", 72.706203648, 72.706203648, 80, 8192, 64, 8, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json",
          intermediate=29568, vocab=152064),
    # https://huggingface.co/mistralai/Mistral-7B-v0.3/blob/main/config.json
    # v0.3 has no sliding window (v0.1 had a 4096-token window) and 32k context.
    Model("mistral-7b", "Mistral 7B v0.3", 7.248023552, 7.248023552, 32, 4096, 32, 8, 128, 32768,
          source="https://huggingface.co/mistralai/Mistral-7B-v0.3/blob/main/config.json",
          intermediate=14336, vocab=32768),
    # https://huggingface.co/google/gemma-2-27b/blob/main/config.json
    # 46 layers alternating local (sliding_window 4096) and global attention.
    Model("gemma-2-27b", "Gemma 2 27B", 27.227128320, 27.227128320, 46, 4608, 32, 16, 128, 8192,
          sliding_window=4096, sliding_layers=23,
          source="https://huggingface.co/google/gemma-2-27b/blob/main/config.json",
          intermediate=36864, vocab=256000, tied_embeddings=True),
    # https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json and
    # arXiv:2412.19437: 671B total, 37B activated per token (the 685B on the
    # model page includes the 14B multi-token-prediction module), 61 layers,
    # hidden 7168, kv_lora_rank 512, qk_rope_head_dim 64, 163840 positions.
    Model("deepseek-v3", "DeepSeek-V3 671B", 671.0, 37.0, 61, 7168, 128, 128, 128, 163840,
          mla_kv_dim=512 + 64,
          source="https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json",
          intermediate=18432, vocab=129280),
)

MODEL_BY_ID: Mapping[str, Model] = MappingProxyType({m.id: m for m in MODEL_LIST})
MODEL_IDS: tuple[str, ...] = tuple(m.id for m in MODEL_LIST)
CUSTOM = "custom"
MODEL_CHOICES: tuple[str, ...] = (*MODEL_IDS, CUSTOM)

# Defaults of the custom-model inputs: a Llama-3.1-70B-like shape.
CUSTOM_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {"params_b": 70.0, "layers": 80, "kv_heads": 8, "head_dim": 128})

# A dense decoder has ~12 * layers * hidden^2 parameters (4h^2 attention +
# 8h^2 MLP; Kaplan et al. 2020, arXiv:2001.08361, sec. 2.1). Used to estimate
# the hidden size of a custom model, which the activation and tensor-parallel
# formulas need.
PARAMS_PER_LAYER_H2 = 12


def estimate_hidden(params_b: float, layers: int) -> int:
    """Hidden size of a dense decoder with ``params_b`` billion parameters."""
    return max(1, round(math.sqrt(params_b * 1e9 / (PARAMS_PER_LAYER_H2 * layers))))


def resolve_model(inputs: dict[str, Any]) -> Model:
    """The catalog model named by ``inputs["model"]``, or the custom shape."""
    model_id = inputs["model"]
    if model_id != CUSTOM:
        return MODEL_BY_ID[model_id]
    params_b = float(inputs.get("params_b", CUSTOM_DEFAULTS["params_b"]))
    layers = int(inputs.get("layers", CUSTOM_DEFAULTS["layers"]))
    kv_heads = int(inputs.get("kv_heads", CUSTOM_DEFAULTS["kv_heads"]))
    head_dim = int(inputs.get("head_dim", CUSTOM_DEFAULTS["head_dim"]))
    return Model(CUSTOM, "Custom", params_b, params_b, layers, estimate_hidden(params_b, layers),
                 kv_heads, kv_heads, head_dim, 0)


def embedding_params_b(model: Model) -> float:
    """Parameters (billions) of the embeddings and output head (0 when the vocabulary is unknown)."""
    return model.vocab * model.hidden * (1 if model.tied_embeddings else 2) / 1e9


def block_params_b(model: Model) -> float:
    """Parameters (billions) of the transformer blocks: everything but embeddings and head.

    Norm weights (2 x hidden per layer) are counted here too; they are < 0.01 %.
    """
    return model.params_b - embedding_params_b(model)


FP8_LAYOUTS = ("uniform", "official")


def fp8_weights_gb(model: Model, layout: str = "uniform") -> float:
    """Weights (GB) of an FP8 checkpoint.

    ``uniform``: every parameter in FP8 (1 byte; the calculators' default).
    ``official``: the model's published FP8 checkpoint, with the parameters it
    keeps in BF16 at 2 bytes (Meta's 405B FP8: 487.2 GB, see the module doc).
    """
    if layout not in FP8_LAYOUTS:
        raise ValueError(layout)
    kept = model.fp8_bf16_params_b if layout == "official" else 0.0
    return (model.params_b - kept) * 1.0 + kept * 2.0


def describe_model(m: Model) -> dict[str, Any]:
    """Plain JSON-able description of a catalog model."""
    return {
        "name": m.name,
        "params_b": m.params_b,
        "active_params_b": m.active_params_b,
        "layers": m.layers,
        "hidden": m.hidden,
        "heads": m.heads,
        "kv_heads": m.kv_heads,
        "head_dim": m.head_dim,
        "max_context": m.max_context,
        "sliding_window": m.sliding_window,
        "sliding_layers": m.sliding_layers,
        "mla_kv_dim": m.mla_kv_dim,
        "kv_elems_per_token_layer": m.kv_elems_per_token_layer,
        "intermediate": m.intermediate,
        "vocab": m.vocab,
        "tied_embeddings": m.tied_embeddings,
        "fp8_bf16_params_b": m.fp8_bf16_params_b,
        "source": m.source,
    }
