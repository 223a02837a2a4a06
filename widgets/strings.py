"""The vocabulary the calculator widgets share, as gettext msgids (English source text), and the tables of
every calculator's own words, derived from `widgets/presentations/` (titles, verdicts, explanations,
subjects, questions: each declared once, in its calculator's module).

`N_` only marks a string for extraction (`widgets.msgids`); the translation happens where the string is
shown. Keys are the stable identifiers of `calculators` (input names, choice ids, output names, verdicts,
error and note codes), so the tests can check that every identifier has its text.
Placeholders use `str.format` names; the translations must keep exactly the same ones.

Sentences are written whole in each language: a verdict line, a subject, an explanation, a question or a
note is one msgid, never pieces glued in English order. In them (widgets/view.py fills them):
- a counted quantity (requests, tokens, GPUs, nodes) comes with its noun in the right plural form:
  `{concurrency}` reads "32 requests", `{min_nodes}` "1 node"; the sentence does not repeat the noun.
  Written as a bare number: the number that picks a plural sentence's form (the third argument of
  `NP_`, whose forms write the noun themselves), a layout's degrees (`TP {tp_degree}`) and the low end
  of a range (`{max_concurrency_low} to {max_concurrency_high}`);
- any other value is written as the widget shows it, with its unit ("1,500 tok/s", "343.6 GB", "73 %");
- `{node}` is the reader's node, "8 × RTX Pro 6000 Blackwell (768 GB)"; `{model}` a model's name.
A sentence whose grammar depends on a number beyond its counted nouns (a verb or an adjective that
agrees, a noun the count belongs to) is an `NP_` pair: gettext picks its form by that number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from widgets import presentations
from widgets.msgids import N_, NP_

LABELS = {
    "model": N_("Model"),
    "params_b": N_("Parameters (custom model)"),
    "active_params_b": N_("Active parameters per token (custom model)"),
    "heads": N_("Attention heads (custom model)"),
    "layers": N_("Layers (custom model)"),
    "kv_heads": N_("KV heads (custom model)"),
    "head_dim": N_("Head dimension (custom model)"),
    "precision": N_("Weight precision"),
    "kv_precision": N_("KV cache precision"),
    "gpu": N_("GPU"),
    "gpus": N_("GPUs in the node"),
    "context": N_("Context per request"),
    "concurrency": N_("Concurrent requests"),
    "weights_limit": N_("Weights limit (share of VRAM)"),
    "attention": N_("Attention across GPUs (latent-attention models)"),
    "method": N_("Method"),
    "seq_len": N_("Sequence length"),
    "micro_batch": N_("Micro-batch"),
    "recompute": N_("Activation recomputation"),
    "lora_rank": N_("LoRA rank"),
    "parallelism": N_("Parallelism"),
    "gpus_per_node": N_("GPUs per node"),
    "nodes": N_("Nodes"),
    "fabric": N_("Fabric between nodes"),
    "nics_per_node": N_("Network cards per node"),
    "grad_accum": N_("Gradient accumulation steps"),
    "mfu": N_("Achieved share of peak compute"),
    "workload": N_("Workload"),
    "throughput_bound": N_("Limited by throughput rather than model size"),
    "target_tokens_per_s": N_("Target throughput (tokens/s)"),
    "output_tokens": N_("Answer per request (output tokens)"),
    "input_tokens": N_("Prompt per request (input tokens)"),
    "max_days": N_("Longest acceptable run (days)"),
    "target_requests_per_s": N_("Target requests per second (0 = use tokens/s)"),
    "tokens_per_request": N_("Tokens per request"),
    "node_tokens_per_s": N_("Tokens/s one node delivers (0 = computed)"),
    "node_failure_rate": N_("Failures per node per year"),
    "utilization_target": N_("Utilization target per node"),
    "spare": N_("Add a spare node (N+1)"),
    "pcie_placement": N_("Where the GPUs sit on PCIe"),
    "tokens_t": N_("Training tokens (trillions)"),
    "global_batch": N_("Global batch (sequences per step)"),
    # A label for one calculator's field, where the shared one would mislead ("calculator:field").
    "training_time:gpus": N_("GPUs in all"),
    "sxm_gpu": N_("GPU of the SXM node"),
    "compare:gpu": N_("GPU of the PCIe nodes"),
    "compare:fabric": N_("Fabric between the two 4-GPU nodes"),
}

HELP = {
    "model": N_("A model from the catalogue, or Custom to enter its shape."),
    "params_b": N_("Billions of parameters; used only with a custom model."),
    "active_params_b": N_(
        "For a mixture-of-experts model, the billions of parameters each token uses; 0 for a dense model. "
        "Used only with a custom model."
    ),
    "heads": N_("Query heads per layer, a multiple of the key/value heads; used only with a custom model."),
    "layers": N_("Transformer layers; used only with a custom model."),
    "kv_heads": N_("Key/value heads per layer; used only with a custom model."),
    "head_dim": N_("Size of one attention head; used only with a custom model."),
    "precision": N_(
        "How many bytes each weight takes: BF16 2, FP8 1, INT4 and FP4 about half a byte. "
        "FP4 needs a Blackwell GPU."
    ),
    "kv_precision": N_("Precision of the key/value cache: FP8 holds twice as many tokens as BF16."),
    "gpu": N_("The card in the node."),
    "gpus": N_("Number of GPUs."),
    "context": N_("Tokens each request keeps in the KV cache; 128k is 131,072 tokens."),
    "concurrency": N_("Requests served at the same time."),
    "weights_limit": N_("The working rule: weights at 60–70 % of VRAM, the rest for everything else. "
                        "Type 70 % or 0.7."),
    "attention": N_(
        "For models with latent attention (MLA, DeepSeek): data parallel keeps each request's cache on one GPU; "
        "tensor parallel copies the whole cache to every GPU."
    ),
    "method": N_("Full fine-tune trains every weight; LoRA and QLoRA train small adapters."),
    "seq_len": N_("Tokens per training sequence; 4k is 4,096 tokens."),
    "micro_batch": N_("Sequences per GPU per forward pass."),
    "recompute": N_("Recomputing activations in the backward pass saves memory and costs compute."),
    "lora_rank": N_("Rank of the LoRA adapters."),
    "parallelism": N_("How the model and the data are split across GPUs."),
    "gpus_per_node": N_("GPUs in each node."),
    "nodes": N_("Number of nodes."),
    "fabric": N_("The link between nodes; inside a node the GPUs talk over PCIe or NVLink."),
    "nics_per_node": N_(
        "Network cards per node used by the collectives; 0 takes the GPU's usual server: 8 on an SXM (HGX) board, "
        "one per GPU, 2 in a PCIe box."
    ),
    "grad_accum": N_("Micro-batches per optimizer step."),
    "mfu": N_("Share of the GPU's peak BF16 throughput actually reached, in % (21.5 %) or as a share (0.215)."),
    "workload": N_("What the node will do."),
    "throughput_bound": N_("Yes if one node runs the model but you need more requests per second."),
    "target_tokens_per_s": N_("Output tokens per second the service must deliver, all requests together."),
    "output_tokens": N_("Tokens of each request's answer; the rest of its context is the prompt, read first."),
    "input_tokens": N_("Tokens of each prompt; 0 takes the context less the answer."),
    "max_days": N_("Pre-training only: the run must end within this many days."),
    "decision:target_tokens_per_s": N_("Output tokens per second to serve; 0: no throughput target, only the load."),
    "throughput:concurrency": N_("Requests served at the same time; 0: as many as the node holds."),
    "target_requests_per_s": N_("If set, the target is requests per second × tokens per request."),
    "tokens_per_request": N_("Average tokens generated per request."),
    "node_tokens_per_s": N_(
        "0 computes it from the model, the node and the load below (the throughput calculator); type a measured "
        "rate to use yours."
    ),
    "node_failure_rate": N_("Incidents that take one node down, per year."),
    "utilization_target": N_(
        "Plan each node for this share of its throughput (80 % or 0.8): queues grow steeply near 100 %."
    ),
    "spare": N_("Yes to keep one more node than the target needs, so a failure costs no capacity."),
    "pcie_placement": N_(
        "Under one PCIe switch the GPUs reach ~50 GB/s (PCIe 5); across two CPU sockets the traffic crosses "
        "the CPUs (~22 GB/s). Ignored for NVLink."
    ),
    "tokens_t": N_("Tokens the model is trained on, in trillions (Llama 3: 15)."),
    "global_batch": N_(
        "Sequences of one optimizer step over all GPUs; Llama 3 405B: 2,048 of 8,192 tokens (16M tokens). It caps "
        "the data-parallel replicas: each needs at least one."
    ),
    "training_time:parallelism": N_(
        "How the GPUs split the model: Fastest takes the quickest layout that fits; tensor parallelism stays inside "
        "a box, pipeline stages run across boxes, data parallelism takes the rest."
    ),
    "training_time:mfu": N_(
        "Share of the GPU's training peak (BF16 with FP32 accumulation) reached while computing, in % (57 %) or as "
        "a share; communication and the pipeline bubble come on top."
    ),
    "training_time:seq_len": N_("Tokens per training sequence; Llama 3 pre-trained on 8,192."),
    "training_time:gpus": N_("GPUs of the whole run, rounded up to whole nodes."),
    "sxm_gpu": N_("The reference row: an 8-GPU NVLink node, which Kentino does not build."),
    "compare:gpu": N_("The card in the 8-GPU node and in each of the two 4-GPU nodes."),
}

# Choice ids are looked up as "input:id" first (for ids that mean different things), then as "id".
# Model and GPU ids show the catalogue's product name instead (a proper noun in every language).
CHOICES = {
    "custom": N_("Custom"),
    "bf16": N_("BF16"),
    "fp8": N_("FP8"),
    "int4": N_("INT4"),
    "fp4": N_("FP4 (NVFP4)"),
    "full": N_("Full fine-tune"),
    "lora": N_("LoRA"),
    "qlora": N_("QLoRA"),
    "recompute:none": N_("None: keep all activations"),
    "recompute:full": N_("Full: recompute every layer"),
    "recompute:offload": N_("Offloaded: recompute every layer, checkpoints in CPU memory"),
    "tp": N_("Tensor parallel (TP)"),
    "tp_pp": N_("TP inside nodes, PP across"),
    "pcie4": N_("PCIe Gen4 (inside one box)"),
    "nvlink5": N_("NVLink 5"),
    "nvlink3": N_("NVLink 3"),
    "dp": N_("Data parallel (DP)"),
    "fsdp": N_("Fully sharded data parallel (FSDP, ZeRO-3)"),
    "parallelism:auto": N_("Fastest layout that fits"),
    "pp": N_("Pipeline parallel (PP)"),
    "pcie5": N_("PCIe Gen5 (inside one box)"),
    "nvlink": N_("NVLink 4"),
    "ib-200": N_("InfiniBand 200 Gb/s"),
    "ib-400": N_("InfiniBand 400 Gb/s"),
    "eth-100": N_("Ethernet 100 GbE"),
    "eth-25": N_("Ethernet 25 GbE"),
    "switch": N_("Under one PCIe switch"),
    "cross_socket": N_("Across two CPU sockets"),
    "inference": N_("Inference"),
    "full_finetune": N_("Full fine-tune"),
    "pretrain": N_("Pre-training from scratch"),
    "memory": N_("Memory bandwidth"),
    "compute": N_("Compute"),
    "serving:tp": N_("Tensor parallel in the node"),
    "serving:replicas": N_("Copies of the model sharing the requests"),
    "serving:tp_across": N_("Tensor parallel across both nodes"),
    "deployment:one_gpu": N_("One GPU"),
    "deployment:one_box": N_("One copy over the node's GPUs"),
    "deployment:replicas_in_box": N_("Several copies inside the node"),
    "deployment:bigger_box": N_("A bigger node of the same GPU"),
    "deployment:box_replicas": N_("Copies of whole nodes"),
    "deployment:across_boxes": N_("One copy across nodes"),
    "deployment:none": N_("None"),
    "true": N_("Yes"),
    "false": N_("No"),
}

OUTPUTS = {
    "vram_gb": N_("VRAM in the node"),
    "weights_gb": N_("Weights"),
    "weights_share": N_("Weights as share of VRAM"),
    "kv_bytes_per_token": N_("KV cache per token"),
    "kv_gb": N_("KV cache for the target"),
    "kv_budget_gb": N_("Memory left for the KV cache"),
    "max_concurrency": N_("Requests that fit at this context"),
    "max_context": N_("Longest context that fits at this concurrency"),
    "min_gpus": N_("GPUs needed"),
    "state_gb": N_("Weights, gradients and optimizer"),
    "activations_gb": N_("Activations"),
    "total_gb": N_("Total"),
    "fits": N_("Fits the node"),
    "gpus": N_("GPUs"),
    "efficiency": N_("Scaling efficiency"),
    "efficiency_range": N_("Efficiency over the bandwidth range"),
    "speedup": N_("Speed-up over one GPU"),
    "comm_share": N_("Share of the step spent communicating"),
    "fabric_penalty": N_("Fabric penalty against PCIe"),
    "below_threshold": N_("Below the 60 % line"),
    "step": N_("Deciding step"),
    "recommendation": N_("Recommendation"),
    "min_nodes": N_("Nodes needed"),
    "replicas": N_("Replicas (nodes)"),
    "nodes": N_("Nodes, spare included"),
    "capacity_tokens_per_s": N_("Capacity"),
    "utilization": N_("Utilization"),
    "cluster_failure_rate": N_("Failures per year, all nodes"),
    "mtbf_days": N_("Mean time between failures"),
    "effort_per_added_node": N_("Engineering effort per added node"),
    "effort_total": N_("Engineering effort in all, against one node"),
    "node_tokens_per_s": N_("Output tokens/s of one node, prompts included"),
    "node_tokens_per_s_range": N_("Over the bandwidth and compute range"),
    "tokens_per_s_per_request": N_("Tokens/s per request"),
    "time_to_first_token_ms": N_("Time to first token, idle node"),
    "bound": N_("Limited by"),
    "node_kw": N_("Power of one node (maximum)"),
    "cluster_kw": N_("Power of all nodes (maximum)"),
    "gpu_months": N_("GPU-months"),
    "gpu_months_range": N_("GPU-months over the compute range"),
    "layout": N_("Layout"),
    "mfu_achieved": N_("Share of peak over whole steps (MFU)"),
    "days": N_("Wall-clock time"),
    "energy_mwh": N_("Energy for the run"),
    "two_nodes_vs_one": N_("Two 4-GPU nodes against one 8-GPU node, tokens/s"),
    "concurrency": N_("Requests served at once"),
    "copies": N_("Copies of the model in the node"),
    "tensor_parallel": N_("GPUs per copy (tensor parallel)"),
    "gpus_per_node": N_("GPUs per node"),
}
# The scaling table's row for one box (wiki/render.py): its GPUs, counted.
CONFIG_ONE_NODE = NP_("{gpus} GPU in one box", "{gpus} GPUs in one box", "gpus")

NOTES = {
    "custom_inputs_ignored": N_("The custom-model fields are ignored for a catalogue model."),
    "weights_above_limit": N_("The weights are above the share of VRAM the rule allows."),
    "kv_does_not_fit": N_("The KV cache for the target does not fit in the memory left."),
    "weights_do_not_fit": N_("The weights do not fit in the node's usable memory."),
    "sliding_window_applied": N_("The model's sliding-window attention caps the KV cache."),
    "mla_kv_cache": N_("This model uses latent attention (MLA): its KV cache is much smaller per token."),
    "mla_attention": N_(
        "Latent attention has no heads to split: with tensor-parallel attention every GPU keeps the whole cache "
        "(room for {max_concurrency_tp}); with data-parallel attention each GPU keeps only its own requests' "
        "cache (room for {max_concurrency_dp})."
    ),
    "verdict_depends_on_engine": NP_(
        "Depending on the inference engine's settings (memory fraction 0.90–0.93, CUDA graphs, NCCL buffers), "
        "{max_concurrency_low} to {max_concurrency_high} request of this length fits: whether {concurrency} fit "
        "depends on them.",
        "Depending on the inference engine's settings (memory fraction 0.90–0.93, CUDA graphs, NCCL buffers), "
        "{max_concurrency_low} to {max_concurrency_high} requests of this length fit: whether {concurrency} fit "
        "depends on them.",
        "max_concurrency_high",
    ),
    "fp8_checkpoint_keeps_bf16": N_(
        "The official FP8 checkpoint keeps {bf16_params_b} billion parameters in BF16: its weights take "
        "{weights_gb} GB, not one byte per parameter."
    ),
    "moe_all_experts_resident": N_("All experts of this mixture-of-experts model must be in memory."),
    "hidden_size_estimated": N_("The hidden size of the custom model is estimated from its parameters."),
    "fabric_unused_single_node": N_("On one node the fabric between nodes is not used."),
    "tp_across_nodes": N_("Tensor parallelism spans the nodes: every layer waits on the fabric."),
    "state_exceeds_gpu_memory": N_("The training state does not fit these GPUs; the estimate is theoretical."),
    "verdict_depends_on_bandwidth": N_(
        "Within the range of achieved bandwidth (measured PCIe all-reduce to raw link rate), the efficiency "
        "crosses the 60 % line: the verdict depends on how well the links perform."
    ),
    "verdict_depends_on_compute": N_(
        "If the GPUs compute as fast as the best published training runs (52 % of peak), communication weighs "
        "more and the efficiency falls under the 60 % line: the verdict depends on the achieved compute rate."
    ),
    "int4_not_for_training": N_("INT4 weights cannot themselves be trained; QLoRA trains adapters on 4-bit weights "
                                "and is already counted that way."),
    "offload_checkpoints": N_(
        "With its activation checkpoints on the GPUs, this fine-tune at {seq_len} per sequence does not fit "
        "{gpus}; with them offloaded to CPU memory, as Unsloth's recipe runs it (slower by about 1 %), it fits "
        "{gpus_per_node}."
    ),
    "add_replicas": N_("Add replicas behind a load balancer; no fabric needed."),
    "restructure": N_("Below 60 %: split the work another way (TP inside, PP across) or use fewer nodes."),
    "pretrain_compute_bound": N_(
        "Finishing this pre-training in time takes {min_gpus}, far past the {frontier_gpus} where the frontier "
        "begins: most customers should not do it themselves."
    ),
    "frontier_not_kentino_hardware": N_("Kentino does not build this tier: it needs SXM modules on an NDR fabric."),
    "target_from_requests": N_("The target comes from requests per second × tokens per request."),
    "multi_node_ops_tax": N_("More than one node adds shared storage, checkpointing, tuning and monitoring work."),
    "replica_ops_tax": N_(
        "Each added replica needs a load balancer entry, its own deployment and monitoring; no fabric and no "
        "shared checkpoint storage."
    ),
    "spare_node": N_("One node more than the target needs: a failure costs no capacity."),
    "node_rate_from_throughput": N_(
        "The node rate, {node_tokens_per_s} with prompts included, comes from the throughput model: {concurrency} "
        "of {context} at once on {gpus}, as many as the latency bound allows; type a measured rate to use yours."
    ),
    "load_does_not_fit": N_(
        "The node holds only {max_concurrency} of {context}, not {concurrency}: the rate is that of a load it "
        "cannot hold."
    ),
    "concurrency_held": N_(
        "Concurrency 0: the node runs as many requests at once as its KV cache holds, here {concurrency}, as "
        "maximum-throughput benchmarks do."
    ),
    "lengths_set_context": N_(
        "The prompt and the answer make each request {context} long; the context field is not used."
    ),
    # {per_request_tokens_per_s}: a request's rate at the load a node serves (planner.Plan), not at the typed one.
    "concurrency_below_target": NP_(
        "You typed {concurrency} request at once; at the load a node serves, each request streams about "
        "{per_request_tokens_per_s}, so the target of {target_tokens_per_s} takes about {needed_concurrency} "
        "at once. The nodes are sized for the target.",
        "You typed {concurrency} requests at once; at the load a node serves, each request streams about "
        "{per_request_tokens_per_s}, so the target of {target_tokens_per_s} takes about {needed_concurrency} "
        "at once. The nodes are sized for the target.",
        "concurrency",
    ),
    "model_across_boxes": N_(
        "The weights do not fit one node: each copy of the model spans {boxes}, over a fabric between them."
    ),
    "tp_comm_share": N_(
        "The all-reduces between the {gpus} take a large share of each step: the link between the GPUs, not "
        "their memory, limits the rate."
    ),
    "gpus_rounded_to_nodes": N_("The GPUs are rounded up to whole nodes: {gpus} in {nodes}."),
    "batch_below_dp": NP_(
        "{dp} data-parallel replicas share a global batch of {global_batch} sequence: each needs at least one, so "
        "a step takes {dp} sequences.",
        "{dp} data-parallel replicas share a global batch of {global_batch} sequences: each needs at least one, "
        "so a step takes {dp} sequences.",
        "global_batch",
    ),
    "sxm_not_kentino_hardware": N_(
        "The SXM row is a reference: Kentino does not build SXM nodes. No prices are shown."
    ),
}

ERRORS = {
    "required": N_("Enter a value."),
    "not_a_number": N_("Enter a number, for example {example}."),
    "not_an_integer": N_("Enter a whole number."),
    "not_a_boolean": N_("Choose yes or no."),
    "not_finite": N_("Enter a finite number."),
    "too_small": N_("Enter at least {min}."),
    "too_large": N_("Enter at most {max}."),
    "unknown_choice": N_("Choose one of the listed options."),
    "unknown_input": N_("This field is not known."),
    "unknown_calculator": N_("This calculator does not exist."),
    "invalid_inputs": N_("The inputs could not be read."),
    "conflicting_inputs": N_("These inputs contradict each other."),
    "fits_no_deployment": N_(
        "No number of nodes of this GPU holds this model: choose a larger GPU or a smaller model."
    ),
    "precision_not_supported": N_("This GPU has no FP4 tensor cores: choose BF16, FP8 or INT4, or a Blackwell GPU."),
    "context_exceeds_model": N_("The model reads at most {max} tokens: enter at most that."),
    "not_a_multiple": N_("Enter a multiple of the number of key/value heads."),
    "internal_error": N_("The calculation failed. Please report it."),
    "inter_node_fabric": N_("Choose a link between nodes: InfiniBand or Ethernet."),
    # Typed "1.500" where the dot is not the page's group separator: both readings, written the page's way.
    "ambiguous_number": N_("Do you mean {grouped} or {decimal}? Type one of the two."),
}

# Units that CLDR does not cover (it does cover gigabytes, bytes, percentages and days).
UNITS = {
    "tokens_per_s": N_("{value} tok/s"),
    "per_year": N_("{value} per year"),
    "multiplier": N_("{value}×"),
    "multiplier_range": N_("{low}–{high}×"),
    "range": N_("{low}–{high}"),
    "node": N_("{gpus} × {gpu} ({memory})"),
    "ms": N_("{value} ms"),
    "s": N_("{value} s"),
    "kw": N_("{value} kW"),
    "mwh": N_("{value} MWh"),
    "gpu_months": N_("{value} GPU-months"),
    "custom_model_size": N_("a {value}B model"),
}

# Counted units: the plural form follows the number (CLDR plural rules through gettext's Plural-Forms).
COUNTED = {
    "gpus": NP_("{value} GPU", "{value} GPUs"),
    "nodes": NP_("{value} node", "{value} nodes"),
    "requests": NP_("{value} request", "{value} requests"),
    "tokens": NP_("{value} token", "{value} tokens"),
}

UI = {
    "result": N_("Result"),
    "custom_model": N_("Custom model (used when Model is Custom)"),
    "notes": N_("Notes"),
    "inputs": N_("Inputs"),
    # The verdict line: {verdict} is the badge (the verdict's word), {subject} what it answers (SUBJECTS).
    "verdict_line": N_("Verdict: {verdict}"),
    "verdict_line_subject": N_("Verdict: {verdict} – {subject}"),
    "answer_yes": N_("yes"),
    "answer_no": N_("no"),
    "state_static": N_("Precomputed for the values shown. Change a value to recompute in your browser."),
    "state_loading": N_("Loading the calculator…"),
    "state_ready": N_("Live: results follow your inputs."),
    "state_error": N_("The live calculator could not start; the precomputed result stays valid."),
    "stale": N_("This result is for the previous valid inputs."),
    "check_field": N_("Check the field “{field}”: no result until it is valid."),
    "state_failed": N_("The live calculator stopped; the result shown is for the previous inputs. "
                       "Change a value to try again."),
    "state_link_not_applied": N_("The live calculator could not start, so the values of the link were not "
                                 "applied: the fields and the result show the page's own values."),
    # Shown at the end of the page by offline.js (through offline-messages.json, wiki/offline.py) while the
    # service worker's install failed and waits to be tried again.
    "offline_install_failed": N_("Offline reading is not set up yet: a download failed. It will be tried "
                                 "again later; the site works online as usual."),
    "copy_link": N_("Copy link"),
    "link_copied": N_("Link copied."),
    # The theme's own words (overrides/partials/copyright.html and kw-not-found.html, through the build's
    # `kw_ui`): the footer's credit, {mkdocs} and {material} its two links, and the error page.
    "made_with": N_("Made with {mkdocs} and {material}"),
    # The title of the ¶ link after each heading (Python-Markdown's toc writes "Permanent link"; wiki/theme_words.py).
    "permalink_title": N_("Permanent link"),
    "not_found_title": N_("Page not found"),
    "not_found_text": N_("The page you are looking for does not exist or has moved (error 404)."),
    "not_found_home": N_("Go to the home page"),
    "link_not_copied": N_("Copy the address from the address bar: this browser refused."),
    # A shared link's values that this widget cannot take (an old link, a model left out of the catalogue):
    # said on the widget; the link's other values are applied.
    "link_choice_gone": N_("{field}: the link's choice is no longer offered; showing {shown}."),
    "link_field_unknown": N_("The link names a field this calculator does not have; it was left out."),
    "your_configuration": N_("Yours"),
    "figure_vram": N_("VRAM budget: weights {weights_gb}, KV cache {kv_gb}, runtime overhead {overhead_gb}, "
                      "free {free_gb}, of {vram_gb}; rule lines at 60 % and 70 %."),
    # The same when the load is over capacity: the KV cache is shown as what it needs against what is left.
    "figure_vram_over": N_("VRAM budget: weights {weights_gb}, runtime overhead {overhead_gb}; the KV cache needs "
                           "{kv_gb} but has only {kv_room_gb} left: it is {over_gb} short, and the whole exceeds the "
                           "node's {vram_gb}; rule lines at 60 % and 70 %."),
    "legend_weights": N_("Weights"),
    "legend_kv": N_("KV cache"),
    "legend_overhead": N_("Runtime overhead"),
    "legend_free": N_("Free"),
    "legend_over": N_("Over capacity"),
    "figure_scaling": N_("Scaling efficiency by number of GPUs and fabric; the dashed line is the 60 % threshold."),
    "axis_gpus": N_("GPUs"),
    "axis_efficiency": N_("Efficiency"),
    "projection": N_("Projection of the scaling model, not measured data. Assumptions: {assumptions}."),
    "scaling_assumptions": N_("a 70B-class training step, tensor parallel, {mfu} of peak compute per GPU, "
                              "ring all-reduce at the fabric's bandwidth, no compute/communication overlap"),
    "table_configuration": N_("Configuration"),
    "table_fabric": N_("Fabric"),
    "table_efficiency": N_("Efficiency"),
    "table_speedup": N_("Speed-up"),
    "config_nodes": N_("{nodes} nodes × {gpus_per_node} GPUs"),
    "build_table_caption": N_("GPUs Kentino builds into a single node, from the wiki's GPU catalogue "
                              "(vendor figures, not measurements)."),
    "build_gpu": N_("GPU"),
    "build_memory": N_("Memory per GPU"),
    "build_node_memory": N_("8-GPU node"),
    "build_bandwidth": N_("Memory bandwidth"),
    "build_link": N_("Link"),
    "build_tflops": N_("Dense BF16"),
    "tflops": N_("{value} TFLOP/s"),
    "gb_per_s": N_("{value} GB/s"),
    "table_fits": N_("Fits (requests held)"),
    "table_serving": N_("How it serves"),
    "table_throughput": N_("Tokens/s"),
    "table_ttft": N_("First token"),
    "table_training": N_("Training efficiency"),
    "table_power": N_("Power (maximum)"),
    "config_node_gpus": N_("{nodes} × {gpus} × {gpu}"),
    "config_over": N_("{config} over {fabric}"),
    "compare_caption": N_("Your workload on three configurations: projections of the calculators above; maximum "
                          "power from datasheets; no prices."),
}

# Page notices the build writes (wiki/plugin.py), not a widget: a page shown before it is translated.
PAGES = {
    "untranslated": N_("This page is not translated yet: you are reading the original version."),
}

# The calculator pages (wiki/methods.py): each widget's link to its page, and the page's validation table of
# published figures (calculators/reference.py). Quantities are named per reference call: a function's name,
# or an output's name (with `@unit` when the figure is in another unit than the output).
METHODS = {
    "method_link": N_("How we calculate"),
    "figures": NP_("{value} published figure", "{value} published figures"),
    "summary": N_("{figures}; calibrations: {calibrations}; within budget: {held}."),
    "legend": N_("Ours / published is our figure divided by the published one: 1 means the same. A calibration "
                 "is a figure a constant was fitted on, so its ratio shows the fit, not a prediction; every other "
                 "row is a prediction, made without looking at it."),
    "setup_note": N_("What was measured is described in the source's own words."),
    "caption": N_("Published figures and this calculator's own, by the reference suite"),
    "group_caption": N_("Published figures and the calculator's own: {title}"),
    "builds_on": N_("Built on:"),
    "no_own_figures": N_("This calculator has no formula of its own: it puts the calculators below together, "
                         "and their figures are the ones checked against published runs."),
    "serving_budget": N_("The {rows} rows measured against {band}, together: {share} within {inner}, {outside} "
                         "outside {band} (the budget: at least {required} within, none outside)."),
    # The budget line of one role's rows: "Prediction: The 24 rows ..." (the role, then serving_budget).
    "role_budget": N_("{role}: {budget}"),
    # "Ours" of a published run the calculator will not take as entered (a prediction row it refuses).
    "refused": N_("not accepted by the calculator"),
    "col_measured": N_("What was measured"),
    "col_published": N_("Published"),
    "col_ours": N_("Ours"),
    "col_ratio": N_("Ours / published"),
    "col_budget": N_("Budget"),
    "col_held": N_("Within budget"),
    "col_role": N_("Role"),
    "col_source": N_("Source"),
    "role_calibration": N_("Calibration"),
    "role_prediction": N_("Prediction"),
    "budget_exact": N_("exact"),
    "budget_ratio": N_("±{tolerance}"),
    "budget_expected": N_("±{tolerance} around {expect}"),
    "budget_at_most": N_("ours at most the published figure"),
    "budget_at_least": N_("ours at least the published figure"),
    "budget_within": N_("the published figure inside our range"),
    "budget_band": N_("{band}, see above"),
}
REFERENCE_QUANTITIES = {
    "kv_bytes_per_token": N_("KV cache per token"),
    "kv_gb_per_sequence": N_("KV cache of one request"),
    "gqa_kv_bytes_per_rank": N_("KV cache per token on one GPU"),
    "exposed_gib": N_("Memory a GPU exposes to CUDA"),
    "kv_budget_gib": N_("Memory a serving engine leaves for the KV cache"),
    "mla_dp_over_tp": N_("Tokens held: data-parallel attention against tensor parallel"),
    "fp8_weights_gb": N_("Weights of an FP8 checkpoint"),
    "zero_model_states_gb": N_("Training state per GPU (ZeRO)"),
    "total_gb": N_("Memory of a fine-tuning run"),
    "pcie_allreduce_gbs": N_("All-reduce bandwidth over PCIe"),
    "pcie_allreduce_range_gbs": N_("All-reduce bandwidth over PCIe"),
    "nvlink_allreduce_range_gbs": N_("All-reduce bandwidth over NVLink"),
    "fabric_bandwidth_gbs": N_("All-reduce bandwidth of a link"),
    "node_tokens_per_s": N_("Output tokens/s, prompts included"),
    "time_to_first_token_ms": N_("Time to first token"),
    "tokens_per_s_per_request@ms": N_("Time between two tokens of a request"),
    "gpu_months@GPU-h": N_("GPU-hours of a training run"),
    "training_gpu_hours": N_("GPU-hours of a training run"),
    "training_gpu_hours_range": N_("GPU-hours of a training run"),
    "training_layout_mfu": N_("Share of peak over whole steps (MFU)"),
    "gpu_months@tok/s per GPU": N_("Training tokens/s per GPU"),
}
# A reference's unit (`Reference.unit`), as the page writes a value in it.
REFERENCE_UNITS = {
    "B": N_("{value} B"),
    "GB": N_("{value} GB"),
    "GiB": N_("{value} GiB"),
    "GB/s": N_("{value} GB/s"),
    "tok/s": N_("{value} tok/s"),
    "tok/s per GPU": N_("{value} tok/s per GPU"),
    "ms": N_("{value} ms"),
    "GPU-h": N_("{value} GPU-hours"),
    "days": N_("{value} days"),
    "×": N_("{value}×"),
}


# ---- Each calculator's own words (widgets/presentations/), as tables by key -----------------------------------

def _own(table: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(calculator, its presentation's `table`) for every calculator."""
    return ((name, getattr(p, table)) for name, p in presentations.PRESENTATIONS.items())


def _merged(shared: dict[str, Any], own: Iterable[tuple[str, Mapping[str, Any]]], what: str) -> dict[str, Any]:
    """`shared` with each calculator's own entries; a key that two places give different texts is an error."""
    merged, said_by = dict(shared), dict.fromkeys(shared, "widgets/strings.py")
    for name, entries in own:
        for key, value in entries.items():
            if key in merged and merged[key] != value:
                raise ValueError(f"{what} {key!r}: widgets/presentations/{name}.py says {value!r}, "
                                 f"{said_by[key]} says {merged[key]!r}; one key, one text")
            merged[key], said_by[key] = value, f"widgets/presentations/{name}.py"
    return merged


TITLES = {name: p.title for name, p in presentations.PRESENTATIONS.items()}
VERDICTS = _merged({}, ((name, {v: verdict.words for v, verdict in verdicts.items()})
                        for name, verdicts in _own("verdicts")), "verdict")
EXPLANATIONS = {(name, key): msgid for name, own in _own("explanations") for key, msgid in own.items()}
SUBJECTS = {(name, choice) if isinstance(subject, Mapping) else name: msgid for name, subject in _own("subject")
            for choice, msgid in (subject.items() if isinstance(subject, Mapping) else [("", subject)])
            if msgid is not None}
QUESTIONS = _merged({}, _own("questions"), "question")
OUTPUT_LABELS = {(name, key): msgid for name, own in _own("output_labels") for key, msgid in own.items()}
LABELS = _merged(LABELS, _own("labels"), "label")
HELP = _merged(HELP, _own("help"), "help text")
OUTPUTS = _merged(OUTPUTS, _own("outputs"), "output label")


def output_label(calculator: str, name: str) -> str:
    """The msgid of the label an output has in a calculator's widget."""
    return OUTPUT_LABELS.get((calculator, name), OUTPUTS[name])
