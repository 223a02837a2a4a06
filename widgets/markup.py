"""The HTML of a view's composite pieces (verdict badge, notes, trace), built once, in Python.

The build inserts these strings into the prerendered widget (`wiki/templates/widget.html`) and the
page script places the same strings live, so a live result is byte-identical to the static one and
no markup is written in JavaScript. Every text is escaped here; the strings are safe to place.
"""

from __future__ import annotations

from html import escape
from string import Formatter

# A verdict's tone (widgets.presentation.Verdict) is the badge's colour and, so that colour is never the only
# sign, its icon: 16 px, drawn with strokes (currentColor): a tick, an exclamation mark, a cross, an "i".
ICONS = {
    "ok": "M3 8.5l3.2 3.2L13 4.8",
    "warn": "M8 3v6.2M8 12.2v.6",
    "bad": "M4 4l8 8M12 4l-8 8",
    "info": "M8 7v5.5M8 3.8v.6",
}


def icon(tone: str) -> str:
    """The badge icon of a tone, hidden from assistive technology (the text says the same)."""
    return ('<svg class="kw-badge__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" '
            f'focusable="false"><path d="{ICONS[tone]}"/></svg>')


def badge(line: str, verdict: str, tone: str, verdict_text: str, subject: str = "") -> str:
    """The verdict line, from the catalog's whole line (`Verdict: {verdict} – {subject}`, in the page's
    language): its words as they are, `{verdict}` the badge (icon and word in the colour of its `tone`, the
    verdict's in its calculator's presentation), `{subject}` what it answers."""
    html = []
    for literal, field, _, _ in Formatter().parse(line):
        if literal:  # the words before the badge are its label
            html.append(f'<span class="kw-calc__verdict-label">{escape(literal)}</span>' if not html
                        else escape(literal))
        if field == "verdict":
            html.append(f'<strong class="kw-badge kw-badge--{tone}" data-output="verdict" data-verdict='
                        f'"{escape(verdict)}" data-tone="{tone}">{icon(tone)}{escape(verdict_text)}</strong>')
        elif field == "subject":
            html.append(f'<span class="kw-calc__subject" data-output="subject">{escape(subject)}</span>')
    return "".join(html)


def items(texts: list[str]) -> str:
    """List items, one per text."""
    return "".join(f"<li>{escape(t)}</li>" for t in texts)


def trace_items(rows: list[dict[str, str]]) -> str:
    """The decision flow's steps: each question, then its answer in bold."""
    return "".join(f'<li><span class="kw-calc__question">{escape(row["question"])}</span> '
                   f'<strong class="kw-calc__answer">{escape(row["answer"])}</strong></li>' for row in rows)
