"""Every constant the formulas use, with where it comes from.

Change a number here and the README's "Assumptions" table must change too.
"""

from collections.abc import Mapping
from types import MappingProxyType

# --- Bytes per parameter -----------------------------------------------------
# Weights for inference. FP8 ignores its per-tensor/per-channel scales (<0.1 %).
# INT4 is a group-quantized format (AWQ/GPTQ, group size 128, arXiv:2306.00978):
# 4 bits + one FP16 scale + one 4-bit zero point per 128 weights
# = 4 + 20/128 = 4.15625 bits = 0.51953125 bytes.
# FP4 is NVFP4, the format of Blackwell's FP4 tensor cores: 4-bit E2M1 values and one FP8
# E4M3 scale per block of 16 = 4 + 8/16 = 4.5 bits = 0.5625 bytes (the per-tensor FP32
# scale adds nothing measurable). NVIDIA, "Introducing NVFP4 for Efficient and Accurate
# Low-Precision Inference" (2025): https://developer.nvidia.com/blog/introducing-nvfp4-for-efficient-and-accurate-low-precision-inference/
# MXFP4 (OCP Microscaling Formats v1.0: E2M1, one E8M0 scale per 32) is 4.25 bits; we model
# NVFP4 because it is what NVIDIA's FP4 checkpoints (ModelOpt, TensorRT-LLM) and the
# datasheets' FP4 rates use, and it is the larger of the two (+6 %): a fit at 4.5 bits holds
# at 4.25. gpt-oss ships MXFP4 experts and BF16 attention (catalog/models.py).
WEIGHT_BYTES: Mapping[str, float] = MappingProxyType(
    {"bf16": 2.0, "fp8": 1.0, "int4": 4.15625 / 8, "fp4": 4.5 / 8})
PRECISIONS: tuple[str, ...] = ("bf16", "fp8", "int4", "fp4")
KV_BYTES: Mapping[str, float] = MappingProxyType({"bf16": 2.0, "fp8": 1.0})
KV_PRECISIONS: tuple[str, ...] = ("bf16", "fp8")

# Training with mixed-precision Adam (ZeRO paper, arXiv:1910.02054, sec. 3.1):
# BF16 weights 2 + BF16 gradients 2 + FP32 master weights 4 + Adam m 4 + v 4
# = 16 bytes per trained parameter (Megatron-LM counts 18 with FP32 gradients).
TRAIN_WEIGHT_BYTES = 2.0
TRAIN_GRAD_BYTES = 2.0
TRAIN_OPTIMIZER_BYTES = 12.0
# QLoRA base weights: NF4 with double quantization, 4 + 0.127 bits
# (QLoRA paper, arXiv:2305.14314, sec. 3: 8/64 + 32/(64*256) = 0.127 bits).
QLORA_BASE_BYTES = 4.127 / 8
# LoRA adapters on every linear layer: rank r adds r * (d_in + d_out) per
# matrix. Summed over q, k, v, o, gate, up, down that is 19.75 * hidden for
# Llama 3.1 70B (9h + 2 kv_dim + 3 * intermediate); we use 20 * hidden * r
# per layer for every model.
LORA_DIMS_PER_HIDDEN = 20
DEFAULT_LORA_RANK = 16

# --- Activations (Korthikanti et al. 2022, arXiv:2205.05198, eq. 1-2) ----------
# Per layer and sequence, 16-bit activations: s*b*h*(34 + 5*a*s/h) bytes. With
# FlashAttention the s x s scores are never stored, leaving 34*s*b*h. Full
# recomputation keeps only each layer's input (2*s*b*h) plus one layer's 34*s*b*h.
ACT_BYTES_PER_SBH = 34
ACT_CHECKPOINT_BYTES_PER_SBH = 2
# Offloaded checkpoints (training_memory recompute "offload"): each layer's input is
# copied to CPU memory as the forward pass leaves it and brought back for its backward
# pass, so the GPU holds one checkpoint besides the layer being recomputed. Unsloth's
# use_gradient_checkpointing="unsloth", the default of its recipes ("offloads
# intermediate activations to system RAM asynchronously whilst being only 1% slower",
# https://unsloth.ai/blog/long-context); axolotl's activation_offloading: true
# (axolotl-ai-cloud/axolotl, docs/gradient_checkpointing.qmd).
ACT_OFFLOAD_RESIDENT_CHECKPOINTS = 1  # source: https://unsloth.ai/blog/long-context (Unsloth)
# Unsloth's measured cost of the offloading: about 1 % more time per step.
ACT_OFFLOAD_TIME_OVERHEAD = 0.01  # source: https://unsloth.ai/blog/long-context ("only 1% slower")

# --- Runtime reserve (training) ----------------------------------------------
# Training reserves 10 % of each GPU's nominal memory (allocator fragmentation,
# NCCL buffers, CUDA context), after vLLM's former default
# gpu_memory_utilization = 0.90 (https://docs.vllm.ai/en/latest/serving/engine_args.html).
# Inference (vram_fit) no longer uses it: serving_memory.py models what the
# engine takes (exposed GiB x 0.92 - non-torch - activation peak - CUDA graphs).
RUNTIME_RESERVE = 0.10

# The article's working rule: weights at 60-70 % of VRAM.
DEFAULT_WEIGHTS_LIMIT = 0.70

# Reference workload for inference (the article: "an 8-GPU Pro 6000 handles
# 70B with 32-64 concurrent requests easily"). 32 sequences (the low end) of
# 32k tokens (a quarter of Llama 3.1's 128k window: long-document RAG, agents,
# code). At this load 70B fits comfortably and 405B at FP8 does not.
DEFAULT_CONTEXT = 32768
DEFAULT_CONCURRENCY = 32

# --- Scaling -----------------------------------------------------------------
# Training compute per token: 6 * params FLOPs (Kaplan et al. 2020, arXiv:2001.08361).
FLOPS_PER_PARAM_TOKEN = 6
# Megatron tensor parallelism: 2 all-reduces of b*s*h activations in the
# forward pass and 2 in the backward pass per layer (Shoeybi et al. 2019,
# arXiv:1909.08053, fig. 4). BF16 activations: 2 bytes per element.
TP_ALLREDUCES_PER_LAYER = 4
ACT_ELEMENT_BYTES = 2
# Data parallelism all-reduces BF16 gradients once per optimizer step.
GRAD_BYTES = 2
# Calibrated: achieved fraction of dense BF16 peak (model FLOPs utilization)
# with no compute/communication overlap. 0.215 x 500 = 107.5 TFLOP/s per RTX
# Pro 6000 reproduces both article points: TP-8 in one PCIe box -> 0.73 and
# TP across 2 x 4 GPUs on 200 Gb/s IB with 2 NICs per node -> 0.65. The window
# that rounds to both is mfu 0.212-0.219.
DEFAULT_MFU = 0.215
# Two NICs per node is the calibration above, and what a PCIe box carries (one
# per two GPUs of a 4-GPU node). An 8-GPU SXM (HGX/DGX) node has one per GPU:
# DGX H100/H200 "Four OSFP ports serving eight single-port NVIDIA ConnectX-7 VPI,
# up to 400 Gb/s InfiniBand/Ethernet", DGX B200 "4x OSFP ports serving 8x
# single-port NVIDIA ConnectX-7 VPI" (NVIDIA DGX BasePOD reference architecture,
# Core Components, https://docs.nvidia.com/dgx-basepod/reference-architecture-
# infrastructure-foundation-enterprise-ai/latest/core-components.html; the DGX
# H100/H200 user guide's "Network Modules" table maps one ConnectX-7 to each GPU),
# DGX A100 eight ConnectX-6 200 Gb/s (the reference suite's `nccl-hdr-dgx-a100`).
# scaling.default_nics picks by the GPU's in-box link (NVLink: SXM board).
DEFAULT_NICS_PER_NODE = 2
NICS_PER_NODE_HGX = 8
DEFAULT_SEQ_LEN = 4096
DEFAULT_MICRO_BATCH = 1
DEFAULT_GRAD_ACCUM = 32
# The article: below 60 % projected efficiency, restructure.
EFFICIENCY_THRESHOLD = 0.60

# --- Decision ----------------------------------------------------------------
# "Pretraining a 70B+ model from scratch" is the frontier case.
FRONTIER_PARAMS_B = 70.0
# The article: 32-128+ GPUs for a 70B pretrain ("this work needs 32-128+ GPUs
# and an SXM fabric. Kentino does not build this tier"); with 8-GPU nodes that
# is at least 4 nodes.
FRONTIER_MIN_GPUS = 32
FRONTIER_MAX_GPUS = 128
# The article's node: "the 8-GPU ceiling". A bigger single node than the
# reader's has at most this many GPUs of the same card.
MAX_GPUS_PER_NODE = 8

# --- Replicas ----------------------------------------------------------------
# replicas takes its node rate from the planner unless the reader types one
# (node_tokens_per_s 0 = computed; until 2026-12 the default was a fixed
# 1,000 tok/s, the geometric middle of the article's old 500-2,000 range).
# Node failure rate: Llama 3 training saw 419 unexpected interruptions in 54
# days on 16,384 H100s = 2,048 8-GPU nodes (Dubey et al. 2024,
# arXiv:2407.21783, sec. 3.3.4): 419 / 2048 / 54 * 365 = 1.38 per node-year.
DEFAULT_NODE_FAILURE_RATE = 1.4
# The article: "in engineering time, multi-node costs 4-5x per added node".
EFFORT_PER_ADDED_NODE_MIN = 4.0
EFFORT_PER_ADDED_NODE_MAX = 5.0
# Utilisation target of the serving replicas: plan for 80 % of a node's
# throughput, not 100 %. Queueing headroom: in an M/M/1 queue the mean time in
# the system is the service time / (1 - utilisation) (Kleinrock, Queueing
# Systems Vol. 1, 1975, ch. 3), i.e. 5x at 80 %, 10x at 90 % and unbounded at
# 100 %; 0.80 is the usual knee of that curve, before waits grow steeply.
DEFAULT_UTILIZATION_TARGET = 0.80

# --- Uncertainty ranges (scaling) --------------------------------------------
# Achieved bandwidth is the least certain assumption of the scaling model.
# In a box: the article's ~50 GB/s PCIe Gen5 is 80 % of the 63 GB/s raw x16
# rate; an NCCL all-reduce over 8 x RTX 5090 on PCIe was measured at ~28 GB/s
# bus bandwidth (NVIDIA/nccl issue #1639). Range: 28/50 = 0.56 to 63/50 = 1.26
# of the in-box bandwidth used.
INTRA_BANDWIDTH_RANGE = (0.56, 1.26)
# Between nodes the line rate is the ceiling (1.0); the article's "4-5x on
# 100 GbE" allows 50/5 = 10 GB/s of its 12.5 GB/s line rate, 0.8.
INTER_BANDWIDTH_RANGE = (0.80, 1.0)
# Achieved compute: the best published large training runs reach 52 % of dense
# BF16 peak (Megatron-LM on A100, Narayanan et al. 2021, arXiv:2104.04473,
# Table 1: 163 of 312 TFLOP/s); Llama 3 on 16K H100 38-43 % (arXiv:2407.21783,
# Table 4). A GPU computing that fast leaves communication a larger share of
# the step: scaling reports the efficiency at this MFU as the low end of the
# compute range (calculators/uncertainty.py).
PUBLISHED_MFU_MAX = 0.52

# --- Power (power.py) -----------------------------------------------------------
# Board power per GPU: catalog/gpus.py (board_w, datasheets). The rest of a node
# (CPUs, memory, NICs, switches, fans, power-supply losses) is an allowance fitted
# on the two vendor nodes whose maximum system power NVIDIA publishes with a known
# GPU power: DGX H100, 10.2 kW max with 8 x 700 W (NVIDIA DGX H100/H200 user
# guide, "Power Specifications": https://docs.nvidia.com/dgx/dgxh100-user-guide/
# introduction-to-dgxh100.html), and DGX B200, ~14.3 kW max with 8 x 1,000 W
# (https://www.nvidia.com/en-us/data-center/dgx-b200/). The rest is 4.6 kW and
# 6.3 kW: a fixed part per node plus a part that grows with the GPUs' power
# (fans, supply losses): rest = base + share x GPU power, solved exactly:
# share = (6300 - 4600) / (8000 - 5600) = 0.7083, base = 4600 - share x 5600 = 633 W.
# These are maximum (nameplate) figures, what a rack's power and cooling are
# sized for; a PCIe box without NVSwitches draws less, so the allowance is an
# upper end for it.
DGX_H100_SYSTEM_W, DGX_H100_GPU_W = 10200.0, 8 * 700.0
DGX_B200_SYSTEM_W, DGX_B200_GPU_W = 14300.0, 8 * 1000.0
NODE_REST_SHARE = ((DGX_B200_SYSTEM_W - DGX_B200_GPU_W) - (DGX_H100_SYSTEM_W - DGX_H100_GPU_W)) / (
    DGX_B200_GPU_W - DGX_H100_GPU_W)
NODE_REST_BASE_W = (DGX_H100_SYSTEM_W - DGX_H100_GPU_W) - NODE_REST_SHARE * DGX_H100_GPU_W

# --- Throughput (throughput.py) --------------------------------------------------
# Decode reads every weight and each request's KV cache once per step; the share
# of the GPUs' peak memory bandwidth a serving engine reaches doing it is its
# "model bandwidth utilization" (MBU; defined in Databricks, "LLM Inference
# Performance Engineering: Best Practices", 2023,
# https://www.databricks.com/blog/llm-inference-performance-engineering-best-practices).
# Calibrated: 0.60, fitted together with MOE_EFFICIENCY on the reference suite's
# TensorRT-LLM rows on H100 and H200 (reference.py, `serve-*` rows marked calibration;
# 17 of those 20 within 0.7-1.4; the RTX Pro 6000, B200 and L40S rows are predictions).
# NVIDIA NIM's single-request inter-token latency on 2 x H100 (the reference suite's
# `nim-70b-h100-itl-c1`) implies 0.58. Range 0.48-0.75 (+-25 %, the spread of those ratios).
DECODE_BANDWIDTH_SHARE = 0.60  # calibration: TRT-LLM perf-overview rows on H100/H200 (reference.py)
DECODE_BANDWIDTH_RANGE = (0.48, 0.75)
# Mixture-of-experts layers reach a smaller share of the GPUs' bandwidth and peak than dense
# ones (grouped GEMMs over small per-expert batches, routing, expert load imbalance): the MBU
# and MFU of an MoE model are scaled by 0.65, fitted on the same TRT-LLM rows (Qwen3-235B-A22B,
# Llama 4 Scout and Maverick, gpt-oss, DeepSeek-R1 on H100/H200). A calibration, not a
# published figure; without it those rows read 1.5-3x high.
MOE_EFFICIENCY = 0.65
# Prefill (and a decode step that is compute bound) runs large matrix
# multiplications: the share of the dense peak reached, by the same published
# MFUs the training model uses (uncertainty.py): Llama 3 on H100 38-43 %,
# Megatron-LM 41-52 %. Default 0.45, range 0.30-0.60.
PREFILL_MFU = 0.45  # Llama 3 (arXiv:2407.21783, Table 4) 38-43 %, Megatron-LM (arXiv:2104.04473, Table 1) 41-52 %
PREFILL_MFU_RANGE = (0.30, 0.60)
# Tensor cores run FP8 at twice the dense BF16 rate on every catalog GPU (Ada,
# Hopper, Blackwell datasheets: e.g. H100 SXM 1,979 BF16 / 3,958 FP8 TFLOP/s with
# sparsity). INT4 weights (AWQ/GPTQ) are dequantized to 16 bits: BF16 rate. FP4
# (NVFP4) runs at 4x the BF16 rate on every GPU that has FP4 tensor cores (dense: RTX Pro
# 6000 2,000 / 500, RTX 5090 1,676 / 419, B200 9,000 / 2,250; catalog/gpus.py fp4_tflops);
# on the others it is refused (inputs.cross_check). Per GPU, catalog.gpus.tensor_tflops
# gives the same rates (and BF16 for FP8 on the A100, which has no FP8 tensor cores).
COMPUTE_RATE_BY_PRECISION = MappingProxyType({"bf16": 1.0, "fp8": 2.0, "int4": 1.0, "fp4": 4.0})
# Forward pass of a dense transformer: 2 FLOPs per parameter per token (Kaplan
# et al. 2020, arXiv:2001.08361, sec. 2.1), plus attention: 2 FLOPs per multiply-add
# for QK^T and for AV, over heads x head_dim per layer and the cached tokens.
FORWARD_FLOPS_PER_PARAM_TOKEN = 2  # Kaplan et al. 2020, arXiv:2001.08361, sec. 2.1
# Megatron tensor parallelism in the forward pass: 2 all-reduces of the
# activations per layer (Shoeybi et al. 2019, arXiv:1909.08053, fig. 4).
TP_FORWARD_ALLREDUCES_PER_LAYER = 2

# --- Training time (training_time.py) -------------------------------------------
# Share of the training peak a GPU reaches while it computes (training_time's
# ``mfu``; the whole step's MFU is that x the layout's efficiency). Calibrated:
# Llama 3 405B's layout on 8,192 H100 (TP 8, PP 16, DP 64, 32 sequences of 8,192
# tokens per replica; arXiv:2407.21783, Table 4) reached 43 % BF16 MFU over whole
# steps; scaling.layout_step gives that layout an efficiency of 0.754 at
# mfu 0.57 (0.57 x 0.754 = 0.430), attention's FLOPs counted as useful work (MFU
# as PaLM and Meta's torchtitan count it: scaling.training_flops_per_token).
# Predicted, not fitted: the 16,384-GPU row (DP 128, 16 sequences per replica) at
# 0.405, published 41 % (reference suite). (Until 2026-12 the default was 0.40 with
# the efficiency of plain data parallelism, about 0.98, multiplied in; 0.58 while
# the work was 6 x P x D alone.)
TRAINING_MFU = 0.57
LLAMA3_405B_8K_GPUS_MFU = 0.43
# The whole-step MFUs published for large runs: 0.25 (what Llama 3.1 70B's model
# card implies: 7.0M H100 hours for 15T tokens = 6 x 70.6e9 x 15e12 FLOPs / (7.0e6 h
# x 989.5 TFLOP/s), everything counted; 0.29 counting attention's FLOPs at 8,192
# tokens as mfu_achieved now does, so this end errs slow) to 0.52 (the best
# published, Megatron-LM on A100, arXiv:2104.04473, Table 1). training_time's range: its GPU-hours x 0.43 / 0.52
# to x 0.43 / 0.25, the runs' spread around the calibration run.
TRAINING_MFU_RANGE = (0.25, 0.52)
# A pretraining step (training_time): 2,048 sequences of 8,192 tokens, 16M tokens
# per step, micro-batch 1: Llama 3 405B (arXiv:2407.21783, Table 4: "Seq. Len.
# 8,192", "Tokens/Batch 16M"; sec. 3.4.1: the batch grows to 16M tokens).
PRETRAIN_SEQ_LEN = 8192
PRETRAIN_GLOBAL_BATCH = 2048
# Fully sharded data parallel, per micro-batch: all-gather the weights for the
# forward pass, again for the backward pass, reduce-scatter the gradients: 3
# collectives of half an all-reduce each, 1.5 x DDP's traffic (ZeRO paper,
# arXiv:1910.02054, sec. 7.2.2: 3 Psi against 2 Psi; PyTorch FSDP, arXiv:2304.11277).
FSDP_COLLECTIVES_PER_MICRO_BATCH = 3
HOURS_PER_MONTH = 365 * 24 / 12  # 730: a GPU-month is 730 GPU-hours
# --- Serving as benchmarks run it (serving_rate.served, planner.py) -------------------
# A served load is sized within a latency bound: the time between two output tokens
# of one request at most 200 ms, MLPerf Inference's Llama 2 70B server-scenario limit
# ("llama2-70b.Server.tpot_latency = 200", mlcommons/inference, loadgen/mlperf.conf;
# its time to first token limit is 2,000 ms). A replica runs at most 256 requests at
# once: vLLM's default max_num_seqs (vllm-project/vllm, vllm/config/scheduler.py,
# SchedulerConfig.max_num_seqs = 256).
MAX_ITL_MS = 200.0
MAX_BATCH = 256
# A maximum-throughput run (throughput's concurrency 0, trtllm-bench's and vLLM's offline
# benchmarks) queues every request at once: the batch is what the KV cache holds. The cap is
# the one the reference suite's trtllm-bench rows are reproduced with (reference.py,
# `trtllm-70b-fp8-*`: their batches of 200-900 requests never reach it); not a published figure.
MAX_OFFLINE_BATCH = 4096
# A request's answer when the reader gives none: 500 output tokens, the replicas
# calculator's tokens per request since 2026 and the NIM benchmarks' output length
# (docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md: 5,000 in / 500 out).
DEFAULT_OUTPUT_TOKENS = 500
# throughput's note ``tp_comm_share``: tensor-parallel communication takes at
# least this share of a decode step (the in-box link, not memory, sets the pace).
TP_COMM_NOTE_SHARE = 0.25

# --- Compare (compare.py) ----------------------------------------------------------
# Two 4-GPU nodes must serve a workload more than 10 % faster than one 8-GPU node
# to be the better buy: the throughput model's ratios to published benchmarks
# spread 0.91-1.18 (reference suite), and one node carries no operations tax (the
# article's 4-5x engineering effort per added node).
COMPARE_EVEN = 1.10
