"""The words of the `throughput` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from widgets.msgids import N_, NP_
from widgets.presentation import Presentation, Verdict
from widgets.presentations import phrases

PRESENTATION = Presentation(
    title=N_("Serving throughput of one node"),
    verdicts={
        "memory_bound": Verdict(N_("Memory-bound"), "info"),
        "compute_bound": Verdict(N_("Compute-bound"), "info"),
        "does_not_fit": Verdict(N_("Does not fit"), "bad"),
    },
    explanations={
        "memory_bound": NP_(
            "The node runs {copies} copy of the model on {tensor_parallel}, {concurrency} in all; each decode step "
            "reads {bytes_per_step_gb}, so memory bandwidth sets the pace. Prompts included, the node delivers "
            "{node_tokens_per_s}, {tokens_per_s_per_request} per request; the first token of a prompt of "
            "{input_tokens} takes {time_to_first_token_ms} on an idle node.",
            "The node runs {copies} copies of the model on {tensor_parallel} each, {concurrency} in all; each decode "
            "step of a copy reads {bytes_per_step_gb}, so memory bandwidth sets the pace. Prompts included, the node "
            "delivers {node_tokens_per_s}, {tokens_per_s_per_request} per request; the first token of a prompt of "
            "{input_tokens} takes {time_to_first_token_ms} on an idle node.",
            "copies",
        ),
        "compute_bound": NP_(
            "The node runs {copies} copy of the model on {tensor_parallel}, {concurrency} in all, and the GPUs' "
            "arithmetic, not their memory, sets the pace. Prompts included, the node delivers {node_tokens_per_s}, "
            "{tokens_per_s_per_request} per request; the first token of a prompt of {input_tokens} takes "
            "{time_to_first_token_ms} on an idle node.",
            "The node runs {copies} copies of the model on {tensor_parallel} each, {concurrency} in all, and the "
            "GPUs' arithmetic, not their memory, sets the pace. Prompts included, the node delivers "
            "{node_tokens_per_s}, {tokens_per_s_per_request} per request; the first token of a prompt of "
            "{input_tokens} takes {time_to_first_token_ms} on an idle node.",
            "copies",
        ),
        "does_not_fit": N_(
            "The KV cache of {concurrency} does not fit next to the weights: the node holds {max_concurrency} of this"
            " length. The {node_tokens_per_s} it would deliver at this load is out of reach.",
        ),
    },
    subject=phrases.LOAD_ON_NODE,
    output_labels={
        "max_concurrency": N_("Requests that fit at this context, all copies together"),
    },
)
