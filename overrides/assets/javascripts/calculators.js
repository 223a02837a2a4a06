// Live calculators: the prerendered widgets recompute in the reader's browser.
// The math and every text come from Python (calculators + widgets) running in Pyodide inside one
// module Web Worker per page, started on the first sign of interest in a widget. This file only
// moves form values to the worker, writes the texts it returns into the [data-output] elements and
// places the HTML it returns (built and escaped by Python) into the [data-html] containers.
// The messages and the view are described once, in widgets/protocol.py; a link's grammar in links.js.

import { NEUTRAL, isState, readLink, writeLink } from "./links.js";

/**
 * How long the page waits, in ms. A test may define `globalThis.kwLimits` before this script runs (an
 * init script) to shorten them, so that a fault test need not sit the real limits out.
 * - stall: a boot is given up only when it stops moving: no byte downloaded and no step of the worker
 *   for this long (a slow line keeps moving; a stalled host or a dead worker does not); a worker's first
 *   answer gets it too, as it may still import (or fetch) part of the standard library: on a slow phone
 *   or a busy machine that takes seconds;
 * - request: any later answer (a live result takes milliseconds; silence means the worker hangs or died);
 * - snapshotStall: the worker drops a snapshot download that brings no byte for this long and boots
 *   plain (calculator-worker.js, SNAPSHOT_STALL_MS).
 */
const LIMITS = { stall: 15000, request: 5000, snapshotStall: 5000, ...globalThis.kwLimits };
let answered = false; // whether the current worker has answered once (its later answers get LIMITS.request)
// The last judgement of the reader's line (calculator-worker.js, chooseBoot), remembered for the origin
// with its age: a page whose Pyodide comes from a cache cannot judge the line, and must not guess. It is
// forgotten after LINE_MAX_AGE_MS or when the browser's connection type changes (Wi-Fi to mobile).
const LINE_KEY = "kw-line";
const LINE_MAX_AGE_MS = 30 * 60 * 1000;
const html = document.documentElement;
const widgets = /** @type {WidgetElement[]} */ ([...document.querySelectorAll("[data-calculator]")]);
// The article's "your workload" block (calculators/workload.py), if the page has one: see follow().
const workload = widgets.find((widget) => widget.dataset.calculator === "workload") ?? null;
let worker = null;
let booted = null;
let abortBoot = null; // aborts the page's own downloads of the boot under way
let nextId = 1;
let everReady = false; // once a worker answered, a later failure is "stopped", not "could not start"
const pending = new Map();

/**
 * What the page keeps per widget between answers (never on the element itself).
 * @typedef {object} WidgetState
 * @property {boolean} [own] changed by the reader (or set by a link): it no longer follows the workload block
 * @property {string} [followed] the workload values this widget last followed, as JSON
 * @property {Record<string, string>} [neutral] the workload block's values in the neutral form, once answered
 * @property {Link | null} [pending] a link's values still waiting for an answer
 * @property {string} [shown] the form values of the result on show, as JSON
 * @property {string} [alert] the text last announced by the widget's alert region
 * @property {number} [request] the number of the widget's latest request: only its answer is shown
 * @property {ReturnType<typeof setTimeout>} [staleTimer] marks the result stale if no answer comes soon
 * @property {string} [summary] what the result says instead of a verdict when the input is wrong
 * @property {string} [errors] the field messages on show, as JSON
 * @property {string} [controls] the controls on show, as JSON
 * @property {{fields: (HTMLInputElement | HTMLSelectElement)[], output: Record<string, HTMLElement>,
 *   html: Record<string, HTMLElement>}} [parts] the widget's fields and result elements, looked up once
 */
/** @type {WeakMap<HTMLElement, WidgetState>} */
const states = new WeakMap();
/** @type {WeakMap<Element, string>} the HTML last placed in each `[data-html]` slot */
const placed = new WeakMap();

/** @param {HTMLElement} widget @returns {WidgetState} */
function stateOf(widget) {
  let found = states.get(widget);
  if (!found) states.set(widget, (found = {}));
  return found;
}

/** The remembered judgement of the line, with its age in ms, or null (none, too old, another connection). */
function rememberedLine() {
  try {
    const line = JSON.parse(localStorage.getItem(LINE_KEY) || "null");
    const age = Date.now() - (line?.at ?? NaN);
    if (!(age >= 0 && age <= LINE_MAX_AGE_MS) || line.type !== (navigator.connection?.effectiveType ?? null)) {
      return null;
    }
    return { fast: Boolean(line.fast), rate: line.rate, from: line.from, age };
  } catch {
    return null; // storage refused (privacy settings) or unreadable: the worker judges the line afresh
  }
}

/** Remember the worker's judgement of the line (`{fast, rate, from}`), for the next pages of this origin. */
function rememberLine({ fast, rate, from }) {
  html.dataset.kwLine = fast ? "fast" : "slow"; // for diagnosis
  try {
    localStorage.setItem(LINE_KEY, JSON.stringify({ fast, rate, from, at: Date.now(),
      type: navigator.connection?.effectiveType ?? null }));
  } catch {
    // Storage refused or full: the next page judges the line again, on bytes that cross it.
  }
}

/** An error with the reason a widget records (`data-error`): timeout, crashed, python, files, stalled... */
function failure(reason, message) {
  return Object.assign(new Error(message), { reason });
}

/** Record on `widget` why its live result failed last (for whoever supports a reader; not shown). */
function markError(widget, error) {
  widget.dataset.error = error?.reason || "unknown";
  widget.dataset.errorDetail = String(error?.message ?? error ?? "");
}

function siteBase() {
  // The site root relative to this page ("." / ".." / "../.."), written by main.html: the runtime lives there.
  return new URL(`${document.getElementById("kw-runtime")?.dataset.root || "."}/`, location.href);
}

// `text` names the status text (data-text-<text>): "failed" is an error after the calculator ran,
// which is no "could not start".
/** @param {WidgetElement} widget */
function setState(widget, state, text = state) {
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

function setAll(state, text = state, error = null) {
  for (const widget of widgets) {
    setState(widget, state, text);
    if (error) markError(widget, error);
  }
}

// The compact result's line under the verdict: a field to check, a calculator still loading (with its
// progress) for inputs the result does not reflect yet, or a failure. Hidden when the result is current.
/** @param {WidgetElement} widget */
function showAlert(widget) {
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

// Forget the worker (crashed, killed, hung or never booted): the next request starts a new one. Its
// unanswered requests fail with `error`, unless the caller sends them again (`keepPending`).
function stopWorker(error = failure("stopped", "worker stopped"), { keepPending = false } = {}) {
  worker?.terminate(); // its own downloads end with it
  abortBoot?.();
  abortBoot = null;
  worker = null;
  booted = null;
  answered = false;
  for (const entry of pending.values()) clearTimeout(entry.timer);
  if (keepPending) return;
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
}

let restarting = null;

// A request went unanswered in time, or the worker died after its boot: stop it, start another and send it
// what the first had not answered, once, without the reader typing. A request that already had its second
// chance fails, and only the widget that asked says so (recompute()).
function restartWorker(error) {
  if (restarting) return;
  const waiting = [...pending.values()];
  for (const entry of waiting.filter(({ tries }) => tries >= 2)) {
    pending.delete(entry.message.id);
    entry.reject(error);
  }
  const again = waiting.filter(({ tries }) => tries < 2);
  // A trace for whoever supports a reader: how often, and why last (the widgets record their own failures).
  html.dataset.kwWorkerRestarts = String(Number(html.dataset.kwWorkerRestarts || 0) + 1);
  html.dataset.kwWorkerError = `${error.reason}: ${error.message}`;
  stopWorker(error, { keepPending: true });
  if (!again.length) return; // nothing to answer: the next request starts a new worker
  restarting = startWorker().then(
    () => { for (const entry of again) if (pending.has(entry.message.id)) send(entry); },
    (bootError) => {
      for (const entry of again) {
        pending.delete(entry.message.id);
        entry.reject(bootError);
      }
    },
  ).finally(() => { restarting = null; });
}

// The worker thread itself (5 KB over the wire; it downloads nothing until told to boot) is started as
// soon as this script runs, so that a reader's first input does not also wait for a thread to start
// (bench --network, warm visits at 10 Mbit/s: first result 0.68 s instead of 0.84 s, medians of 5;
// started when the browser was idle, it was not there yet for an input at DOMContentLoaded).
let spare = null;

function spawnWorker() {
  if (!spare) {
    spare = new Worker(new URL("assets/javascripts/calculator-worker.js", siteBase()), { type: "module" });
    // A script that cannot load fails the worker before anyone asked it anything: remember that.
    const failed = spare;
    failed.addEventListener("error", (event) => { failed.kwFailed = event.message || "worker script failed"; });
  }
  return spare;
}

// What the reader asked for: Save-Data or a 2G connection means no snapshot now and none for later.
// Whether the line is fast enough for the snapshot is the worker's to find out (RATE).
function frugal() {
  const connection = navigator.connection;
  return Boolean(connection?.saveData) || /2g/.test(connection?.effectiveType ?? "");
}

// Download progress of the boot, in bytes, shown on every widget (`data-progress`, a share when the
// sizes are known) and used to tell a slow boot from a stalled one.
const progress = { page: [0, 0], worker: [0, 0] };

function resetProgress() {
  progress.page = [0, 0];
  progress.worker = [0, 0];
  showProgress();
}

function showProgress() {
  const loaded = progress.page[0] + progress.worker[0];
  const total = progress.page[1] + progress.worker[1];
  const share = total ? Math.min(99, Math.floor((100 * loaded) / total)) : null;
  for (const widget of widgets) {
    if (share === null) delete widget.dataset.progress;
    else widget.dataset.progress = String(share);
    showAlert(widget);
  }
}

// The .wasm, compiled while it downloads (its bytes counted for the progress). compileStreaming insists
// on the application/wasm type; a host that sends another one (an old mime.types, a bare object store)
// still gets the bytes compiled, once they are all there.
async function compileWasm(href, total, signal, onProgress) {
  const response = await fetch(href, { signal });
  if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
  const streaming = (response.headers.get("Content-Type") || "").startsWith("application/wasm");
  const source = streaming ? response.clone() : response;
  const chunks = [];
  const counted = (async () => {
    const reader = source.body.getReader();
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      if (!streaming) chunks.push(value);
      loaded += value.byteLength;
      onProgress(loaded, Math.max(total, loaded));
    }
  })();
  if (!streaming) return WebAssembly.compile(await new Blob(await counted).arrayBuffer());
  counted.catch(() => {}); // the clone's reader fails with the download, which compileStreaming reports
  return WebAssembly.compileStreaming(response);
}

function startWorker() {
  if (booted) return booted;
  // Every widget loads; after a worker's restart, one whose request failed keeps saying so until its next
  // input (recompute()) is answered.
  for (const widget of widgets) if (!everReady || widget.dataset.state !== "error") setState(widget, "loading");
  const root = siteBase();
  const downloads = new AbortController();
  abortBoot = () => downloads.abort();
  resetProgress();
  let ready = false;
  const attempt = new Promise((resolve, reject) => {
    let timer = null;
    const fail = (error) => { clearTimeout(timer); reject(error); };
    const moved = () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(failure("stalled", "boot stalled")), LIMITS.stall);
    };
    moved();
    try {
      worker = spawnWorker();
      spare = null;
    } catch (error) {
      fail(failure("script", error?.message ?? String(error)));
      return;
    }
    if (worker.kwFailed) {
      fail(failure("script", worker.kwFailed));
      return;
    }
    const current = worker;
    worker.onmessage = (/** @type {MessageEvent<WorkerMessage>} */ { data }) => {
      if (data.type === "ready") {
        clearTimeout(timer);
        ready = true;
        html.dataset.kwBoot = data.via; // "snapshot" or "plain", and why (calculator-worker.js chooseBoot)
        html.dataset.kwBootReason = data.reason;
        if (data.snapshotError) html.dataset.kwSnapshotError = data.snapshotError; // why it went plain
        resolve();
      } else if (data.type === "boot-error") {
        fail(failure("boot", data.message));
      } else if (data.type === "progress") {
        progress.worker = [data.loaded, data.total];
        showProgress();
        moved();
      } else if (data.type === "step") {
        moved();
      } else if (data.type === "line") {
        rememberLine(data);
      } else if (data.type === "kept") {
        html.dataset.kwRuntime = "kept"; // the next page or visit boots from the snapshot
      } else if (data.type === "keep-failed") {
        // The page works on; its next page boots plain from the cache. The reason is the trace.
        html.dataset.kwRuntime = "not-kept";
        html.dataset.kwRuntimeError = data.message;
      } else if (data.type === "view") {
        answered = true;
        const request = pending.get(data.id);
        pending.delete(data.id);
        if (data.view) request?.resolve(data.view);
        else request?.reject(failure(data.reason || "python", data.error)); // this request's widget only
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const error = failure("crashed", event.message || "worker error");
      if (!ready) fail(error);
      else if (worker === current) restartWorker(error); // died after its boot: a new one answers instead
    };
    // URLs of the self-hosted runtime, relative to the site root (written by the build, wiki/runtime.py).
    const runtime = /** @type {RuntimeConfig} */ (JSON.parse(document.getElementById("kw-runtime")?.textContent || "{}"));
    const url = (path) => new URL(path, root).href;
    /** @type {Boot} */
    const bootMessage = { type: "boot", pyodide: url(runtime.pyodide), loader: url(runtime.loader),
      asm: url(runtime.asm), lock: url(runtime.lock), snapshot: url(runtime.snapshot), stdlib: url(runtime.stdlib),
      stdlib_later: url(runtime.stdlib_later),
      wheels: (runtime.wheels || []).map(url), packages: runtime.packages, frugal: frugal(),
      line: rememberedLine(), snapshotStallMs: LIMITS.snapshotStall };
    worker.postMessage(bootMessage);
    // The .wasm compiles from here, at once (taking over early.js's download, if a link started it),
    // while the worker imports Pyodide's JavaScript, and the compiled module is handed over.
    const target = worker;
    compileWasm(url(runtime.wasm), runtime.wasm_bytes || 0, downloads.signal, (loaded, total) => {
      progress.page = [loaded, total];
      showProgress();
      moved();
    }).then(
      (module) => target.postMessage({ type: "wasm", module }),
      (error) => target.postMessage({ type: "wasm", error: String(error?.message ?? error) }),
    );
  });
  booted = attempt;
  attempt.then(
    () => {
      if (booted !== attempt) return;
      abortBoot = null;
      resetProgress(); // no share shown once live
      everReady = true;
      for (const widget of widgets) if (widget.dataset.state === "loading") setState(widget, "ready");
    },
    (error) => {
      if (booted !== attempt) return;
      // The runtime cannot start: no widget can be live. Every one says so, with the reason as its trace.
      stopWorker(error);
      setAll("error", everReady ? "failed" : "error", error);
    },
  );
  return attempt;
}

// Send a request (again) to the current worker. No answer within the limit: the worker hangs, or died
// without a word (a thread that ends itself says nothing): restartWorker().
function send(entry) {
  entry.tries += 1;
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => restartWorker(failure("timeout", "no answer")),
    answered ? LIMITS.request : LIMITS.stall);
  worker.postMessage(entry.message);
}

/**
 * Ask the worker for a widget's view; `link`: a link's values, laid over the form's text by Python.
 * @param {string} name
 * @param {ViewRequest["inputs"]} inputs
 * @param {string} lang
 * @param {Link | undefined | null} link
 * @returns {Promise<View | ViewFailure>}
 */
function ask(name, inputs, lang, link) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    /** @type {ViewRequest} */
    const message = { type: "view", id, name, inputs, lang, ...(link ? { link } : {}) };
    const entry = { message, tries: 0, timer: null };
    entry.resolve = (view) => { clearTimeout(entry.timer); resolve(view); };
    entry.reject = (error) => { clearTimeout(entry.timer); reject(error); };
    pending.set(id, entry);
    send(entry);
  });
}

// A widget's fields and the elements its results go into, looked up once: they stay in place, only
// their values and contents change (each lookup walks the widget's tree, on every keystroke).
/** @param {WidgetElement} widget */
function parts(widget) {
  const kept = stateOf(widget);
  if (!kept.parts) {
    /** @param {string} attribute @returns {Record<string, HTMLElement>} */
    const by = (attribute) => Object.fromEntries([...widget.querySelectorAll(`[${attribute}]`)].map(
      (element) => [element.getAttribute(attribute), /** @type {HTMLElement} */ (element)]));
    const fields = /** @type {(HTMLInputElement | HTMLSelectElement)[]} */ ([...widget.querySelectorAll("form [name]")]);
    kept.parts = { fields, output: by("data-output"), html: by("data-html") };
  }
  return kept.parts;
}

/** @param {WidgetElement} widget @returns {Record<string, string>} the form's text, field by field */
function formValues(widget) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const field of parts(widget).fields) values[field.name] = field.value;
  return values;
}

// Writes only what changed: fewer DOM mutations, less style and layout work per keystroke.
function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

// Places HTML built and escaped by Python (widgets/markup.py, widgets/svg.py), only where it changed.
function setHtml(element, html) {
  if (element && placed.get(element) !== html) {
    element.innerHTML = html;
    placed.set(element, html);
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
function showNotices(widget, notices) {
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
function apply(widget, view) {
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

/** @param {WidgetElement} widget */
function setField(widget, key, value) {
  const field = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (
    widget.querySelector(`form [name="${CSS.escape(key)}"]`));
  if (field && value !== undefined && field.value !== value) field.value = value;
}

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
  if (booted && worker && widget.dataset.state === "ready") kept.staleTimer = setTimeout(markStale, 400);
  else if (!kept.pending) markStale();
  try {
    await startWorker();
  } catch {
    return; // the boot failed: startWorker() has said so on every widget, with its reason
  }
  const name = widget.dataset.calculator;
  const lang = widget.dataset.lang;
  try {
    const view = await ask(name, sent, lang, kept.pending);
    // Only the latest request of a widget may write its result (the reader typed, or the workload moved on).
    if (request !== kept.request) return;
    apply(widget, view);
    if (widget === workload && view.ok) follow();
    // history.replaceState costs milliseconds: write the fragment once the reader pauses.
    clearTimeout(fragmentTimer);
    if (view.ok) fragmentTimer = setTimeout(() => writeFragment(), 300);
  } catch (error) {
    // This request failed: its Python raised, or it went unanswered by a worker restarted for it once
    // (restartWorker). Only this widget says so, and keeps its last result (marked stale: it is for the
    // previous inputs); the worker, and every other widget, go on. The next input asks again.
    if (request !== kept.request) return; // a newer request of this widget answers instead
    setState(widget, "error", everReady ? "failed" : "error");
    markError(widget, error);
  }
}

// Shared state (grammar in links.js): "#<widget id>/name=value;...&<widget id>/..." holds every widget
// whose values differ from the page's, numbers locale-neutral (widgets/view.py `neutral_inputs`); a
// widget back at the page's values drops out. `first` (the widget whose link is copied) comes first,
// with no values if it has none: the link opens there.
let fragmentTimer = null;

// The workload block: every other widget takes the workload's values that differ from the article's
// (into its fields of the same name), its own presets for the rest, until the reader changes that
// widget itself (its state's `own`). A following widget's values are the workload's: the link holds them once.
function follow() {
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

function writeFragment(first = null) {
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

// Apply a fragment: its widgets take its values, the others go back to the page's values. A widget
// named with no values (a copied link's first) is only where the page opens.
function applyFragment(hash, { scroll }) {
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
async function copyLink(widget) {
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
    // A boot that fails says so on every widget (startWorker): nothing more to do here.
    widget.addEventListener(type, () => startWorker().catch(() => {}), { once: true, passive: true });
  }
  const tools = /** @type {HTMLElement | null} */ (widget.querySelector("[data-tools]"));
  if (tools) tools.hidden = false;
  widget.querySelector("[data-copy-link]")?.addEventListener("click", () => copyLink(widget));
}

if (widgets.length) {
  try { spawnWorker(); } catch { /* started again, with its error, on the first input */ }
  applyFragment(location.hash, { scroll: true });
  window.addEventListener("hashchange", (event) => {
    // The link the reader opened is the event's: a state write of ours (writeFragment, 300 ms after an
    // answer) may have replaced location.hash before this event ran, and replaceState fires no event.
    clearTimeout(fragmentTimer);
    const hash = new URL(event.newURL).hash;
    if (isState(hash)) applyFragment(hash, { scroll: true });
  });
  // The language switcher opens the same widgets, with the same values, on the other language's page:
  // the state is written at once when the link is pressed (not 300 ms after the last answer), and an
  // edit Python has not computed yet travels as typed, in this page's language (segment()).
  const carry = (event) => {
    const link = event.target.closest?.("a[hreflang]");
    if (!link) return;
    clearTimeout(fragmentTimer);
    writeFragment();
    if (isState(location.hash)) link.hash = location.hash;
    else if (isState(link.hash)) link.hash = "";
  };
  document.addEventListener("pointerdown", carry, true);
  document.addEventListener("click", carry, true);
}
