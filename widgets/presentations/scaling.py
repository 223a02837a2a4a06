"""The words of the `scaling` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from widgets.msgids import N_, NP_
from widgets.presentation import Presentation, Verdict

PRESENTATION = Presentation(
    title=N_("Scaling efficiency of a training step"),
    verdicts={
        "scales": Verdict(N_("Scales"), "ok"),
        "restructure": Verdict(N_("Restructure"), "warn"),
        "does_not_fit": Verdict(N_("Does not fit"), "bad"),
    },
    explanations={
        "scales": N_(
            "Each GPU keeps {efficiency} of its single-GPU throughput ({speedup} on {gpus}), above the 60 % line.",
        ),
        "restructure": N_(
            "Each GPU keeps only {efficiency} of its single-GPU throughput ({speedup} on {gpus}), below the 60 % "
            "line: split the work another way (TP inside a node, PP or DP across), or keep the job in one 8-GPU node "
            "and accept a longer run.",
        ),
        "does_not_fit": N_(
            "The training state needs {state_gb_per_gpu} per GPU, more than the {gpu_memory_gb} of each card: this "
            "layout cannot run the step. Its estimated efficiency ({efficiency}) is theoretical; use more GPUs, or "
            "LoRA/QLoRA.",
        ),
    },
    subject={
        "tp": NP_(
            "training {model} on {nodes} × {gpus_per_node} GPU with tensor parallelism",
            "training {model} on {nodes} × {gpus_per_node} GPUs with tensor parallelism",
            "gpus_per_node",
        ),
        "dp": NP_(
            "training {model} on {nodes} × {gpus_per_node} GPU with data parallelism",
            "training {model} on {nodes} × {gpus_per_node} GPUs with data parallelism",
            "gpus_per_node",
        ),
        "fsdp": NP_(
            "training {model} on {nodes} × {gpus_per_node} GPU with fully sharded data parallelism",
            "training {model} on {nodes} × {gpus_per_node} GPUs with fully sharded data parallelism",
            "gpus_per_node",
        ),
        "pp": NP_(
            "training {model} on {nodes} × {gpus_per_node} GPU with pipeline parallelism",
            "training {model} on {nodes} × {gpus_per_node} GPUs with pipeline parallelism",
            "gpus_per_node",
        ),
        "tp_pp": NP_(
            "training {model} on {nodes} × {gpus_per_node} GPU, tensor parallel inside a node and pipeline parallel "
            "across",
            "training {model} on {nodes} × {gpus_per_node} GPUs, tensor parallel inside a node and pipeline parallel "
            "across",
            "gpus_per_node",
        ),
    },
    subject_choice="parallelism",
)
