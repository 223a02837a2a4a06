"""Catalogs of GPUs, models and fabrics (immutable internally, JSON-able exports)."""

from typing import Any

from .fabrics import FABRIC_BY_ID, FABRIC_IDS, FABRIC_LIST, Fabric
from .gpus import GPU_BY_ID, GPU_IDS, GPU_LIST, Gpu, training_tflops
from .models import CUSTOM, MODEL_BY_ID, MODEL_CHOICES, MODEL_IDS, MODEL_LIST, Model, describe_model

__all__ = [
    "CUSTOM", "FABRIC_BY_ID", "FABRIC_IDS", "GPU_BY_ID", "GPU_IDS", "MODEL_BY_ID", "MODEL_CHOICES",
    "MODEL_IDS", "Fabric", "Gpu", "Model", "fabrics_dict", "gpus_dict", "models_dict",
]


def gpus_dict() -> dict[str, dict[str, Any]]:
    """A fresh JSON-able copy of the GPU catalog."""
    return {
        g.id: {
            "name": g.name,
            "memory_gb": g.memory_gb,
            "memory_bandwidth_gbs": g.memory_bandwidth_gbs,
            "link": g.link,
            "link_name": g.link_name,
            "nvlink": g.link.startswith("nvlink"),
            "bf16_tflops": g.bf16_tflops,
            "fp8_tflops": g.fp8_tflops,
            "fp4_tflops": g.fp4_tflops,
            "training_bf16_tflops": training_tflops(g),
            "board_w": g.board_w,
            "source": g.source,
            "power_source": g.power_source,
        }
        for g in GPU_LIST
    }


def models_dict() -> dict[str, dict[str, Any]]:
    """A fresh JSON-able copy of the model catalog."""
    return {m.id: describe_model(m) for m in MODEL_LIST}


def fabrics_dict() -> dict[str, dict[str, Any]]:
    """A fresh JSON-able copy of the fabric catalog."""
    return {
        f.id: {
            "name": f.name,
            "scope": f.scope,
            "bandwidth_gbs": f.bandwidth_gbs,
            "line_rate_gbs": f.line_rate_gbs,
            "latency_us": f.latency_us,
            "source": f.source,
        }
        for f in FABRIC_LIST
    }
