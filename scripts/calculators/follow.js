// The article's workload block (calculators/workload.py) and the widgets that follow it.

import { NEUTRAL } from "../../overrides/assets/javascripts/links.js";
import { stateOf, widgets, workload } from "./page-widgets.js";

/**
 * The workload block answered: every other widget takes the workload's values that differ from the
 * article's (into its fields of the same name), its own presets for the rest, and asks again, until the
 * reader changes that widget itself (its state's `own`). A following widget's values are the workload's:
 * the link holds them once.
 * @param {(widget: WidgetElement) => void} recompute
 */
export function follow(recompute) {
  const neutral = workload && stateOf(workload).neutral;
  if (!neutral) return;
  const presets = JSON.parse(workload.dataset.presets || "{}");
  const changed = Object.entries(neutral).filter(([key, value]) => presets[key] !== value);
  for (const widget of widgets) {
    const kept = stateOf(widget);
    if (widget === workload || kept.own) continue;
    /** @type {Record<string, string>} */
    const values = {};
    for (const [key, value] of changed) {
      const field = /** @type {HTMLSelectElement | HTMLInputElement | null} */ (
        widget.querySelector(`form [name="${CSS.escape(key)}"]`));
      if (!field) continue;
      // A choice this widget does not offer (an SXM card where only PCIe cards are compared) stays its own.
      if (field instanceof HTMLSelectElement && ![...field.options].some((o) => o.value === String(value))) continue;
      values[key] = value;
    }
    const followed = JSON.stringify(values);
    if (followed === (kept.followed ?? "{}")) continue;
    kept.followed = followed;
    widget.querySelector("form").reset();
    kept.pending = { form: NEUTRAL, values };
    recompute(widget);
  }
}
