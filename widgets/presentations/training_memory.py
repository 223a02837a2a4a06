"""The words of the `training_memory` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from widgets.msgids import N_
from widgets.presentation import Presentation, Verdict
from widgets.presentations import phrases

PRESENTATION = Presentation(
    title=N_("Training memory: full fine-tune, LoRA, QLoRA"),
    verdicts={
        "fits": Verdict(N_("Fits"), "ok"),
        "does_not_fit": Verdict(N_("Does not fit"), "bad"),
    },
    explanations={
        "fits": N_(
            "Training needs {total_gb} ({state_gb} of weights, gradients and optimizer state plus {activations_gb} of"
            " activations), within the {vram_gb} of the node.",
        ),
        "does_not_fit": N_(
            "Training needs {total_gb} ({state_gb} of weights, gradients and optimizer state plus {activations_gb} of"
            " activations), more than the {vram_gb} of the node: it takes at least {min_gpus} on {min_nodes}.",
        ),
    },
    subject={
        "full": phrases.FULL_FINE_TUNE,
        "lora": phrases.LORA,
        "qlora": phrases.QLORA,
    },
    subject_choice="method",
)
