"""Tables a widget shows in place of a picture, as escaped HTML strings (build and browser alike).

`compare`'s configurations side by side: one row per configuration, the numbers formatted like
every other output (`PageLocale.formatted`), the words from the catalogs.
"""

from __future__ import annotations

from html import escape
from typing import Any

import calculators
from widgets import strings
from widgets.locale import PageLocale

COLUMNS = ("table_configuration", "table_fits", "table_serving", "table_throughput", "table_ttft",
           "table_training", "table_power")


def figure(name: str, result: dict[str, Any], loc: PageLocale) -> str:
    """The table for a calculator's result (the `figure` its spec names), or "" when it has none."""
    if calculators.CALCULATORS[name]["figure"] == "compare_table":
        return compare_table(result["values"]["rows"], loc)
    return ""


def _config(row: dict[str, Any], loc: PageLocale) -> str:
    gpu = calculators.GPUS[row["gpu"]]["name"]
    label = loc.text(strings.UI["config_node_gpus"], nodes=loc.numbers.decimal(row["nodes"], 0),
                     gpus=loc.numbers.decimal(row["gpus_per_node"], 0), gpu=gpu)
    if row["nodes"] > 1:
        fabric = loc.text(strings.CHOICES[row["fabric"]])
        label = loc.text(strings.UI["config_over"], config=label, fabric=fabric)
    return label


def compare_table(rows: list[dict[str, Any]], loc: PageLocale) -> str:
    """One row per configuration: fit, how it serves, tokens/s, first token, training efficiency, power."""

    head = "".join(f'<th scope="col">{escape(loc.text(strings.UI[c]))}</th>' for c in COLUMNS)
    body = []
    for row in rows:
        fits = loc.text(strings.CHOICES["true" if row["fits"] else "false"])
        held = loc.formatted("count", "requests", row["max_concurrency"])
        cells = [
            f'<th scope="row">{escape(_config(row, loc))}</th>',
            f"<td>{escape(fits)} ({escape(held)})</td>",
            f"<td>{escape(loc.text(strings.CHOICES['serving:' + row['serving']]))}</td>",
            f"<td>{escape(loc.formatted('float', 'tokens_per_s', row['tokens_per_s']))}</td>",
            f"<td>{escape(loc.formatted('float', 'ms', row['time_to_first_token_ms']))}</td>",
            f"<td>{escape(loc.numbers.percent(row['efficiency'], 0))}</td>",
            f"<td>{escape(loc.formatted('float', 'kw', row['kw']))}</td>",
        ]
        body.append(f'<tr data-config="{escape(row["config"])}">{"".join(cells)}</tr>')
    caption = escape(loc.text(strings.UI["compare_caption"]))
    # A class on the table: Material's script wraps unclassed tables when the page loads, which the
    # live update would not repeat (live and prerendered HTML must be the same); wiki.css styles it.
    # The wrapper scrolls sideways on a narrow screen; a scrolling region must take the keyboard focus.
    return (f'<div class="kw-table" data-compare tabindex="0" role="region" aria-label="{caption}">'
            f'<table class="kw-compare"><caption>{caption}</caption>'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')
