"""Driving the live calculators in a page (Playwright): the article that carries every calculator, one
change per calculator, and the small steps the browser tests share."""

from __future__ import annotations

import re
from pathlib import Path

from harness.site import ROOT
from tests.support.content import page_with, urls

NNBSP = "\u202f"
# One change per calculator: (field, typed value per language).
CHANGES = {
    "vram_fit": ("gpus", {"da": "16", "fr": "16"}),
    "training_memory": ("method", {"da": "lora", "fr": "lora"}),
    "replicas": ("target_tokens_per_s", {"da": "5.000,5", "fr": f"5{NNBSP}000,5"}),
    "scaling": ("fabric", {"da": "eth-25", "fr": "eth-25"}),
    "decision": ("model", {"da": "llama-3.1-70b", "fr": "llama-3.1-70b"}),
    "throughput": ("context", {"da": "8.192", "fr": f"8{NNBSP}192"}),
    "training_time": ("tokens_t", {"da": "15", "fr": "15"}),
    "compare": ("fabric", {"da": "eth-25", "fr": "eth-25"}),
    "workload": ("concurrency", {"da": "48", "fr": "48"}),  # last: the others, changed by the reader, stay
}
PAGE = page_with(*CHANGES)  # the nav's first page with a widget of every calculator
ARTICLE = urls(PAGE)
FIRST = page_with("vram_fit", "scaling")  # the nav's first page with the VRAM widget and the scaling table
READY = "document.querySelector('[data-calculator]').dataset.state === 'ready'"
# The widths a reader meets: a 390 px phone and a 1280 px desktop.
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
ARTIFACTS = ROOT / "test-artifacts" / "phone"  # screenshots for a reviewer (gitignored)


def widget(page, name: str):
    """The `name` calculator's widget on the page."""
    return page.locator(f'[data-calculator="{name}"]')


def form_values(page, name: str) -> dict[str, str]:
    """What the widget's fields hold now, by field name."""
    return page.evaluate("""(name) => Object.fromEntries([...document.querySelectorAll(
        `[data-calculator="${name}"] form [name]`)].map((f) => [f.name, f.value]))""", name)


def set_value(page, name: str, field: str, value: str) -> None:
    """Type `value` into a field of the widget (or choose it, for a select)."""
    control = widget(page, name).locator(f'[name="{field}"]')
    if control.evaluate("(e) => e.tagName") == "SELECT":
        control.select_option(value)
    else:
        control.fill(value)


def wait_for_output(page, name: str, key: str, text: str) -> None:
    """Wait until the widget's output `key` reads `text`."""
    page.wait_for_function(
        """([name, key, text]) => document.querySelector(`[data-calculator="${name}"] [data-output="${key}"]`)
            .textContent === text""", arg=[name, key, text], timeout=10000)


def wait_for_text(page, name: str, selector: str, expected: str) -> None:
    """Wait until the element `selector` of the widget reads `expected`."""
    page.wait_for_function(
        """([name, selector, text]) => document.querySelector(`[data-calculator="${name}"] ${selector}`)
            ?.textContent === text""", arg=[name, selector, expected], timeout=15000)


def shot(page, name: str, element=None) -> Path:
    """Save a screenshot for the reviewer and print where it is."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.png"
    (element or page).screenshot(path=str(path), **({} if element else {"full_page": False}))
    print(f"screenshot: {path}")
    return path


# Every widget of the page in one state ('ready', 'loading', 'error'): a predicate for wait_for_function.
ALL_READY = "[...document.querySelectorAll('[data-calculator]')].every((w) => w.dataset.state === '{}')"


def open_live(page, url: str) -> None:
    """Open a page and start its live calculators from the first widget's first field."""
    page.goto(url)
    page.locator("[data-calculator] [name]").first.focus()
    page.wait_for_function(ALL_READY.format("ready"), timeout=60000)


def calculator_worker(page):
    """The page's calculator worker (Playwright's handle on it)."""
    return next(w for w in page.workers if w.url.endswith("/calculator-worker.js"))
