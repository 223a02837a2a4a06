"""The words of the `workload` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from typing import Any

from widgets.msgids import N_
from widgets.presentation import Presentation, Verdict
from widgets.presentations import phrases


def variant(result: dict[str, Any]) -> str:
    """The story a result's explanation tells: replicas because the load itself does not fit one node
    (`dp_replicas_load`), whatever the throughput target."""
    values, verdict, inputs = result["values"], result["verdict"], result["inputs"]
    if verdict == "dp_replicas" and inputs["concurrency"] > values["max_concurrency"]:
        return "dp_replicas_load"
    return verdict


PRESENTATION = Presentation(
    title=N_("Your workload: one box or more?"),
    verdicts={
        "one_node": Verdict(N_("One node"), "ok"),
        "dp_replicas": Verdict(N_("Data-parallel replicas"), "info"),
        "multi_node": Verdict(N_("One model across nodes"), "warn"),
    },
    explanations={
        "one_node": N_(
            "One node of {gpus_per_node} holds {concurrency} of {context} (up to {max_concurrency}) and can deliver "
            "up to {node_tokens_per_s}, enough for {target_tokens_per_s}: buy one box.",
        ),
        "dp_replicas": N_(
            "One node of {gpus_per_node} holds {concurrency} of {context} (up to {max_concurrency}) but delivers only"
            " {node_tokens_per_s}: the target of {target_tokens_per_s} takes {min_nodes} as data-parallel replicas "
            "behind a load balancer, not a cluster.",
        ),
        "dp_replicas_load": N_(
            "One node of {gpus_per_node} holds up to {max_concurrency} of {context}: the load of {concurrency} takes "
            "{min_nodes} as data-parallel replicas behind a load balancer, not a cluster.",
        ),
        "multi_node": N_(
            "The weights do not fit one node of these GPUs: each copy of the model spans several nodes, {min_nodes} "
            "in all, tensor parallel inside a node and pipeline parallel across, over a fabric.",
        ),
    },
    subject=phrases.LOAD_ON_NODE,
    variant=variant,
)
