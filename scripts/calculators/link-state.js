// The page's state in its address: the fragment that names every widget whose values differ from the
// page's (grammar in links.js, read by widgets/links.py), written once the reader pauses, applied when a
// link is opened, carried by the language switcher and copied by a widget's "copy link" button.

import { NEUTRAL, isState, readLink, writeLink } from "../../overrides/assets/javascripts/links.js";
import { formValues, setText, stateOf, widgets, workload } from "./page-widgets.js";
import { showNotices } from "./rendering.js";

// Shared state (grammar in links.js): "#<widget id>/name=value;...&<widget id>/..." holds every widget
// whose values differ from the page's, numbers locale-neutral (widgets/view.py `neutral_inputs`); a
// widget back at the page's values drops out. `first` (the widget whose link is copied) comes first,
// with no values if it has none: the link opens there.
let fragmentTimer = null;

/** Write the fragment once the reader pauses (history.replaceState costs milliseconds): 300 ms from now. */
export function writeSoon() {
  clearTimeout(fragmentTimer);
  fragmentTimer = setTimeout(() => writeFragment(), 300);
}

/** Cancel a pending write: a link the reader opens, or one written at once, comes first. */
export function cancelWrite() {
  clearTimeout(fragmentTimer);
}

// What a link carries of one widget, or null: a link's values not applied yet (the worker still loads);
// text the reader typed that Python has not computed yet (an edit a moment ago, or one it refused), in
// the page's language, as typed; or else the computed values, locale-neutral.
/** @param {WidgetElement} widget */
function segment(widget) {
  const kept = stateOf(widget);
  if (kept.pending) return { id: widget.id, ...kept.pending };
  const typed = formValues(widget);
  let values;
  let form = NEUTRAL;
  if (JSON.stringify(typed) !== kept.shown) {
    const defaults = JSON.parse(widget.dataset.defaults);
    values = Object.entries(typed).filter(([key, value]) => defaults[key] !== value);
    form = widget.dataset.lang;
  } else {
    const presets = JSON.parse(widget.dataset.presets || "{}");
    values = Object.entries(kept.neutral || {}).filter(([key, value]) => presets[key] !== value);
  }
  return values.length ? { id: widget.id, form, values: Object.fromEntries(values) } : null;
}

function fragment(first = null) {
  const segments = [];
  for (const widget of widgets) {
    if (workload && widget !== workload && !stateOf(widget).own && widget !== first) continue; // it follows
    const carried = segment(widget);
    if (widget === first) segments.unshift(carried || { id: widget.id, values: {} });
    else if (carried) segments.push(carried);
  }
  // Nothing but the copied widget, unchanged: a plain anchor to it.
  if (first && segments.length === 1 && !Object.keys(segments[0].values).length) return `#${first.id}`;
  return writeLink(segments);
}

export function writeFragment(first = null) {
  const written = fragment(first);
  const hash = isState(written) ? written : ""; // a plain anchor to the copied widget stays out of the address
  if (hash === location.hash || (!hash && !isState(location.hash))) return;
  history.replaceState(history.state, "", hash || location.pathname + location.search);
}

// The widgets a fragment names, each with its values and their form (links.js), as text: Python reads
// them (widgets/links.py), says which it cannot take, and nothing is written into a field before.
function readFragment(hash) {
  const found = new Map();
  for (const { id, form, values } of readLink(hash)) {
    const widget = document.getElementById(id);
    if (!widget || !widget.matches("[data-calculator]") || found.has(widget)) continue;
    found.set(widget, { form, values });
  }
  return found;
}

/**
 * Apply a fragment: its widgets take its values, the others go back to the page's values. A widget
 * named with no values (a copied link's first) is only where the page opens.
 * @param {string} hash
 * @param {{scroll: boolean}} options
 * @param {(widget: WidgetElement) => void} recompute
 */
export function applyFragment(hash, { scroll }, recompute) {
  const found = readFragment(hash);
  for (const widget of widgets) {
    const kept = stateOf(widget);
    const link = found.get(widget);
    const values = link && Object.keys(link.values).length ? link : null;
    kept.own = Boolean(values) && widget !== workload; // a widget the link sets no longer follows
    kept.followed = undefined;
    showNotices(widget, []);
    if (values) {
      widget.querySelector("form").reset();
      kept.pending = values;
      recompute(widget);
    } else if (kept.neutral && JSON.stringify(formValues(widget)) !== widget.dataset.defaults) {
      widget.querySelector("form").reset();
      recompute(widget);
    }
  }
  const [first] = found.keys();
  if (scroll && first) first.scrollIntoView(); // clear of the sticky header: scroll-margin-top in wiki.css
  return found.size > 0;
}

/** @param {WidgetElement} widget */
export async function copyLink(widget) {
  const button = /** @type {HTMLElement | null} */ (widget.querySelector("[data-copy-link]"));
  const note = widget.querySelector("[data-copy-status]");
  clearTimeout(fragmentTimer);
  const url = location.href.split("#")[0] + fragment(widget);
  try {
    await navigator.clipboard.writeText(url);
    setText(note, button.dataset.textCopied);
  } catch {
    setText(note, button.dataset.textRefused);
  }
  writeFragment(widget);
}
