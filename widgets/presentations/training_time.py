"""The words of the `training_time` widget that are its own: title, verdicts and their tones, explanations."""

from __future__ import annotations

from widgets.msgids import N_, NP_
from widgets.presentation import Presentation, Verdict

PRESENTATION = Presentation(
    title=N_("How long a training run takes"),
    verdicts={
        "within_a_month": Verdict(N_("Within a month"), "ok"),
        "months": Verdict(N_("Months"), "warn"),
        "years": Verdict(N_("Years"), "bad"),
    },
    explanations={
        "within_a_month": N_(
            "The run needs {gpu_months} ({gpu_months_range} over the range of achieved compute): {days} on {gpus} (TP"
            " {tp_degree} × PP {pp_degree} × DP {dp_degree}), at {efficiency} scaling efficiency ({mfu_achieved} of "
            "peak over whole steps), drawing {cluster_kw} ({energy_mwh} in all).",
        ),
        "months": N_(
            "The run needs {gpu_months} ({gpu_months_range} over the range of achieved compute): {days} on {gpus} (TP"
            " {tp_degree} × PP {pp_degree} × DP {dp_degree}), months of wall-clock time, at {efficiency} scaling "
            "efficiency ({mfu_achieved} of peak over whole steps), drawing {cluster_kw} ({energy_mwh} in all).",
        ),
        "years": N_(
            "The run needs {gpu_months} ({gpu_months_range} over the range of achieved compute): {days} on {gpus} (TP"
            " {tp_degree} × PP {pp_degree} × DP {dp_degree}), more than a year; such a run needs a far larger "
            "cluster. The scaling efficiency is {efficiency} ({mfu_achieved} of peak over whole steps) and the run "
            "draws {cluster_kw} ({energy_mwh} in all).",
        ),
    },
    subject=NP_(
        "training {model} on {gpus} GPU",
        "training {model} on {gpus} GPUs",
        "gpus",
    ),
)
