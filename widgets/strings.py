"""Every user-visible string of the calculator widgets, as gettext msgids (English source text).

`N_` only marks a string for extraction (`pybabel extract -k N_`); the translation happens where the
string is shown. Keys are the stable identifiers of `calculators` (input names, choice ids, output
names, verdicts, error and note codes), so the tests can check that every identifier has its text.
Placeholders use `str.format` names; the translations must keep exactly the same ones.
"""

from __future__ import annotations


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark a msgid for extraction without translating it."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Mark a msgid with a plural form (`pybabel extract -k NP_:1,2`); gettext picks the form by count."""
    return (singular, plural)


TITLES = {
    "vram_fit": N_("Does the model fit one node for inference?"),
    "training_memory": N_("Training memory: full fine-tune, LoRA, QLoRA"),
    "scaling": N_("Scaling efficiency of a training step"),
    "decision": N_("The decision flow, step by step"),
    "replicas": N_("Data-parallel replicas for a throughput target"),
    "throughput": N_("Serving throughput of one node"),
    "training_time": N_("How long a training run takes"),
    "compare": N_("One 8-GPU node, two 4-GPU nodes or an SXM node"),
    "workload": N_("Your workload: one box or more?"),
}

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
    "target_tokens_per_s": N_("Aggregate tokens per second the service must deliver."),
    "target_requests_per_s": N_("If set, the target is requests per second × tokens per request."),
    "tokens_per_request": N_("Average tokens generated per request."),
    "node_tokens_per_s": N_(
        "0 computes it from the model, the node and the load below (the throughput calculator); type a measured "
        "rate to use yours. The article: 500–2,000 tokens/s at 70B FP8 on 8 GPUs."
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
        "Share of the GPU's training peak (BF16 with FP32 accumulation) reached while computing, in % (58 %) or as "
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
    "nvlink": N_("NVLink"),
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
    "serving:replicas": N_("Two replicas, half the requests each"),
    "serving:tp_across": N_("Tensor parallel across both nodes"),
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
    "node_tokens_per_s": N_("Tokens/s of one node, all requests"),
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
}

VERDICTS = {
    "fits": N_("Fits"),
    "tight": N_("Tight"),
    "does_not_fit": N_("Does not fit"),
    "scales": N_("Scales"),
    "restructure": N_("Restructure"),
    "one_node": N_("One node"),
    "one_node_int4": N_("One node at INT4"),
    "dp_replicas": N_("Data-parallel replicas"),
    "multi_node_ib": N_("Multi-node over InfiniBand"),
    "frontier": N_("Frontier case"),
    "memory_bound": N_("Memory-bound"),
    "compute_bound": N_("Compute-bound"),
    "within_a_month": N_("Within a month"),
    "months": N_("Months"),
    "years": N_("Years"),
    "two_nodes": N_("Two 4-GPU nodes"),
}

# What a verdict answers, next to the badge: the reader's own load and hardware, from the inputs.
LOAD_ON_NODE = N_("for {concurrency} requests of {context} tokens on {node}")
SUBJECTS = {
    "workload": LOAD_ON_NODE,
    "vram_fit": LOAD_ON_NODE,
    "throughput": LOAD_ON_NODE,
    "training_time": N_("for {model} on {gpus} GPUs"),
    "training_memory": N_("for {method}, {model} on {node}"),
    "scaling": N_("for {model} on {nodes} × {gpus_per_node} GPUs, {parallelism}"),
    "decision": N_("for {workload}, {model} on {node}"),
    "replicas": N_("for {target_tokens_per_s} at {node_tokens_per_s} per node"),
}

# One sentence built from the values: why the verdict is what it is.
EXPLANATIONS = {
    ("vram_fit", "fits"): N_(
        "The weights take {weights_gb} ({weights_share} of {vram_gb}), within the {weights_limit} rule, and "
        "the KV cache for {concurrency} requests of {context} tokens ({kv_gb}) fits in the {kv_budget_gb} left."
    ),
    ("vram_fit", "does_not_fit_kv"): N_(
        "The weights fit ({weights_gb}, {weights_share} of {vram_gb}), but the KV cache for {concurrency} "
        "requests of {context} tokens needs {kv_gb} and only {kv_budget_gb} is left: it fits the weights, not "
        "the workload. The node holds {max_concurrency} such requests, or {concurrency} requests of up to "
        "{max_context} tokens."
    ),
    ("vram_fit", "tight"): N_(
        "The load fits ({kv_gb} of KV cache in the {kv_budget_gb} left), but the weights take {weights_share} "
        "of {vram_gb}, above the {weights_limit} rule: little room is left for prefix caching, CUDA graphs "
        "and load peaks."
    ),
    ("vram_fit", "does_not_fit"): N_(
        "The weights alone need {weights_gb}, more than the {usable_gb} usable in the node: it needs at least "
        "{min_gpus} GPUs."
    ),
    ("training_memory", "fits"): N_(
        "Training needs {total_gb} ({state_gb} of weights, gradients and optimizer plus {activations_gb} of "
        "activations), within the {vram_gb} of the node."
    ),
    ("training_memory", "does_not_fit"): N_(
        "Training needs {total_gb} ({state_gb} of weights, gradients and optimizer plus {activations_gb} of "
        "activations), more than the {vram_gb} of the node: at least {min_gpus} GPUs on {min_nodes} nodes."
    ),
    ("scaling", "scales"): N_(
        "Each GPU keeps {efficiency} of its single-GPU throughput ({speedup} on {gpus} GPUs), above the 60 % line."
    ),
    ("scaling", "restructure"): N_(
        "Each GPU keeps only {efficiency} of its single-GPU throughput ({speedup} on {gpus} GPUs), below the "
        "60 % line: restructure (TP inside a node, PP or DP across), or buy a larger single node."
    ),
    ("scaling", "does_not_fit"): N_(
        "The training state needs {state_gb_per_gpu} per GPU, more than the {gpu_memory_gb} of each card: "
        "this layout cannot run the step. Its projected efficiency ({efficiency}) is theoretical; use more "
        "GPUs, or LoRA/QLoRA."
    ),
    ("decision", "one_node"): N_("Step {step} answers yes: one node is enough."),
    ("decision", "one_node_int4"): N_("Step {step} answers yes: one node at INT4 is the answer for inference."),
    ("decision", "dp_replicas"): N_(
        "Step {step} answers yes: the model fits one node, the load does not fit one node: at least "
        "{min_nodes} data-parallel replicas of one node, not a cluster (the notes list the other ways out)."
    ),
    ("decision", "multi_node_ib"): N_(
        "Step {step} answers yes: multi-node over InfiniBand, at least {min_nodes} nodes; project the "
        "scaling efficiency first."
    ),
    ("decision", "frontier"): N_(
        "Step {step} answers yes: a frontier case. Pre-training a 70B+ model needs 32–128+ GPUs (at least "
        "{min_nodes} nodes like this one) on NDR InfiniBand or SXM: not a job for Kentino hardware."
    ),
    ("replicas", "one_node"): N_(
        "One node delivers {capacity_tokens_per_s}, enough for {target_tokens_per_s} at {utilization} "
        "utilization (target {utilization_target}): no cluster needed."
    ),
    ("replicas", "dp_replicas"): N_(
        "{replicas} replicas deliver {capacity_tokens_per_s} for {target_tokens_per_s}, at {utilization} "
        "utilization (target {utilization_target}); the {nodes} nodes together fail {cluster_failure_rate} times "
        "a year, and each added node costs {effort_per_added_node} of one node's engineering time "
        "({effort_total} in all)."
    ),
}

EXPLANATIONS.update({
    ("workload", "one_node"): N_(
        "One node holds {concurrency} requests of {context} tokens (room for {max_concurrency}) and serves "
        "{node_tokens_per_s}, enough for {target_tokens_per_s}: buy one box. The widgets below follow this "
        "workload until you change one of them."
    ),
    ("workload", "dp_replicas"): N_(
        "One node holds {concurrency} requests of {context} tokens (room for {max_concurrency}) but serves "
        "{node_tokens_per_s}: {target_tokens_per_s} takes {min_nodes} nodes as data-parallel replicas behind a load "
        "balancer, not a cluster. The widgets below follow this workload until you change one of them."
    ),
    ("workload", "does_not_fit"): N_(
        "One node holds only {max_concurrency} requests of {context} tokens, not {concurrency}: the memory "
        "check and the decision flow below show the ways out. The widgets below follow this workload until "
        "you change one of them."
    ),
    ("throughput", "memory_bound"): N_(
        "Each decode step reads {bytes_per_step_gb} (the weights and the KV cache of {concurrency} requests of "
        "{context} tokens): memory bandwidth sets the pace. The node delivers {node_tokens_per_s} in all, "
        "{tokens_per_s_per_request} per request; the first token of a {context}-token prompt takes "
        "{time_to_first_token_ms} on an idle node."
    ),
    ("throughput", "compute_bound"): N_(
        "At {concurrency} requests the GPUs' arithmetic, not their memory, sets the pace: the node delivers "
        "{node_tokens_per_s} in all, {tokens_per_s_per_request} per request; the first token of a "
        "{context}-token prompt takes {time_to_first_token_ms} on an idle node."
    ),
    ("throughput", "does_not_fit"): N_(
        "The KV cache of {concurrency} requests of {context} tokens does not fit next to the weights: the node "
        "holds {max_concurrency} such requests. The {node_tokens_per_s} it would deliver at this load is out "
        "of reach."
    ),
    ("training_time", "within_a_month"): N_(
        "The run needs {gpu_months} ({gpu_months_range} over the range of achieved compute): {days} on {gpus} "
        "GPUs split TP {tp_degree} × PP {pp_degree} × DP {dp_degree}, at {efficiency} scaling efficiency "
        "({mfu_achieved} of peak over whole steps), drawing {cluster_kw} ({energy_mwh} in all)."
    ),
    ("training_time", "months"): N_(
        "The run needs {gpu_months} ({gpu_months_range} over the range of achieved compute): {days} on {gpus} "
        "GPUs split TP {tp_degree} × PP {pp_degree} × DP {dp_degree}, months of wall-clock time, at {efficiency} "
        "scaling efficiency ({mfu_achieved} of peak over whole steps), drawing {cluster_kw} ({energy_mwh} in all)."
    ),
    ("training_time", "years"): N_(
        "The run needs {gpu_months} ({gpu_months_range} over the range of achieved compute): {days} on {gpus} "
        "GPUs split TP {tp_degree} × PP {pp_degree} × DP {dp_degree}, more than a year; such a run needs a far "
        "larger cluster. Scaling efficiency {efficiency} ({mfu_achieved} of peak over whole steps), drawing "
        "{cluster_kw} ({energy_mwh} in all)."
    ),
    ("compare", "one_node"): N_(
        "One 8-GPU node delivers {one_node_tokens_per_s} and trains at {one_node_efficiency} scaling "
        "efficiency; two 4-GPU nodes deliver {two_nodes_tokens_per_s} and train at {two_nodes_efficiency}, "
        "drawing {two_nodes_kw} against {one_node_kw}: buy the one node first."
    ),
    ("compare", "two_nodes"): N_(
        "Two 4-GPU nodes deliver {two_nodes_tokens_per_s} against {one_node_tokens_per_s} for one 8-GPU node, "
        "but train at {two_nodes_efficiency} scaling efficiency against {one_node_efficiency} and add a node "
        "to operate."
    ),
    ("compare", "does_not_fit"): N_(
        "Neither one 8-GPU node nor two 4-GPU nodes hold this workload; the table shows what the SXM node "
        "would do ({sxm_tokens_per_s})."
    ),
})

# The reader's hardware and load fill the placeholders: {node} is "8 × RTX Pro 6000 Blackwell (768 GB)".
QUESTIONS = {
    "fits_one_node_fp8": N_(
        "Does the model fit {node} at FP8, with headroom for the KV cache of {concurrency} requests of {context} "
        "tokens?"
    ),
    "training_fits_one_node": N_("Does the training job fit {node}?"),
    "fits_one_node_int4": N_("Does it fit {node} at INT4 with the same headroom, for inference?"),
    "throughput_bound_replicas": N_(
        "Is it the load (throughput, concurrent requests), not the model's size, that exceeds {node}?"
    ),
    "needs_multi_node": N_("Is it a job below the frontier that does not fit {node}?"),
    "pretrain_frontier": N_("Is it pre-training a 70B+ model from scratch?"),
}

NOTES = {
    "custom_inputs_ignored": N_("The custom-model fields are ignored for a catalogue model."),
    "weights_above_limit": N_("The weights are above the share of VRAM the rule allows."),
    "kv_does_not_fit": N_("The KV cache for the target does not fit in the memory left."),
    "weights_do_not_fit": N_("The weights do not fit in the node's usable memory."),
    "sliding_window_applied": N_("The model's sliding-window attention caps the KV cache."),
    "mla_kv_cache": N_("This model uses latent attention (MLA): its KV cache is much smaller per token."),
    "mla_attention": N_(
        "Latent attention has no heads to split: with tensor-parallel attention every GPU holds the whole cache "
        "({max_concurrency_tp} requests fit), with data-parallel attention each GPU holds its own requests' "
        "({max_concurrency_dp} fit)."
    ),
    "verdict_depends_on_engine": N_(
        "Depending on the serving engine's settings (memory fraction 0.90–0.93, CUDA graphs, NCCL buffers), "
        "{max_concurrency_low} to {max_concurrency_high} such requests fit: whether {concurrency} do depends on them."
    ),
    "fp8_checkpoint_keeps_bf16": N_(
        "The official FP8 checkpoint keeps {bf16_params_b} billion parameters in BF16: its weights take "
        "{weights_gb} GB, not one byte per parameter."
    ),
    "moe_all_experts_resident": N_("All experts of this mixture-of-experts model must be in memory."),
    "hidden_size_estimated": N_("The hidden size of the custom model is estimated from its parameters."),
    "fabric_unused_single_node": N_("On one node the fabric between nodes is not used."),
    "tp_across_nodes": N_("Tensor parallelism spans the nodes: every layer waits on the fabric."),
    "state_exceeds_gpu_memory": N_("The training state does not fit these GPUs; the projection is theoretical."),
    "verdict_depends_on_bandwidth": N_(
        "Within the range of achieved bandwidth (measured PCIe all-reduce to raw link rate), the efficiency "
        "crosses the 60 % line: the verdict depends on how well the links perform."
    ),
    "verdict_depends_on_compute": N_(
        "If the GPUs compute as fast as the best published training runs (52 % of peak), communication weighs "
        "more and the efficiency falls under the 60 % line: the verdict depends on the achieved compute rate."
    ),
    "int4_not_for_training": N_("INT4 weights are not usable for training's gradient path."),
    "add_replicas": N_("Add replicas behind a load balancer; no fabric needed."),
    "load_exceeds_node": N_(
        "Only the KV cache of the requested load overflows: one node holds {max_concurrency} requests of "
        "{context} tokens, or {concurrency} requests of up to {max_context} tokens."
    ),
    "kv_fp8_fits": N_("With an FP8 KV cache this load fits one node ({max_concurrency} requests at this context)."),
    "bigger_node_fits": N_("A single node of {gpus} of these GPUs holds this load."),
    "restructure": N_("Below 60 %: restructure (TP inside, PP across) or use fewer nodes."),
    "pretrain_compute_bound": N_(
        "Pre-training needs hundreds of GPU-months on {min_gpus}–{max_gpus}+ GPUs: most customers should not do "
        "it themselves."
    ),
    "frontier_not_kentino_hardware": N_("Kentino does not build this tier: it needs SXM modules or an NDR fabric."),
    "target_from_requests": N_("The target comes from requests per second × tokens per request."),
    "multi_node_ops_tax": N_("More than one node adds shared storage, checkpointing, tuning and monitoring work."),
    "replica_ops_tax": N_(
        "Each added replica needs a load balancer entry, its own deployment and monitoring; no fabric and no "
        "shared checkpoint storage."
    ),
    "spare_node": N_("One node more than the target needs: a failure costs no capacity."),
    "node_rate_from_throughput": N_(
        "The node rate, {node_tokens_per_s} tok/s, comes from the throughput model for {concurrency} requests of "
        "{context} tokens on {gpus} GPUs; type a measured rate to use yours."
    ),
    "load_does_not_fit": N_(
        "The node holds only {max_concurrency} requests of {context} tokens, not {concurrency}: the rate is that "
        "of a load it cannot hold."
    ),
    "decode_only": N_(
        "Generation only: reading each new prompt of {context} tokens first takes the whole node {prefill_ms} ms "
        "(prefill), which this rate leaves out. Under a stream of new long prompts the node delivers less; when "
        "most of the context is already cached (a conversation's earlier turns), close to this."
    ),
    "tp_comm_share": N_(
        "The all-reduces between the {gpus} GPUs take a large share of each step: the link between the GPUs, "
        "not their memory, limits the rate."
    ),
    "gpus_rounded_to_nodes": N_("The GPUs are rounded up to whole nodes: {gpus} GPUs in {nodes} nodes."),
    "batch_below_dp": N_(
        "{dp} data-parallel replicas share a global batch of {global_batch} sequences: each needs at least one, so "
        "a step takes {dp} sequences."
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
    "verdict": N_("Verdict:"),
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
    "copy_link": N_("Copy link"),
    "link_copied": N_("Link copied."),
    "link_not_copied": N_("Copy the address from the address bar: this browser refused."),
    # A shared link's values that this widget cannot take (an old link, a model left out of the catalogue):
    # said on the widget; the link's other values are applied.
    "link_choice_gone": N_("{field}: the link's choice is no longer offered; showing {shown}."),
    "link_field_unknown": N_("The link names a field this calculator does not have; it was left out."),
    "your_configuration": N_("Yours"),
    "figure_vram": N_("VRAM budget: weights {weights_gb}, KV cache {kv_gb}, runtime overhead {overhead_gb}, "
                      "free {free_gb}, of {vram_gb}; rule lines at 60 % and 70 %."),
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
    "config_one_node": N_("{gpus} × GPU in one box"),
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

# Page notices the build writes (wiki/hooks.py), not a widget: a page shown before it is translated.
PAGES = {
    "untranslated": N_("This page is not translated yet: you are reading the original version."),
}
