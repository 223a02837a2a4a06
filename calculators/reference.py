"""The reference suite: figures others published, and the calls that reproduce them.

Each ``Reference`` holds one published figure, its source, the calculators
call that reproduces it and a tolerance. ``evaluate`` runs the call;
``markdown_table`` renders the table in calculators/README.md (a test checks
the README holds exactly that table). Run ``python -m calculators.reference``
to print it.

Kinds of check:
- ``ratio``: |ours / figure / expect - 1| <= tolerance (``expect`` is 1 except
  for a figure known to be wrong by a known factor);
- ``at_most`` / ``at_least``: ours <= figure / ours >= figure (published
  bounds, e.g. "< 48 GB");
- ``within``: the figure lies inside the (low, high) range the model allows;
- ``band``: a published run through what a widget shows (a served throughput, a training run's
  time): ours / figure within the budget's outer band (``BAND``, 0.5-2x); the share of a budget's
  rows inside ``INNER`` (0.7-1.4x) must be at least ``INNER_SHARE`` (80 %), checked over all of
  them (``budget``: one budget per calculator in ``BUDGETS``, serving and training).
``scale`` converts ours into the figure's unit (GB -> GiB is 1e9 / 2^30).
Every row has a ``role`` (issue 44): ``calibration``, a constant or a formula
choice was fitted on it, so its ratio shows the fit; ``prediction``, registered
before the model was changed and never used to choose a constant. The rows
written below, in Python, are all calibrations: each was in view while the
constants and formulas were chosen (``fitted`` marks those a constant was fitted
on outright). The prediction rows are data, each with its source's excerpt:
``calculators/references/*.toml``, read by ``calculators/reference_rows.py``.
The budgets (``budget``) hold on the prediction rows alone; the calibration
rows' share is reported beside them.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from . import reference_rows
from . import serving_memory as S
from .assumptions import HOURS_PER_MONTH
from .catalog import fabrics as F
from .catalog.models import MODEL_BY_ID, Model, fp8_weights_gb
from .registry import run
from .training_memory import zero_model_states_gb
from .training_time import layout_mfu

GIB_PER_GB = 1e9 / S.GIB
KINDS = ("ratio", "at_most", "at_least", "within", "band")


@dataclass(frozen=True)
class Reference:
    """One published figure and the call that reproduces it."""

    id: str
    what: str
    figure: float
    unit: str
    source: str
    url: str
    call: Mapping[str, Any]
    tolerance: float = 0.0
    kind: str = "ratio"
    scale: float = 1.0
    expect: float = 1.0
    role: str = "calibration"
    fitted: bool = False  # a constant was fitted on it outright (a calibration row in any case)
    reciprocal: bool = False  # ours = scale / the value (a latency in ms from a rate in tokens/s)
    note: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    # The calculator whose page shows this figure (its method page's validation table): by default
    # the one the call runs, or the one FUNCTION_CALCULATORS names for a function's call.
    calculator: str = ""
    excerpt: str = ""  # the source's words the figure was copied from (data rows)
    registered: str = ""  # a prediction row: the date it was registered, before the model changed
    unstated: tuple[str, ...] = ()  # the run's conditions the widget has no input for

    @property
    def calibration(self) -> bool:
        """Whether the row is a calibration (its ratio shows a fit, not a prediction)."""
        return self.role == "calibration"

    def __post_init__(self) -> None:
        if not self.calculator:
            call = self.call
            name = call["run"] if "run" in call else FUNCTION_CALCULATORS.get(call.get("fn", ""), "")
            object.__setattr__(self, "calculator", name)


# --- Functions a reference may call (JSON-able arguments) ---------------------

def _weights_gib(model: str, tp: int) -> float:
    return MODEL_BY_ID[model].params_b * 2e9 / S.GIB / tp  # BF16 weights per GPU


def _kv_budget(smi_mib: int, nvlink: bool, model: str, tp: int = 1, engine: str = "vllm-v0",
               batched_tokens: int | None = None) -> float:
    m = MODEL_BY_ID[model]
    return S.kv_budget_gib(S.exposed_gib(smi_mib), nvlink, m.hidden, _weights_gib(model, tp), tp,
                           engine, batched_tokens)


def _mla_dp_over_tp(model: str, gpus: int, budget_gib: float) -> float:
    m = MODEL_BY_ID[model]
    dp = S.kv_token_capacity(m, 2.0, gpus, budget_gib, "dp")
    tp = S.kv_token_capacity(m, 2.0, gpus, budget_gib, "tp")
    return dp / tp


def _gqa_per_rank(layers: int, kv_heads: int, head_dim: int, tp: int, kv_bytes: float) -> float:
    shape = Model("shape", "shape", 0.0, 0.0, layers, 0, 0, kv_heads, head_dim, 0)
    return S.kv_bytes_per_token_per_gpu(shape, kv_bytes, tp)


def _training_hours_range(inputs: Mapping[str, Any]) -> tuple[float, float]:
    v = run("training_time", dict(inputs))["values"]
    return v["gpu_months_low"] * HOURS_PER_MONTH, v["gpu_months_high"] * HOURS_PER_MONTH


def _training_longest_seq(inputs: Mapping[str, Any]) -> int:
    """The longest sequence (tokens, in steps of 256) at which training_memory answers that the run fits, as a
    reader finds it by trying lengths in the widget; 0 when not even 256 tokens fit."""
    def fits(seq_len: int) -> bool:
        result = run("training_memory", {**inputs, "seq_len": seq_len})
        return bool(result["ok"] and result["values"]["fits"])

    low, high = 0, 1 << 21
    while high - low > 256:  # fits(low) or low == 0; not fits(high)
        mid = (low + high) // 512 * 256
        low, high = (mid, high) if fits(mid) else (low, mid)
    return low


FUNCTIONS: Mapping[str, Callable[..., Any]] = MappingProxyType({
    "training_longest_seq": _training_longest_seq,
    "gqa_kv_bytes_per_rank": _gqa_per_rank,
    "exposed_gib": S.exposed_gib,
    "kv_budget_gib": _kv_budget,
    "mla_dp_over_tp": _mla_dp_over_tp,
    "zero_model_states_gb": zero_model_states_gb,
    "fp8_weights_gb": lambda model, layout: fp8_weights_gb(MODEL_BY_ID[model], layout),
    "pcie_allreduce_gbs": F.pcie_allreduce_gbs,
    "pcie_allreduce_range_gbs": F.pcie_allreduce_range_gbs,
    "nvlink_allreduce_range_gbs": F.nvlink_allreduce_range_gbs,
    "fabric_bandwidth_gbs": lambda fabric: F.FABRIC_BY_ID[fabric].bandwidth_gbs,
    "training_gpu_hours_range": _training_hours_range,
    "training_gpu_hours": lambda inputs: run("training_time", dict(inputs))["values"]["gpu_hours"],
    "training_layout_mfu": layout_mfu,
})
# Which calculator's figures a function computes (the page whose validation table lists the reference).
FUNCTION_CALCULATORS: Mapping[str, str] = MappingProxyType({
    "gqa_kv_bytes_per_rank": "vram_fit", "exposed_gib": "vram_fit", "kv_budget_gib": "vram_fit",
    "mla_dp_over_tp": "vram_fit", "fp8_weights_gb": "vram_fit",
    "zero_model_states_gb": "training_memory",
    "pcie_allreduce_gbs": "scaling", "pcie_allreduce_range_gbs": "scaling", "nvlink_allreduce_range_gbs": "scaling",
    "fabric_bandwidth_gbs": "scaling",
    "training_gpu_hours_range": "training_time", "training_gpu_hours": "training_time",
    "training_layout_mfu": "training_time",
})

_8B_H100 = {"model": "llama-3.1-8b", "kv_precision": "bf16", "gpu": "h100-sxm", "gpus": 1, "concurrency": 1}
_VLLM_10511 = "https://github.com/vllm-project/vllm/pull/10511"
_VLLM_10517 = "https://github.com/vllm-project/vllm/issues/10517"
_SKU_LIST = "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/api/sku_list.py"
_HF_BLOG = "https://github.com/huggingface/blog/issues/2345"
_DS_MEMORY = "https://github.com/microsoft/DeepSpeed/blob/master/docs/code-docs/source/memory.rst"
_ZERO = "https://arxiv.org/abs/1910.02054"
_TRTLLM_PERF = ("https://github.com/NVIDIA/TensorRT-LLM/blob/03e27c7d5ff0c6e89f8328838c0a8e64f1b34f9d/"
                "docs/source/developer-guide/perf-overview.md")
_TRTLLM_SRC = "NVIDIA/TensorRT-LLM perf-overview.md (trtllm-bench, Llama 3.3 70B FP8, output tok/s per GPU)"
_NIM = "https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md"
_NIM_SRC = "NVIDIA NIM benchmarking, Llama-3.3-70b-instruct 1.8.0, 2 x H100 80G, FP8 TP2"
_NIM_70B = {"model": "llama-3.1-70b", "precision": "fp8", "kv_precision": "fp8", "gpu": "h100-sxm", "gpus": 2}
_LLAMA31_CARD = "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md"
_LLAMA31_SRC = "meta-llama/llama-models models/llama3_1/MODEL_CARD.md (Training Time, GPU hours, H100-80GB)"
_LLAMA3 = "https://arxiv.org/abs/2407.21783"
_LLAMA3_SRC = "Llama Team, The Llama 3 Herd of Models, arXiv:2407.21783, Table 4"
_LLAMA2 = "https://arxiv.org/abs/2307.09288"
_LLAMA2_SRC = "Touvron et al., Llama 2, arXiv:2307.09288, Table 2"
_LLAMA2_70B = {"model": "llama-3.1-70b", "gpu": "a100-sxm", "gpus": 2048, "tokens_t": 2.0, "fabric": "ib-200",
               "seq_len": 4096, "global_batch": 1024}


def _trtllm(gpu: str, isl: int, osl: int, figure: float, **extra: Any) -> Reference:
    name = {"h100-sxm": "H100", "h200": "H200"}[gpu]
    return Reference(f"trtllm-70b-fp8-{gpu.split('-')[0]}-tp2-{isl}-{osl}",
                     f"TensorRT-LLM, Llama 3.3 70B FP8 on 2 x {name} (TP 2), {isl} in / {osl} out, max load: "
                     "output tokens/s per GPU", figure, "tok/s per GPU", _TRTLLM_SRC, _TRTLLM_PERF,
                     _shown_rate("llama-3.1-70b", gpu, 2, "fp8", isl, osl), scale=0.5,
                     **{"kind": "band", "fitted": True, **extra})


def _train(tag: str, model: str, tokens_t: float, gpus: int, figure: float, note: str, range_note: str,
           **extra: Any) -> tuple[Reference, Reference]:
    """Two checks of what training_time shows for a Llama 3.1 run: its GPU-months (as GPU-hours), and its range."""
    inputs = {"model": model, "gpu": "h100-sxm", "gpus": gpus, "tokens_t": tokens_t}
    what = f"Llama 3.1 {tag.upper()}: GPU-hours of its training on H100 ({tokens_t:g}T tokens, {gpus:,} GPUs)"
    return (Reference(f"llama31-{tag}-gpu-hours", what, figure, "GPU-h", _LLAMA31_SRC, _LLAMA31_CARD,
                      {"run": "training_time", "inputs": inputs, "value": "gpu_months"}, scale=HOURS_PER_MONTH,
                      note=note, **extra),
            Reference(f"llama31-{tag}-gpu-hours-range", what + ", in the shown range", figure, "GPU-h",
                      _LLAMA31_SRC, _LLAMA31_CARD, {"fn": "training_gpu_hours_range", "args": {"inputs": inputs}},
                      kind="within", note=range_note))

# --- Training runs as the training_time widget shows them (the training budget) ------------------------
# Each run through a value the widget shows: ``days`` (the days its tokens take), or ``gpu_months`` as
# GPU-hours, or as tokens/s per GPU (the reciprocal: tokens / (GPU-months x 730 x 3,600 s)). The run's
# GPUs, box, fabric, sequence length and global batch are the widget's inputs; its layout is the
# widget's ``parallelism`` where one names it (``fsdp``), else ``auto`` (the widget's fastest layout;
# the run's TP / PP / CP are in ``what``: context parallelism is not modelled). BF16 runs only (the
# widget trains in BF16). Models outside the catalog run as custom models (training_time's
# MODEL_INPUTS_DENSE) with their published parameter count and layers. Left out (README): FP8 runs,
# MoE training, GPUs outside the catalog, figures that count recomputation, secondary sources.
_DGXC = ("NVIDIA/dgxc-benchmarking llama3.1/README_{}.md (NeMo 24.09, BF16 on DGX H100: "
         "time to train 1T tokens in days)",
         "https://github.com/NVIDIA/dgxc-benchmarking/blob/143b90dd91f9be958fed4773ae95d941a3356a82/"
         "llama3.1/README_{}.md")
_TITAN_A100 = ("pytorch/torchtitan docs/performance.md (64 A100 80GB, FSDP2: WPS = tokens/s per GPU)",
               "https://github.com/pytorch/torchtitan/blob/041336434916bdc0f88c1f89fda176fd3c2092e4/"
               "docs/performance.md")
_FOUNDRY = ("mosaicml/llm-foundry scripts/train/benchmarking/README.md, section '{}' (Throughput T/s/GPU)",
            "https://github.com/mosaicml/llm-foundry/blob/061f2c7ce64e655100286584a7629e2a09f827ba/"
            "scripts/train/benchmarking/README.md")
_LLAMA2_CARD = ("meta-llama/llama MODEL_CARD.md, Carbon Footprint table: Time (GPU hours), A100-80GB",
                "https://github.com/meta-llama/llama/blob/0e3444bca7a3e02f25f2c9f9e778866fecdae567/MODEL_CARD.md")
_BLOOM = ("BigScience, BLOOM, arXiv:2211.05100, sec. 3.4.1 (PDF p. 18): \"consumed 1,082,990 compute hours\"",
          "https://arxiv.org/abs/2211.05100")
# Custom shapes: parameters and layers as published. MPT (NumParams column of the llm-foundry table;
# n_layers in scripts/train/yamls/pretrain/mpt-7b.yaml, mpt-30b.yaml, mpt-70b.yaml: 32, 48, 80).
# Llama 2 (meta-llama/Llama-2-{7b,13b,70b}-hf config.json: hidden 4096 / 5120 / 8192, 32 / 40 / 80 layers,
# MLP 11008 / 13824 / 28672, 70B with 8 KV heads, vocabulary 32,000): 6.738B, 13.016B, 68.977B.
# BLOOM: 176,247M parameters, 70 layers (arXiv:2211.05100, Table 3).
_MPT_SHAPES = {"7b": (6.658859008, 32), "30b": (29.97521408, 48), "70b": (64.862437376, 80)}
_LLAMA2_SHAPES = {"7b": (6.738415616, 32), "13b": (13.015864320, 40), "70b": (68.976648192, 80)}


def _custom(shape: tuple[float, int]) -> dict[str, Any]:
    return {"model": "custom", "params_b": shape[0], "layers": shape[1]}


def _dgxc(size: str, gpus: int, global_batch: int, days: float, what: str) -> tuple:
    """A row of NVIDIA's Llama 3.1 BF16 recipe tables: the days 1T tokens take, 8,192 tokens per sequence."""
    return (f"dgxc-llama31-{size}-{gpus}gpu", f"{what}, {global_batch:,} sequences of 8,192 per step: days to "
            "train 1T tokens", days, "days", (_DGXC[0].format(size), _DGXC[1].format(size)),
            {"model": f"llama-3.1-{size}", "gpu": "h100-sxm", "gpus": gpus, "tokens_t": 1.0, "seq_len": 8192,
             "global_batch": global_batch}, "")


# (id, what the run was, figure, unit, (source, url), the widget's inputs, note)
_TRAINING_RUNS: tuple[tuple[str, str, float, str, tuple[str, str], dict[str, Any], str], ...] = (
    _dgxc("8b", 8, 128, 142.5, "NeMo, Llama 3.1 8B BF16 on 8 x H100 (TP 1, PP 1, CP 2)"),
    _dgxc("8b", 128, 2048, 9.04, "NeMo, the same on 128 x H100"),
    _dgxc("70b", 64, 128, 162.48, "NeMo, Llama 3.1 70B BF16 on 64 x H100 (TP 4, PP 4, CP 2, VP 5)"),
    _dgxc("70b", 2048, 4096, 5.15, "NeMo, the same on 2,048 x H100"),
    _dgxc("405b", 576, 252, 96.43, "NeMo, Llama 3.1 405B BF16 on 576 x H100 (TP 8, PP 9, CP 2, VP 7)"),
    _dgxc("405b", 2304, 1008, 24.7, "NeMo, the same on 2,304 x H100"),
    # torchtitan on 64 A100: the fabric is not stated (an HGX A100 node's 200 Gb/s NICs assumed). Llama 3's
    # sequence length is not printed either: 8,192 reproduces its MFU column (56.8 % with 6N + 12lhqt).
    ("torchtitan-a100-llama3-8b", "torchtitan, Llama 3 8B on 64 x A100 80GB, FSDP2, one sequence of 8,192 per "
     "GPU, selective activation checkpointing: tokens/s per GPU", 2904, "tok/s per GPU", _TITAN_A100,
     {"model": "llama-3.1-8b", "gpu": "a100-sxm", "gpus": 64, "fabric": "ib-200", "parallelism": "fsdp",
      "tokens_t": 1.0, "seq_len": 8192, "global_batch": 64}, ""),
    ("torchtitan-a100-llama3-70b", "torchtitan, Llama 3 70B on 64 x A100 80GB, FSDP2, one sequence of 8,192 per "
     "GPU, full activation checkpointing: tokens/s per GPU", 331, "tok/s per GPU", _TITAN_A100,
     {"model": "llama-3.1-70b", "gpu": "a100-sxm", "gpus": 64, "fabric": "ib-200", "parallelism": "fsdp",
      "tokens_t": 1.0, "seq_len": 8192, "global_batch": 64}, ""),
    ("torchtitan-a100-llama2-13b", "torchtitan, Llama 2 13B on 64 x A100 80GB, FSDP2, two sequences of 4,096 per "
     "GPU, no activation checkpointing: tokens/s per GPU", 2162, "tok/s per GPU", _TITAN_A100,
     {**_custom(_LLAMA2_SHAPES["13b"]), "gpu": "a100-sxm", "gpus": 64, "fabric": "ib-200", "parallelism": "fsdp",
      "tokens_t": 1.0, "seq_len": 4096, "global_batch": 128}, "custom model: Llama 2 13B's shape"),
    ("torchtitan-a100-llama2-70b", "torchtitan, Llama 2 70B on 64 x A100 80GB, FSDP2, two sequences of 4,096 per "
     "GPU, full activation checkpointing: tokens/s per GPU", 353, "tok/s per GPU", _TITAN_A100,
     {**_custom(_LLAMA2_SHAPES["70b"]), "gpu": "a100-sxm", "gpus": 64, "fabric": "ib-200", "parallelism": "fsdp",
      "tokens_t": 1.0, "seq_len": 4096, "global_batch": 128}, "custom model: Llama 2 70B's shape"),
    ("foundry-mpt-7b-8xh100", "llm-foundry, MPT-7B BF16 on 8 x H100, FSDP full shard, 48 sequences of 2,048 per "
     "step: tokens/s per GPU", 10643, "tok/s per GPU", (_FOUNDRY[0].format("H100 80GB BF16"), _FOUNDRY[1]),
     {**_custom(_MPT_SHAPES["7b"]), "gpu": "h100-sxm", "gpus": 8, "parallelism": "fsdp", "tokens_t": 1.0,
      "seq_len": 2048, "global_batch": 48}, "custom model: MPT-7B's shape"),
    ("foundry-mpt-70b-64xh100", "llm-foundry, MPT-70B BF16 on 64 x H100, FSDP full shard, activation "
     "checkpointing, 2,048 sequences of 2,048 per step: tokens/s per GPU", 1039, "tok/s per GPU",
     (_FOUNDRY[0].format("H100 80GB BF16"), _FOUNDRY[1]),
     {**_custom(_MPT_SHAPES["70b"]), "gpu": "h100-sxm", "gpus": 64, "parallelism": "fsdp", "tokens_t": 1.0,
      "seq_len": 2048, "global_batch": 2048}, "custom model: MPT-70B's shape"),
    ("foundry-mpt-30b-8xa100", "llm-foundry, MPT-30B BF16 on 8 x A100 80GB, FSDP full shard, activation "
     "checkpointing, 504 sequences of 2,048 per step: tokens/s per GPU", 916, "tok/s per GPU",
     (_FOUNDRY[0].format("A100 80GB with 1600 Gbps node-node interconnect (RoCE)"), _FOUNDRY[1]),
     {**_custom(_MPT_SHAPES["30b"]), "gpu": "a100-sxm", "gpus": 8, "fabric": "ib-200", "parallelism": "fsdp",
      "tokens_t": 1.0, "seq_len": 2048, "global_batch": 504}, "custom model: MPT-30B's shape"),
    ("foundry-mpt-7b-8xa100", "llm-foundry, MPT-7B BF16 on 8 x A100 80GB, FSDP full shard, 96 sequences of "
     "2,048 per step: tokens/s per GPU", 4641, "tok/s per GPU",
     (_FOUNDRY[0].format("A100 80GB with 1600 Gbps node-node interconnect (RoCE)"), _FOUNDRY[1]),
     {**_custom(_MPT_SHAPES["7b"]), "gpu": "a100-sxm", "gpus": 8, "fabric": "ib-200", "parallelism": "fsdp",
      "tokens_t": 1.0, "seq_len": 2048, "global_batch": 96}, "custom model: MPT-7B's shape"),
    # Whole runs: every GPU-hour of the run. Llama 2 as the 70B row above (2.0T tokens of 4,096, 1,024
    # sequences per step, 200 Gb/s InfiniBand, 2,048 GPUs assumed: the count is not published).
    ("llama2-7b-gpu-hours", "Llama 2 7B: 2.0T tokens on A100 80GB, GPU-hours", 184320, "GPU-h", _LLAMA2_CARD,
     {**_custom(_LLAMA2_SHAPES["7b"]), "gpu": "a100-sxm", "gpus": 2048, "fabric": "ib-200", "tokens_t": 2.0,
      "seq_len": 4096, "global_batch": 1024}, "custom model: Llama 2 7B's shape; 2,048 GPUs assumed"),
    ("llama2-13b-gpu-hours", "Llama 2 13B: 2.0T tokens on A100 80GB, GPU-hours", 368640, "GPU-h", _LLAMA2_CARD,
     {**_custom(_LLAMA2_SHAPES["13b"]), "gpu": "a100-sxm", "gpus": 2048, "fabric": "ib-200", "tokens_t": 2.0,
      "seq_len": 4096, "global_batch": 1024}, "custom model: Llama 2 13B's shape; 2,048 GPUs assumed"),
    # BLOOM: 48 nodes of 8 A100 80GB, 4 Omni-Path 100 Gb/s links per node (sec. 3.4.1; the catalog's
    # 100 Gb/s fabric), 366B tokens of 2,048, 2,048 sequences per step (Table 3), TP 4 x PP 12 x DP 8.
    ("bloom-176b-gpu-hours", "BLOOM 176B: 366B tokens on 384 A100 80GB (TP 4, PP 12, DP 8), GPU-hours", 1082990,
     "GPU-h", _BLOOM,
     {**_custom((176.247, 70)), "gpu": "a100-sxm", "gpus": 384, "fabric": "eth-100", "nics_per_node": 4,
      "tokens_t": 0.366, "seq_len": 2048, "global_batch": 2048},
     "custom model: BLOOM's shape; wall-clock hours of 118 days, restarts included; the run recomputed "
     "every layer's activations, which the widget does only when memory needs it"),
)


def _trained(row: tuple) -> Reference:
    """A training run's figure through what the training_time widget shows (days, or its GPU-months)."""
    rid, what, figure, unit, (source, url), inputs, note = row
    tokens = inputs["tokens_t"] * 1e12
    if unit == "days":
        value, scale, reciprocal = "days", 1.0, False
    elif unit == "GPU-h":
        value, scale, reciprocal = "gpu_months", HOURS_PER_MONTH, False
    else:  # tokens/s per GPU = tokens / GPU-seconds
        value, scale, reciprocal = "gpu_months", tokens / (HOURS_PER_MONTH * 3600), True
    return Reference(f"train-{rid}", what, float(figure), unit, source, url,
                     {"run": "training_time", "inputs": inputs, "value": value}, kind="band", scale=scale,
                     reciprocal=reciprocal, note=note)


# --- Budgets: published runs through what a widget shows (issue 27, deliverable 5) -------------------------
# Each calculator in BUDGETS has one budget over its ``band`` rows: at least 80 % within 0.7-1.4x, none
# outside 0.5-2x (test_reference.py). A row's tolerance is the outer bound; the share inside the inner
# one is checked over all of a budget's rows (``budget``).
BAND = (0.5, 2.0)
INNER = (0.7, 1.4)
INNER_SHARE = 0.80
# The calculator whose shown value a budget's rows check -> the budget's name (``failures``).
BUDGETS: Mapping[str, str] = MappingProxyType({"throughput": "serving", "training_time": "training"})
# The budgets on prediction rows alone (issues 44 and 45): the calculator whose shown value they check -> its name,
# and how many rows each needs.
PREDICTION_BUDGETS: Mapping[str, str] = MappingProxyType({
    "vram_fit": "serving-memory", "throughput": "serving", "training_memory": "training-memory",
    "training_time": "training"})
MIN_PREDICTION_ROWS = 12
ROLES = reference_rows.ROLES
# The serving budget's names, as the methods pages read them: the same band.
SERVING_BAND, SERVING_INNER, SERVING_INNER_SHARE = BAND, INNER, INNER_SHARE

# --- Served throughput as the throughput widget shows it --------------------------------------------------
_V1 = ("NVIDIA/TensorRT-LLM perf-overview.md, v1.0-era (trtllm-bench throughput, total output tok/s)",
       "https://github.com/NVIDIA/TensorRT-LLM/blob/00f37686aa854010d68bcbd0f4ab000221541ca6/"
       "docs/source/performance/perf-overview.md")
_DEV = ("NVIDIA/TensorRT-LLM developer-guide perf-overview.md (trtllm-bench, output tok/s per GPU)",
        "https://github.com/NVIDIA/TensorRT-LLM/blob/03e27c7d5ff0c6e89f8328838c0a8e64f1b34f9d/"
        "docs/source/developer-guide/perf-overview.md")
# (id, model, gpu, gpus, the benchmark's layout, precision, input, output, figure, per GPU?, source).
# FP8 and FP4 rows ran with an FP8 KV cache (NVIDIA's quantized checkpoints). Left out: the v0.5
# L40S rows (Llama 2 7B, not in the catalog) and three RTX 5090 community runs (a request-rate load,
# lengths 200 +- 20, the GPU count inferred): see calculators/README.md.
_SERVING_RUNS = (
    ("trt-8b-h100-128-2048", "llama-3.1-8b", "h100-sxm", 1, "TP1", "fp8", 128, 2048, 22714, False, _V1),
    ("trt-8b-h100-1000-1000", "llama-3.1-8b", "h100-sxm", 1, "TP1", "fp8", 1000, 1000, 15220, False, _V1),
    ("trt-8b-h100-5000-500", "llama-3.1-8b", "h100-sxm", 1, "TP1", "fp8", 5000, 500, 3459, False, _V1),
    ("trt-8b-h200-2048-128", "llama-3.1-8b", "h200", 1, "TP1", "fp8", 2048, 128, 3538, False, _V1),
    ("trt-8b-h200-128-4096", "llama-3.1-8b", "h200", 1, "TP1", "fp8", 128, 4096, 18027, False, _V1),
    ("trt-8b-h200-20000-2000", "llama-3.1-8b", "h200", 1, "TP1", "fp8", 20000, 2000, 1804, False, _V1),
    ("trt-70b-b200-fp4-128-2048", "llama-3.1-70b", "b200", 1, "TP1", "fp4", 128, 2048, 9922, False, _V1),
    ("trt-70b-b200-fp4-5000-500", "llama-3.1-70b", "b200", 1, "TP1", "fp4", 5000, 500, 1459, False, _V1),
    ("trt-70b-h200-tp1-128-2048", "llama-3.1-70b", "h200", 1, "TP1", "fp8", 128, 2048, 4336, False, _V1),
    ("trt-70b-h200-tp1-5000-500", "llama-3.1-70b", "h200", 1, "TP1", "fp8", 5000, 500, 566, False, _V1),
    ("trt-70b-h200-tp1-2048-128", "llama-3.1-70b", "h200", 1, "TP1", "fp8", 2048, 128, 442, False, _V1),
    ("trt-70b-rtxpro-1gpu-128-2048", "llama-3.1-70b", "rtx-pro-6000", 1, "TP1 PP1", "fp4", 128, 2048, 2422, False, _V1),
    ("trt-70b-rtxpro-1gpu-5000-500", "llama-3.1-70b", "rtx-pro-6000", 1, "TP1 PP1", "fp4", 5000, 500, 401, False, _V1),
    ("trt-70b-rtxpro-4gpu-pp4-1000-1000", "llama-3.1-70b", "rtx-pro-6000", 4,
     "TP1 PP4", "fp4", 1000, 1000, 5961, False, _V1),
    ("trt-70b-rtxpro-8gpu-pp8-2048-128", "llama-3.1-70b", "rtx-pro-6000", 8,
     "TP1 PP8", "fp4", 2048, 128, 2495, False, _V1),
    ("trt-405b-h100-tp8-128-2048", "llama-3.1-405b", "h100-sxm", 8, "TP8", "fp8", 128, 2048, 4340, False, _V1),
    ("trt-405b-h100-tp8-5000-500", "llama-3.1-405b", "h100-sxm", 8, "TP8", "fp8", 5000, 500, 610, False, _V1),
    ("trt-405b-h200-tp8-1000-1000", "llama-3.1-405b", "h200", 8, "TP8", "fp8", 1000, 1000, 3330, False, _V1),
    ("trt-405b-b200-tp4-2048-2048", "llama-3.1-405b", "b200", 4, "TP4", "fp4", 2048, 2048, 4212, False, _V1),
    ("trt-405b-rtxpro-8gpu-pp8-128-2048", "llama-3.1-405b", "rtx-pro-6000", 8,
     "TP1 PP8", "fp4", 128, 2048, 2981, False, _V1),
    ("trt-qwen3-235b-h100-tp8-5000-500", "qwen3-235b-a22b", "h100-sxm", 8, "TP8", "fp8", 5000, 500, 3225, False, _V1),
    ("trt-qwen3-235b-b200-tp8-128-2048", "qwen3-235b-a22b", "b200", 8, "TP8", "fp4", 128, 2048, 66057, False, _V1),
    ("trt-qwen3-235b-rtxpro-8gpu-1000-1000", "qwen3-235b-a22b", "rtx-pro-6000", 8,
     "TP2 PP4", "fp4", 1000, 1000, 10697, False, _V1),
    ("trt-qwen3-30b-rtxpro-1gpu-128-2048", "qwen3-30b-a3b", "rtx-pro-6000", 1,
     "TP1 PP1", "fp4", 128, 2048, 12540, False, _V1),
    ("trt-qwen3-30b-rtxpro-1gpu-5000-500", "qwen3-30b-a3b", "rtx-pro-6000", 1,
     "TP1 PP1", "fp4", 5000, 500, 2530, False, _V1),
    ("trt-qwen3-30b-b200-2048-2048", "qwen3-30b-a3b", "b200", 1, "TP1", "fp4", 2048, 2048, 17554, False, _V1),
    ("trt-scout-h100-tp4-128-2048", "llama-4-scout", "h100-sxm", 4, "TP4", "fp8", 128, 2048, 15130, False, _V1),
    ("trt-scout-h200-tp4-5000-500", "llama-4-scout", "h200", 4, "TP4", "fp8", 5000, 500, 4605, False, _V1),
    ("trt-scout-rtxpro-4gpu-2048-128", "llama-4-scout", "rtx-pro-6000", 4,
     "TP2 PP2", "fp4", 2048, 128, 2615, False, _V1),
    ("trt-maverick-h200-tp8-1000-1000", "llama-4-maverick", "h200", 8, "TP8", "fp8", 1000, 1000, 31782, False, _V1),
    ("trt-gptoss120b-h200-tp1-1000-1000", "gpt-oss-120b", "h200", 1, "TP1", "fp8", 1000, 1000, 6868, True, _DEV),
    ("trt-gptoss120b-h100-dep4-8192-1024", "gpt-oss-120b", "h100-sxm", 4, "DEP4", "fp8", 8192, 1024, 1169, True, _DEV),
    ("trt-gptoss20b-h100-tp1-8192-1024", "gpt-oss-20b", "h100-sxm", 1, "TP1", "fp8", 8192, 1024, 3366, True, _DEV),
    ("trt-gptoss20b-b200-tp1-1024-8192", "gpt-oss-20b", "b200", 1, "TP1", "fp4", 1024, 8192, 34702, True, _DEV),
    ("trt-dsr1-h200-dep8-1024-1024", "deepseek-v3", "h200", 8, "DEP8", "fp8", 1024, 1024, 1620, True, _DEV),
    ("trt-70b-b200-tp1-8192-1024", "llama-3.1-70b", "b200", 1, "TP1", "fp4", 8192, 1024, 1362, True, _DEV),
)


def _shown_rate(model: str, gpu: str, gpus: int, precision: str, isl: int, osl: int) -> dict[str, Any]:
    """The throughput widget's shown rate for a maximum-throughput run (concurrency 0)."""
    kv = "fp8" if precision in ("fp8", "fp4") else "bf16"
    return {"run": "throughput", "value": "node_tokens_per_s",
            "inputs": {"model": model, "gpu": gpu, "gpus": gpus, "precision": precision, "kv_precision": kv,
                       "input_tokens": isl, "output_tokens": osl, "concurrency": 0}}


def _served_run(row: tuple) -> Reference:
    rid, model, gpu, gpus, layout, precision, isl, osl, figure, per_gpu, (source, url) = row
    unit = "tok/s per GPU" if per_gpu else "tok/s"
    what = (f"{MODEL_BY_ID[model].name} {precision.upper()} on {gpus} x {gpu} ({layout}), {isl} in / {osl} out, "
            f"max load: output tokens/s{' per GPU' if per_gpu else ''}")
    # The H100/H200 rows are the ones MBU and the MoE factor were fitted on (assumptions.py).
    return Reference(f"serve-{rid.removeprefix('trt-')}", what, float(figure), unit, source, url,
                     _shown_rate(model, gpu, gpus, precision, isl, osl), scale=1 / gpus if per_gpu else 1.0,
                     kind="band", fitted=gpu in ("h100-sxm", "h200"))


REFERENCES: tuple[Reference, ...] = (
    # --- KV cache per token, from the models' own definitions ------------------
    Reference("kv-llama31-8b", "Llama 3.1 8B KV cache per token, BF16 (2 x 32 x 8 x 128 x 2)", 131072, "B",
              "meta-llama/llama-models models/llama3_1/api/sku_list.py", _SKU_LIST,
              {"run": "vram_fit", "inputs": {**_8B_H100, "context": 8192}, "value": "kv_bytes_per_token"}),
    Reference("kv-llama31-70b", "Llama 3.1 70B KV cache per token, BF16 (2 x 80 x 8 x 128 x 2)", 327680, "B",
              "meta-llama/llama-models models/llama3_1/api/sku_list.py", _SKU_LIST,
              {"run": "vram_fit", "inputs": {**_8B_H100, "model": "llama-3.1-70b", "context": 8192},
               "value": "kv_bytes_per_token"}),
    Reference("kv-llama31-405b-fp8", "Llama 3.1 405B KV cache per token, FP8 (2 x 126 x 8 x 128 x 1)", 258048, "B",
              "meta-llama/llama-models models/llama3_1/api/sku_list.py", _SKU_LIST,
              {"run": "vram_fit", "inputs": {**_8B_H100, "model": "llama-3.1-405b", "kv_precision": "fp8",
                                             "context": 8192}, "value": "kv_bytes_per_token"}),
    Reference("kv-deepseek-v3-mla", "DeepSeek-V3 MLA cache per token, BF16 (61 x (512 + 64) x 2)", 70272, "B",
              "deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json",
              "https://github.com/deepseek-ai/DeepSeek-V3/blob/main/inference/configs/config_671B.json",
              {"run": "vram_fit", "inputs": {**_8B_H100, "model": "deepseek-v3", "context": 8192},
               "value": "kv_bytes_per_token"}),
    Reference("hf-blog-8b-16k", "Hugging Face blog: Llama 3.1 8B, 16k tokens of KV", 1.95, "GiB",
              "huggingface/blog issue #2345 (table of huggingface.co/blog/llama31)", _HF_BLOG,
              {"run": "vram_fit", "inputs": {**_8B_H100, "context": 16000}, "value": "kv_gb_per_sequence"},
              tolerance=0.005, scale=GIB_PER_GB),
    Reference("hf-blog-70b-128k", "Hugging Face blog: Llama 3.1 70B, 128k tokens of KV", 39.06, "GiB",
              "huggingface/blog issue #2345 (table of huggingface.co/blog/llama31)", _HF_BLOG,
              {"run": "vram_fit", "inputs": {**_8B_H100, "model": "llama-3.1-70b", "context": 128000},
               "value": "kv_gb_per_sequence"}, tolerance=0.005, scale=GIB_PER_GB),
    Reference("hf-blog-405b-16k", "Hugging Face blog: Llama 3.1 405B, 16k tokens (counted 16 KV heads; 8 is right)",
              15.38, "GiB", "huggingface/blog issue #2345: \"the calculated values seem to be half\"", _HF_BLOG,
              {"run": "vram_fit", "inputs": {**_8B_H100, "model": "llama-3.1-405b", "context": 16000},
               "value": "kv_gb_per_sequence"}, tolerance=0.005, scale=GIB_PER_GB, expect=0.5,
              note="expected ratio 0.5"),
    # --- What a card exposes --------------------------------------------------
    Reference("exposed-h100", "H100 80GB: total_gpu_memory in vLLM's log", 79.22, "GiB",
              "vllm-project/vllm PR #10511 (startup log)", _VLLM_10511,
              {"fn": "exposed_gib", "args": {"smi_mib": 81559}}, tolerance=0.01, fitted=True),
    Reference("exposed-rtx5090", "RTX 5090: total_gpu_memory in vLLM's log", 31.37, "GiB",
              "vllm-project/vllm issue #14452 (startup log)", "https://github.com/vllm-project/vllm/issues/14452",
              {"fn": "exposed_gib", "args": {"smi_mib": 32607}}, tolerance=0.01),
    Reference("exposed-24gb-l4", "24 GB L4/A10-class card: total_gpu_memory in vLLM's log", 22.07, "GiB",
              "oracle-samples/oci-data-science-ai-samples ai-quick-actions/troubleshooting-tips.md",
              "https://github.com/oracle-samples/oci-data-science-ai-samples/blob/main/ai-quick-actions/"
              "troubleshooting-tips.md", {"fn": "exposed_gib", "args": {"smi_mib": 23034}}, tolerance=0.01,
              note="L4 and A10 both report 23034 MiB"),
    Reference("exposed-b200", "B200: CUDA total global memory", 178.35, "GiB",
              "pytorch/ao PR #4002 (device query)", "https://github.com/pytorch/ao/pull/4002",
              {"fn": "exposed_gib", "args": {"smi_mib": 183359}}, tolerance=0.01),
    # --- KV cache a serving engine leaves (vLLM startup logs) ------------------
    Reference("vllm-h100-8b-kv", "vLLM, Llama 3 8B BF16 on 1 x H100: available KV cache", 53.29, "GiB",
              "vllm-project/vllm PR #10511 (startup log, utilization 0.90)", _VLLM_10511,
              {"fn": "kv_budget_gib", "args": {"smi_mib": 81559, "nvlink": True, "model": "llama-3.1-8b",
                                               "batched_tokens": 8192}}, tolerance=0.05,
              note="its non-torch 1.79 GiB is the model's NVLink figure; activation 0.84 GiB modelled, 1.26 logged"),
    Reference("vllm-3090-8b-20k", "vLLM, Llama 3.1 8B BF16 on 1 x RTX 3090, 20k batched tokens: KV cache", 3.81,
              "GiB", "vllm-project/vllm issue #10517 (startup log)", _VLLM_10517,
              {"fn": "kv_budget_gib", "args": {"smi_mib": 24576, "nvlink": False, "model": "llama-3.1-8b",
                                               "batched_tokens": 20000}}, tolerance=0.10, fitted=True),
    Reference("vllm-3090-8b-29k", "vLLM, same card at 29k batched tokens: KV cache (0.82 x 29k: fails)", 2.89,
              "GiB", "vllm-project/vllm issue #10517 (startup log)", _VLLM_10517,
              {"fn": "kv_budget_gib", "args": {"smi_mib": 24576, "nvlink": False, "model": "llama-3.1-8b",
                                               "batched_tokens": 29000}}, tolerance=0.10, fitted=True),
    Reference("vllm-24gb-8b-128k", "vLLM, Llama 3.1 8B BF16 on one 24 GB card, chunked prefill: KV cache", 4.60,
              "GiB", "oracle-samples/oci-data-science-ai-samples ai-quick-actions/troubleshooting-tips.md",
              "https://github.com/oracle-samples/oci-data-science-ai-samples/blob/main/ai-quick-actions/"
              "troubleshooting-tips.md",
              {"fn": "kv_budget_gib", "args": {"smi_mib": 23034, "nvlink": False, "model": "llama-3.1-8b",
                                               "batched_tokens": 2048}}, tolerance=0.10, fitted=True,
              note="its non-torch memory was 0.05 GiB, ours 0.35"),
    Reference("sglang-qwen3-235b-tp4-kv-per-rank",
              "SGLang, Qwen3-235B-A22B on 4 x H100 (TP 4): K + V 2 x 8.23 GiB for 367,404 tokens, per token",
              round(2 * 8.23 * 2**30 / 367404), "B", "vllm-project/vllm issue #21348 (SGLang startup log)",
              "https://github.com/vllm-project/vllm/issues/21348",
              {"fn": "gqa_kv_bytes_per_rank", "args": {"layers": 94, "kv_heads": 4, "head_dim": 128, "tp": 4,
                                                       "kv_bytes": 2.0}}, tolerance=0.01,
              note="94 layers, 4 KV heads: one per rank (Qwen/Qwen3-235B-A22B config.json); SGLang's GB are GiB"),
    Reference("sglang-mla-dp-attention", "DeepSeek-V3 on 8 GPUs: tokens held with DP attention / with TP", 8, "×",
              "LMSYS, SGLang v0.4 blog: TP \"will lead to duplicated KV cache\"",
              "https://lmsys.org/blog/2024-12-04-sglang-v0-4/#data-parallelism-attention-for-deepseek-models",
              {"fn": "mla_dp_over_tp", "args": {"model": "deepseek-v3", "gpus": 8, "budget_gib": 40.0}}),
    # --- Training state -------------------------------------------------------
    Reference("zero-baseline", "ZeRO Fig. 1: 7.5B, data parallel, per GPU", 120.0, "GB",
              "Rajbhandari et al., ZeRO, arXiv:1910.02054, Figure 1", _ZERO,
              {"fn": "zero_model_states_gb", "args": {"params_b": 7.5, "stage": 0, "gpus": 64}}, tolerance=0.01),
    Reference("zero-os", "ZeRO Fig. 1: 7.5B, P_os over 64 GPUs", 31.4, "GB",
              "Rajbhandari et al., ZeRO, arXiv:1910.02054, Figure 1", _ZERO,
              {"fn": "zero_model_states_gb", "args": {"params_b": 7.5, "stage": 1, "gpus": 64}}, tolerance=0.01),
    Reference("zero-os-g", "ZeRO Fig. 1: 7.5B, P_os+g over 64 GPUs", 16.6, "GB",
              "Rajbhandari et al., ZeRO, arXiv:1910.02054, Figure 1", _ZERO,
              {"fn": "zero_model_states_gb", "args": {"params_b": 7.5, "stage": 2, "gpus": 64}}, tolerance=0.01),
    Reference("zero-os-g-p", "ZeRO Fig. 1: 7.5B, P_os+g+p over 64 GPUs", 1.9, "GB",
              "Rajbhandari et al., ZeRO, arXiv:1910.02054, Figure 1", _ZERO,
              {"fn": "zero_model_states_gb", "args": {"params_b": 7.5, "stage": 3, "gpus": 64}}, tolerance=0.02,
              note="the figure rounds 1.875"),
    Reference("deepspeed-zero2", "DeepSpeed estimator: t5-3b (2,851M), ZeRO-2, 8 GPUs, per GPU", 15.93, "GiB",
              "microsoft/DeepSpeed docs/code-docs/source/memory.rst", _DS_MEMORY,
              {"fn": "zero_model_states_gb", "args": {"params_b": 2.851, "stage": 2, "gpus": 8,
                                                      "accounting": "deepspeed"}},
              tolerance=0.01, scale=GIB_PER_GB),
    Reference("deepspeed-zero2-offload", "DeepSpeed estimator: same, optimizer offloaded", 5.31, "GiB",
              "microsoft/DeepSpeed docs/code-docs/source/memory.rst", _DS_MEMORY,
              {"fn": "zero_model_states_gb", "args": {"params_b": 2.851, "stage": 2, "gpus": 8,
                                                      "accounting": "deepspeed", "offload_optimizer": True}},
              tolerance=0.01, scale=GIB_PER_GB),
    Reference("deepspeed-zero3", "DeepSpeed estimator: t5-3b, ZeRO-3, 8 GPUs (32M largest layer)", 6.10, "GiB",
              "microsoft/DeepSpeed docs/code-docs/source/memory.rst", _DS_MEMORY,
              {"fn": "zero_model_states_gb", "args": {"params_b": 2.851, "stage": 3, "gpus": 8,
                                                      "accounting": "deepspeed", "largest_layer_params_b": 0.032}},
              tolerance=0.01, scale=GIB_PER_GB),
    Reference("qlora-65b-48gb", "QLoRA: 65B fine-tune (r 64, 512 tokens, checkpointing) in < 48 GB", 48.0, "GB",
              "Dettmers et al., QLoRA, arXiv:2305.14314, abstract and sec. 1", "https://arxiv.org/abs/2305.14314",
              {"run": "training_memory", "inputs": {"model": "custom", "params_b": 65.3, "layers": 80,
                                                    "method": "qlora", "lora_rank": 64, "seq_len": 512,
                                                    "micro_batch": 1, "recompute": "full", "gpu": "l40s",
                                                    "gpus": 1}, "value": "total_gb"}, kind="at_most"),
    Reference("meta-405b-fp8-mixed", "Meta: Llama 3.1 405B FP8 (fp8_mixed) needs 8 GPUs x 70 GB", 560.0, "GB",
              "meta-llama/llama-models models/llama3_1/api/sku_list.py (llama3_1_405b_fp8_mp8)", _SKU_LIST,
              {"fn": "fp8_weights_gb", "args": {"model": "llama-3.1-405b", "layout": "official"}}, kind="at_most",
              note="weights only; uniform FP8 would be 405.9"),
    # --- Collective bandwidth (nccl-tests all_reduce_perf, bus bandwidth) --------
    Reference("nccl-4x4090-switch", "4 x RTX 4090, PCIe 4, one root complex: all-reduce busbw", 25.95, "GB/s",
              "tinygrad/open-gpu-kernel-modules issue #36", "https://github.com/tinygrad/open-gpu-kernel-modules/issues/36",
              {"fn": "pcie_allreduce_gbs", "args": {"gen": 4, "placement": "switch"}}, tolerance=0.10),
    Reference("nccl-8x5090-two-sockets", "8 x RTX 5090, PCIe 5, two Xeon 8480+: all-reduce busbw", 28.0, "GB/s",
              "NVIDIA/nccl issue #1639", "https://github.com/NVIDIA/nccl/issues/1639",
              {"fn": "pcie_allreduce_range_gbs", "args": {"gen": 5, "placement": "cross_socket", "cpu": "intel-spr"}},
              kind="within",
              note="the article's ~50 GB/s is the same-switch case"),
    Reference("nccl-h100-nvlink-ring", "8 x H100 SXM, NVLink 4: ring all-reduce busbw", 370.0, "GB/s",
              "NVIDIA/nccl-tests issue #212 (maintainer)", "https://github.com/NVIDIA/nccl-tests/issues/212",
              {"fn": "fabric_bandwidth_gbs", "args": {"fabric": "nvlink"}}, tolerance=0.05),
    Reference("nccl-h200-nvls", "8 x H200, NVLink 4: all-reduce busbw (NVLink SHARP)", 475.0, "GB/s",
              "NVIDIA/nccl-tests issue #272", "https://github.com/NVIDIA/nccl-tests/issues/272",
              {"fn": "nvlink_allreduce_range_gbs", "args": {"link": "nvlink"}}, kind="within"),
    Reference("nccl-100g-nic", "100 Gb/s NIC: all-reduce busbw", 12.2, "GB/s",
              "NVIDIA/nccl-tests issue #29 (maintainer)", "https://github.com/NVIDIA/nccl-tests/issues/29",
              {"fn": "fabric_bandwidth_gbs", "args": {"fabric": "eth-100"}}, tolerance=0.05),
    Reference("nccl-hdr-dgx-a100", "DGX A100, 8 x 200 Gb/s IB: 192 GB/s busbw, per NIC", 24.0, "GB/s",
              "NVIDIA/nccl issue #1576 (maintainer, quoting #812)", "https://github.com/NVIDIA/nccl/issues/1576",
              {"fn": "fabric_bandwidth_gbs", "args": {"fabric": "ib-200"}}, tolerance=0.05),
    Reference("nccl-ndr-nic", "400 Gb/s NDR NIC (ConnectX-7): all-reduce busbw", 48.5, "GB/s",
              "NVIDIA/nccl-tests issue #267 (maintainer: 48-49 GB/s)", "https://github.com/NVIDIA/nccl-tests/issues/267",
              {"fn": "fabric_bandwidth_gbs", "args": {"fabric": "ib-400"}}, tolerance=0.05),
    # --- Serving throughput (the throughput widget's shown rate at concurrency 0: the KV cache's batch at the mean
    # length, one prefill per request, then decode; FP8 KV cache as in NVIDIA's FP8 checkpoints) ------
    _trtllm("h100-sxm", 1000, 1000, 2209.0),
    _trtllm("h100-sxm", 8192, 1024, 398.0),
    _trtllm("h200", 1000, 1000, 2587.0),
    _trtllm("h200", 8192, 1024, 537.0),
    _trtllm("h200", 32768, 1024, 120.0),
    _trtllm("h200", 1024, 8192, 2009.0),
    *(_served_run(row) for row in _SERVING_RUNS),
    # --- Serving latency at a given concurrency (NVIDIA NIM, AIPerf; 70B FP8 on 2 x H100, TP 2) ----------
    Reference("nim-70b-h100-ttft-5000", "NIM: Llama 3.3 70B FP8, 2 x H100, 5,000-token prompt, concurrency 1: TTFT",
              406.77, "ms", _NIM_SRC, _NIM,
              {"run": "throughput", "inputs": {**_NIM_70B, "concurrency": 1,
                                            "input_tokens": 5000, "output_tokens": 500},
               "value": "time_to_first_token_ms"}, tolerance=0.25),
    Reference("nim-70b-h100-ttft-500", "NIM: same, 500-token prompt, concurrency 1: TTFT", 47.77, "ms", _NIM_SRC, _NIM,
              {"run": "throughput", "inputs": {**_NIM_70B, "concurrency": 1, "input_tokens": 500, "output_tokens": 500},
               "value": "time_to_first_token_ms"}, tolerance=0.25),
    Reference("nim-70b-h100-itl-c1", "NIM: same, 5,000 in / 500 out, concurrency 1: inter-token latency", 18.58, "ms",
              _NIM_SRC, _NIM,
              {"run": "throughput", "inputs": {**_NIM_70B, "concurrency": 1,
                                            "input_tokens": 5000, "output_tokens": 500},
               "value": "tokens_per_s_per_request"}, scale=1000.0, reciprocal=True,
              tolerance=0.25, note="the widget's tokens/s per request, as the time between two tokens"),
    Reference("nim-70b-h100-itl-c25", "NIM: same, concurrency 25: inter-token latency", 38.75, "ms", _NIM_SRC, _NIM,
              {"run": "throughput", "inputs": {**_NIM_70B, "concurrency": 25,
                                            "input_tokens": 5000, "output_tokens": 500},
               "value": "tokens_per_s_per_request"}, scale=1000.0, reciprocal=True,
              tolerance=0.25, note="the other requests' prefills stall the decode steps"),
    Reference("nim-70b-h100-itl-c50", "NIM: same, concurrency 50: inter-token latency", 59.73, "ms", _NIM_SRC, _NIM,
              {"run": "throughput", "inputs": {**_NIM_70B, "concurrency": 50,
                                            "input_tokens": 5000, "output_tokens": 500},
               "value": "tokens_per_s_per_request"}, scale=1000.0, reciprocal=True,
              tolerance=0.25),
    # --- Training time (training_time.py: 6 P D FLOPs at mfu x the layout's efficiency; what it shows) -----
    # Llama 3 405B's layouts (arXiv:2407.21783, Table 4): the 8,192-GPU row calibrates training_time's mfu
    # (assumptions.TRAINING_MFU); the 16,384-GPU row, with half the sequences per replica, is predicted.
    Reference("llama3-405b-mfu-8k-gpus", "Llama 3 405B, 8,192 H100, TP 8 x PP 16 x DP 64, 32 sequences of 8,192 "
              "tokens per replica: BF16 MFU", 0.43, "MFU", _LLAMA3_SRC, _LLAMA3,
              {"fn": "training_layout_mfu", "args": {"model": "llama-3.1-405b", "gpu": "h100-sxm", "tp": 8, "pp": 16,
                                                     "dp": 64}}, tolerance=0.01, fitted=True),
    Reference("llama3-405b-mfu-16k-gpus", "Llama 3 405B, 16,384 H100, TP 8 x PP 16 x DP 128, 16 sequences per "
              "replica: BF16 MFU", 0.41, "MFU", _LLAMA3_SRC, _LLAMA3,
              {"fn": "training_layout_mfu", "args": {"model": "llama-3.1-405b", "gpu": "h100-sxm", "tp": 8, "pp": 16,
                                                     "dp": 128}}, tolerance=0.05,
              note="the pipeline bubble (PP - 1) / (V x M) doubles with half the micro-batches, as Meta says"),
    *_train("405b", "llama-3.1-405b", 15.6, 16384, 30.84e6,
            "3.8e25 FLOPs; the widget's own layout: TP 8 x PP 8 x DP 256, 42 % MFU over whole steps", "",
            tolerance=0.30),
    *_train("70b", "llama-3.1-70b", 15.0, 16384, 7.0e6,
            "the card implies 29 % MFU with attention's FLOPs (25 % by 6 P alone), everything counted (ours "
            "43 %): the largest deviation", "the range's slow end is this figure's 25 % (6 P alone)",
            tolerance=0.40),
    Reference("llama31-8b-gpu-hours", "Llama 3.1 8B: GPU-hours of its training on H100 (15T tokens)", 1.46e6,
              "GPU-h", _LLAMA31_SRC, _LLAMA31_CARD,
              {"run": "training_time", "inputs": {"model": "llama-3.1-8b", "gpu": "h100-sxm", "gpus": 16384,
                                                  "tokens_t": 15.0}, "value": "gpu_months"},
              scale=HOURS_PER_MONTH, kind="at_most",
              note="the card implies 14 % MFU: it counts every GPU-hour spent on the model; GPU count unpublished"),
    # Llama 2 70B: 2.0T tokens of 4,096 on A100 80GB at 200 Gb/s (arXiv:2307.09288, sec. 2.2.1 and Table 2);
    # 4M tokens per step (Llama 2 keeps Llama 1's setting, arXiv:2302.13971, Table 2) = 1,024 sequences; the
    # GPU count is not published ("up to 2000 GPUs" in sec. 2.2.1): 2,048. Its shape is Llama 3.1 70B's with
    # a 32k vocabulary: 69.0B parameters, 2 % fewer than the 70.6B used here.
    Reference("llama2-70b-gpu-hours", "Llama 2 70B: 2.0T tokens on A100 80GB, GPU-hours", 1720320.0, "GPU-h",
              _LLAMA2_SRC, _LLAMA2, {"run": "training_time", "inputs": _LLAMA2_70B, "value": "gpu_months"},
              scale=HOURS_PER_MONTH, tolerance=0.30, note="2,048 GPUs assumed; the widget: TP 4 x DP 512"),
    Reference("llama2-70b-gpu-hours-range", "Llama 2 70B: the same, in the shown range", 1720320.0, "GPU-h",
              _LLAMA2_SRC, _LLAMA2, {"fn": "training_gpu_hours_range", "args": {"inputs": _LLAMA2_70B}},
              kind="within"),
    # --- Published training runs through what training_time shows (the training budget) ---------------
    *(_trained(row) for row in _TRAINING_RUNS),
)


def _from_run(row: reference_rows.Run) -> Reference:
    """A row of ``references/*.toml`` as a reference: through what its calculator's widget shows."""
    call = reference_rows.call_of(row)
    scale, reciprocal = reference_rows.scale_of(row)
    return Reference(row.id, row.what or row.id, row.figure, row.unit, row.source, row.url,
                     {key: value for key, value in call.items() if key != "unstated"}, kind="band",
                     scale=scale, reciprocal=reciprocal, role=row.role, note=row.note, excerpt=row.excerpt,
                     registered=row.registered, unstated=tuple(call["unstated"]), calculator=row.calculator)


REFERENCES = (*REFERENCES, *(_from_run(row) for row in reference_rows.runs()))


def _call(ref: Reference) -> Any:
    call = ref.call
    if "run" in call:
        result = run(call["run"], dict(call["inputs"]))
        if not result["ok"]:
            raise Refused(f"{ref.id}: {call['run']} refuses the run's inputs: "
                          + "; ".join(f"{e['field']}: {e['code']}" for e in result["errors"]))
        return result["values"][call["value"]]
    return FUNCTIONS[call["fn"]](**call["args"])


class Refused(ValueError):
    """A reference whose calculator refuses the run's inputs (a prediction row the widget cannot answer)."""


def evaluate(ref: Reference) -> dict[str, Any]:
    """Run a reference's call: ``{"ours", "ratio", "ok"}`` (ours in the figure's unit); a prediction row the
    calculator refuses is not ok, with ``refused`` saying why."""
    try:
        raw = _call(ref)
    except Refused as error:
        if ref.calibration:
            raise
        return {"ours": None, "ratio": None, "ok": False, "refused": str(error)}
    if ref.kind == "within":
        low, high = raw[0] * ref.scale, raw[1] * ref.scale
        return {"ours": (low, high), "ratio": None, "ok": low <= ref.figure <= high}
    ours = ref.scale / raw if ref.reciprocal else raw * ref.scale
    if ref.kind == "band" and ref.figure <= 0:
        # A run that logged no room for the KV cache (the engine did not start): no ratio; ours agrees when the
        # widget leaves none either.
        return {"ours": ours, "ratio": None, "ok": ours <= 0, "no_room": True}
    ratio = ours / ref.figure
    if ref.kind == "band":
        ok = BAND[0] <= ratio <= BAND[1]
    elif ref.kind == "at_most":
        ok = ours <= ref.figure
    elif ref.kind == "at_least":
        ok = ours >= ref.figure
    else:
        ok = abs(ratio / ref.expect - 1.0) <= ref.tolerance + 1e-12
    return {"ours": ours, "ratio": ratio, "ok": ok}


def failures() -> list[str]:
    """Ids of the calibration rows whose figure the calculators do not reproduce (and ``<name>-budget`` for a
    calibration budget fewer than 80 % of whose rows are within 0.7-1.4x). The prediction rows are judged by
    their budgets (``prediction_failures``), not one by one: a red one stays in the table with its reason."""
    failed = [ref.id for ref in REFERENCES if ref.calibration and not evaluate(ref)["ok"]]
    return failed + [f"{name}-budget" for calculator, name in BUDGETS.items()
                     if not budget(calculator, "calibration")["ok"]]


def prediction_failures() -> list[str]:
    """Why the prediction budgets do not hold: per budget, its share and every row outside its inner band."""
    out = []
    for calculator, name in PREDICTION_BUDGETS.items():
        found = budget(calculator, "prediction")
        if found["rows"] < MIN_PREDICTION_ROWS:
            out.append(f"{name}: {found['rows']} prediction rows, {MIN_PREDICTION_ROWS} wanted")
        if not found["ok"]:
            out.append(f"{name}: {found['inner_share']:.0%} of {found['rows']} within {INNER[0]:g}-{INNER[1]:g}x "
                       f"({INNER_SHARE:.0%} wanted), {found['outside']} outside {BAND[0]:g}-{BAND[1]:g}x")
            for ref in band_rows(calculator, "prediction"):
                result = evaluate(ref)
                if not _inner(result):
                    q = result["ratio"]
                    why = (result.get("refused") or (f"ours / published {q:.2f}" if q is not None else
                           f"the run left no room for the KV cache, ours {result['ours']:.3g} {ref.unit}"))
                    out.append(f"  {ref.id} ({ref.source}): {why}")
    return out


def _num(x: float) -> str:
    if x == int(x) and abs(x) >= 100:
        return f"{int(x):,}"
    if abs(x) >= 100:
        return f"{x:,.2f}"
    return f"{x:.4g}"


def band_rows(calculator: str, role: str | None = None) -> list[Reference]:
    """The ``band`` rows of one budget: those checking what ``calculator`` shows (of one ``role``, or all)."""
    return [ref for ref in REFERENCES if ref.kind == "band" and ref.calculator == calculator
            and (role is None or ref.role == role)]


def budget(calculator: str, role: str = "prediction") -> dict[str, Any]:
    """The budget over ``calculator``'s ``band`` rows of ``role``: how many, the share inside the inner band,
    the ids outside the outer band (a row the calculator refuses counts as outside), ok (at least
    ``INNER_SHARE`` inside, none outside)."""
    results = {ref.id: evaluate(ref) for ref in band_rows(calculator, role)}
    inner = sum(_inner(e) for e in results.values()) / len(results) if results else 0.0
    outside = [i for i, e in results.items() if not e["ok"]]
    return {"rows": len(results), "inner_share": inner, "outside": len(outside), "outside_ids": outside,
            "ok": bool(results) and inner >= INNER_SHARE and not outside}


def _inner(result: Mapping[str, Any]) -> bool:
    """Whether a band row's result is inside the inner band (a run with no room that ours agrees with is)."""
    q = result["ratio"]
    return bool(result["ok"]) if q is None else INNER[0] <= q <= INNER[1]


def serving_budget() -> dict[str, Any]:
    """The serving fit: ``budget`` over the throughput widget's calibration rows."""
    return budget("throughput", "calibration")


def _tolerance(ref: Reference) -> str:
    if ref.kind == "band":
        return (f"{BAND[0]:g}–{BAND[1]:g}× (≥ {INNER_SHARE:.0%} of these rows in "
                f"{INNER[0]:g}–{INNER[1]:g}×)")
    if ref.kind == "at_most":
        return "ours ≤ figure"
    if ref.kind == "at_least":
        return "ours ≥ figure"
    if ref.kind == "within":
        return "figure in range"
    text = "exact" if ref.tolerance == 0 else f"±{ref.tolerance * 100:g} %"
    return text if ref.expect == 1.0 else f"{text} of {ref.expect:g}"


def markdown_table() -> str:
    """The README's reference table, generated from REFERENCES: every row with its role, then the budgets of
    both roles."""
    lines = ["| id | role | figure | source | ours | ratio | tolerance |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for ref in REFERENCES:
        e = evaluate(ref)
        if e.get("refused"):
            ours, ratio = "refused", "—"
        elif ref.kind == "within" or e["ratio"] is None:
            ours = (f"{_num(e['ours'][0])}–{_num(e['ours'][1])} {ref.unit}" if ref.kind == "within" else
                    f"{_num(e['ours'])} {ref.unit}")
            ratio = "—"
        else:
            ours = f"{_num(e['ours'])} {ref.unit}"
            ratio = f"{e['ratio']:.3f}"
        role = ref.role + (" (fitted)" if ref.fitted else "")
        red = "" if e["ok"] or ref.calibration else " ✗"
        what = ref.what + (f"; {ref.note}" if ref.note else "") + (
            f"; not an input: {', '.join(ref.unstated)}" if ref.unstated else "")
        figure = f"{what}: **{_num(ref.figure)} {ref.unit}**"
        lines.append(f"| `{ref.id}` | {role}{red} | {figure} | [{ref.source}]({ref.url}) | {ours} | {ratio} | "
                     f"{_tolerance(ref)} |")
    lines += ["", "| budget | role | rows | within 0.7–1.4× | outside 0.5–2× | holds |",
              "| --- | --- | --- | --- | --- | --- |"]
    for calculator in sorted({*BUDGETS, *PREDICTION_BUDGETS}):
        for role in ROLES:
            found = budget(calculator, role)
            if found["rows"]:
                lines.append(f"| {calculator} | {role} | {found['rows']} | {found['inner_share']:.0%} | "
                             f"{found['outside']} | {'yes' if found['ok'] else 'no'} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
