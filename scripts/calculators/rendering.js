// What a widget shows: its state, its alert line, its fields' messages and controls, a link's notices, the
// boot's progress and the view Python returned (texts into [data-output], HTML built and escaped by Python
// into [data-html]). The view is described once, in widgets/protocol.py (types/protocol.d.ts).

import { parts, formValues, setField, setHtml, setText, stateOf, widgets } from "./page-widgets.js";

/** Record on `widget` why its live result failed last (for whoever supports a reader; not shown). */
export function markError(widget, error) {
  widget.dataset.error = error?.reason || "unknown";
  widget.dataset.errorDetail = String(error?.message ?? error ?? "");
}

// `text` names the status text (data-text-<text>): "failed" is an error after the calculator ran,
// which is no "could not start".
/** @param {WidgetElement} widget */
export function setState(widget, state, text = state) {
  const kept = stateOf(widget);
  widget.dataset.state = state;
  const status = /** @type {HTMLElement | null} */ (widget.querySelector("[data-status]"));
  const message = status?.dataset[`text${text[0].toUpperCase()}${text.slice(1)}`];
  if (status && message) status.textContent = message;
  if (state === "error") {
    // The fields and the result must not disagree silently: a result for other values is marked stale.
    if (kept.pending) kept.alert = status?.dataset.textLink; // the link's values stay unapplied
    else if (JSON.stringify(formValues(widget)) !== kept.shown) {
      widget.dataset.stale = "";
      kept.alert = `${message} ${text === "failed" ? "" : status?.dataset.stale}`.trim();
    }
    kept.pending = null;
  } else {
    kept.alert = "";
  }
  showAlert(widget);
}

export function setAll(state, text = state, error = null) {
  for (const widget of widgets) {
    setState(widget, state, text);
    if (error) markError(widget, error);
  }
}

// The compact result's line under the verdict: a field to check, a calculator still loading (with its
// progress) for inputs the result does not reflect yet, or a failure. Hidden when the result is current.
/** @param {WidgetElement} widget */
export function showAlert(widget) {
  const kept = stateOf(widget);
  const alert = /** @type {HTMLElement | null} */ (widget.querySelector("[data-alert]"));
  const status = /** @type {HTMLElement | null} */ (widget.querySelector("[data-status]"));
  if (!alert || !status) return;
  const { state, stale, invalid, progress: share } = widget.dataset;
  let message = "";
  if (invalid !== undefined) message = kept.summary;
  else if (state === "loading" && (stale !== undefined || kept.pending)) message = status.dataset.textLoading;
  else if (kept.alert) message = kept.alert;
  else if (stale !== undefined) message = status.dataset.stale;
  setText(alert.querySelector("[data-alert-text]"), message || "");
  alert.hidden = !message;
  const bar = alert.querySelector("progress");
  if (bar) {
    bar.hidden = !(state === "loading" && share !== undefined);
    if (share !== undefined) bar.value = Number(share);
  }
}

/**
 * Show the boot's download progress on every widget (`data-progress`), or none (`share` null).
 * @param {number | null} share
 */
export function showShare(share) {
  for (const widget of widgets) {
    if (share === null) delete widget.dataset.progress;
    else widget.dataset.progress = String(share);
    showAlert(widget);
  }
}

/** @param {WidgetElement} widget */
function showErrors(widget, errors) {
  const kept = stateOf(widget);
  const shown = JSON.stringify(errors);
  if (kept.errors === shown) return; // the usual keystroke: no message before, none after
  kept.errors = shown;
  for (const slot of /** @type {NodeListOf<HTMLElement>} */ (widget.querySelectorAll("[data-error-for]"))) {
    const message = errors[slot.dataset.errorFor];
    slot.textContent = message || "";
    slot.hidden = !message;
    const field = /** @type {HTMLElement | null} */ (slot.closest(".kw-field"));
    const control = field?.querySelector("[name]");
    if (message) {
      field.dataset.invalid = "";
      control?.setAttribute("aria-invalid", "true");
    } else {
      delete field?.dataset.invalid;
      control?.removeAttribute("aria-invalid");
    }
  }
}

// The fields and options that make sense for the inputs (widgets/view.py `controls`): the rest disabled.
// Applied with every answer, a failed one too: a field the reader must fix is never left disabled.
/** @param {WidgetElement} widget */
function applyControls(widget, controls) {
  const kept = stateOf(widget);
  const shown = JSON.stringify(controls);
  if (kept.controls === shown) return;
  kept.controls = shown;
  // The custom-model fields open when they count (a link or an answer chose the custom model).
  const custom = /** @type {HTMLDetailsElement | null} */ (widget.querySelector('[data-group="custom_model"]'));
  const customField = /** @type {HTMLInputElement | HTMLSelectElement | null | undefined} */ (
    custom?.querySelector("[name]"));
  if (customField) custom.open = !controls.disabled.includes(customField.name);
  for (const field of parts(widget).fields) {
    const off = controls.disabled.includes(field.name);
    if (field.disabled !== off) field.disabled = off;
    const unavailable = controls.unavailable[field.name] || [];
    for (const option of field instanceof HTMLSelectElement ? field.options : []) {
      const disabled = unavailable.includes(option.value);
      if (option.disabled !== disabled) option.disabled = disabled;
    }
  }
}

// What the widget says about a link's values it could not take (widgets/links.py), until the reader
// changes the widget or another link applies.
/** @param {WidgetElement} widget */
export function showNotices(widget, notices) {
  const slot = /** @type {HTMLElement | null} */ (widget.querySelector("[data-link-notice]"));
  if (!slot) return;
  setText(slot, notices.join(" "));
  slot.hidden = !notices.length;
}

/**
 * Show a view (or why there is none) in its widget.
 * @param {WidgetElement} widget
 * @param {View | ViewFailure} view
 */
export function apply(widget, view) {
  const kept = stateOf(widget);
  const status = /** @type {HTMLElement | null} */ (widget.querySelector("[data-status]"));
  widget.dataset.state = "ready";
  kept.alert = "";
  clearTimeout(kept.staleTimer);
  const pendingLink = kept.pending;
  kept.pending = null;
  const linked = Object.keys(pendingLink?.values || {});
  if (pendingLink) showNotices(widget, view.notices);
  applyControls(widget, view.controls);
  if (view.ok === false) { // (not `!view.ok`: tsc narrows the union on a comparison only)
    // A link's values that are wrong show next to their field's message, written as this page writes
    // them (a link's `32.768` reads `32,768` on a Danish page), or as they came when no number.
    for (const key of linked) if (key in view.inputs) setField(widget, key, view.inputs[key]);
    showErrors(widget, view.errors);
    // No verdict and no value from an invalid field: the result says which field to check.
    widget.dataset.stale = "";
    widget.dataset.invalid = "";
    kept.summary = view.summary;
    // An error of the whole calculation (key "": "The calculation failed") has no field slot to show in.
    if (status) status.textContent = view.errors[""] || status.dataset.stale;
    showAlert(widget);
    return;
  }
  // A link's values are shown as the page's language writes them (the link holds them locale-neutral).
  for (const key of linked) setField(widget, key, view.inputs[key]);
  showErrors(widget, {});
  delete widget.dataset.stale;
  delete widget.dataset.invalid;
  kept.shown = JSON.stringify(formValues(widget));
  kept.neutral = view.neutral;
  const { output, html: slots } = parts(widget);
  for (const [key, text] of Object.entries(view.outputs)) setText(output[key], text);
  setText(output.explanation, view.explanation);
  for (const [key, html] of Object.entries(view.html)) setHtml(slots[key], html);
  setText(status, status?.dataset.textReady);
  showAlert(widget);
}
