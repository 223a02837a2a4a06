"""Published runs kept as data: `calculators/references/*.toml`, one `[[row]]` per figure, with its excerpt.

A row states a run as its source does (engine and version, model and checkpoint, GPUs, the engine's settings,
the load) and one figure it measured, with the excerpt of the source it was copied from, verbatim. Its
`role` says what it may be used for:

- `calibration`: a constant or a formula choice was fitted on it; its ratio shows the fit;
- `prediction`: registered (`registered`, a date, and `model_commit`, the commit whose calculators it was
  first evaluated against) before the model was changed, and never used to choose a constant. The
  budgets hold on these rows alone.

`runs()` reads every file; `call_of(row)` is the calculator call a reader would make for the run: the widget's
inputs for its conditions, and the shown value the figure is compared with. A condition the widget cannot
take (a GPU outside the catalog, an engine setting it has no input for) is listed in `unstated`, and the
widget's answer is compared all the same: that is what the reader would have been told.

Standard library only (tomllib, Python 3.11+), like the rest of `calculators/`. The browser's wheel carries
the module but not the rows (data files), and nothing there imports the reference suite.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

FOLDER = Path(__file__).resolve().parent / "references"
ROLES = ("calibration", "prediction")
GIB_PER_GB = 1e9 / 2**30

# Checkpoint formats as a reader would enter them in the widget's `precision` (the widget's own names).
PRECISION_OF: Mapping[str, str] = MappingProxyType({
    "bf16": "bf16", "fp16": "bf16", "fp8": "fp8", "int4": "int4", "awq": "int4", "gptq": "int4",
    "nvfp4": "fp4", "fp4": "fp4", "mxfp4": "fp4",
})
KV_OF: Mapping[str, str] = MappingProxyType({"auto": "", "bf16": "bf16", "fp16": "bf16", "fp8": "fp8",
                                             "fp8_e4m3": "fp8"})
# What each quantity a row can measure is compared with: the calculator, its shown value, and how the figure's
# unit relates to it ("per_gpu": the figure is one GPU's, the value the node's).
QUANTITIES: Mapping[str, tuple[str, str, str]] = MappingProxyType({
    "kv_cache_gib": ("vram_fit", "kv_budget_gb", "GiB per GPU"),
    "max_concurrency": ("vram_fit", "max_concurrency", "requests"),
    "output_tok_s": ("throughput", "node_tokens_per_s", "tok/s"),
    "mean_ttft_ms": ("throughput", "time_to_first_token_ms", "ms"),
    "mean_tpot_ms": ("throughput", "tokens_per_s_per_request", "ms"),
    "train_peak_gib_per_gpu": ("training_memory", "total_gb", "GiB per GPU"),
    "train_max_seq_len": ("training_memory", "seq_len", "tokens"),
    "train_tokens_per_s_per_gpu": ("training_time", "gpu_hours", "tok/s per GPU"),
    "train_gpu_hours": ("training_time", "gpu_hours", "GPU-h"),
    "train_mfu": ("training_time", "mfu_achieved", "MFU"),
})
# Settings of the run that the widgets of `calculators` do not take yet (issue 44): listed as unstated.
ENGINE_SETTINGS = ("engine", "gpu_memory_utilization", "max_num_seqs", "max_num_batched_tokens", "tensor_parallel")


@dataclass(frozen=True)
class Run:
    """One published figure and the conditions of the run that measured it."""

    id: str
    role: str
    quantity: str
    figure: float
    source: str
    url: str
    excerpt: str
    conditions: Mapping[str, Any]
    registered: str = ""
    model_commit: str = ""
    what: str = ""
    note: str = ""
    file: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def calculator(self) -> str:
        return QUANTITIES[self.quantity][0]

    @property
    def unit(self) -> str:
        unit = QUANTITIES[self.quantity][2]
        printed = self.conditions.get("memory_unit")
        return unit.replace("GiB", str(printed)) if printed and self.quantity == "train_peak_gib_per_gpu" else unit


class RowError(ValueError):
    """A row of `references/*.toml` that cannot be read as written."""


def _row(raw: dict[str, Any], file: str) -> Run:
    where = f"{file}: row {raw.get('id', '?')!r}"
    for key in ("id", "role", "quantity", "figure", "source", "url", "excerpt", "run"):
        if key not in raw:
            raise RowError(f"{where}: '{key}' is missing")
    if raw["role"] not in ROLES:
        raise RowError(f"{where}: role {raw['role']!r} is not one of {', '.join(ROLES)}")
    if raw["quantity"] not in QUANTITIES:
        raise RowError(f"{where}: quantity {raw['quantity']!r} is not one of {', '.join(QUANTITIES)}")
    if raw["role"] == "prediction" and not (raw.get("registered") and raw.get("model_commit")):
        raise RowError(f"{where}: a prediction row says when it was registered and against which commit")
    known = {"id", "role", "quantity", "figure", "source", "url", "excerpt", "run", "registered", "model_commit",
             "what", "note"}
    return Run(str(raw["id"]), raw["role"], raw["quantity"], float(raw["figure"]), str(raw["source"]),
               str(raw["url"]), str(raw["excerpt"]), MappingProxyType(dict(raw["run"])),
               str(raw.get("registered", "")), str(raw.get("model_commit", "")), str(raw.get("what", "")),
               str(raw.get("note", "")), file, MappingProxyType({k: v for k, v in raw.items() if k not in known}))


def runs(folder: Path = FOLDER) -> tuple[Run, ...]:
    """Every row of every `*.toml` file of `folder`, in file and row order."""
    found = []
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        found += [_row(raw, path.name) for raw in data.get("row", [])]
    ids = [run.id for run in found]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise RowError(f"ids used twice in {folder.name}/: {', '.join(repeated)}")
    return tuple(found)


def catalog_gpu(name: str) -> str:
    """The catalog GPU a reader would pick for the run's card: itself, or the one `CARDS` names."""
    return name if name not in CARDS else CARDS[name][0]


# Cards the runs used that the catalog does not hold, and the catalog card a reader would enter for each:
# the same chip where the catalog has it (H100 PCIe and NVL: H100), else the card of the nearest memory
# (datasheets: RTX 3090, RTX 4090 and A10G 24 GB: L4 24 GB; RTX A6000 and RTX 6000 Ada 48 GB: L40S 48 GB;
# H20 96 GB: H100, the Hopper card of the catalog; A100 40GB: the catalog's A100, 80 GB).
CARDS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "rtx-3090": ("l4", "24 GB"), "rtx-4090": ("l4", "24 GB"), "a10g": ("l4", "24 GB"),
    "rtx-a6000": ("l40s", "48 GB"), "rtx-6000-ada": ("l40s", "48 GB"), "h100-pcie": ("h100-sxm", "80 GB"),
    "h100-nvl": ("h100-sxm", "94 GB"), "h20": ("h100-sxm", "96 GB"), "a100-40gb": ("a100-sxm", "40 GB"),
})


def _serving_inputs(run: Run, gpu: str, inputs: dict[str, Any], unstated: list[str]) -> None:
    """The serving widgets' inputs of a run (precision, KV precision, context or load) and what they lack."""
    from .catalog.gpus import GPU_BY_ID, precision_supported

    c = run.conditions
    checkpoint = str(c.get("checkpoint", "bf16")).lower()
    inputs["precision"] = PRECISION_OF.get(checkpoint, "bf16")
    if not precision_supported(GPU_BY_ID[gpu], inputs["precision"]):
        inputs["precision"] = "int4"  # FP4 weights without FP4 tensor cores: half a byte a weight is INT4
    if checkpoint not in ("bf16", "fp16", "fp8", "nvfp4", "fp4", "int4"):
        unstated.append(f"checkpoint {checkpoint} (entered as {inputs['precision']})")
    kv = KV_OF.get(str(c.get("kv_cache_dtype", "auto")).lower(), "")
    inputs["kv_precision"] = kv or ("bf16" if inputs["precision"] in ("bf16", "int4") else
                                    "fp8" if inputs["precision"] == "fp8" else "bf16")
    for name in ENGINE_SETTINGS:
        if c.get(name) is None or (name, c[name]) == ("engine", "vllm"):  # the engine the widgets model
            continue
        if not (name == "tensor_parallel" and int(c[name]) == int(c["gpus"])):
            unstated.append(f"{name} {c[name]}")
    if run.calculator == "vram_fit":
        inputs["context"] = int(c.get("max_model_len") or c.get("tokens_per_request") or 8192)
        inputs["concurrency"] = 1
        if run.quantity == "max_concurrency":
            inputs["context"] = int(c["tokens_per_request"])
    else:
        inputs.update({"concurrency": int(c["concurrency"]), "input_tokens": int(c["input_tokens"]),
                       "output_tokens": int(c["output_tokens"])})


# How a run's activation checkpointing is entered in training_memory's `recompute`.
RECOMPUTE_OF: Mapping[str, str] = MappingProxyType({"none": "none", "full": "full", "offload": "offload"})
# Training conditions the training widgets do not take (issue 45), and the value they assume for each.
TRAINING_ASSUMED: Mapping[str, Any] = MappingProxyType({
    "optimizer": "adamw", "optimizer_offload": False, "optimizer_in_backward": False, "master_weights": "fp32",
    "lora_targets": None, "precision": "bf16", "tp": None, "pp": None, "dp": None,
})
# A run's sharding as training_time's `parallelism`.
PARALLELISM_OF: Mapping[str, str] = MappingProxyType({"fsdp": "fsdp", "zero3": "fsdp", "zero2": "fsdp",
                                                      "zero1": "dp", "ddp": "dp"})


def _training_inputs(run: Run, inputs: dict[str, Any], unstated: list[str]) -> None:
    """The training widgets' inputs of a run and the conditions they lack."""
    c = run.conditions
    for name, assumed in TRAINING_ASSUMED.items():
        if c.get(name) is not None and c[name] != assumed:
            unstated.append(f"{name} {c[name]}")
    inputs["seq_len"] = int(c["seq_len"]) if c.get("seq_len") else 2048
    if run.calculator == "training_memory":
        inputs.update({"method": c.get("method", "full"), "micro_batch": int(c.get("micro_batch", 1)),
                       "recompute": RECOMPUTE_OF.get(str(c.get("checkpointing", "none")), "none")})
        if c.get("lora_rank"):
            inputs["lora_rank"] = int(c["lora_rank"])
        if c.get("sharding"):
            unstated.append(f"sharding {c['sharding']}")
        return
    if c.get("method", "full") != "full":
        unstated.append(f"method {c['method']} (timed as training every weight)")
    gpus = int(c["gpus"])
    inputs.update({"tokens_t": float(c.get("tokens_t", 1.0)), "gpus_per_node": min(gpus, 8),
                   "global_batch": gpus * int(c.get("micro_batch", 1)) * int(c.get("grad_accum", 1))})
    if c.get("sharding") in PARALLELISM_OF:
        inputs["parallelism"] = PARALLELISM_OF[c["sharding"]]


def widget_inputs(run: Run) -> tuple[dict[str, Any], list[str]]:
    """The inputs a reader would give the row's calculator for its run, and the conditions it cannot take."""
    c, unstated = run.conditions, []
    gpu = catalog_gpu(str(c["gpu"]))
    if gpu != c["gpu"]:
        unstated.append(f"gpu {c['gpu']} (entered as {gpu})")
    inputs: dict[str, Any] = {"model": c["model"], "gpu": gpu, "gpus": int(c["gpus"])}
    if c["model"] == "custom":
        inputs.update(c.get("shape", {}))
    if run.calculator in ("vram_fit", "throughput"):
        _serving_inputs(run, gpu, inputs, unstated)
    else:
        _training_inputs(run, inputs, unstated)
    return inputs, unstated


def call_of(run: Run) -> dict[str, Any]:
    """The calculators call the row compares with: `{"run", "inputs", "value"}` (or `{"fn", "args"}` for a
    figure no single output shows), and its unstated conditions."""
    inputs, unstated = widget_inputs(run)
    if run.quantity == "train_max_seq_len":
        return {"fn": "training_longest_seq", "args": {"inputs": inputs}, "unstated": unstated}
    return {"run": run.calculator, "inputs": inputs, "value": QUANTITIES[run.quantity][1], "unstated": unstated}


def scale_of(run: Run) -> tuple[float, bool]:
    """How the shown value becomes the figure's unit: (scale, reciprocal); ours = scale x value, or scale / value
    when reciprocal."""
    gpus = int(run.conditions["gpus"])
    if run.quantity == "kv_cache_gib":
        return GIB_PER_GB / gpus, False
    if run.quantity == "mean_tpot_ms":
        return 1000.0, True
    if run.quantity == "train_peak_gib_per_gpu":
        unit = run.conditions.get("memory_unit", "GiB")
        return {"GiB": GIB_PER_GB, "GB": 1.0, "MiB": 1e9 / 2**20}[unit] / gpus, False
    if run.quantity == "train_tokens_per_s_per_gpu":  # the run's tokens over its GPU-seconds
        tokens = float(run.conditions.get("tokens_t", 1.0)) * 1e12
        per = gpus if run.conditions.get("figure_scope") == "job" else 1
        return tokens * per / 3600.0, True
    return 1.0, False
