"""The HTML of a view is built in Python and escaped there: the page places it as it is."""

from __future__ import annotations

import pytest

from widgets import markup
from widgets.view import view


def test_every_text_is_escaped() -> None:
    hostile = '<img src=x onerror="alert(1)">&'
    html = markup.items([hostile]) + markup.trace_items([{"question": hostile, "answer": hostile}]) \
        + markup.badge(hostile, "fits", hostile, hostile)
    assert "<img" not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in html


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_the_views_html_carries_its_notes_trace_and_badge(lang: str) -> None:
    shown = view("decision", {"model": "llama-3.1-8b", "gpu": "l4", "gpus": 1}, lang)
    html = shown["html"]
    assert html["notes"].count("<li>") == len(shown["notes"]) > 0
    assert html["trace"].count("<li>") == len(shown["trace"]) == 3
    assert f'data-verdict="{shown["verdict"]}"' in html["badge"] and shown["verdict_text"] in html["badge"]


@pytest.mark.parametrize(("inputs", "tone"), [({"model": "llama-3.1-8b"}, "ok"), ({"model": "llama-3.1-405b"}, "bad")])
def test_a_verdict_that_fails_does_not_look_like_one_that_passes(inputs: dict, tone: str) -> None:
    badge = view("vram_fit", inputs, "da")["html"]["badge"]
    assert f'data-tone="{tone}"' in badge and markup.ICONS[tone] in badge  # another colour and another icon
