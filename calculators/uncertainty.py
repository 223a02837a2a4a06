"""Ranges of the scaling model's least certain assumption besides bandwidth: achieved FLOP/s.

The scaling model's ``mfu`` is the achieved share of dense BF16 peak while
computing (no overlap with communication). Its default, 0.215, is calibrated
on the article's two data points (assumptions.DEFAULT_MFU). Published
large-scale runs reach far more, which makes communication relatively
costlier and efficiency lower:

- Megatron-LM on A100 (Narayanan et al. 2021, arXiv:2104.04473, Table 1):
  44-52 % of 312 TFLOP/s (137-163 TFLOP/s), TP 8 inside DGX A100 nodes.
- Megatron-LM on H100 (NVIDIA/Megatron-LM README.md, "Training Speed and
  Scalability", commit 0010ab7484337a1089ad9c35a0ce8723ed6b4740): "MFU
  increases from 41% for the smallest model considered to 47-48% for the
  largest models"; strong scaling 96 -> 4608 GPUs: 47 % -> 42 %.
- Llama 3 405B on 8K-16K H100 (arXiv:2407.21783, sec. 3.3.2, Table 4):
  43 / 41 / 38 % (430 / 400 / 380 TFLOP/s).

These are overall MFUs (compute overlapped with communication), so they are
a lower bound of the compute-phase share the model uses; 0.52, the highest,
is the low-efficiency end of the range. The high-efficiency end is the
article's calibration, 0.215 (a PCIe workstation without overlap).
"""

import dataclasses
from collections.abc import Mapping
from typing import Any

from . import assumptions as A
from .catalog.fabrics import FABRIC_BY_ID
from .catalog.gpus import GPU_BY_ID
from .catalog.models import resolve_model
from .inputs import normalize
from .scaling import SPEC, intra_range_factors, step

PUBLISHED_MFU = (0.38, A.PUBLISHED_MFU_MAX)  # Llama 3 Table 4 (lowest) to Megatron-LM Table 1 (highest)
MFU_RANGE = (A.DEFAULT_MFU, PUBLISHED_MFU[1])


def scaling_efficiency_range(inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Efficiency of a ``scaling`` configuration at the ends of the MFU and bandwidth ranges.

    ``low``: MFU 0.52 and the low ends of the bandwidth ranges; ``high``: MFU
    0.215 and the high ends. ``verdict_changes``: the 0.60 line lies inside.
    Raises ValueError with the error list when the inputs are invalid.
    """
    inp, errors = normalize(SPEC, dict(inputs or {}))
    if errors:
        raise ValueError(errors)
    model, gpu = resolve_model(inp), GPU_BY_ID[inp["gpu"]]
    inter = FABRIC_BY_ID[inp["fabric"]]
    ends = []
    placement = inp["pcie_placement"]
    for mfu, intra_f, inter_f in zip((MFU_RANGE[1], MFU_RANGE[0]), intra_range_factors(gpu, placement),
                                     A.INTER_BANDWIDTH_RANGE, strict=True):
        fabric = dataclasses.replace(inter, bandwidth_gbs=inter.bandwidth_gbs * inter_f)
        ends.append(step(model, gpu, inp["parallelism"], inp["gpus_per_node"], inp["nodes"], fabric,
                         inp["nics_per_node"], inp["seq_len"], inp["micro_batch"], inp["grad_accum"],
                         mfu, intra_f, placement)["efficiency"])
    low, high = ends
    line = A.EFFICIENCY_THRESHOLD
    return {"low": low, "high": high, "mfu_low_end": MFU_RANGE[1], "mfu_high_end": MFU_RANGE[0],
            "verdict_changes": (low < line) != (high < line)}
