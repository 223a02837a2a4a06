"""The "your workload" block: every widget follows it until the reader changes that widget, and the link keeps it."""

from __future__ import annotations

import json
import re

import pytest

import calculators
from tests.support.live import form_values, set_value, shot, wait_for_text, widget
from widgets import view

pytestmark = pytest.mark.browser

# What the reader types into the workload block, per language, and the value every follower must show.
TYPED = {"gpus": {"da": "4", "fr": "4"}, "model": {"da": "llama-3.1-8b", "fr": "llama-3.1-8b"},
         "concurrency": {"da": "64", "fr": "64"}}


def followers(page) -> list[str]:
    """The calculators on the page other than the workload block, in page order."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-calculator]')]
        .map((w) => w.dataset.calculator).filter((n) => n !== 'workload')""")


def fields_of(name: str) -> set[str]:
    return {field["name"] for field in calculators.CALCULATORS[name]["inputs"]}


def wait_until_follows(page, name: str, field: str, shown: str) -> None:
    page.wait_for_function("""([name, field, shown]) => document.querySelector(
        `[data-calculator="${name}"] [name="${field}"]`).value === shown""", arg=[name, field, shown], timeout=20000)


@pytest.mark.parametrize(("width", "lang", "scheme"), [("phone", "da", "light"), ("desktop", "fr", "dark")])
def test_every_widget_follows_the_workload_until_the_reader_changes_it(open_page, width, lang,
                                                                       scheme) -> None:
    page = open_page(width, lang, scheme, live=True)
    names = followers(page)
    assert {"vram_fit", "decision", "throughput", "replicas", "compare"} <= set(names)
    for field, typed in TYPED.items():
        set_value(page, "workload", field, typed[lang])
    for name in names:
        for field in TYPED.keys() & fields_of(name):
            wait_until_follows(page, name, field, TYPED[field][lang])
    # Each follower shows what Python computes for the values it now holds (the reader's own case).
    for name in names:
        expected = view(name, form_values(page, name), lang)
        assert expected["ok"], (name, expected)
        wait_for_text(page, name, '[data-output="explanation"]', expected["explanation"])
    trace = widget(page, "decision").locator('[data-html="trace"]').inner_text()
    # The reader's node and load (× spaced as the language's typography spaces it).
    assert re.search(rf"\b{re.escape(TYPED['gpus'][lang])}\s×\s", trace) and TYPED["concurrency"][lang] in trace, trace
    # The link holds the workload once, not a copy per follower.
    page.wait_for_url(re.compile(r"#kw-workload-1/"))
    assert page.url.split("#")[1].count("/") == 1, page.url
    shot(page, f"workload-followed-{width}-{lang}-{scheme}")

    # The reader changes one widget: it keeps its values from then on, and joins the link.
    set_value(page, "vram_fit", "gpus", "16")
    page.wait_for_url(re.compile(r"kw-vram-fit-1/"))
    set_value(page, "workload", "gpus", "2")
    wait_until_follows(page, "decision", "gpus", "2")
    wait_until_follows(page, "throughput", "gpus", "2")
    assert widget(page, "vram_fit").locator('[name="gpus"]').input_value() == "16"
    page.wait_for_url(re.compile(r"kw-workload-1/.*gpus=2"))
    assert "kw-decision-1" not in page.url


@pytest.mark.parametrize("lang", ["da", "fr"])
def test_a_link_with_a_workload_opens_with_every_widget_following_it(open_page, lang) -> None:
    page = open_page("desktop", lang, "light", fragment="#kw-workload-1/model=llama-3.1-8b;gpus=2")
    wait_until_follows(page, "workload", "gpus", "2")
    for name in ("vram_fit", "decision", "throughput", "replicas"):
        wait_until_follows(page, name, "gpus", "2")
        wait_until_follows(page, name, "model", "llama-3.1-8b")
        expected = view(name, form_values(page, name), lang)
        wait_for_text(page, name, '[data-output="explanation"]', expected["explanation"])
    # Back to the article's workload: the followers go back to their own presets.
    page.evaluate("location.hash = '#kw-workload-1/gpus=8'")
    for name in ("vram_fit", "decision", "throughput"):
        wait_until_follows(page, name, "gpus", "8")
    assert widget(page, "vram_fit").locator('[name="model"]').input_value() == json.loads(
        widget(page, "vram_fit").get_attribute("data-presets"))["model"]  # its own preset
