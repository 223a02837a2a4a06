"""GPU catalog: memory, memory bandwidth, in-box link and dense BF16 throughput.

Conventions
- ``memory_gb`` is the vendor's nominal capacity, treated as 1e9 bytes like
  every other "GB" in this package (the article does the same: 8 x 96 GB =
  768 GB) for ``vram_gb`` and the weights rule. What a serving engine can use
  is worked out from ``smi_mib`` instead (serving_memory.py): real
  capacities are binary and differ from the nominal GB by card.
- ``bf16_tflops`` is *dense* (no 2:4 sparsity) FP16/BF16 tensor throughput.
  NVIDIA's data-center pages quote sparse figures; dense = sparse / 2. For
  the RTX Blackwell cards NVIDIA quotes "AI TOPS" (FP4, sparse); dense BF16 =
  AI TOPS / 8 (FP4 -> FP8 -> FP16 halves, sparse -> dense halves). That is the
  FP16-accumulate rate; GeForce cards run FP32-accumulate at half that rate.
  Only the product ``mfu x bf16_tflops`` enters the scaling model, and the
  default ``mfu`` is calibrated on the RTX Pro 6000 figure (see scaling.py).
- ``link`` is the fabric id (see fabrics.py) GPUs inside one box talk over.
- ``smi_mib`` is what ``nvidia-smi`` reports as ``memory.total`` (MiB = 2^20
  bytes) for the card, from public nvidia-smi output. It is the card's real,
  binary capacity; CUDA sees ~0.42 GiB less (serving_memory.exposed_gib).
  "96 GB" is 97887 MiB = 95.6 GiB = 102.6e9 bytes: more than the nominal
  96e9, while an L4's "24 GB" is 23034 MiB = 24.15e9 bytes.
- ``board_w`` is the card's maximum board power (NVIDIA's "max power
  consumption", "total graphics power" or "max TDP"), in watts, from the
  page in ``power_source``. The rest of a node is an allowance (power.py).
- ``fp8_tflops`` / ``fp4_tflops`` are the dense FP8 / FP4 tensor rates (the
  headline rate: FP16 accumulate on GeForce cards; 0 = no tensor cores for
  that format). FP4 is NVFP4/MXFP4 on Blackwell's fifth-generation tensor
  cores; Hopper, Ada and Ampere have none, Ampere (A100) has no FP8 either.
- ``fp32_accumulate_share`` is the share of that rate the tensor cores reach
  with FP32 accumulation, as training runs: 0.5 on GeForce cards, 1 on data-
  center and RTX Pro cards (see ``training_tflops``).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Gpu:
    id: str
    name: str
    memory_gb: float
    memory_bandwidth_gbs: float
    link: str
    link_name: str
    bf16_tflops: float
    source: str
    smi_mib: int = 0  # nvidia-smi memory.total (MiB); 0 = unknown
    board_w: float = 0.0  # maximum board power (W), datasheet
    power_source: str = ""
    fp8_tflops: float = 0.0  # dense FP8 tensor TFLOP/s; 0 = no FP8 tensor cores
    fp4_tflops: float = 0.0  # dense FP4 tensor TFLOP/s; 0 = no FP4 tensor cores
    fp32_accumulate_share: float = 1.0  # 0.5 on GeForce cards (training_tflops)


GPU_LIST: tuple[Gpu, ...] = (
    # https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/
    # 96 GB GDDR7 ECC, 1792 GB/s, PCIe 5.0 x16, no NVLink, 4000 AI TOPS (FP4 sparse)
    # -> 500 TFLOP/s dense BF16 (the facts file's "~500, third-party figure").
    Gpu("rtx-pro-6000", "RTX Pro 6000 Blackwell", 96.0, 1792.0, "pcie5", "PCIe 5.0 x16",
        500.0, "https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/",
        # nvidia-smi "97887MiB" on the Workstation, Max-Q and Server editions alike
        # (public nvidia-smi logs; e.g. antirez/ds4 PR #256 "97 GB VRAM" on the Server Edition).
        smi_mib=97887,
        # Workstation Edition: "Max Power Consumption: 600 W" (the Server Edition is
        # configurable up to 600 W, the Max-Q 300 W).
        board_w=600.0, power_source="https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/",
        # 4000 AI TOPS = FP4 sparse -> 2000 dense FP4, 1000 dense FP8 (the same halvings as
        # above). NVIDIA RTX PRO Blackwell GPU architecture whitepaper v1.0, Table 4
        # (https://www.nvidia.com/content/dam/en-zz/Solutions/design-visualization/quadro-product-literature/NVIDIA-RTX-Blackwell-PRO-GPU-Architecture-v1.0.pdf):
        # 503.8 dense BF16 with FP32 accumulate, full rate like a data-center card.
        fp8_tflops=1000.0, fp4_tflops=2000.0),
    # https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/
    # 32 GB GDDR7, 1792 GB/s, PCIe 5.0 x16, 3352 AI TOPS -> 419 dense BF16
    # (209.5 with FP32 accumulate: RTX Blackwell architecture whitepaper, appendix).
    Gpu("rtx-5090", "GeForce RTX 5090", 32.0, 1792.0, "pcie5", "PCIe 5.0 x16",
        419.0, "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
        # nvidia-smi "32607MiB": https://github.com/noonghunna/club-3090/issues/1322
        smi_mib=32607,
        # "Total Graphics Power (W): 575".
        board_w=575.0, power_source="https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
        # NVIDIA RTX Blackwell GPU architecture whitepaper, Table 3 (GeForce RTX 5090 vs 4090,
        # printed pp. 46-48; https://images.nvidia.com/aem-dam/Solutions/geforce/blackwell/nvidia-rtx-blackwell-gpu-architecture.pdf),
        # dense/sparse: "Peak FP16 Tensor TFLOPS with FP16 Accumulate" 419/838, "with FP32
        # Accumulate" 209.5/419, "Peak BF16 Tensor TFLOPS with FP32 Accumulate" 209.5/419;
        # "Peak FP8 Tensor TFLOPS with FP16 Accumulate" 838/1676, "with FP32 Accumulate"
        # 419/838; "Peak FP4 Tensor TFLOPS" 1676/3352 (the 3352 AI TOPS). GeForce: FP32
        # accumulate at half rate.
        fp8_tflops=838.0, fp4_tflops=1676.0, fp32_accumulate_share=0.5),
    # https://www.nvidia.com/en-us/data-center/l40s/
    # 48 GB GDDR6, 864 GB/s, PCIe 4.0 x16, BF16 733 sparse / 362.05 dense.
    Gpu("l40s", "L40S", 48.0, 864.0, "pcie4", "PCIe 4.0 x16",
        362.05, "https://www.nvidia.com/en-us/data-center/l40s/",
        # nvidia-smi "NVIDIA L40S, 595.71.05, 46068 MiB":
        # https://github.com/akash-network/provider-configs/pull/99
        smi_mib=46068,
        # "Max Power Consumption: 350W".
        board_w=350.0, power_source="https://www.nvidia.com/en-us/data-center/l40s/",
        # "FP8 Tensor Core: 733 | 1,466 TFLOPS" (dense | sparse); Ada has no FP4 tensor cores.
        fp8_tflops=733.0),
    # https://www.nvidia.com/en-us/data-center/l4/
    # 24 GB GDDR6, 300 GB/s, PCIe 4.0 x16, BF16 242 sparse -> 121 dense.
    Gpu("l4", "L4", 24.0, 300.0, "pcie4", "PCIe 4.0 x16",
        121.0, "https://www.nvidia.com/en-us/data-center/l4/",
        # nvidia-smi "NVIDIA L4 ... 23034MiB": https://github.com/vllm-project/vllm/issues/10156
        smi_mib=23034,
        # "Max thermal design power (TDP): 72W".
        board_w=72.0, power_source="https://www.nvidia.com/en-us/data-center/l4/",
        # "FP8 Tensor Core: 485 TFLOPS" with sparsity -> 242.5 dense; no FP4.
        fp8_tflops=242.5),
    # A100 80GB SXM, NVIDIA A100 datasheet
    # (https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-nvidia-us-2188504-web.pdf):
    # "GPU Memory 80GB HBM2e", "GPU Memory Bandwidth 2,039 GB/s" (SXM), "BFLOAT16 Tensor
    # Core 312 TFLOPS | 624 TFLOPS*" (* with sparsity: 312 dense), "Interconnect: NVLink:
    # 600 GB/s" (third-generation NVLink, both directions), "Max TDP Power 400W" (SXM).
    # Ampere has no FP8 or FP4 tensor cores (fp8_tflops = fp4_tflops = 0).
    Gpu("a100-sxm", "A100 80GB SXM", 80.0, 2039.0, "nvlink3", "NVLink 3 (600 GB/s bidirectional)",
        312.0, "https://www.nvidia.com/en-us/data-center/a100/",
        # nvidia-smi "NVIDIA A100-SXM4-80GB ... 0MiB / 81920MiB ... 400W" (public nvidia-smi
        # dumps of A100 SXM4 80GB servers). CUDA exposes 79.35 GiB ("GPU 0; 79.35 GiB total
        # capacity" in PyTorch's out-of-memory messages on A100 80GB); the 0.42 GiB rule of
        # serving_memory gives 79.58 (+0.3 %).
        smi_mib=81920,
        board_w=400.0,
        power_source="https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-nvidia-us-2188504-web.pdf"),
    # https://www.nvidia.com/en-us/data-center/h100/
    # H100 SXM: 80 GB HBM3, 3.35 TB/s, NVLink 900 GB/s (both directions), BF16 1979 sparse.
    Gpu("h100-sxm", "H100 SXM", 80.0, 3350.0, "nvlink", "NVLink 4 (900 GB/s bidirectional)",
        989.5, "https://www.nvidia.com/en-us/data-center/h100/",
        # nvidia-smi "NVIDIA H100 80GB HBM3 ... 81559MiB":
        # https://github.com/vllm-project/vllm/issues/55169
        smi_mib=81559,
        # H100 SXM "Max thermal design power (TDP): Up to 700W (configurable)".
        board_w=700.0, power_source="https://www.nvidia.com/en-us/data-center/h100/",
        # "FP8 Tensor Core: 3,958 teraFLOPS" with sparsity -> 1979 dense; Hopper has no FP4.
        fp8_tflops=1979.0),
    # https://www.nvidia.com/en-us/data-center/h200/
    # H200 SXM: 141 GB HBM3e, 4.8 TB/s, NVLink 900 GB/s, BF16 1979 sparse.
    Gpu("h200", "H200 SXM", 141.0, 4800.0, "nvlink", "NVLink 4 (900 GB/s bidirectional)",
        989.5, "https://www.nvidia.com/en-us/data-center/h200/",
        # nvidia-smi "NVIDIA H200 ... 143771MiB" (public nvidia-smi logs of 8 x H200
        # servers; 143771 MiB = 140.4 GiB, the "141 GB").
        smi_mib=143771,
        # H200 SXM "Max thermal design power (TDP): Up to 700W (configurable)".
        board_w=700.0, power_source="https://www.nvidia.com/en-us/data-center/h200/",
        # "FP8 Tensor Core: 3,958 TFLOPS" with sparsity -> 1979 dense; no FP4.
        fp8_tflops=1979.0),
    # https://www.nvidia.com/en-us/data-center/dgx-b200/ : 1,440 GB total GPU memory
    # and 64 TB/s HBM3e bandwidth for 8 GPUs -> 180 GB and 8 TB/s per GPU (the
    # 192 GB often quoted is the raw HBM, not what the HGX/DGX part exposes).
    # HGX B200 BF16: 4.5 PFLOP/s sparse -> 2.25 dense per GPU. NVLink 5: 1.8 TB/s.
    Gpu("b200", "B200", 180.0, 8000.0, "nvlink5", "NVLink 5 (1.8 TB/s bidirectional)",
        2250.0, "https://www.nvidia.com/en-us/data-center/dgx-b200/",
        # nvidia-smi "NVIDIA B200 ... 183359MiB": https://github.com/NVIDIA/TensorRT-LLM/issues/10278
        smi_mib=183359,
        # HGX B200: "Max thermal design power (TDP): 1,000W" per GPU (DGX B200:
        # ~14.3 kW max for the system of 8).
        board_w=1000.0, power_source="https://www.nvidia.com/en-us/data-center/hgx/",
        # HGX B200 (8 GPUs, sparse): "FP8/FP6 Tensor Core 72 PFLOPS", "FP4 Tensor Core
        # 144 PFLOPS" -> 4.5 and 9 PFLOP/s dense per GPU.
        fp8_tflops=4500.0, fp4_tflops=9000.0),
)

GPU_BY_ID: Mapping[str, Gpu] = MappingProxyType({g.id: g for g in GPU_LIST})
GPU_IDS: tuple[str, ...] = tuple(g.id for g in GPU_LIST)


TRAINING_PRECISIONS: tuple[str, ...] = ("bf16", "fp8")


def training_tflops(gpu: Gpu, precision: str = "bf16") -> float:
    """Dense tensor TFLOP/s of ``gpu`` with FP32 accumulation, as training runs, in ``precision``.

    Mixed-precision training multiplies BF16 (or FP8) matrices and accumulates in
    FP32. Data-center and RTX Pro cards do that at their full tensor rate; GeForce
    cards at half their headline (FP16-accumulate) rate: the RTX 5090 runs "Peak
    BF16 Tensor TFLOPS with FP32 Accumulate" 209.5 dense and FP8 with FP32
    accumulate 419 (NVIDIA RTX Blackwell GPU architecture whitepaper, Table 3;
    ``fp32_accumulate_share``). ``precision``: ``bf16`` or ``fp8`` (FP8 matrices
    as Transformer Engine trains them). Raises ``ValueError`` for another
    precision, or ``fp8`` on a GPU without FP8 tensor cores (A100).
    """
    if precision == "bf16":
        rate = gpu.bf16_tflops
    elif precision == "fp8":
        rate = gpu.fp8_tflops
        if rate <= 0:
            raise ValueError(f"{gpu.id} has no FP8 tensor cores")
    else:
        raise ValueError(f"unknown training precision {precision!r}; known: {TRAINING_PRECISIONS}")
    return rate * gpu.fp32_accumulate_share


def precision_supported(gpu: Gpu, precision: str) -> bool:
    """Whether ``gpu`` can serve weights in ``precision`` (assumptions.PRECISIONS).

    ``fp4`` (NVFP4) needs FP4 tensor cores: Blackwell (RTX Pro 6000, RTX 5090, B200). BF16,
    INT4 (dequantized to 16 bits) and FP8 run everywhere: on a GPU without FP8 tensor cores
    (A100) FP8 weights are dequantized to BF16 (vLLM's FP8 Marlin kernel, weight-only), at the
    BF16 rate (``tensor_tflops``).
    """
    if precision == "fp4":
        return gpu.fp4_tflops > 0
    return True


def tensor_tflops(gpu: Gpu, precision: str) -> float:
    """Dense tensor TFLOP/s at which a serving engine's matrix multiplications run with ``precision`` weights.

    BF16 and INT4 (dequantized to 16 bits): ``bf16_tflops``; FP8: ``fp8_tflops`` (FP8
    activations too), the BF16 rate on a GPU without FP8 tensor cores (weight-only FP8);
    FP4: ``fp4_tflops`` (NVFP4 weights and activations). The headline rates (FP16 accumulate on
    GeForce cards), as inference runs. Raises ``ValueError`` for FP4 on a GPU without FP4
    tensor cores (``precision_supported``) or an unknown precision.
    """
    if precision in ("bf16", "int4"):
        return gpu.bf16_tflops
    if precision == "fp8":
        return gpu.fp8_tflops or gpu.bf16_tflops
    if precision == "fp4" and gpu.fp4_tflops > 0:
        return gpu.fp4_tflops
    raise ValueError(f"{gpu.id} cannot run {precision!r} weights")
