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
    # Mixture of experts (0 = dense): routed experts per MoE layer, experts each token is
    # routed to (top-k), and the parameters of all routed experts of all layers. Shared
    # experts, attention, dense layers and embeddings are the rest (``dense_params_b``).
    experts: int = 0
    experts_per_token: int = 0
    routed_params_b: float = 0.0

    @property
    def kv_elems_per_token_layer(self) -> int:
        if self.mla_kv_dim:
            return self.mla_kv_dim
        return 2 * self.kv_heads * self.head_dim

    @property
    def is_moe(self) -> bool:
        return self.active_params_b != self.params_b

    @property
    def dense_params_b(self) -> float:
        """Parameters (billions) every token uses: the active ones less its share of the routed experts."""
        if not self.experts:
            return self.active_params_b
        return self.active_params_b - self.routed_params_b * self.experts_per_token / self.experts


def config_params(vocab: int, hidden: int, layers: int, heads: int, kv_heads: int, head_dim: int, *,
                  tied: bool = False, dense_layers: int = 0, dense_ffn: int = 0, moe_layers: int = 0,
                  experts: int = 0, experts_per_token: int = 0, expert_ffn: int = 0, shared_ffn: int = 0,
                  qk_norm: bool = False, attn_bias: bool = False, expert_bias: bool = False,
                  router_bias: bool = False, sinks: bool = False, extra: int = 0) -> tuple[float, float, float]:
    """(total, active, routed) parameters (billions) of a decoder from its config.json fields.

    Counted like every entry of the catalog: embeddings (twice when untied), per layer the
    attention projections (q and o: hidden x heads x head_dim; k and v: hidden x kv_heads x
    head_dim; biases, per-head attention sinks and q/k norms where the config has them) and two
    RMSNorms, a final norm; SwiGLU MLPs of 3 x hidden x width (dense layers, each routed expert,
    the shared expert) and the router (hidden x experts). ``extra`` is counted in the total only
    (Llama 4's vision encoder). Active = total less the routed experts a token does not use:
    routed x (1 - experts_per_token / experts).
    """
    q, kv = heads * head_dim, kv_heads * head_dim
    attn = 2 * hidden * q + 2 * hidden * kv
    attn += (q + 2 * kv + hidden) if attn_bias else 0
    attn += heads if sinks else 0
    attn += 2 * head_dim if qk_norm else 0
    expert = 3 * hidden * expert_ffn + ((2 * expert_ffn + hidden) if expert_bias else 0)
    router = hidden * experts + (experts if router_bias else 0)
    total = (vocab * hidden * (1 if tied else 2) + hidden + layers * (attn + 2 * hidden)
             + dense_layers * 3 * hidden * dense_ffn
             + moe_layers * (experts * expert + router + 3 * hidden * shared_ffn) + extra)
    routed = moe_layers * experts * expert
    unused = routed * (1 - experts_per_token / experts) if experts else 0
    return total / 1e9, (total - extra - unused) / 1e9, routed / 1e9


def llama4_vision_params(hidden: int = 1408, layers: int = 34, ffn: int = 5632, patch: int = 14,
                         image: int = 336, shuffle: float = 0.5, projector: int = 4096, text_hidden: int = 5120) -> int:
    """Parameters of Llama 4's vision encoder, adapter and projector (transformers' modeling_llama4).

    vision_config (identical in Scout and Maverick): hidden 1408, intermediate 5632, 34 layers,
    patch 14 at 336 px, pixel_shuffle_ratio 0.5, projector_input_dim = projector_output_dim =
    vision_output_dim 4096. Patch embedding (3 x 14 x 14 -> hidden), class and positional
    embeddings ((336/14)^2 + 1 positions), pre/post LayerNorms; per layer q, k, v, o and the two
    MLP projections with biases and two LayerNorms; the pixel-shuffle MLP (hidden / 0.5^2 ->
    4096 -> 4096) and the projector to the text model (4096 -> 5120), without biases: 0.87B.
    """
    positions = (image // patch) ** 2 + 1
    embed = 3 * patch * patch * hidden + hidden + positions * hidden + 4 * hidden
    layer = 4 * (hidden * hidden + hidden) + 2 * hidden * ffn + ffn + hidden + 4 * hidden
    adapter = round(hidden / shuffle**2) * projector + projector * projector
    return embed + layers * layer + adapter + projector * text_hidden


# Qwen3 (Qwen/Qwen3-8B, -32B, -30B-A3B, -235B-A22B config.json; Qwen3 technical report,
# arXiv:2505.09388, Tables 1-2): no attention bias, q/k RMSNorm over head_dim, untied
# embeddings, vocab 151936. Context: "32,768 natively and 131,072 tokens with YaRN" (model
# cards); config.json's max_position_embeddings 40960 is the native window plus output room.
# MoE: 128 routed experts, 8 per token, no shared expert, every layer MoE (decoder_sparse_step 1).
_QWEN3 = {"vocab": 151936, "head_dim": 128, "qk_norm": True}
QWEN3_8B = config_params(hidden=4096, layers=36, heads=32, kv_heads=8, dense_layers=36, dense_ffn=12288, **_QWEN3)
QWEN3_32B = config_params(hidden=5120, layers=64, heads=64, kv_heads=8, dense_layers=64, dense_ffn=25600, **_QWEN3)
QWEN3_30B_A3B = config_params(hidden=2048, layers=48, heads=32, kv_heads=4, moe_layers=48, experts=128,
                              experts_per_token=8, expert_ffn=768, **_QWEN3)
QWEN3_235B_A22B = config_params(hidden=4096, layers=94, heads=64, kv_heads=4, moe_layers=94, experts=128,
                                experts_per_token=8, expert_ffn=1536, **_QWEN3)
# Llama 4 (meta-llama/Llama-4-Scout-17B-16E and Llama-4-Maverick-17B-128E config.json,
# text_config; the Maverick one is reproduced in NVIDIA/TensorRT-LLM
# tests/unittest/_torch/modeling/test_modeling_llama_min_latency.py): hidden 5120, 48 layers,
# 40 heads, 8 KV heads, head_dim 128, vocab 202048, untied; routed experts of width 8192
# (intermediate_size), top-1, plus one shared expert of the same width in every MoE layer.
# Scout: 16 experts, every layer MoE. Maverick: 128 experts, every second layer MoE
# (interleave_moe_layer_step 2), the others dense MLPs of 16384 (intermediate_size_mlp).
# Both natively multimodal: the vision encoder (0.87B) is part of the checkpoint a server loads.
_LLAMA4 = {"vocab": 202048, "hidden": 5120, "layers": 48, "heads": 40, "kv_heads": 8, "head_dim": 128,
           "experts_per_token": 1, "expert_ffn": 8192, "shared_ffn": 8192, "extra": llama4_vision_params()}
LLAMA4_SCOUT = config_params(moe_layers=48, experts=16, **_LLAMA4)
LLAMA4_MAVERICK = config_params(moe_layers=24, experts=128, dense_layers=24, dense_ffn=16384, **_LLAMA4)
# gpt-oss (openai/gpt-oss gpt_oss/torch/model.py ModelConfig; openai/gpt-oss-120b and -20b
# config.json): hidden 2880, 64 heads of 64, 8 KV heads, vocab 201088, untied; qkv and output
# biases, one attention sink per head; experts of width 2880 with biases, router with bias,
# 4 experts per token. 120b: 36 layers, 128 experts; 20b: 24 layers, 32 experts. Totals match
# the model card (116.83B and 20.91B); OpenAI's active counts (5.13B, 3.61B) leave out the
# input embedding (0.58B), which ours, like every entry's, include.
_GPT_OSS = {"vocab": 201088, "hidden": 2880, "heads": 64, "kv_heads": 8, "head_dim": 64, "experts_per_token": 4,
            "expert_ffn": 2880, "attn_bias": True, "expert_bias": True, "router_bias": True, "sinks": True}
GPT_OSS_20B = config_params(layers=24, moe_layers=24, experts=32, **_GPT_OSS)
GPT_OSS_120B = config_params(layers=36, moe_layers=36, experts=128, **_GPT_OSS)
# DeepSeek-V3 (config.json above): 256 routed experts of width 2048 (moe_intermediate_size),
# 8 per token, one shared expert, in 58 of 61 layers (first_k_dense_replace 3).
DEEPSEEK_V3_ROUTED_B = 58 * 256 * 3 * 7168 * 2048 / 1e9

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
          intermediate=18432, vocab=129280,
          experts=256, experts_per_token=8, routed_params_b=DEEPSEEK_V3_ROUTED_B),
    # The newer open-weight models, counted from their config.json by config_params (above).
    Model("qwen3-8b", "Qwen3 8B", QWEN3_8B[0], QWEN3_8B[1], 36, 4096, 32, 8, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json",
          intermediate=12288, vocab=151936),
    Model("qwen3-32b", "Qwen3 32B", QWEN3_32B[0], QWEN3_32B[1], 64, 5120, 64, 8, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen3-32B/blob/main/config.json",
          intermediate=25600, vocab=151936),
    Model("qwen3-30b-a3b", "Qwen3 30B-A3B", QWEN3_30B_A3B[0], QWEN3_30B_A3B[1], 48, 2048, 32, 4, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json",
          intermediate=768, vocab=151936,
          experts=128, experts_per_token=8, routed_params_b=QWEN3_30B_A3B[2]),
    Model("qwen3-235b-a22b", "Qwen3 235B-A22B", QWEN3_235B_A22B[0], QWEN3_235B_A22B[1], 94, 4096, 64, 4, 128, 131072,
          source="https://huggingface.co/Qwen/Qwen3-235B-A22B/blob/main/config.json",
          intermediate=1536, vocab=151936,
          experts=128, experts_per_token=8, routed_params_b=QWEN3_235B_A22B[2]),
    # Llama 4 interleaves chunked local attention (attention_chunk_size 8192) in three layers of
    # four with a global NoPE layer (no_rope_layers: every fourth). A chunked layer attends within
    # its aligned 8192-token chunk, so it holds at most 8192 tokens of KV, as a sliding window of
    # 8192 does (vLLM serves both with the same windowed KV manager); modelled as that window, an
    # upper bound (mid-chunk a layer holds fewer). Context: Scout 10M (10,485,760 positions; the
    # form stops at 1,048,576), Maverick 1M (1,048,576).
    Model("llama-4-scout", "Llama 4 Scout 17B-16E", LLAMA4_SCOUT[0], LLAMA4_SCOUT[1], 48, 5120, 40, 8, 128, 10485760,
          sliding_window=8192, sliding_layers=36,
          source="https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E/blob/main/config.json",
          intermediate=8192, vocab=202048,
          experts=16, experts_per_token=1, routed_params_b=LLAMA4_SCOUT[2]),
    Model("llama-4-maverick", "Llama 4 Maverick 17B-128E", LLAMA4_MAVERICK[0], LLAMA4_MAVERICK[1], 48, 5120, 40, 8,
          128, 1048576, sliding_window=8192, sliding_layers=36,
          source="https://huggingface.co/meta-llama/Llama-4-Maverick-17B-128E/blob/main/config.json",
          intermediate=16384, vocab=202048,
          experts=128, experts_per_token=1, routed_params_b=LLAMA4_MAVERICK[2]),
    # gpt-oss alternates a 128-token sliding window (even layers: "Only apply sliding window to
    # every other layer", gpt_oss/torch/model.py) with full attention; context 131,072 (4,096 x
    # YaRN factor 32). Its native checkpoint stores the MoE weights in MXFP4 (4.25 bits) and the
    # rest in BF16: 120b 60.9 + 4.2 = 65.2 GB, against 65.7 GB at our fp4 (NVFP4, 4.5 bits for
    # every weight, assumptions.WEIGHT_BYTES); 20b 10.2 + 3.6 = 13.7 GB against 11.8.
    Model("gpt-oss-20b", "gpt-oss-20b", GPT_OSS_20B[0], GPT_OSS_20B[1], 24, 2880, 64, 8, 64, 131072,
          sliding_window=128, sliding_layers=12,
          source="https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json",
          intermediate=2880, vocab=201088,
          experts=32, experts_per_token=4, routed_params_b=GPT_OSS_20B[2]),
    Model("gpt-oss-120b", "gpt-oss-120b", GPT_OSS_120B[0], GPT_OSS_120B[1], 36, 2880, 64, 8, 64, 131072,
          sliding_window=128, sliding_layers=18,
          source="https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json",
          intermediate=2880, vocab=201088,
          experts=128, experts_per_token=4, routed_params_b=GPT_OSS_120B[2]),
)

MODEL_BY_ID: Mapping[str, Model] = MappingProxyType({m.id: m for m in MODEL_LIST})
MODEL_IDS: tuple[str, ...] = tuple(m.id for m in MODEL_LIST)
CUSTOM = "custom"
MODEL_CHOICES: tuple[str, ...] = (*MODEL_IDS, CUSTOM)

# Defaults of the custom-model inputs: a Llama-3.1-70B-like shape (64 query heads over 8 KV
# heads, as its config.json; until 2026-12 a custom model had as many query heads as KV heads,
# which costed a GQA model's attention 8x low). active_params_b 0 = dense (all parameters active).
CUSTOM_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {"params_b": 70.0, "active_params_b": 0.0, "layers": 80, "heads": 64, "kv_heads": 8, "head_dim": 128})
# A custom MoE model is routed like Qwen3's MoE models: 8 of 128 experts per token, no
# shared expert (Qwen/Qwen3-30B-A3B config.json); its routed parameters are what that share
# implies, routed x (1 - 8/128) = params - active. When fewer than 1/16 of the parameters are
# active, the experts are more (8 of ceil(8 x params / active)), so that the routed experts
# never outnumber the parameters.
CUSTOM_EXPERTS_PER_TOKEN = 8
CUSTOM_EXPERTS = 128

# A dense decoder has ~12 * layers * hidden^2 parameters (4h^2 attention +
# 8h^2 MLP; Kaplan et al. 2020, arXiv:2001.08361, sec. 2.1). Used to estimate
# the hidden size of a custom model, which the activation and tensor-parallel
# formulas need.
PARAMS_PER_LAYER_H2 = 12


def estimate_hidden(params_b: float, layers: int) -> int:
    """Hidden size of a dense decoder with ``params_b`` billion parameters."""
    return max(1, round(math.sqrt(params_b * 1e9 / (PARAMS_PER_LAYER_H2 * layers))))


def custom_moe(params_b: float, active_params_b: float) -> tuple[int, int, float]:
    """(experts, experts_per_token, routed_params_b) assumed for a custom MoE model (see CUSTOM_EXPERTS)."""
    if not 0 < active_params_b < params_b:
        return 0, 0, 0.0
    k = CUSTOM_EXPERTS_PER_TOKEN
    experts = max(CUSTOM_EXPERTS, math.ceil(k * params_b / active_params_b))
    routed = (params_b - active_params_b) / (1 - k / experts)
    return experts, k, min(routed, params_b)


def resolve_model(inputs: dict[str, Any]) -> Model:
    """The catalog model named by ``inputs["model"]``, or the custom shape.

    A custom model is dense unless ``active_params_b`` is set (> 0 and below ``params_b``): then
    it is a mixture of experts routed as ``custom_moe`` assumes. Its hidden size is estimated
    from the active parameters (a MoE's layers are as wide as a dense model of its active size:
    Qwen3-30B-A3B, 3.3B active over 48 layers, gives 2394 for its 2048).
    """
    model_id = inputs["model"]
    if model_id != CUSTOM:
        return MODEL_BY_ID[model_id]
    params_b = float(inputs.get("params_b", CUSTOM_DEFAULTS["params_b"]))
    active_b = float(inputs.get("active_params_b", CUSTOM_DEFAULTS["active_params_b"]))
    active_b = active_b if 0 < active_b < params_b else params_b
    layers = int(inputs.get("layers", CUSTOM_DEFAULTS["layers"]))
    heads = int(inputs.get("heads", CUSTOM_DEFAULTS["heads"]))
    kv_heads = int(inputs.get("kv_heads", CUSTOM_DEFAULTS["kv_heads"]))
    head_dim = int(inputs.get("head_dim", CUSTOM_DEFAULTS["head_dim"]))
    experts, k, routed = custom_moe(params_b, active_b)
    return Model(CUSTOM, "Custom", params_b, active_b, layers, estimate_hidden(active_b, layers),
                 heads, kv_heads, head_dim, 0, experts=experts, experts_per_token=k, routed_params_b=routed)


def touched_params_b(model: Model, tokens: float) -> float:
    """Parameters (billions) one decode step reads when ``tokens`` independent tokens go through it.

    Each token uses the dense part (attention, shared experts, dense layers, embeddings) and
    ``experts_per_token`` of the ``experts`` routed experts of every MoE layer. Assuming each
    token picks its experts uniformly and independently of the others (what the load-balancing
    loss of Switch Transformer, Fedus et al. 2021, arXiv:2101.03961, sec. 2.2, and the
    auxiliary-loss-free balancing of DeepSeek-V3, arXiv:2412.19437, sec. 2.1.2, push routing
    towards), an expert is left untouched by all ``tokens`` with probability (1 - k/E)^tokens,
    so the step reads

        dense + routed x (1 - (1 - k/E)^tokens)

    = ``active_params_b`` at 1 token, rising towards every parameter decode can read (all but
    a multimodal model's vision encoder) as the batch grows: Qwen3-30B-A3B (8 of 128) touches
    40 % of its experts at 8 tokens, 99.8 % at 100. Real routing is skewed, so fewer distinct
    experts are touched: this is an upper bound on the weights read. A dense model: its
    parameters, whatever the batch.
    """
    if not model.experts or model.routed_params_b <= 0:
        return model.active_params_b
    untouched = (1 - model.experts_per_token / model.experts) ** max(float(tokens), 0.0)
    return min(model.params_b, model.dense_params_b + model.routed_params_b * (1 - untouched))


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
        "experts": m.experts,
        "experts_per_token": m.experts_per_token,
        "routed_params_b": m.routed_params_b,
        "source": m.source,
    }
