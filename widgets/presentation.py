"""The shape of one calculator's own words: what its widget says beside the vocabulary it shares.

Each calculator has a module in `widgets/presentations/` named like it, holding one `PRESENTATION`: its
title, its verdicts with their tones, the explanation of each verdict, what a verdict answers (its subject),
and, where it has them, the story variants of a verdict, its own wording of a shared output, a flow's
questions, and the labels and help of fields and outputs no other calculator has. The texts are msgids
(`widgets.msgids`); the catalogs in `i18n/` translate them. `widgets/strings.py` holds the vocabulary the
calculators share by name (fields, choices, outputs, units, notes, the page's words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from widgets.msgids import Plural

Msgid = str | Plural
# A verdict's tone: the badge's colour and, so that colour is never the only sign, its icon (widgets.markup).
Tone = Literal["ok", "warn", "bad", "info"]


@dataclass(frozen=True)
class Verdict:
    """A verdict's word (a msgid) and its tone."""

    words: str
    tone: Tone


@dataclass(frozen=True)
class Presentation:
    """What one calculator's widget says that is its own.

    - `explanations`: one or two whole sentences per verdict (or per variant `variant` names), its
      placeholders the calculator's values and inputs (widgets/strings.py says how each is written);
    - `subject`: a noun phrase naming the reader's load and hardware; a mapping by the choice of the field
      `subject_choice` where it depends on one;
    - `variant(result)`: the explanation a result takes where one verdict tells two stories;
    - `output_labels`: its own label of an output whose meaning differs here;
    - `questions`: a flow's questions, by the id its trace gives (the decision flow);
    - `labels`, `help`, `outputs`: the texts of fields and outputs that no other calculator has.
    """

    title: str
    verdicts: Mapping[str, Verdict]
    explanations: Mapping[str, Msgid]
    subject: Msgid | Mapping[str, Msgid] | None = None
    subject_choice: str | None = None
    variant: Callable[[dict[str, Any]], str] | None = None
    output_labels: Mapping[str, str] = field(default_factory=dict)
    questions: Mapping[str, Msgid] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    help: Mapping[str, str] = field(default_factory=dict)
    outputs: Mapping[str, str] = field(default_factory=dict)

    def explanation_key(self, result: dict[str, Any]) -> str:
        """The key of the explanation a result takes: its verdict, or the variant that tells its story."""
        return self.variant(result) if self.variant else result["verdict"]

    def subject_for(self, inputs: dict[str, Any]) -> Msgid | None:
        """What the verdict answers for these inputs (None: the widget states no subject)."""
        if isinstance(self.subject, Mapping):
            return self.subject[inputs[self.subject_choice]]
        return self.subject
