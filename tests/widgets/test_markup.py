"""The HTML of a view is built in Python and escaped there: the page places it as it is."""

from __future__ import annotations

import re
from html import unescape

import pytest

from calculators import run
from widgets import markup, strings
from widgets.locale import locale_of
from widgets.view import view


def test_every_text_is_escaped() -> None:
    hostile = '<img src=x onerror="alert(1)">&'
    line = hostile.replace("{", "{{").replace("}", "}}") + " {verdict} " + hostile + " {subject}"
    html = markup.items([hostile]) + markup.trace_items([{"question": hostile, "answer": hostile}]) \
        + markup.badge(line, "fits", "ok", hostile, hostile)
    assert "<img" not in html and html.count("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;") == 7  # every piece


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_the_views_html_carries_its_notes_trace_and_badge(lang: str) -> None:
    inputs = {"model": "llama-3.1-70b", "workload": "full_finetune"}
    result = run("decision", inputs)
    shown = view("decision", inputs, lang)
    html = shown["html"]
    assert html["notes"].count("<li>") == len(shown["notes"]) == len(result["notes"]) > 0
    assert html["trace"].count("<li>") == len(shown["trace"]) == len(result["values"]["trace"]) > 1
    assert f'data-verdict="{shown["verdict"]}"' in html["badge"] and shown["verdict_text"] in html["badge"]


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_the_verdict_line_is_the_catalogs_whole_line(lang: str) -> None:
    """The line's words come from one catalog entry with the badge and the subject in their places: the
    page's text, read as a screen reader reads it, is that entry filled in."""
    loc = locale_of(lang)
    shown = view("vram_fit", {}, lang)
    words = unescape(re.sub(r"<[^>]+>", "", shown["html"]["badge"]))
    subject = unescape(re.search(r'data-output="subject">([^<]*)<', shown["html"]["badge"]).group(1))
    assert words == loc.text(strings.UI["verdict_line_subject"], verdict=shown["verdict_text"], subject=subject)
    # a calculator without a subject has the line without one
    bare = view("compare", {}, lang)
    assert unescape(re.sub(r"<[^>]+>", "", bare["html"]["badge"])) == loc.text(strings.UI["verdict_line"],
                                                                               verdict=bare["verdict_text"])


@pytest.mark.parametrize(("inputs", "tone"), [({"model": "llama-3.1-8b"}, "ok"), ({"model": "llama-3.1-405b"}, "bad")])
def test_a_verdict_that_fails_does_not_look_like_one_that_passes(inputs: dict, tone: str) -> None:
    badge = view("vram_fit", inputs, "da")["html"]["badge"]
    assert f'data-tone="{tone}"' in badge and markup.ICONS[tone] in badge  # another colour and another icon
