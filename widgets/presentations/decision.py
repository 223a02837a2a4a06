"""The words of the `decision` widget that are its own: title, verdicts and tones, explanations, the questions."""

from __future__ import annotations

from widgets.msgids import N_
from widgets.presentation import Presentation, Verdict
from widgets.presentations import phrases

PRESENTATION = Presentation(
    title=N_("The decision flow, step by step"),
    verdicts={
        "one_node": Verdict(N_("One node"), "ok"),
        "one_node_fp8_kv": Verdict(N_("One node with an FP8 KV cache"), "ok"),
        "one_node_int4": Verdict(N_("One node at INT4"), "ok"),
        "dp_replicas": Verdict(N_("Data-parallel replicas"), "info"),
        "multi_node_ib": Verdict(N_("Multi-node over InfiniBand"), "warn"),
        "frontier": Verdict(N_("Frontier case"), "bad"),
    },
    explanations={
        "one_node": N_("The answer to step {step} is yes: one node of {gpus_per_node} is enough."),
        "one_node_fp8_kv": N_(
            "The answer to step {step} is yes: one node of {gpus_per_node} is enough with an FP8 KV cache, which "
            "holds twice the requests of a BF16 one and leaves the weights as they are.",
        ),
        "one_node_int4": N_("The answer to step {step} is yes: one node of {gpus_per_node} carries this load at INT4."),
        "dp_replicas": N_(
            "The answer to step {step} is yes: the model fits one node, the load does not. It takes {min_nodes} of "
            "{gpus_per_node} each, as data-parallel replicas behind a load balancer, not a cluster.",
        ),
        "multi_node_ib": N_(
            "The answer to step {step} is yes: multi-node over InfiniBand, at least {min_nodes} of {gpus_per_node} "
            "each; estimate the scaling efficiency first.",
        ),
        "frontier": N_(
            "The answer to step {step} is yes: a frontier case. Finishing this pre-training in time takes {min_nodes}"
            " of {gpus_per_node} each, far past the 32 GPUs where SXM nodes on NDR InfiniBand pay off: not a job for "
            "Kentino hardware.",
        ),
    },
    subject={
        "inference": N_("inference with {model} on {node}"),
        "lora": phrases.LORA,
        "qlora": phrases.QLORA,
        "full_finetune": phrases.FULL_FINE_TUNE,
        "pretrain": N_("pre-training {model} on {node}"),
    },
    subject_choice="workload",
    questions={
        "fits_one_node_fp8": N_(
            "Does one node of these GPUs, {node} or a bigger one, carry the model at FP8 with {concurrency} of "
            "{context}?",
        ),
        "training_fits_one_node": N_("Does the training job fit one node of these GPUs, {node} or a bigger one?"),
        "fits_one_node_fp8_kv": N_("Does one node of these GPUs carry it with an FP8 KV cache, for inference?"),
        "fits_one_node_int4": N_("Does one node of these GPUs carry it at INT4 with the same headroom, for inference?"),
        "throughput_bound_replicas": N_(
            "Is it the load (throughput, concurrent requests), not the model's size, that exceeds one node?",
        ),
        "needs_multi_node": N_("Is it a job short of frontier scale that does not fit {node}?"),
        "pretrain_frontier": N_("Does finishing the pre-training in time take 32 GPUs or more?"),
    },
)
