"""The widgets' pictures as small inline SVG strings, drawn from the same values the text shows.

No charting library: none runs both at build time and in Pyodide without native code, and two
pictures need ~150 lines. Colours come from CSS classes (`overrides/assets/stylesheets/wiki.css`),
so the light and dark palettes both apply; every text is in the page's text colour (the colours
mark bars, lines and swatches only), so it keeps its contrast in both themes. Every figure has a
text alternative (`<title>` plus the widget's visible numbers).

The pictures are drawn 400 units wide, for a phone's column: the page scales them to the width
they get, and their 12-unit text stays readable from 320 px up. Labels are placed in rows, never
on top of each other (`_place`); series differ by dash pattern as well as by colour.
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape
from typing import Any

import calculators
from widgets import strings
from widgets.locale import PageLocale

WIDTH, BAR_HEIGHT = 400, 28
CHAR_WIDTH = 7.0  # an upper estimate of one character of 12 px system-ui text, for placing labels
ROW = 15  # between the baselines of two rows of 12 px labels


def figure(name: str, result: dict[str, Any], loc: PageLocale) -> str:
    """The SVG for a calculator's result (the `figure` its spec names), or "" when it has none."""
    drawn = calculators.CALCULATORS[name]["figure"]
    if drawn == "vram_bar":
        return vram_bar(result["values"], loc)
    if drawn == "scaling_chart":
        return scaling_chart(result["values"], loc)
    return ""


def text_width(label: str) -> float:
    """The width a label takes, estimated (SVG text cannot be measured outside a browser)."""
    return len(label) * CHAR_WIDTH


def _svg(width: int, height: float, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height:.0f}" role="img" '
            f'class="kw-svg"><title>{escape(title)}</title>{"".join(body)}</svg>')


def _label(x: float, y: float, label: str, anchor: str = "middle", cls: str = "kw-svg__label") -> str:
    return f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{escape(label)}</text>'


@lru_cache(maxsize=256)  # pure; a recomputed figure mostly repeats its marks
def _place(labels: tuple[tuple[float, str], ...], rows: tuple[float, ...]) -> tuple[tuple[float, float, str, str], ...]:
    """Put centred labels into the first row where they overlap no other; add rows below as needed.

    Returns (x, y, label, anchor); a label is kept inside 0..WIDTH by anchoring it at the edge.
    """
    taken: dict[float, list[tuple[float, float]]] = {}
    placed = []
    for x, label in labels:
        w = text_width(label)
        left, anchor, ax = x - w / 2, "middle", x
        if left < 0:
            left, anchor, ax = 0.0, "start", 0.0
        elif left + w > WIDTH:
            left, anchor, ax = WIDTH - w, "end", float(WIDTH)
        candidates = [*rows, *(rows[-1] + ROW * (i + 1) for i in range(len(labels)))]
        for y in candidates:
            if all(left + w + 4 <= a or b + 4 <= left for a, b in taken.get(y, [])):
                taken.setdefault(y, []).append((left, left + w))
                placed.append((ax, y, label, anchor))
                break
    return tuple(placed)


@lru_cache(maxsize=64)  # pure; a figure's legend changes only with its language and series
def _legend(items: tuple[tuple[str, str], ...], y: float, swatch: str) -> tuple[tuple[str, ...], float]:
    """Legend entries (class, label) in rows that wrap at WIDTH; returns the SVG and the last baseline."""
    body, x = [], 0.0
    for cls, label in items:
        advance = 22 + text_width(label) + 12
        if x and x + advance - 12 > WIDTH:
            x, y = 0.0, y + ROW + 3
        if swatch == "rect":
            body.append(f'<rect class="kw-svg__{cls}" x="{x:.1f}" y="{y - 10:.1f}" width="14" height="12"/>')
        else:
            body.append(f'<line class="kw-svg__series {cls}" x1="{x:.1f}" x2="{x + 16:.1f}" y1="{y - 4:.1f}" '
                        f'y2="{y - 4:.1f}"/>')
        body.append(_label(x + 22, y, label, "start"))
        x += advance
    return tuple(body), y


def vram_bar(values: dict[str, Any], loc: PageLocale) -> str:
    """A stacked bar: weights, KV cache for the target, runtime overhead, free, and what is over capacity.

    Lines mark 60 and 70 % of the VRAM (the rule) and, when the load is over, the VRAM itself.
    """
    vram = values["vram_gb"]
    weights, overhead = values["weights_gb"], values["overhead_gb"]
    kv = min(values["kv_gb"], max(vram - weights - overhead, 0.0))
    free = max(vram - weights - overhead - kv, 0.0)
    over = max(values["weights_gb"] + values["kv_gb"] + overhead - vram, 0.0)
    parts = [("weights", weights), ("kv", kv), ("overhead", overhead), ("free", free)]
    scale = WIDTH / max(vram + over, 1e-9)
    top = 4 + ROW
    body, x = [], 0.0
    for cls, size in [*parts, ("over", over)]:
        w = min(size * scale, WIDTH - x)
        if w > 0:
            body.append(f'<rect class="kw-svg__{cls}" x="{x:.1f}" y="{top}" width="{w:.1f}" height="{BAR_HEIGHT}"/>')
            x += w
    marks = [(vram * share * scale, loc.numbers.percent(share)) for share in (0.6, 0.7)]
    if over > 0:
        marks.append((vram * scale, loc.numbers.gigabytes(vram)))
    for lx, _ in marks:
        cls = "kw-svg__limit" if lx == vram * scale and over > 0 else "kw-svg__rule"
        body.append(f'<line class="{cls}" x1="{lx:.1f}" x2="{lx:.1f}" y1="{top - 4}" y2="{top + BAR_HEIGHT + 4}"/>')
    # Labels above the bar first, then below it, then further rows: none on another.
    placed = _place(tuple(marks), (top - 5, top + BAR_HEIGHT + 15))
    body += [_label(px, py, label, anchor) for px, py, label, anchor in placed]
    bottom = max(top + BAR_HEIGHT, *(py for _, py, _, _ in placed))
    items = tuple((cls, loc.text(strings.UI[msg])) for cls, msg in (
        ("weights", "legend_weights"), ("kv", "legend_kv"), ("overhead", "legend_overhead"),
        ("free", "legend_free"), ("over", "legend_over")) if cls != "over" or over > 0)
    legend, last = _legend(items, bottom + ROW + 8, "rect")
    body += legend
    gb = {"weights_gb": weights, "kv_gb": values["kv_gb"], "overhead_gb": overhead, "vram_gb": vram}
    if over > 0:  # the parts add up to more than the VRAM: say what the KV cache needs and what it has
        gb |= {"kv_room_gb": kv, "over_gb": over}
    else:
        gb |= {"free_gb": free}
    title = loc.text(strings.UI["figure_vram_over" if over > 0 else "figure_vram"],
                     **{name: loc.numbers.gigabytes(size) for name, size in gb.items()})
    return _svg(WIDTH, last + 6, title, body)


def scaling_chart(values: dict[str, Any], loc: PageLocale) -> str:
    """Efficiency against GPU count (log scale): PCIe inside one box, then two nodes over each fabric,
    and the reader's own configuration marked."""
    series = values["series"]
    yours_gpus, yours_eff = values["gpus"], values["efficiency"]
    left, top, plot_h = 40, 28, 170
    plot_w = WIDTH - left - 14
    counts = sorted({row["gpus"] for row in series} | {yours_gpus})
    span = max(math.log2(counts[-1]), 1.0)

    def x(gpus: float) -> float:
        return left + plot_w * math.log2(gpus) / span

    def y(eff: float) -> float:
        return top + plot_h * (1 - min(max(eff, 0.0), 1.0))

    body = [_label(0, 12, loc.text(strings.UI["axis_efficiency"]), "start")]
    for tick in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        cls = "kw-svg__rule" if tick == 0.6 else "kw-svg__grid"
        body.append(f'<line class="{cls}" x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>')
        body.append(_label(left - 5, y(tick) + 4, loc.numbers.percent(tick, 0), "end"))
    last_right = -1e9
    for g in counts:  # a tick label only where it has room; the reader's count is labelled by its marker
        label = loc.numbers.decimal(g, 0)
        if x(g) - text_width(label) / 2 >= last_right + 6:
            body.append(_label(x(g), top + plot_h + 16, label))
            last_right = x(g) + text_width(label) / 2
    body.append(_label(left + plot_w / 2, top + plot_h + 32, loc.text(strings.UI["axis_gpus"])))
    fabrics: dict[str, list[dict[str, Any]]] = {}
    for row in series:
        fabrics.setdefault(row["fabric"], []).append(row)
    for i, rows in enumerate(fabrics.values()):
        points = " ".join(f"{x(r['gpus']):.1f},{y(r['efficiency']):.1f}" for r in rows)
        body.append(f'<polyline class="kw-svg__series kw-svg__series--{i}" points="{points}"/>')
        for r in rows:
            body.append(f'<circle class="kw-svg__dot kw-svg__series--{i}" cx="{x(r["gpus"]):.1f}" '
                        f'cy="{y(r["efficiency"]):.1f}" r="3"/>')
    # The reader's configuration: a ring and a label above it (below it near the top of the plot).
    mx, my = x(yours_gpus), y(yours_eff)
    label = loc.text(strings.UI["your_configuration"])
    ly = my - 12 if my - 12 > top + 4 else my + 20
    anchor = "end" if mx + text_width(label) / 2 > WIDTH else "middle"
    body.append(f'<circle class="kw-svg__yours" cx="{mx:.1f}" cy="{my:.1f}" r="7"/>')
    body.append(_label(mx, ly, label, anchor, "kw-svg__label kw-svg__label--yours"))
    items = tuple((f"kw-svg__series--{i}", loc.text(strings.CHOICES[fabric])) for i, fabric in enumerate(fabrics))
    legend, last = _legend(items, top + plot_h + 54, "line")
    body += legend
    return _svg(WIDTH, last + 6, loc.text(strings.UI["figure_scaling"]), body)
