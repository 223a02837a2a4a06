"""The words of the `compare` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from widgets.msgids import N_
from widgets.presentation import Presentation, Verdict

PRESENTATION = Presentation(
    title=N_("One 8-GPU node, two 4-GPU nodes or an SXM node"),
    verdicts={
        "one_node": Verdict(N_("One node"), "ok"),
        "two_nodes": Verdict(N_("Two 4-GPU nodes"), "info"),
        "does_not_fit": Verdict(N_("Does not fit"), "bad"),
    },
    explanations={
        "one_node": N_(
            "One 8-GPU node delivers {one_node_tokens_per_s} with a training efficiency of {one_node_efficiency}; two"
            " 4-GPU nodes deliver {two_nodes_tokens_per_s} with {two_nodes_efficiency} and draw {two_nodes_kw} "
            "against {one_node_kw}: buy the one node first.",
        ),
        "two_nodes": N_(
            "Two 4-GPU nodes deliver {two_nodes_tokens_per_s} against {one_node_tokens_per_s} for one 8-GPU node, but"
            " their training efficiency is {two_nodes_efficiency} against {one_node_efficiency}, and they add a node "
            "to operate.",
        ),
        "does_not_fit": N_(
            "Neither one 8-GPU node nor two 4-GPU nodes hold this workload; the table shows what the SXM node would "
            "do ({sxm_tokens_per_s}).",
        ),
    },
)
