"""Render widgets and tables to HTML at build time with Jinja2 (templates in `wiki/templates/`).

The texts come from `widgets.view` (one function for build and browser); the templates add the form,
generated from `calculators.CALCULATORS`, and the labels, through Jinja2's i18n extension.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

import calculators
from calculators.catalog.gpus import GPU_BY_ID, training_tflops
from widgets import strings
from widgets.locale import locale_of
from widgets.messages import translations
from widgets.view import PRESETS, input_value_text, view

TEMPLATES = Path(__file__).resolve().parent / "templates"
# Inter-node fabrics in the order of the article (fast to slow).
BUILD_TABLE_GPUS = ("rtx-pro-6000", "rtx-5090", "l40s", "l4")


@cache
def environment(lang: str) -> Environment:
    """A Jinja2 environment whose `_()` translates into `lang` from the compiled catalog."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    # Old-style gettext: no %-formatting of msgids (they contain "60 %"); placeholders use str.format.
    env.install_gettext_translations(translations(lang), newstyle=False)
    env.globals.update(strings=strings, loc=locale_of(lang))
    return env


def one_block(html: str) -> str:
    """Drop blank lines so Markdown keeps the HTML as one raw block."""
    return "\n".join(line for line in html.split("\n") if line.strip())


def fields(name: str, shown: dict[str, str], lang: str) -> list[dict[str, Any]]:
    """The form fields of a calculator, from its spec, each with the text it shows.

    `shown` is the view's normalized inputs as text; the fields it leaves out (the custom-model shape
    while a catalogue model is chosen) show their defaults.
    """
    loc = locale_of(lang)
    return [{**spec, "text": shown.get(spec["name"]) or input_value_text(spec, spec["default"], loc),
             "presets": [(input_value_text(spec, value, loc), f"{value // 1024}k")
                         for value in PRESETS.get(spec["unit"], ())]}
            for spec in calculators.CALCULATORS[name]["inputs"]]


def widget(name: str, presets: dict[str, Any], lang: str, widget_id: str, heading: int = 3) -> str:
    """The prerendered widget of one embed: form, result, verdict, explanation, picture; its title is a
    heading of level `heading` (the page's outline decides it)."""
    model = view(name, presets, lang)
    if not model["ok"]:
        raise ValueError(f"{name} {presets}: {model['errors']}")
    html = environment(lang).get_template("widget.html").render(
        name=name, id=widget_id, lang=lang, view=model, fields=fields(name, model["inputs"], lang), heading=heading,
        output_labels=[(key, strings.output_label(name, key)) for key in model["outputs"]],
    )
    return one_block(html)


def scaling_table(lang: str, table_id: str) -> str:
    """The article's scaling efficiency table (`calculators.table`), in `lang`."""
    loc = locale_of(lang)
    rows = []
    for row in calculators.table({}):
        gpus, nodes = loc.numbers.decimal(row["gpus"], 0), loc.numbers.decimal(row["nodes"], 0)
        config = loc.plural_text(strings.CONFIG_ONE_NODE, row["gpus"], gpus=gpus) if row["nodes"] == 1 else \
            loc.text(strings.UI["config_nodes"], nodes=nodes,
                     gpus_per_node=loc.numbers.decimal(row["gpus_per_node"], 0))
        rows.append({"config": config, "fabric": loc.choice("fabric", row["fabric"]),
                     "efficiency": loc.numbers.percent(row["efficiency"], 0),
                     "speedup": loc.text(strings.UNITS["multiplier"], value=loc.numbers.decimal(row["speedup"], 1)),
                     "below": row["below_threshold"]})
    defaults = calculators.run("scaling", {})["inputs"]
    assumptions = loc.text(strings.UI["scaling_assumptions"], mfu=loc.numbers.percent(defaults["mfu"]))
    return environment(lang).get_template("scaling_table.html").render(id=table_id, rows=rows, assumptions=assumptions)


def build_table(lang: str, table_id: str) -> str:
    """The article's single-node build table (the GPUs of `BUILD_TABLE_GPUS`), in `lang`."""
    loc = locale_of(lang)
    rows = []
    for gpu_id in BUILD_TABLE_GPUS:
        gpu = calculators.GPUS[gpu_id]
        rows.append({"name": gpu["name"], "memory": loc.numbers.gigabytes(gpu["memory_gb"]),
                     "node": loc.numbers.gigabytes(8 * gpu["memory_gb"]),
                     "bandwidth": loc.numbers.decimal(gpu["memory_bandwidth_gbs"], 0),
                     "link": gpu["link_name"],
                     # BF16 with FP32 accumulation, the only way BF16 runs (a GeForce card at half its
                     # FP16-accumulate headline: catalog.gpus.training_tflops)
                     "tflops": loc.numbers.decimal(training_tflops(GPU_BY_ID[gpu_id], "bf16"), 0)})
    return environment(lang).get_template("build_table.html").render(id=table_id, rows=rows)


# The tables a page can embed (```calculator-table NAME```), by name: the one list of them.
TABLES = {"scaling_efficiency": scaling_table, "single_node_build": build_table}


def table(name: str, lang: str, table_id: str) -> str:
    """One of the article's `TABLES` filled from the calculators, as one HTML block."""
    return one_block(TABLES[name](lang, table_id))
