"""The widgets' pictures as small inline SVG strings, drawn from the same values the text shows.

No charting library: none runs both at build time and in Pyodide without native code, and two
pictures need ~100 lines. Colours come from CSS classes (`overrides/assets/stylesheets/wiki.css`),
so the light and dark palettes both apply. Every figure has a text alternative (`<title>` plus the
widget's visible numbers); the SVG itself is `aria-hidden` apart from that title.
"""

from __future__ import annotations

from html import escape
from typing import Any

import calculators
from widgets import numbers, strings
from widgets.messages import text

WIDTH, BAR_HEIGHT = 600, 28
LABEL_GAP = 14  # px between the baselines of two series labels (12 px text)


def figure(name: str, result: dict[str, Any], lang: str) -> str:
    """The SVG for a calculator's result (the `figure` its spec names), or "" when it has none."""
    drawn = calculators.CALCULATORS[name]["figure"]
    if drawn == "vram_bar":
        return vram_bar(result["values"], lang)
    if drawn == "scaling_chart":
        return scaling_chart(result["values"]["series"], lang)
    return ""


def _svg(width: int, height: int, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'class="kw-svg"><title>{escape(title)}</title>{"".join(body)}</svg>')


def vram_bar(values: dict[str, Any], lang: str) -> str:
    """A stacked bar: weights, KV cache for the target, runtime overhead, free; lines at 60 and 70 %."""
    vram = values["vram_gb"]
    weights, overhead = values["weights_gb"], values["overhead_gb"]
    kv = min(values["kv_gb"], max(vram - weights - overhead, 0.0))
    free = max(vram - weights - overhead - kv, 0.0)
    over = max(values["weights_gb"] + values["kv_gb"] + overhead - vram, 0.0)
    parts = [("weights", weights), ("kv", kv), ("overhead", overhead), ("free", free)]
    scale = WIDTH / max(vram + over, 1e-9)
    body, x = [], 0.0
    for cls, size in [*parts, ("over", over)]:
        w = size * scale
        if w > 0:
            body.append(f'<rect class="kw-svg__{cls}" x="{x:.1f}" y="8" width="{w:.1f}" height="{BAR_HEIGHT}"/>')
            x += w
    for share in (0.6, 0.7):
        lx = vram * share * scale
        body.append(f'<line class="kw-svg__rule" x1="{lx:.1f}" x2="{lx:.1f}" y1="2" y2="{BAR_HEIGHT + 14}"/>')
        body.append(f'<text class="kw-svg__label" x="{lx:.1f}" y="{BAR_HEIGHT + 28}" text-anchor="middle">'
                    f'{escape(numbers.percent(share, lang))}</text>')
    legend_y = BAR_HEIGHT + 50
    lx = 0
    for cls, msg in (("weights", "legend_weights"), ("kv", "legend_kv"), ("overhead", "legend_overhead"),
                     ("free", "legend_free"), ("over", "legend_over")):
        if cls == "over" and over <= 0:
            continue
        label = text(lang, strings.UI[msg])
        body.append(f'<rect class="kw-svg__{cls}" x="{lx}" y="{legend_y - 10}" width="12" height="12"/>'
                    f'<text class="kw-svg__label" x="{lx + 16}" y="{legend_y}">{escape(label)}</text>')
        lx += 24 + 8 * len(label)
    title = text(lang, strings.UI["figure_vram"], weights_gb=numbers.gigabytes(weights, lang),
                 kv_gb=numbers.gigabytes(values["kv_gb"], lang), overhead_gb=numbers.gigabytes(overhead, lang),
                 free_gb=numbers.gigabytes(free, lang), vram_gb=numbers.gigabytes(vram, lang))
    return _svg(WIDTH, legend_y + 8, title, body)


def scaling_chart(series: list[dict[str, Any]], lang: str) -> str:
    """Efficiency against GPU count: PCIe inside one box, then two nodes over each fabric."""
    left, top, plot_w, plot_h = 48, 12, 420, 200
    counts = sorted({row["gpus"] for row in series})
    col = {g: left + plot_w * i / max(len(counts) - 1, 1) for i, g in enumerate(counts)}

    def y(eff: float) -> float:
        return top + plot_h * (1 - eff)

    body = []
    for tick in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        cls = "kw-svg__rule" if tick == 0.6 else "kw-svg__grid"
        body.append(f'<line class="{cls}" x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
                    f'<text class="kw-svg__label" x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">'
                    f'{escape(numbers.percent(tick, lang, 0))}</text>')
    for g in counts:
        body.append(f'<text class="kw-svg__label" x="{col[g]:.1f}" y="{top + plot_h + 18}" text-anchor="middle">'
                    f'{escape(numbers.decimal(g, lang, 0))}</text>')
    fabrics: dict[str, list[dict[str, Any]]] = {}
    for row in series:
        fabrics.setdefault(row["fabric"], []).append(row)
    labels: list[tuple[float, float, int, str]] = []
    for i, (fabric, rows) in enumerate(fabrics.items()):
        points = " ".join(f"{col[r['gpus']]:.1f},{y(r['efficiency']):.1f}" for r in rows)
        body.append(f'<polyline class="kw-svg__series kw-svg__series--{i}" points="{points}"/>')
        for r in rows:
            body.append(f'<circle class="kw-svg__dot kw-svg__series--{i}" cx="{col[r["gpus"]]:.1f}" '
                        f'cy="{y(r["efficiency"]):.1f}" r="3"/>')
        labels.append((y(rows[-1]["efficiency"]) + 4, col[rows[-1]["gpus"]] + 8, i, fabric))
    # Series ending at the same GPU count can end close together: keep their labels LABEL_GAP apart.
    placed: dict[float, float] = {}
    for label_y, x, i, fabric in sorted(labels):
        label_y = max(label_y, placed.get(x, -LABEL_GAP) + LABEL_GAP)
        placed[x] = label_y
        body.append(f'<text class="kw-svg__label kw-svg__series--{i}" x="{x:.1f}" y="{label_y:.1f}">'
                    f'{escape(text(lang, strings.CHOICES[fabric]))}</text>')
    body.append(f'<text class="kw-svg__label" x="{left + plot_w / 2:.0f}" y="{top + plot_h + 36}" '
                f'text-anchor="middle">{escape(text(lang, strings.UI["axis_gpus"]))}</text>')
    return _svg(left + plot_w + 170, top + plot_h + 44, text(lang, strings.UI["figure_scaling"]), body)
