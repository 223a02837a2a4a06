"""Input definitions shared by several calculators and small numeric helpers."""

import math

from . import assumptions as A
from .catalog.fabrics import FABRIC_IDS
from .catalog.gpus import GPU_IDS
from .catalog.models import CUSTOM_DEFAULTS, MODEL_CHOICES
from .spec import CUSTOM_MODEL_GROUP, Input

DEFAULT_MODEL = "llama-3.1-70b"
DEFAULT_GPU = "rtx-pro-6000"
DEFAULT_GPUS = 8
MAX_GPUS = 64

MODEL = Input("model", "choice", DEFAULT_MODEL, choices=MODEL_CHOICES)
PARAMS_B = Input("params_b", "float", CUSTOM_DEFAULTS["params_b"], unit="billion_params",
                 min=0.1, max=2000.0, group=CUSTOM_MODEL_GROUP)
# Active parameters per token of a custom mixture of experts; 0 = dense (all of params_b).
# At most params_b (inputs.cross_check: too_large).
ACTIVE_PARAMS_B = Input("active_params_b", "float", CUSTOM_DEFAULTS["active_params_b"], unit="billion_params",
                        min=0.0, max=2000.0, group=CUSTOM_MODEL_GROUP)
LAYERS = Input("layers", "int", CUSTOM_DEFAULTS["layers"], unit="layers", min=1, max=512,
               group=CUSTOM_MODEL_GROUP)
# Query heads; a multiple of kv_heads (inputs.cross_check: not_a_multiple).
HEADS = Input("heads", "int", CUSTOM_DEFAULTS["heads"], unit="heads", min=1, max=1024, group=CUSTOM_MODEL_GROUP)
KV_HEADS = Input("kv_heads", "int", CUSTOM_DEFAULTS["kv_heads"], unit="heads", min=1, max=256,
                 group=CUSTOM_MODEL_GROUP)
HEAD_DIM = Input("head_dim", "int", CUSTOM_DEFAULTS["head_dim"], unit="elements", min=1, max=1024,
                 group=CUSTOM_MODEL_GROUP)
MODEL_INPUTS_FULL = (MODEL, PARAMS_B, ACTIVE_PARAMS_B, LAYERS, HEADS, KV_HEADS, HEAD_DIM)
MODEL_INPUTS_DENSE = (MODEL, PARAMS_B, LAYERS)
GPU = Input("gpu", "choice", DEFAULT_GPU, choices=GPU_IDS)
GPUS = Input("gpus", "int", DEFAULT_GPUS, unit="gpus", min=1, max=MAX_GPUS)
FABRIC = Input("fabric", "choice", "ib-200", choices=FABRIC_IDS)
# The serving load, as every inference calculator takes it.
MAX_CONTEXT = 1_048_576  # the longest context the form accepts; vram_fit's max_context is capped there
PRECISION = Input("precision", "choice", "fp8", choices=A.PRECISIONS)
KV_PRECISION = Input("kv_precision", "choice", "bf16", choices=A.KV_PRECISIONS)
CONTEXT = Input("context", "int", A.DEFAULT_CONTEXT, unit="tokens", min=1, max=MAX_CONTEXT)
CONCURRENCY = Input("concurrency", "int", A.DEFAULT_CONCURRENCY, unit="requests", min=1, max=100_000)
TARGET_TOKENS_PER_S = Input("target_tokens_per_s", "float", 1500.0, unit="tokens_per_s", min=1.0, max=1e9)


def r(x: float, digits: int) -> float:
    """Round to ``digits`` decimals for output (correctly rounded on every CPython)."""
    return round(float(x), digits)


def sig(x: float, digits: int = 4) -> float:
    """Round to ``digits`` significant digits (ratios: 0.7273, 1.234e-05)."""
    x = float(x)
    if x == 0.0 or not math.isfinite(x):
        return x
    return float(f"{x:.{digits}g}")


def ceil_div(a: float, b: float) -> int:
    """Smallest integer n with n * b >= a (robust to float noise)."""
    n = math.ceil(a / b)
    for _ in range(2):  # one step of float noise at most; bounded for huge n
        if n > 0 and (n - 1) * b >= a:
            n -= 1
        elif n * b < a:
            n += 1
    return n
