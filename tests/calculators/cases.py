"""The calculators' cases beyond the claims ledger, as plain data, plus a stdlib-only runner.

The article's numbers, as the prose states them, are in `claims.yml` alone (the tests read it:
`test_claims.py`, and `tests/pyodide/` inside Pyodide). The cases here pin what the prose does not
state as a number: exact values behind a rounded claim, verdicts, notes, the decision trace, and
relations between two runs, and a value exactly where the ledger reads it as the prose rounds it.
A check the ledger already makes (same calculator, inputs and output, as strict) does not belong here.

This file must run without pytest or hypothesis (e.g. in Pyodide under Node,
Python 3.14, next to `tests/support/expect.py`): ``from cases import run_cases; assert run_cases() == []``.

A case is a dict:
- ``id``, ``claim`` (what the article says, and where the numbers come from)
- either ``calculator`` + ``inputs`` + ``expect`` (path -> expectation), where a
  path is dot-separated into the result ("verdict", "values.weights_gb",
  "values.trace.3.question") and an expectation is written as every data-driven test writes one
  (`tests/support/expect.py`: a plain value, or "approx" + "tol", "within", "at_least", "at_most",
  "above", "below", "one_of");
- or ``relation``: {"left": ref, "op": "<" | "<=" | ">" | ">=", "right": ref}
  with ref = {"calculator", "inputs", "path"}.
"""

from typing import Any

from tests.support.expect import meets

PRO = {"gpu": "rtx-pro-6000", "gpus": 8}
TP8_BOX = {"parallelism": "tp", "gpus_per_node": 8, "nodes": 1}


def _two_by_four(fabric: str, parallelism: str = "tp") -> dict[str, Any]:
    return {"parallelism": parallelism, "gpus_per_node": 4, "nodes": 2, "fabric": fabric}


def _ref(calculator: str, inputs: dict[str, Any], path: str) -> dict[str, Any]:
    return {"calculator": calculator, "inputs": inputs, "path": path}


CASES: list[dict[str, Any]] = [
    # --- 405B at FP8: fits the weights, not the workload -----------------------------
    {"id": "405b_fp8_weights_under_rule",
     "claim": "405B at FP8: weights ~406 GB = 52.8 % of 768 GB, inside the 60-70 % rule",
     "calculator": "vram_fit", "inputs": {"model": "llama-3.1-405b", "precision": "fp8", **PRO},
     "expect": {"values.weights_gb": {"approx": 405.85, "tol": 0.01},
                "values.weights_share": {"approx": 0.5285, "tol": 0.0001},  # the ledger: 53 % as written
                "values.weights_within_limit": True}},
    {"id": "405b_fp8_workload_does_not_fit",
     "claim": "405B at FP8 does not fit comfortably at any useful concurrency: the KV cache of 32 x 32k "
              "(541 GB at 504 KiB/token) exceeds the 310 GB the serving engine leaves after the weights",
     "calculator": "vram_fit", "inputs": {"model": "llama-3.1-405b", "precision": "fp8", **PRO},
     "expect": {"values.kv_fits": False, "values.weights_within_limit": True,
                "values.kv_bytes_per_token": 516096,
                "values.kv_gb": {"approx": 541.17, "tol": 0.01},
                "values.usable_gb": 715.83,
                "values.kv_budget_gb": {"approx": 309.98, "tol": 0.01},
                "values.max_context": 18769}},
    {"id": "405b_fp8_concurrency_by_context",
     "claim": "405B FP8 on 8 x 96 GB holds ~60-70 sequences at 8k and ~4 at 128k (facts file: ~60 with "
              "nominal GB; the cards expose 97887 MiB = 102 GB each, see serving_memory.py)",
     "calculator": "vram_fit",
     "inputs": {"model": "llama-3.1-405b", "context": 8192, **PRO},
     "expect": {"values.max_concurrency": {"at_least": 55, "at_most": 75}}},
    {"id": "405b_fp8_concurrency_128k",
     "claim": "405B FP8 on 8 x 96 GB holds ~4 sequences at 128k",
     "calculator": "vram_fit",
     "inputs": {"model": "llama-3.1-405b", "context": 131072, "concurrency": 1, **PRO},
     "expect": {"values.max_concurrency": 4}},
    {"id": "405b_int4_weights_fit_kv_does_not",
     "claim": "Hosting 405B: the weights fit at INT4 on 8 x Pro 6000, but the KV cache at production "
              "concurrency pushes you to two or more nodes",
     "calculator": "vram_fit", "inputs": {"model": "llama-3.1-405b", "precision": "int4", **PRO},
     "expect": {"verdict": "does_not_fit", "values.weights_gb": {"approx": 210.85, "tol": 0.01}}},
    # --- The 405B / 671B cliff ------------------------------------------------------
    {"id": "cliff_70b_fits", "claim": "Below the 405B line one 8-GPU Pro 6000 box is enough (70B)",
     "calculator": "vram_fit", "inputs": {"model": "llama-3.1-70b", **PRO},
     "expect": {"values.max_concurrency": 61}},  # one TP-8 copy; the article says 32 of 32k fit one box
    {"id": "cliff_671b_fp8_breaks_rule",
     "claim": "671B at FP8 is ~87 % of 768 GB: fails the 60-70 % rule",
     "calculator": "vram_fit", "inputs": {"model": "deepseek-v3", "precision": "fp8", **PRO},
     "expect": {"verdict": "does_not_fit", "values.kv_fits": False,
                "values.weights_share": {"approx": 0.8737, "tol": 0.0001}}},
    {"id": "cliff_671b_int4_fits",
     "claim": "671B needs INT4 on one node: ~45 % of 768 GB, KV (MLA, 70,272 B/token) fits",
     "calculator": "vram_fit", "inputs": {"model": "deepseek-v3", "precision": "int4", **PRO},
     "expect": {"values.weights_share": {"at_least": 0.45, "at_most": 0.49},
                "values.kv_bytes_per_token": 70272}},
    {"id": "cliff_671b_decision_int4",
     "claim": "Decision flow: 671B inference stops at step 2 (one node at INT4)",
     "calculator": "decision", "inputs": {"model": "deepseek-v3", "workload": "inference", **PRO},
     "expect": {"values.step": 2, "values.recommendation": "one_node_int4"}},
    {"id": "405b_inference_one_box_fp8_kv",
     "claim": "At FP8 one 8 x Pro 6000 box holds Llama 3.1 405B at 32 x 32k with an FP8 KV cache (step 2); "
              "with a BF16 KV cache the same load takes two boxes as replicas, never one model across boxes",
     "calculator": "decision", "inputs": {"model": "llama-3.1-405b", "workload": "inference", **PRO},
     "expect": {"values.step": 2, "values.min_nodes": 1, "values.gpus_per_node": 8,
                "values.trace.0.answer": False, "values.trace.0.values.deployment": "box_replicas",
                "values.trace.0.values.min_nodes": 2,
                "values.trace.1.question": "fits_one_node_fp8_kv", "values.trace.1.values.deployment": "one_box"}},
    {"id": "405b_bf16_one_model_across_two_boxes",
     "claim": "At BF16 the 405B weights fit no box: one model across two boxes (the planner's across_boxes, "
              "TP inside each box, PP across); the reference load takes two such copies",
     "calculator": "workload",
     "inputs": {"model": "llama-3.1-405b", "precision": "bf16", **PRO, "target_tokens_per_s": 1},
     "expect": {"values.deployment": "across_boxes", "values.min_nodes": 4, "values.gpus_per_node": 8,
                "values.max_concurrency": 18}},
    # --- Concurrency for 70B ----------------------------------------------------------
    {"id": "70b_64_concurrent_fp8_kv",
     "claim": "An FP8 KV cache doubles the room: 70B holds 64 x 32k on 8 x Pro 6000 with it (122 fit)",
     "calculator": "vram_fit",
     "inputs": {"model": "llama-3.1-70b", "concurrency": 64, "kv_precision": "fp8", **PRO},
     "expect": {"verdict": "fits"}},
    {"id": "70b_32_concurrent_on_5090_is_memory_bound",
     "claim": "The same 70B load is memory-bound on 8 x 32 GB",
     "calculator": "vram_fit", "inputs": {"model": "llama-3.1-70b", "gpu": "rtx-5090", "gpus": 8},
     "expect": {"verdict": "does_not_fit", "values.kv_fits": False, "values.max_concurrency": 15}},
    # --- Training memory --------------------------------------------------------------
    {"id": "70b_full_ft_1_2_to_1_5_tb",
     "claim": "70B full fine-tune (BF16 weights + FP32 Adam + grads + activations) is 1.2-1.5 TB",
     "calculator": "training_memory", "inputs": {"model": "llama-3.1-70b", "method": "full", **PRO},
     "expect": {"values.bytes_per_param": 16.0,
                "values.state_gb": {"approx": 1128.86, "tol": 0.01},
                "values.activations_gb": {"approx": 91.27, "tol": 0.01},
                }},
    {"id": "70b_full_ft_not_one_node",
     "claim": "... beyond one 8-GPU node even with FSDP; justifies a 2-4 node IB cluster",
     "calculator": "training_memory", "inputs": {"model": "llama-3.1-70b", "method": "full", **PRO},
     "expect": {"verdict": "does_not_fit", "values.min_gpus": 15,
                }},
    {"id": "13b_full_ft_one_node",
     "claim": "Full fine-tuning of the 13B class runs on one node (~208 GB of state)",
     "calculator": "training_memory",
     "inputs": {"model": "custom", "params_b": 13, "layers": 40, "method": "full", **PRO},
     "expect": {"values.state_gb": 208.0, }},
    {"id": "70b_lora_4_gpus", "claim": "70B LoRA fits 4-8 GPUs in one node (4 GPUs)",
     "calculator": "training_memory",
     "inputs": {"model": "llama-3.1-70b", "method": "lora", "gpu": "rtx-pro-6000", "gpus": 4},
     "expect": {"values.fits": True, "values.weights_gb": {"approx": 141.53, "tol": 0.01}}},
    {"id": "70b_lora_8_gpus", "claim": "70B LoRA fits 4-8 GPUs in one node (8 GPUs)",
     "calculator": "training_memory", "inputs": {"model": "llama-3.1-70b", "method": "lora", **PRO},
     "expect": {"values.fits": True, }},
    {"id": "405b_qlora_8x96", "claim": "405B QLoRA fits 8 x Pro 6000 (base ~210-250 GB)",
     "calculator": "training_memory", "inputs": {"model": "llama-3.1-405b", "method": "qlora", **PRO},
     "expect": {"values.weights_gb": {"at_least": 210.0, "at_most": 250.0},
                "values.total_share": {"at_most": 0.9}}},
    # --- Scaling efficiency ---------------------------------------------------------
    {"id": "tp8_pcie_box_0_73", "claim": "TP on 8 GPUs in one PCIe box: 0.73",
     "calculator": "scaling", "inputs": {"model": "llama-3.1-70b", **TP8_BOX},
     "expect": {"values.efficiency": {"approx": 0.73, "tol": 0.005}, "values.below_threshold": False}},
    {"id": "tp_2x4_ib200_0_65", "claim": "TP across two 4-GPU nodes on 200 Gb/s IB: 0.65",
     "calculator": "scaling", "inputs": {"model": "llama-3.1-70b", **_two_by_four("ib-200")},
     "expect": {"values.efficiency": {"approx": 0.65, "tol": 0.005}}},
    {"id": "penalty_ib200_2x", "claim": "Cross-node: a 2x penalty on 200 Gb/s IB (vs PCIe in the box)",
     "calculator": "scaling", "inputs": _two_by_four("ib-200"),
     "expect": {"values.fabric_penalty": 2.0}},
    {"id": "penalty_eth100_4x", "claim": "a factor 4 on 100 GbE (50 / 12.5 GB/s)",
     "calculator": "scaling", "inputs": _two_by_four("eth-100"),
     "expect": {"values.fabric_penalty": 4.0}},
    {"id": "penalty_eth25_16x", "claim": "a factor 16 on 25 GbE (50 / 3.125 GB/s)",
     "calculator": "scaling", "inputs": _two_by_four("eth-25"),
     "expect": {"values.fabric_penalty": 16.0}},
    {"id": "penalty_ib400_as_fast_as_pcie",
     "claim": "NDR IB (400 Gb/s) is as fast as PCIe Gen5 in the box, and splitting still costs (next case)",
     "calculator": "scaling", "inputs": _two_by_four("ib-400"),
     "expect": {"values.fabric_penalty": 1.0}},
    {"id": "split_box_worse_than_one_box",
     "claim": "Splitting an 8-GPU job into two 4-GPU nodes is worse than one box (even on IB 400)",
     "relation": {"left": _ref("scaling", _two_by_four("ib-400"), "values.efficiency"), "op": "<",
                  "right": _ref("scaling", TP8_BOX, "values.efficiency")}},
    {"id": "penalty_ordering_ib200_eth100",
     "claim": "A workload that limps on PCIe crawls on IB, and worse on 100 GbE",
     "relation": {"left": _ref("scaling", _two_by_four("eth-100"), "values.efficiency"), "op": "<",
                  "right": _ref("scaling", _two_by_four("ib-200"), "values.efficiency")}},
    {"id": "penalty_ordering_eth100_eth25", "claim": "... and worse again on 25 GbE",
     "relation": {"left": _ref("scaling", _two_by_four("eth-25"), "values.efficiency"), "op": "<",
                  "right": _ref("scaling", _two_by_four("eth-100"), "values.efficiency")}},
    {"id": "dp_beats_tp_across_fabric",
     "claim": "Data parallelism scales much better than tensor parallelism across fabric (DP on 100 GbE)",
     "relation": {"left": _ref("scaling", _two_by_four("eth-100", "dp"), "values.efficiency"), "op": ">",
                  "right": _ref("scaling", _two_by_four("ib-200"), "values.efficiency")}},
    {"id": "below_60_restructure",
     "claim": "Below 60 % projected efficiency, restructure (TP over 2 x 4 on 100 GbE: 0.57; 70B's training "
              "state does not fit 8 x 96 GB, so the verdict is does_not_fit)",
     "calculator": "scaling", "inputs": _two_by_four("eth-100"),
     "expect": {"values.below_threshold": True, "verdict": "does_not_fit", "values.state_fits": False,
                "values.efficiency": {"approx": 0.5715, "tol": 0.0001}}},
    {"id": "scaling_preset_2x8_ib200_restructure",
     "claim": "The article's scaling widget: TP across 2 x 8 on IB 200 projects 0.46, below 60 %: restructure",
     "calculator": "scaling",
     "inputs": {"model": "llama-3.1-70b", "parallelism": "tp", "gpus_per_node": 8, "nodes": 2, "fabric": "ib-200"},
     "expect": {"verdict": "restructure", "values.state_fits": True,
                "values.efficiency": {"approx": 0.4589, "tol": 0.0001},
                "values.verdict_changes_in_range": False}},
    {"id": "restructure_tp_inside_pp_across",
     "claim": "Restructuring (TP inside a node, PP across) lifts a sub-60 % TP layout above the line",
     "calculator": "scaling", "inputs": {**_two_by_four("eth-100"), "parallelism": "tp_pp"},
     "expect": {"values.below_threshold": False}},
    # --- Decision flow ----------------------------------------------------------------
    {"id": "decision_70b_inference_one_node", "claim": "Step 1: 70B inference -> one node",
     "calculator": "decision", "inputs": {"model": "llama-3.1-70b", "workload": "inference", **PRO},
     "expect": {"values.step": 1, "values.recommendation": "one_node",
                "values.trace.0.question": "fits_one_node_fp8"}},
    {"id": "decision_405b_qlora_one_node", "claim": "QLoRA up to 405B on one node",
     "calculator": "decision", "inputs": {"model": "llama-3.1-405b", "workload": "qlora", **PRO},
     "expect": {"values.step": 1, "values.recommendation": "one_node"}},
    {"id": "decision_throughput_replicas",
     "claim": "Step 3: a load beyond one box (1,500 tok/s from 300 requests of 8k) -> DP replicas of whole "
              "boxes, not a cluster; neither an FP8 KV cache nor INT4 weights make one box enough",
     "calculator": "decision",
     "inputs": {"model": "llama-3.1-70b", "workload": "inference", "context": 8192, "concurrency": 300,
                "target_tokens_per_s": 1500, **PRO},
     "expect": {"values.min_nodes": 3, "values.gpus_per_node": 8,
                "values.trace.0.answer": False, "values.trace.1.answer": False, "values.trace.2.answer": False,
                "values.trace.3.values.deployment": "box_replicas"}},
    {"id": "decision_70b_full_ft_multi_node",
     "claim": "Step 4: 70B full fine-tune -> multi-node IB, TP projection under 60 % -> restructure",
     "calculator": "decision",
     "inputs": {"model": "llama-3.1-70b", "workload": "full_finetune", **PRO},
     "expect": {"values.step": 4, "values.recommendation": "multi_node_ib", "values.min_nodes": 2,
                "values.trace.3.values.below_threshold": True,
                "values.trace.3.values.restructured_efficiency": {"at_least": 0.6}}},
    {"id": "decision_70b_pretrain_frontier",
     "claim": "Step 5: a 70B pretrain on 15T tokens within three months needs hundreds of nodes -> frontier, "
              "not Kentino hardware",
     "calculator": "decision", "inputs": {"model": "llama-3.1-70b", "workload": "pretrain", **PRO},
     "expect": {"values.step": 5, "values.min_nodes": {"at_least": 100, "at_most": 9999},
                "values.trace.4.values.min_gpus": {"at_least": 800},
                "values.trace.0.values.days": {"at_least": 7000, "at_most": 100000}}},
    {"id": "decision_8b_pretrain_frontier",
     "claim": "Step 5 is sized by time: even 8B on 15T tokens in 90 days needs over 40 nodes",
     "calculator": "decision", "inputs": {"model": "llama-3.1-8b", "workload": "pretrain", **PRO},
     "expect": {"values.step": 5, "values.min_nodes": {"at_least": 40},
                "values.trace.4.values.min_gpus": {"at_least": 320}}},
    # --- Replicas and the operations tax ------------------------------------------------
    {"id": "replicas_node_rate_default",
     "claim": "Unless a rate is typed, a replica is one box at the rate the planner gives it for the load "
              "(70B FP8 on 8 x RTX Pro 6000, 300 requests of 8k: 714.3 tok/s within the 200 ms token bound): "
              "1,500 tok/s at 80 % need 3 replicas",
     "calculator": "replicas", "inputs": {"target_tokens_per_s": 1500, "context": 8192, "concurrency": 300},
     "expect": {"values.node_tokens_per_s": {"approx": 714.271, "tol": 0.001}, "values.node_rate_source": "throughput",
                "values.utilization": {"approx": 0.7, "tol": 0.001}}},
    {"id": "replicas_and_workload_same_node_rate",
     "claim": "The replicas and workload widgets read one planner: the same node rate for the same load",
     "relation": {"left": _ref("replicas", {"target_tokens_per_s": 1500, "context": 8192, "concurrency": 300},
                               "values.node_tokens_per_s"), "op": "<=",
                  "right": _ref("workload", {"target_tokens_per_s": 1500, "context": 8192, "concurrency": 300},
                                "values.node_tokens_per_s")}},
    {"id": "replicas_and_workload_same_boxes",
     "claim": "... and the same number of boxes",
     "relation": {"left": _ref("replicas", {"target_tokens_per_s": 1500, "context": 8192, "concurrency": 300},
                               "values.nodes"), "op": ">=",
                  "right": _ref("workload", {"target_tokens_per_s": 1500, "context": 8192, "concurrency": 300},
                                "values.min_nodes")}},
    {"id": "replicas_typed_node_rate",
     "claim": "A typed node rate wins: 2,400 tok/s on nodes of 1,000 planned at 80 % = 3 replicas at 80 %",
     "calculator": "replicas", "inputs": {"target_tokens_per_s": 2400, "node_tokens_per_s": 1000},
     "expect": {"values.replicas": 3, "values.node_rate_source": "typed", "values.utilization": 0.8}},
    {"id": "replicas_failure_rate_n_times",
     "claim": "Multi-node failure rates are roughly N times a single node",
     "calculator": "replicas",
     "inputs": {"target_tokens_per_s": 2400, "node_tokens_per_s": 1000, "node_failure_rate": 2.0},
     "expect": {"values.nodes": 3, }},
    {"id": "replicas_effort_4_5x_per_node",
     "claim": "In engineering time, multi-node costs 4-5x per added node (2 nodes: 1 + 4 to 1 + 5 in all)",
     "calculator": "replicas", "inputs": {"target_tokens_per_s": 1600, "node_tokens_per_s": 1000},
     "expect": {"values.added_nodes": 1, "values.effort_per_added_node_min": 4.0,
                "values.effort_per_added_node_max": 5.0, "values.effort_total_min": 5.0,
                "values.effort_total_max": 6.0}},
    # --- Throughput, training time and power ------------------------------------------
    {"id": "node_150_tok_s_32k",
     "claim": "One 8-GPU node serves about 150 output tok/s at 70B FP8 with 32 requests of 32k, prompts "
              "included (155.7: four TP-2 copies, memory bound between prefills)",
     "calculator": "throughput", "inputs": {"model": "llama-3.1-70b", "precision": "fp8", **PRO},
     "expect": {"values.node_tokens_per_s": {"approx": 155.7, "tol": 0.05}, "values.bound": "memory",
                "values.copies": 4, "values.tensor_parallel": 2}},
    {"id": "node_32k_prefill_costs_most",
     "claim": "Each 32k prompt must be read first: the rate over whole requests is below the decode-only rate "
              "of the same load (155.7 against 437.2 tok/s)",
     "relation": {"left": _ref("throughput", {"model": "llama-3.1-70b", "precision": "fp8", **PRO},
                               "values.node_tokens_per_s"), "op": "<",
                  "right": _ref("throughput", {"model": "llama-3.1-70b", "precision": "fp8", **PRO},
                                "values.decode_tokens_per_s")}},
    {"id": "node_450_tok_s_8k",
     "claim": "the same node at 32 x 8k serves about 450 tok/s",
     "calculator": "throughput", "inputs": {"model": "llama-3.1-70b", "precision": "fp8", "context": 8192, **PRO},
     "expect": {"values.node_tokens_per_s": {"approx": 454.8, "tol": 0.05}}},
    {"id": "node_shorter_prompts_faster",
     "claim": "Shorter prompts, more tokens/s: 32 x 8k serves more than 32 x 32k",
     "relation": {"left": _ref("throughput", {"model": "llama-3.1-70b", "precision": "fp8", **PRO},
                               "values.node_tokens_per_s"), "op": "<",
                  "right": _ref("throughput", {"model": "llama-3.1-70b", "precision": "fp8", "context": 8192, **PRO},
                                "values.node_tokens_per_s")}},
    {"id": "70b_pretrain_hundreds_of_gpu_months",
     "claim": "A 70B pretrain on 1.5T tokens takes hundreds of GPU-months on H100-class hardware (501.5 at the "
              "calibrated MFU; at 15T it is thousands, 5,015: hundreds to thousands over the published budgets)",
     "calculator": "training_time", "inputs": {"model": "llama-3.1-70b", "gpu": "h100-sxm", "tokens_t": 1.5},
     "expect": {"values.gpu_months": {"at_least": 100, "below": 1000}, "values.gpu_months_low": {"at_least": 100},
                "values.gpu_months_high": {"below": 1000}}},
    {"id": "lab_two_4_gpu_nodes_same_serving_worse_training",
     "claim": "Two 4-GPU nodes instead of one 8-GPU node: the same serving rate for a 70B (copies of the model "
              "in each box, no fabric), worse training (0.65 against 0.73), more power",
     "calculator": "compare", "inputs": {"model": "llama-3.1-70b"},
     "expect": {"verdict": "one_node", "values.one_node_tokens_per_s": {"approx": 155.7, "tol": 0.05},
                "values.rows.0.serving": "replicas", "values.rows.1.serving": "replicas",
                "values.rows.1.max_concurrency": 40}},
    {"id": "lab_8_gpu_model_slower_on_two_nodes",
     "claim": "A model that needs all 8 GPUs (405B FP8, FP8 KV) runs TP across the fabric on two 4-GPU nodes: slower",
     "calculator": "compare",
     "inputs": {"model": "llama-3.1-405b", "precision": "fp8", "kv_precision": "fp8"},
     "expect": {"values.rows.0.serving": "tp", "values.two_nodes_vs_one": {"below": 0.9}}},
    {"id": "dgx_h100_node_power",
     "claim": "the node allowance reproduces DGX H100's 10.2 kW maximum with 8 x 700 W",
     "calculator": "throughput", "inputs": {"gpu": "h100-sxm", "gpus": 8},
     "expect": {"values.node_kw": {"approx": 10.2, "tol": 0.005}}},
]


def _get(result: Any, path: str) -> Any:
    value = result
    for part in path.split("."):
        if isinstance(value, list):
            value = value[int(part)]
        else:
            value = value[part]
    return value


_OPS = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def check_case(case: dict[str, Any], run: Any = None) -> list[str]:
    """Failure messages for one case (empty when it holds)."""
    if run is None:
        from calculators import run
    failures = []
    if "relation" in case:
        rel = case["relation"]
        sides = []
        for ref in (rel["left"], rel["right"]):
            res = run(ref["calculator"], ref["inputs"])
            if not res.get("ok"):
                return [f"{case['id']}: run failed: {res}"]
            sides.append(_get(res, ref["path"]))
        if not _OPS[rel["op"]](sides[0], sides[1]):
            failures.append(f"{case['id']}: expected {sides[0]!r} {rel['op']} {sides[1]!r} ({case['claim']})")
        return failures
    res = run(case["calculator"], case["inputs"])
    if not res.get("ok"):
        return [f"{case['id']}: run failed: {res}"]
    for path, want in case["expect"].items():
        try:
            got = _get(res, path)
        except (KeyError, IndexError, ValueError, TypeError):
            failures.append(f"{case['id']}: {path} missing")
            continue
        if not meets(got, want):
            failures.append(f"{case['id']}: {path} = {got!r}, expected {want!r} ({case['claim']})")
    return failures


def run_cases(run: Any = None) -> list[str]:
    """Run every case; returns failure messages (empty list = all claims hold)."""
    failures: list[str] = []
    for case in CASES:
        failures.extend(check_case(case, run))
    return failures


if __name__ == "__main__":  # pragma: no cover
    problems = run_cases()
    print("\n".join(problems) if problems else f"all {len(CASES)} cases pass")
    raise SystemExit(1 if problems else 0)
