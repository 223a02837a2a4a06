"""A new calculator is its own two files (its math in `calculators/`, its words in `widgets/presentations/`),
its registry line, its catalogs' entries and its README section.

A copy of the project gets `rack_power` (does a node fit a rack's power budget?) with exactly those
edits and a page that embeds it; the build prerenders it and the browser runs it live, the same
texts, in both languages. Nothing shared (`widgets/strings.py`, the view, the templates, the page script,
the worker) is touched.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.server import StaticServer
from harness.site import copy_project
from tests.conftest import build_site
from tests.support.project import view_in, with_pages

pytestmark = pytest.mark.browser

MODULE = '''"""Rack power: does a node of GPUs fit a rack's power budget?

A fixture of tests/site/test_sixth_calculator.py.
"""

from typing import Any

from .spec import CalculatorSpec, Input, Output

VERDICTS = ("within_budget", "over_budget")

SPEC = CalculatorSpec(
    inputs=(
        Input("gpus", "int", 8, unit="gpus", min=1, max=64),
        Input("watts_per_gpu", "float", 600.0, unit="watts", min=50.0, max=2000.0),
        Input("rack_kw", "float", 15.0, unit="kw", min=1.0, max=200.0),
    ),
    outputs=(Output("draw_kw", "float", "kw"), Output("rack_share", "ratio", "ratio")),
    verdicts=VERDICTS,
    shown=("draw_kw", "rack_share"),
)


def compute(inputs: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    draw_kw = inputs["gpus"] * inputs["watts_per_gpu"] / 1000
    share = draw_kw / inputs["rack_kw"]
    return {"values": {"draw_kw": draw_kw, "rack_share": share},
            "verdict": "within_budget" if share <= 1 else "over_budget", "notes": []}
'''
# Its own words, next to it: its title, verdicts and explanations, and the fields and outputs only it has.
PRESENTATION = '''"""The `rack_power` widget's own words: does the node fit the rack's power feed?"""

from widgets.msgids import N_
from widgets.presentation import Presentation, Verdict

PRESENTATION = Presentation(
    title=N_("Does the node fit the rack's power feed?"),
    verdicts={
        "within_budget": Verdict(N_("Within the feed"), "ok"),
        "over_budget": Verdict(N_("Over the feed"), "bad"),
    },
    explanations={
        "within_budget": N_("The node draws {draw_kw}, {rack_share} of the rack's feed."),
        "over_budget": N_("The node draws {draw_kw}, more than the rack's feed ({rack_share})."),
    },
    labels={"watts_per_gpu": N_("Board power per GPU (W)"), "rack_kw": N_("Rack power feed (kW)")},
    help={"watts_per_gpu": N_("What one GPU board draws at full load."),
          "rack_kw": N_("What the rack's feed delivers.")},
    outputs={"draw_kw": N_("Power drawn by the node"), "rack_share": N_("Share of the rack's feed")},
)
'''
# The catalogs' entries: English msgid, Danish, French.
TRANSLATIONS = [
    ("Does the node fit the rack's power feed?", "Passer noden til rackets strøm?",
     "Le nœud tient-il dans l'alimentation de la baie ?"),
    ("Board power per GPU (W)", "Kortets effekt pr. GPU (W)", "Puissance par GPU (W)"),
    ("What one GPU board draws at full load.", "Hvad ét GPU-kort trækker ved fuld last.",
     "Ce que consomme une carte GPU à pleine charge."),
    ("Rack power feed (kW)", "Rackets strømforsyning (kW)", "Alimentation de la baie (kW)"),
    ("What the rack's feed delivers.", "Hvad rackets forsyning leverer.", "Ce que fournit l'alimentation de la baie."),
    ("Power drawn by the node", "Nodens effekt", "Puissance du nœud"),
    ("Share of the rack's feed", "Andel af rackets forsyning", "Part de l'alimentation de la baie"),
    ("Within the feed", "Inden for forsyningen", "Dans l'alimentation"),
    ("Over the feed", "Over forsyningen", "Au-delà de l'alimentation"),
    ("The node draws {draw_kw}, {rack_share} of the rack's feed.",
     "Noden trækker {draw_kw}, {rack_share} af rackets forsyning.",
     "Le nœud consomme {draw_kw}, {rack_share} de l'alimentation de la baie."),
    ("The node draws {draw_kw}, more than the rack's feed ({rack_share}).",
     "Noden trækker {draw_kw}, mere end rackets forsyning ({rack_share}).",
     "Le nœud consomme {draw_kw}, plus que l'alimentation de la baie ({rack_share})."),
]
PAGE = """---
title: {title}
description: {title}.
---

# {title} {{ #rack }}

```calculator rack_power
gpus: 16
watts_per_gpu: 700
```
"""


def add_calculator(root: Path) -> None:
    """The edits a person makes for a new calculator (README: add a calculator), and nothing else: its module,
    its registry line, its words, its catalogs' entries and its README section."""
    (root / "calculators" / "rack_power.py").write_text(MODULE, encoding="utf-8")
    registry = root / "calculators" / "registry.py"
    text = registry.read_text(encoding="utf-8").replace("from . import ", "from . import rack_power\nfrom . import ", 1)
    text = text.replace("_REGISTRY: tuple[Calculator, ...] = (\n", "_REGISTRY: tuple[Calculator, ...] = (\n"
                        '    Calculator("rack_power", rack_power.SPEC, rack_power.compute),\n', 1)
    registry.write_text(text, encoding="utf-8")
    (root / "widgets" / "presentations" / "rack_power.py").write_text(PRESENTATION, encoding="utf-8")
    catalogs = {"messages.pot": None, "da/LC_MESSAGES/messages.po": 1, "fr/LC_MESSAGES/messages.po": 2}
    for path, column in catalogs.items():
        with (root / "i18n" / path).open("a", encoding="utf-8") as catalog:
            for row in TRANSLATIONS:
                msgstr = row[column] if column else ""
                catalog.write(f"\nmsgid {json.dumps(row[0], ensure_ascii=False)}\n"
                              f"msgstr {json.dumps(msgstr, ensure_ascii=False)}\n")
    with (root / "calculators" / "README.md").open("a", encoding="utf-8") as readme:
        readme.write("\n### `rack_power` — does a node fit a rack's power feed?\n\n"
                     "Inputs `gpus`, `watts_per_gpu`, `rack_kw`; outputs `draw_kw`, `rack_share`.\n")


@pytest.fixture(scope="module")
def sixth(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sixth-calculator")
    copy_project(root)
    add_calculator(root)
    with_pages(root, {"rack.md": PAGE.format(title="Rack"), "rack.fr.md": PAGE.format(title="Baie")})
    result = build_site(root / "site", root / "mkdocs.yml")
    assert result.returncode == 0, result.stderr
    return root


def shown(page, selector: str) -> dict[str, str]:
    return page.evaluate("""(selector) => Object.fromEntries([...document.querySelectorAll(
        `${selector} [data-output]`)].map((e) => [e.dataset.output, e.textContent]))""", selector)


@pytest.mark.parametrize(("lang", "path", "typed"), [("da", "rack/", "1.200"), ("fr", "fr/rack/", "1\u202f200")])
def test_a_new_calculator_prerenders_and_runs_live(browser, sixth: Path, lang: str, path: str, typed: str) -> None:
    prerendered = view_in(sixth, "rack_power", {"gpus": 16, "watts_per_gpu": 700}, lang)
    assert prerendered["ok"] and prerendered["verdict"] == "within_budget"
    assert re.fullmatch(r"11[.,]2\W+kW", prerendered["outputs"]["draw_kw"])  # 16 × 700 W, the site's kW unit
    context = browser.new_context(service_workers="block", bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    widget = '[data-calculator="rack_power"]'
    with StaticServer(sixth / "site") as served:
        page.goto(served.url + path)
        before = shown(page, widget)
        assert {key: before[key] for key in prerendered["outputs"]} == prerendered["outputs"]
        assert before["explanation"] == prerendered["explanation"]
        page.locator(f'{widget} [name="watts_per_gpu"]').fill(typed)
        form = page.evaluate("""(selector) => Object.fromEntries([...document.querySelectorAll(
            `${selector} form [name]`)].map((f) => [f.name, f.value]))""", widget)
        live = view_in(sixth, "rack_power", form, lang)
        assert live["ok"] and live["verdict"] == "over_budget", live  # 19.2 kW on a 15 kW feed
        page.wait_for_function("""([selector, text]) => document.querySelector(
            `${selector} [data-output="explanation"]`).textContent === text""",
                               arg=[widget, live["explanation"]], timeout=90000)
        after = shown(page, widget)
        assert {key: after[key] for key in live["outputs"]} == live["outputs"]
        assert page.locator(f'{widget} [data-output="verdict"]').text_content() == live["verdict_text"]
        context.close()
    assert errors == []
