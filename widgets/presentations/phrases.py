"""Subjects more than one calculator states, written once (what a verdict answers, after its badge)."""

from __future__ import annotations

from widgets.msgids import N_, NP_

LOAD_ON_NODE = NP_("{concurrency} request of {context} on {node}", "{concurrency} requests of {context} on {node}",
                   "concurrency")
FULL_FINE_TUNE = N_("full fine-tune of {model} on {node}")
LORA = N_("LoRA fine-tune of {model} on {node}")
QLORA = N_("QLoRA fine-tune of {model} on {node}")
