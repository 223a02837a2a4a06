"""The words of the `vram_fit` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from typing import Any

from widgets.msgids import N_
from widgets.presentation import Presentation, Verdict
from widgets.presentations import phrases


def variant(result: dict[str, Any]) -> str:
    """The story a result's explanation tells where one verdict has two: the weights fit and the load does
    not (`does_not_fit_kv`), or no node of these GPUs holds the weights (`does_not_fit_any`)."""
    values, verdict = result["values"], result["verdict"]
    if verdict == "does_not_fit" and values["weights_gb"] <= values["usable_gb"]:
        return "does_not_fit_kv"
    if verdict == "does_not_fit" and not values["min_gpus"]:
        return "does_not_fit_any"
    return verdict


PRESENTATION = Presentation(
    title=N_("Does the model fit one node for inference?"),
    verdicts={
        "fits": Verdict(N_("Fits"), "ok"),
        "tight": Verdict(N_("Tight"), "warn"),
        "does_not_fit": Verdict(N_("Does not fit"), "bad"),
    },
    explanations={
        "fits": N_(
            "The weights take {weights_gb} ({weights_share} of {vram_gb}), within the {weights_limit} rule, and the "
            "KV cache for {concurrency} of {context} ({kv_gb}) fits in the {kv_budget_gb} left.",
        ),
        "does_not_fit_kv": N_(
            "The weights fit ({weights_gb}, {weights_share} of {vram_gb}), but the KV cache for {concurrency} of "
            "{context} needs {kv_gb} and only {kv_budget_gb} is left: the node holds the weights, not the workload. "
            "It holds {max_concurrency} of this length, or {concurrency} of up to {max_context}.",
        ),
        "tight": N_(
            "The load fits ({kv_gb} of KV cache in the {kv_budget_gb} left), but the weights take {weights_share} of "
            "{vram_gb}, above the {weights_limit} rule: little room is left for prefix caching, CUDA graphs and load "
            "peaks.",
        ),
        "does_not_fit": N_(
            "The weights alone need {weights_gb}, more than the {usable_gb} usable in the node: it takes at least "
            "{min_gpus}.",
        ),
        "does_not_fit_any": N_(
            "The weights alone need {weights_gb}, more than the {usable_gb} usable in the node, and no node of these "
            "GPUs holds them: choose GPUs with more memory or a lower precision.",
        ),
    },
    subject=phrases.LOAD_ON_NODE,
    variant=variant,
)
