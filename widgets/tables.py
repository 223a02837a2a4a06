"""Tables a widget shows in place of a picture, as escaped HTML strings (build and browser alike).

`compare`'s configurations side by side: one row per configuration, the numbers formatted like
every other output (widgets.formats.format_kind), the words from the catalogs.
"""

from __future__ import annotations

from html import escape
from typing import Any

import calculators
from widgets import numbers, strings
from widgets.formats import format_kind
from widgets.messages import text

COLUMNS = ("table_configuration", "table_fits", "table_serving", "table_throughput", "table_ttft",
           "table_training", "table_power")


def figure(name: str, result: dict[str, Any], lang: str) -> str:
    """The table for a calculator's result (the `figure` its spec names), or "" when it has none."""
    if calculators.CALCULATORS[name]["figure"] == "compare_table":
        return compare_table(result["values"]["rows"], lang)
    return ""


def _config(row: dict[str, Any], lang: str) -> str:
    gpu = calculators.GPUS[row["gpu"]]["name"]
    label = text(lang, strings.UI["config_node_gpus"], nodes=numbers.decimal(row["nodes"], lang, 0),
                 gpus=numbers.decimal(row["gpus_per_node"], lang, 0), gpu=gpu)
    if row["nodes"] > 1:
        fabric = text(lang, strings.CHOICES[row["fabric"]])
        label = text(lang, strings.UI["config_over"], config=label, fabric=fabric)
    return label


def compare_table(rows: list[dict[str, Any]], lang: str) -> str:
    """One row per configuration: fit, how it serves, tokens/s, first token, training efficiency, power."""

    head = "".join(f'<th scope="col">{escape(text(lang, strings.UI[c]))}</th>' for c in COLUMNS)
    body = []
    for row in rows:
        fits = text(lang, strings.CHOICES["true" if row["fits"] else "false"])
        held = format_kind("count", "requests", row["max_concurrency"], lang)
        cells = [
            f'<th scope="row">{escape(_config(row, lang))}</th>',
            f"<td>{escape(fits)} ({escape(held)})</td>",
            f"<td>{escape(text(lang, strings.CHOICES['serving:' + row['serving']]))}</td>",
            f"<td>{escape(format_kind('float', 'tokens_per_s', row['tokens_per_s'], lang))}</td>",
            f"<td>{escape(format_kind('float', 'ms', row['time_to_first_token_ms'], lang))}</td>",
            f"<td>{escape(numbers.percent(row['efficiency'], lang, 0))}</td>",
            f"<td>{escape(format_kind('float', 'kw', row['kw'], lang))}</td>",
        ]
        body.append(f'<tr data-config="{escape(row["config"])}">{"".join(cells)}</tr>')
    caption = escape(text(lang, strings.UI["compare_caption"]))
    # A class on the table: Material's script wraps unclassed tables when the page loads, which the
    # live update would not repeat (live and prerendered HTML must be the same); wiki.css styles it.
    # The wrapper scrolls sideways on a narrow screen; a scrolling region must take the keyboard focus.
    return (f'<div class="kw-table" data-compare tabindex="0" role="region" aria-label="{caption}">'
            f'<table class="kw-compare"><caption>{caption}</caption>'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')
