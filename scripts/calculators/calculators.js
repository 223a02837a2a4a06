// Live calculators: the prerendered widgets recompute in the reader's browser.
// The math and every text come from Python (calculators + widgets) running in Pyodide inside one
// module Web Worker per page, started on the first sign of interest in a widget. This module wires the
// page's events to the modules of each concern:
// - page-widgets.js: the widgets, what the page keeps for each, their form and result elements;
// - boot.js: the worker and its boot (the runtime's files, the line, the progress, the widgets' states);
// - requests.js: each widget's request, its time limit, a worker restarted for the requests it left;
// - rendering.js: what a widget shows of a view (texts, HTML built and escaped by Python), its alerts;
// - link-state.js: the page's state in its address (grammar: links.js), copied links, the language switch;
// - follow.js: the widgets that follow the article's workload block.
// The messages and the view are described once, in widgets/protocol.py (types/protocol.d.ts); the
// data-* attributes the modules use, in docs-dev/page-contract.md. The page is served one file:
// `python3 build.py bundle` bundles these modules (and links.js' grammar) into
// overrides/assets/javascripts/calculators.js (wiki/page_bundle.py; a test fails when it is stale).

import { current, spawnWorker, wasEverReady } from "./boot.js";
import { follow } from "./follow.js";
import { applyFragment, cancelWrite, copyLink, writeFragment, writeSoon } from "./link-state.js";
import { isState } from "../../overrides/assets/javascripts/links.js";
import { formValues, stateOf, widgets, workload } from "./page-widgets.js";
import { apply, markError, setState, showAlert, showNotices } from "./rendering.js";
import { ask, ensureWorker } from "./requests.js";

/** @param {WidgetElement} widget */
async function recompute(widget) {
  const kept = stateOf(widget);
  const sent = formValues(widget);
  const request = (kept.request = (kept.request || 0) + 1);
  // Before the worker answers, a result for other values is marked stale: at once while the calculator
  // loads, after a moment once it is live (an answer takes milliseconds; no flicker while typing).
  clearTimeout(kept.staleTimer);
  const markStale = () => {
    if (JSON.stringify(formValues(widget)) !== kept.shown) widget.dataset.stale = "";
    showAlert(widget);
  };
  if (current() && widget.dataset.state === "ready") kept.staleTimer = setTimeout(markStale, 400);
  else if (!kept.pending) markStale();
  try {
    await ensureWorker();
  } catch {
    return; // the boot failed: the boot has said so on every widget, with its reason (boot.js)
  }
  const name = widget.dataset.calculator;
  const lang = widget.dataset.lang;
  try {
    const view = await ask(name, sent, lang, kept.pending);
    // Only the latest request of a widget may write its result (the reader typed, or the workload moved on).
    if (request !== kept.request) return;
    apply(widget, view);
    if (widget === workload && view.ok) follow(recompute);
    if (view.ok) writeSoon();
    else cancelWrite();
  } catch (error) {
    // This request failed: its Python raised, or it went unanswered by a worker restarted for it once
    // (restartWorker). Only this widget says so, and keeps its last result (marked stale: it is for the
    // previous inputs); the worker, and every other widget, go on. The next input asks again.
    if (request !== kept.request) return; // a newer request of this widget answers instead
    setState(widget, "error", wasEverReady() ? "failed" : "error");
    markError(widget, error);
  }
}

for (const widget of widgets) {
  const kept = stateOf(widget);
  widget.dataset.defaults = JSON.stringify(formValues(widget));
  kept.shown = widget.dataset.defaults;
  const form = widget.querySelector("form");
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("input", () => {
    kept.own = true; // changed by the reader: it no longer follows the workload
    kept.pending = null; // the reader takes over from a link still loading
    showNotices(widget, []);
    recompute(widget);
  });
  form.addEventListener("change", (event) => {
    // The custom-model fields count only for a custom model: open them at once (Python enables them).
    const custom = /** @type {HTMLDetailsElement | null} */ (widget.querySelector('[data-group="custom_model"]'));
    const field = /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target);
    if (custom && field.name === "model") custom.open = field.value === "custom";
    kept.own = true;
    kept.pending = null;
    showNotices(widget, []);
    recompute(widget);
  });
  for (const type of ["focusin", "pointerenter", "touchstart"]) {
    // A boot that fails says so on every widget (boot.js): nothing more to do here.
    widget.addEventListener(type, () => ensureWorker().catch(() => {}), { once: true, passive: true });
  }
  const tools = /** @type {HTMLElement | null} */ (widget.querySelector("[data-tools]"));
  if (tools) tools.hidden = false;
  widget.querySelector("[data-copy-link]")?.addEventListener("click", () => copyLink(widget));
}

if (widgets.length) {
  try { spawnWorker(); } catch { /* started again, with its error, on the first input */ }
  applyFragment(location.hash, { scroll: true }, recompute);
  window.addEventListener("hashchange", (event) => {
    // The link the reader opened is the event's: a state write of ours (writeFragment, 300 ms after an
    // answer) may have replaced location.hash before this event ran, and replaceState fires no event.
    cancelWrite();
    const hash = new URL(event.newURL).hash;
    if (isState(hash)) applyFragment(hash, { scroll: true }, recompute);
  });
  // The language switcher opens the same widgets, with the same values, on the other language's page:
  // the state is written at once when the link is pressed (not 300 ms after the last answer), and an
  // edit Python has not computed yet travels as typed, in this page's language (segment()).
  const carry = (event) => {
    const link = event.target.closest?.("a[hreflang]");
    if (!link) return;
    cancelWrite();
    writeFragment();
    if (isState(location.hash)) link.hash = location.hash;
    else if (isState(link.hash)) link.hash = "";
  };
  document.addEventListener("pointerdown", carry, true);
  document.addEventListener("click", carry, true);
}
