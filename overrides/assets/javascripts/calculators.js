// Live calculators: the prerendered widgets recompute in the reader's browser.
// The math and every text come from Python (calculators + widgets) running in Pyodide inside one
// module Web Worker per page, started on the first sign of interest in a widget. This file only
// moves form values to the worker, writes the texts it returns into the [data-output] elements and
// places the HTML it returns (built and escaped by Python) into the [data-html] containers.
// The messages and the view are described once, in widgets/protocol.py.

// A boot is given up only when it stops moving: no byte downloaded and no step of the worker for this
// long (a slow line keeps moving; a stalled host or a dead worker does not).
const STALL_MS = 15000;
const REQUEST_TIMEOUT_MS = 5000; // a live result takes milliseconds; silence means the worker is gone
const widgets = [...document.querySelectorAll("[data-calculator]")];
let worker = null;
let booted = null;
let abortBoot = null; // aborts the page's own downloads of the boot under way
let nextId = 1;
const pending = new Map();

function siteBase() {
  // The site root relative to this page ("." / ".." / "../.."), written by main.html: the runtime lives there.
  return new URL(`${document.getElementById("kw-runtime")?.dataset.root || "."}/`, location.href);
}

function setState(widget, state) {
  widget.dataset.state = state;
  const status = widget.querySelector("[data-status]");
  const text = status?.dataset[`text${state[0].toUpperCase()}${state.slice(1)}`];
  if (status && text) status.textContent = text;
}

function setAll(state) {
  for (const widget of widgets) setState(widget, state);
}

// Forget the worker (crashed, killed, hung or never booted): the next input starts a new one.
function stopWorker() {
  worker?.terminate(); // its own downloads end with it
  abortBoot?.();
  abortBoot = null;
  worker = null;
  booted = null;
  for (const { reject } of pending.values()) reject(new Error("worker stopped"));
  pending.clear();
}

// The worker thread itself (a 7 KB script that downloads nothing until told to boot) is started when
// the browser is idle, so that a reader's first input does not also wait for a thread to start.
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
// Whether the line is fast enough for the snapshot is the worker's to find out (its first bytes tell;
// the page's own small files do not: a 35 KB bundle "takes" ~15 ms even on loopback).
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
  counted.catch(() => {});
  return WebAssembly.compileStreaming(response);
}

function startWorker() {
  if (booted) return booted;
  setAll("loading");
  const root = siteBase();
  const downloads = new AbortController();
  abortBoot = () => downloads.abort();
  resetProgress();
  const attempt = new Promise((resolve, reject) => {
    let timer = null;
    const fail = (error) => { clearTimeout(timer); reject(error); };
    const moved = () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(new Error("boot stalled")), STALL_MS);
    };
    moved();
    try {
      worker = spawnWorker();
      spare = null;
    } catch (error) {
      fail(error);
      return;
    }
    if (worker.kwFailed) {
      fail(new Error(worker.kwFailed));
      return;
    }
    worker.onmessage = ({ data }) => {
      if (data.type === "ready") {
        clearTimeout(timer);
        document.documentElement.dataset.kwBoot = data.via; // "snapshot" or "plain": for diagnosis
        resolve();
      } else if (data.type === "boot-error") {
        fail(new Error(data.message));
      } else if (data.type === "progress") {
        progress.worker = [data.loaded, data.total];
        showProgress();
        moved();
      } else if (data.type === "step") {
        moved();
      } else if (data.type === "kept") {
        document.documentElement.dataset.kwRuntime = "kept"; // the next page or visit boots from the snapshot
      } else if (data.type === "view") {
        const request = pending.get(data.id);
        pending.delete(data.id);
        if (data.view) request?.resolve(data.view);
        else request?.reject(new Error(data.error));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(event.message || "worker error"));
    };
    // URLs of the self-hosted runtime, relative to the site root (written by the build, wiki/runtime.py).
    const runtime = JSON.parse(document.getElementById("kw-runtime")?.textContent || "{}");
    const url = (path) => new URL(path, root).href;
    worker.postMessage({ type: "boot", pyodide: url(runtime.pyodide), loader: url(runtime.loader),
      asm: url(runtime.asm), lock: url(runtime.lock), snapshot: url(runtime.snapshot), stdlib: url(runtime.stdlib),
      wheels: (runtime.wheels || []).map(url), packages: runtime.packages, frugal: frugal() });
    // The .wasm compiles from here, at once, while the worker thread is still starting (~100 ms on
    // this 2-core machine), and the compiled module is handed over.
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
      setAll("ready");
    },
    () => { if (booted === attempt) { stopWorker(); setAll("error"); } },
  );
  return attempt;
}

function ask(name, inputs, lang) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error("no answer"));
    }, REQUEST_TIMEOUT_MS);
    pending.set(id, {
      resolve: (view) => { clearTimeout(timer); resolve(view); },
      reject: (error) => { clearTimeout(timer); reject(error); },
    });
    worker.postMessage({ type: "view", id, name, inputs, lang });
  });
}

function formValues(widget) {
  const values = {};
  for (const field of widget.querySelectorAll("form [name]")) values[field.name] = field.value;
  return values;
}

// Writes only what changed: fewer DOM mutations, less style and layout work per keystroke.
function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

// Places HTML built and escaped by Python (widgets/markup.py, widgets/svg.py), only where it changed.
function setHtml(element, html) {
  if (element && element.kwHtml !== html) {
    element.innerHTML = html;
    element.kwHtml = html;
  }
}

function showErrors(widget, errors) {
  for (const slot of widget.querySelectorAll("[data-error-for]")) {
    const message = errors[slot.dataset.errorFor];
    slot.textContent = message || "";
    slot.hidden = !message;
    const field = slot.closest(".kw-field");
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

function apply(widget, view) {
  const status = widget.querySelector("[data-status]");
  widget.dataset.state = "ready";
  if (!view.ok) {
    showErrors(widget, view.errors);
    widget.dataset.stale = "";
    // An error of the whole calculation (key "": "The calculation failed") has no field slot to show in.
    if (status) status.textContent = view.errors[""] || status.dataset.stale;
    return;
  }
  showErrors(widget, {});
  delete widget.dataset.stale;
  const out = (key) => widget.querySelector(`[data-output="${key}"]`);
  for (const [key, text] of Object.entries(view.outputs)) setText(out(key), text);
  setText(out("explanation"), view.explanation);
  for (const [key, html] of Object.entries(view.html)) setHtml(widget.querySelector(`[data-html="${key}"]`), html);
  setText(status, status?.dataset.textReady);
}

async function recompute(widget) {
  try {
    await startWorker();
  } catch {
    return;
  }
  const name = widget.dataset.calculator;
  const lang = widget.dataset.lang;
  const values = formValues(widget);
  try {
    const view = await ask(name, values, lang);
    // Only the latest request of a widget may write its result.
    if (JSON.stringify(formValues(widget)) !== JSON.stringify(values)) return;
    apply(widget, view);
    // history.replaceState costs milliseconds: write the fragment once the reader pauses.
    clearTimeout(widget.kwFragmentTimer);
    if (view.ok) widget.kwFragmentTimer = setTimeout(() => writeFragment(widget, values), 300);
  } catch {
    // The worker died or hung: say so, keep the last result (marked stale: it is for the previous
    // inputs), and start afresh on the next input.
    stopWorker();
    setAll("error");
    widget.dataset.stale = "";
  }
}

// "#<widget id>/name=value;name=value": the reader's numbers, shareable; restored on load.
function writeFragment(widget, values) {
  const defaults = JSON.parse(widget.dataset.defaults || "{}");
  const changed = Object.entries(values).filter(([key, value]) => defaults[key] !== value);
  const fragment = changed.length
    ? `#${widget.id}/${changed.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join(";")}`
    : "";
  if (fragment && location.hash !== fragment) history.replaceState(null, "", fragment);
}

function readFragment() {
  const match = /^#([\w-]+)\/(.+)$/.exec(location.hash);
  if (!match) return null;
  const widget = document.getElementById(match[1]);
  if (!widget || !widget.matches("[data-calculator]")) return null;
  for (const pair of match[2].split(";")) {
    const [rawKey, rawValue = ""] = pair.split("=");
    let key, value;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue).slice(0, 100);
    } catch {
      continue;
    }
    const field = [...widget.querySelectorAll("form [name]")].find((f) => f.name === key);
    if (!field) continue;
    if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === value)) continue;
    field.value = value;
  }
  return widget;
}

for (const widget of widgets) {
  widget.dataset.defaults = JSON.stringify(formValues(widget));
  const form = widget.querySelector("form");
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("input", () => recompute(widget));
  form.addEventListener("change", (event) => {
    // The custom-model fields count only for a custom model: show them when it is chosen.
    const custom = widget.querySelector('[data-group="custom_model"]');
    if (custom && event.target.name === "model") custom.open = event.target.value === "custom";
    recompute(widget);
  });
  for (const type of ["focusin", "pointerenter", "touchstart"]) {
    widget.addEventListener(type, () => startWorker().catch(() => {}), { once: true, passive: true });
  }
}

if (widgets.length) {
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1000));
  idle(() => {
    if (worker) return; // a reader was quicker than the idle time: that worker is already booting
    try { spawnWorker(); } catch { /* started again, with its error, on the first input */ }
  });
}

const shared = readFragment();
if (shared) {
  shared.scrollIntoView();
  recompute(shared);
}
