"""The words of the `replicas` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from widgets.msgids import N_, NP_
from widgets.presentation import Presentation, Verdict

PRESENTATION = Presentation(
    title=N_("Data-parallel replicas for a throughput target"),
    verdicts={
        "one_node": Verdict(N_("One node"), "ok"),
        "dp_replicas": Verdict(N_("Data-parallel replicas"), "info"),
    },
    explanations={
        "one_node": N_(
            "One node delivers {capacity_tokens_per_s}, enough for {target_tokens_per_s} at {utilization} utilization"
            " (target {utilization_target}): no cluster needed.",
        ),
        "dp_replicas": NP_(
            "{replicas} replica delivers {capacity_tokens_per_s} for {target_tokens_per_s}, at {utilization} "
            "utilization (target {utilization_target}); the {nodes} fail {cluster_failure_rate} times a year in all, "
            "and each added node takes {effort_per_added_node} the engineering time of one node ({effort_total} in "
            "all).",
            "{replicas} replicas deliver {capacity_tokens_per_s} for {target_tokens_per_s}, at {utilization} "
            "utilization (target {utilization_target}); the {nodes} fail {cluster_failure_rate} times a year in all, "
            "and each added node takes {effort_per_added_node} the engineering time of one node ({effort_total} in "
            "all).",
            "replicas",
        ),
    },
    subject=N_("{target_tokens_per_s} in all at {node_tokens_per_s} per node"),
)
