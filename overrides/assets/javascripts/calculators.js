// Generated from scripts/calculators/*.js by `python3 build.py bundle` (wiki/page_bundle.py): do not edit.

// scripts/calculators/page-widgets.js
var widgets = (
  /** @type {WidgetElement[]} */
  [...document.querySelectorAll("[data-calculator]")]
);
var workload = widgets.find((widget) => widget.dataset.calculator === "workload") ?? null;
var states = /* @__PURE__ */ new WeakMap();
var placed = /* @__PURE__ */ new WeakMap();
function stateOf(widget) {
  let found = states.get(widget);
  if (!found) states.set(widget, found = {});
  return found;
}
function parts(widget) {
  const kept = stateOf(widget);
  if (!kept.parts) {
    const by = (attribute) => Object.fromEntries([...widget.querySelectorAll(`[${attribute}]`)].map(
      (element) => [
        element.getAttribute(attribute),
        /** @type {HTMLElement} */
        element
      ]
    ));
    const fields = (
      /** @type {(HTMLInputElement | HTMLSelectElement)[]} */
      [...widget.querySelectorAll("form [name]")]
    );
    kept.parts = { fields, output: by("data-output"), html: by("data-html") };
  }
  return kept.parts;
}
function formValues(widget) {
  const values = {};
  for (const field of parts(widget).fields) values[field.name] = field.value;
  return values;
}
function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}
function setHtml(element, html3) {
  if (element && placed.get(element) !== html3) {
    element.innerHTML = html3;
    placed.set(element, html3);
  }
}
function setField(widget, key, value) {
  const field = (
    /** @type {HTMLInputElement | HTMLSelectElement | null} */
    widget.querySelector(`form [name="${CSS.escape(key)}"]`)
  );
  if (field && value !== void 0 && field.value !== value) field.value = value;
}

// scripts/calculators/rendering.js
function markError(widget, error) {
  widget.dataset.error = error?.reason || "unknown";
  widget.dataset.errorDetail = String(error?.message ?? error ?? "");
}
function setState(widget, state, text = state) {
  const kept = stateOf(widget);
  widget.dataset.state = state;
  const status = (
    /** @type {HTMLElement | null} */
    widget.querySelector("[data-status]")
  );
  const message = status?.dataset[`text${text[0].toUpperCase()}${text.slice(1)}`];
  if (status && message) status.textContent = message;
  if (state === "error") {
    if (kept.pending) kept.alert = status?.dataset.textLink;
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
function showAlert(widget) {
  const kept = stateOf(widget);
  const alert = (
    /** @type {HTMLElement | null} */
    widget.querySelector("[data-alert]")
  );
  const status = (
    /** @type {HTMLElement | null} */
    widget.querySelector("[data-status]")
  );
  if (!alert || !status) return;
  const { state, stale, invalid, progress: share } = widget.dataset;
  let message = "";
  if (invalid !== void 0) message = kept.summary;
  else if (state === "loading" && (stale !== void 0 || kept.pending)) message = status.dataset.textLoading;
  else if (kept.alert) message = kept.alert;
  else if (stale !== void 0) message = status.dataset.stale;
  setText(alert.querySelector("[data-alert-text]"), message || "");
  alert.hidden = !message;
  const bar = alert.querySelector("progress");
  if (bar) {
    bar.hidden = !(state === "loading" && share !== void 0);
    if (share !== void 0) bar.value = Number(share);
  }
}
function showShare(share) {
  for (const widget of widgets) {
    if (share === null) delete widget.dataset.progress;
    else widget.dataset.progress = String(share);
    showAlert(widget);
  }
}
function showErrors(widget, errors) {
  const kept = stateOf(widget);
  const shown = JSON.stringify(errors);
  if (kept.errors === shown) return;
  kept.errors = shown;
  for (
    const slot of
    /** @type {NodeListOf<HTMLElement>} */
    widget.querySelectorAll("[data-error-for]")
  ) {
    const message = errors[slot.dataset.errorFor];
    slot.textContent = message || "";
    slot.hidden = !message;
    const field = (
      /** @type {HTMLElement | null} */
      slot.closest(".kw-field")
    );
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
function applyControls(widget, controls) {
  const kept = stateOf(widget);
  const shown = JSON.stringify(controls);
  if (kept.controls === shown) return;
  kept.controls = shown;
  const custom = (
    /** @type {HTMLDetailsElement | null} */
    widget.querySelector('[data-group="custom_model"]')
  );
  const customField = (
    /** @type {HTMLInputElement | HTMLSelectElement | null | undefined} */
    custom?.querySelector("[name]")
  );
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
function showNotices(widget, notices) {
  const slot = (
    /** @type {HTMLElement | null} */
    widget.querySelector("[data-link-notice]")
  );
  if (!slot) return;
  setText(slot, notices.join(" "));
  slot.hidden = !notices.length;
}
function apply(widget, view) {
  const kept = stateOf(widget);
  const status = (
    /** @type {HTMLElement | null} */
    widget.querySelector("[data-status]")
  );
  widget.dataset.state = "ready";
  kept.alert = "";
  clearTimeout(kept.staleTimer);
  const pendingLink = kept.pending;
  kept.pending = null;
  const linked = Object.keys(pendingLink?.values || {});
  if (pendingLink) showNotices(widget, view.notices);
  applyControls(widget, view.controls);
  if (view.ok === false) {
    for (const key of linked) if (key in view.inputs) setField(widget, key, view.inputs[key]);
    showErrors(widget, view.errors);
    widget.dataset.stale = "";
    widget.dataset.invalid = "";
    kept.summary = view.summary;
    if (status) status.textContent = view.errors[""] || status.dataset.stale;
    showAlert(widget);
    return;
  }
  for (const key of linked) setField(widget, key, view.inputs[key]);
  showErrors(widget, {});
  delete widget.dataset.stale;
  delete widget.dataset.invalid;
  kept.shown = JSON.stringify(formValues(widget));
  kept.neutral = view.neutral;
  const { output, html: slots } = parts(widget);
  for (const [key, text] of Object.entries(view.outputs)) setText(output[key], text);
  setText(output.explanation, view.explanation);
  for (const [key, html3] of Object.entries(view.html)) setHtml(slots[key], html3);
  setText(status, status?.dataset.textReady);
  showAlert(widget);
}

// overrides/assets/javascripts/runtime-files.js
function runtimeFiles() {
  const element = document.getElementById("kw-runtime");
  if (!element) return null;
  const runtime = (
    /** @type {RuntimeConfig} */
    JSON.parse(element.textContent || "{}")
  );
  const root = new URL(`${element.dataset.root || "."}/`, location.href);
  const url = (path) => new URL(path, root).href;
  return {
    root,
    wasm: url(runtime.wasm),
    wasmBytes: runtime.wasm_bytes || 0,
    files: {
      pyodide: url(runtime.pyodide),
      loader: url(runtime.loader),
      asm: url(runtime.asm),
      lock: url(runtime.lock),
      snapshot: url(runtime.snapshot),
      stdlib: url(runtime.stdlib),
      stdlib_later: url(runtime.stdlib_later),
      wheels: (runtime.wheels || []).map(url),
      packages: runtime.packages
    }
  };
}
function compiling(response) {
  if (!response.ok || !(response.headers.get("Content-Type") || "").startsWith("application/wasm")) return { response };
  const copy = response.clone();
  const compiled = WebAssembly.compileStreaming(response);
  compiled.catch(() => {
  });
  return { response: copy, compiled };
}

// scripts/calculators/boot.js
var LIMITS = { stall: 15e3, request: 5e3, snapshotStall: 5e3, ...globalThis.kwLimits };
var LINE_KEY = "kw-line";
var LINE_MAX_AGE_MS = 30 * 60 * 1e3;
var html = document.documentElement;
var worker = null;
var booted = null;
var abortBoot = null;
var everReady = false;
function current() {
  return booted ? worker : null;
}
function wasEverReady() {
  return everReady;
}
function rememberedLine() {
  try {
    const line = JSON.parse(localStorage.getItem(LINE_KEY) || "null");
    const age = Date.now() - (line?.at ?? NaN);
    if (!(age >= 0 && age <= LINE_MAX_AGE_MS) || line.type !== (navigator.connection?.effectiveType ?? null)) {
      return null;
    }
    return { fast: Boolean(line.fast), rate: line.rate, from: line.from, age };
  } catch {
    return null;
  }
}
function rememberLine({ fast, rate, from }) {
  html.dataset.kwLine = fast ? "fast" : "slow";
  try {
    localStorage.setItem(LINE_KEY, JSON.stringify({
      fast,
      rate,
      from,
      at: Date.now(),
      type: navigator.connection?.effectiveType ?? null
    }));
  } catch {
  }
}
function failure(reason, message) {
  return Object.assign(new Error(message), { reason });
}
function stopBoot() {
  worker?.terminate();
  abortBoot?.();
  abortBoot = null;
  worker = null;
  booted = null;
}
var spare = null;
function spawnWorker() {
  if (!spare) {
    const fromHead = globalThis.kwWorker;
    globalThis.kwWorker = void 0;
    spare = fromHead ?? new Worker(
      new URL("assets/javascripts/calculator-worker.js", runtimeFiles()?.root ?? location.href),
      { type: "module" }
    );
    const failed = spare;
    if (!fromHead) {
      failed.addEventListener("error", (event) => {
        failed.kwFailed = event.message || "worker script failed";
      });
    }
  }
  return spare;
}
function frugal() {
  const connection = navigator.connection;
  return Boolean(connection?.saveData) || /2g/.test(connection?.effectiveType ?? "");
}
var WASM_TAIL = 0.85;
var progress = { page: [0, 0], worker: [0, 0] };
function resetProgress() {
  progress.page = [0, 0];
  progress.worker = [0, 0];
  showProgress();
}
function showProgress() {
  const loaded = progress.page[0] + progress.worker[0];
  const total = progress.page[1] + progress.worker[1];
  showShare(total ? Math.min(99, Math.floor(100 * loaded / total)) : null);
}
async function compileWasm(href, total, signal, onProgress) {
  const early = globalThis.kwWasm;
  globalThis.kwWasm = void 0;
  if (early) signal.addEventListener("abort", early.abort);
  const { response, compiled } = early ? await early.started : compiling(await fetch(href, { signal }));
  if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
  const chunks = [];
  const counted = (async () => {
    const reader = response.body.getReader();
    let loaded = 0;
    for (; ; ) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      if (!compiled) chunks.push(value);
      loaded += value.byteLength;
      onProgress(loaded, Math.max(total, loaded));
    }
  })();
  if (!compiled) return WebAssembly.compile(await new Blob(await counted).arrayBuffer());
  counted.catch(() => {
  });
  return compiled;
}
function startWorker({ onReply: onReply2, onCrash }) {
  if (booted) return booted;
  for (const widget of widgets) if (!everReady || widget.dataset.state !== "error") setState(widget, "loading");
  const downloads = new AbortController();
  abortBoot = () => downloads.abort();
  resetProgress();
  let ready = false;
  const attempt = new Promise((resolve, reject) => {
    let timer = null;
    const fail = (error) => {
      clearTimeout(timer);
      reject(error);
    };
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
    const current2 = worker;
    worker.onmessage = ({ data }) => {
      if (data.type === "ready") {
        clearTimeout(timer);
        ready = true;
        html.dataset.kwBoot = data.via;
        html.dataset.kwBootReason = data.reason;
        if (data.snapshotError) html.dataset.kwSnapshotError = data.snapshotError;
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
        html.dataset.kwRuntime = "kept";
        html.dataset.kwRuntimeSnapshot = data.snapshot;
        if (data.madeError) html.dataset.kwMadeError = data.madeError;
      } else if (data.type === "keep-failed") {
        html.dataset.kwRuntime = "not-kept";
        html.dataset.kwRuntimeError = data.message;
      } else if (data.type === "view") {
        onReply2(data);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const error = failure("crashed", event.message || "worker error");
      if (!ready) fail(error);
      else if (worker === current2) onCrash(error);
    };
    const runtime = runtimeFiles();
    if (!runtime) {
      fail(failure("script", "no runtime configuration (#kw-runtime) on this page"));
      return;
    }
    const bootMessage = {
      type: "boot",
      ...runtime.files,
      frugal: frugal(),
      line: rememberedLine(),
      snapshotStallMs: LIMITS.snapshotStall
    };
    worker.postMessage(bootMessage);
    const target = worker;
    let tailTold = false;
    compileWasm(runtime.wasm, runtime.wasmBytes, downloads.signal, (loaded, total) => {
      progress.page = [loaded, total];
      showProgress();
      moved();
      if (!tailTold && loaded >= WASM_TAIL * total) {
        tailTold = true;
        target.postMessage({ type: "wasm-tail" });
      }
    }).then(
      (module) => target.postMessage({ type: "wasm", module }),
      (error) => target.postMessage({ type: "wasm", error: String(error?.message ?? error) })
    );
  });
  booted = attempt;
  attempt.then(
    () => {
      if (booted !== attempt) return;
      abortBoot = null;
      resetProgress();
      everReady = true;
      for (const widget of widgets) if (widget.dataset.state === "loading") setState(widget, "ready");
    },
    (error) => {
      if (booted !== attempt) return;
      stopBoot();
      setAll("error", everReady ? "failed" : "error", error);
    }
  );
  return attempt;
}

// overrides/assets/javascripts/links.js
var SEGMENT = /^([\w-]+)(?:~([a-z]{2,3}(?:_[A-Z]{2})?))?\/(.*)$/;
var STATE = /^#[\w-]+(?:~[\w-]+)?\//;
var NEUTRAL = "neutral";
var MAX_VALUE = 100;
var MAX_PAIRS = 64;
function isState(hash) {
  return STATE.test(hash);
}
function readLink(hash) {
  if (!isState(hash)) return [];
  const segments = [];
  for (const text of hash.slice(1).split("&")) {
    const match = SEGMENT.exec(text);
    if (!match) continue;
    const values = {};
    for (const pair of match[3].split(";").filter(Boolean).slice(0, MAX_PAIRS)) {
      const at = pair.indexOf("=");
      const [rawKey, rawValue] = at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
      try {
        values[decodeURIComponent(rawKey)] = decodeURIComponent(rawValue).slice(0, MAX_VALUE);
      } catch {
        continue;
      }
    }
    segments.push({ id: match[1], form: match[2] || NEUTRAL, values });
  }
  return segments;
}
function writeLink(segments) {
  const texts = segments.map(({ id, form, values }) => {
    const pairs = Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
    return `${id}${form && form !== NEUTRAL ? `~${form}` : ""}/${pairs.join(";")}`;
  });
  return texts.length ? `#${texts.join("&")}` : "";
}

// scripts/calculators/follow.js
function follow(recompute2) {
  const neutral = workload && stateOf(workload).neutral;
  if (!neutral) return;
  const presets = JSON.parse(workload.dataset.presets || "{}");
  const changed = Object.entries(neutral).filter(([key, value]) => presets[key] !== value);
  for (const widget of widgets) {
    const kept = stateOf(widget);
    if (widget === workload || kept.own) continue;
    const values = {};
    for (const [key, value] of changed) {
      const field = (
        /** @type {HTMLSelectElement | HTMLInputElement | null} */
        widget.querySelector(`form [name="${CSS.escape(key)}"]`)
      );
      if (!field) continue;
      if (field instanceof HTMLSelectElement && ![...field.options].some((o) => o.value === String(value))) continue;
      values[key] = value;
    }
    const followed = JSON.stringify(values);
    if (followed === (kept.followed ?? "{}")) continue;
    kept.followed = followed;
    widget.querySelector("form").reset();
    kept.pending = { form: NEUTRAL, values };
    recompute2(widget);
  }
}

// scripts/calculators/link-state.js
var fragmentTimer = null;
function writeSoon() {
  clearTimeout(fragmentTimer);
  fragmentTimer = setTimeout(() => writeFragment(), 300);
}
function cancelWrite() {
  clearTimeout(fragmentTimer);
}
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
    if (workload && widget !== workload && !stateOf(widget).own && widget !== first) continue;
    const carried = segment(widget);
    if (widget === first) segments.unshift(carried || { id: widget.id, values: {} });
    else if (carried) segments.push(carried);
  }
  if (first && segments.length === 1 && !Object.keys(segments[0].values).length) return `#${first.id}`;
  return writeLink(segments);
}
function writeFragment(first = null) {
  const written = fragment(first);
  const hash = isState(written) ? written : "";
  if (hash === location.hash || !hash && !isState(location.hash)) return;
  history.replaceState(history.state, "", hash || location.pathname + location.search);
}
function readFragment(hash) {
  const found = /* @__PURE__ */ new Map();
  for (const { id, form, values } of readLink(hash)) {
    const widget = document.getElementById(id);
    if (!widget || !widget.matches("[data-calculator]") || found.has(widget)) continue;
    found.set(widget, { form, values });
  }
  return found;
}
function applyFragment(hash, { scroll }, recompute2) {
  const found = readFragment(hash);
  for (const widget of widgets) {
    const kept = stateOf(widget);
    const link = found.get(widget);
    const values = link && Object.keys(link.values).length ? link : null;
    kept.own = Boolean(values) && widget !== workload;
    kept.followed = void 0;
    showNotices(widget, []);
    if (values) {
      widget.querySelector("form").reset();
      kept.pending = values;
      recompute2(widget);
    } else if (kept.neutral && JSON.stringify(formValues(widget)) !== widget.dataset.defaults) {
      widget.querySelector("form").reset();
      recompute2(widget);
    }
  }
  const [first] = found.keys();
  if (scroll && first) first.scrollIntoView();
  return found.size > 0;
}
async function copyLink(widget) {
  const button = (
    /** @type {HTMLElement | null} */
    widget.querySelector("[data-copy-link]")
  );
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

// scripts/calculators/requests.js
var html2 = document.documentElement;
var answered = false;
var nextId = 1;
var pending = /* @__PURE__ */ new Map();
function onReply(reply) {
  answered = true;
  const request = pending.get(reply.id);
  pending.delete(reply.id);
  if (reply.view) request?.resolve(reply.view);
  else request?.reject(failure(reply.reason || "python", reply.error));
}
var handlers = { onReply, onCrash: restartWorker };
function ensureWorker() {
  if (!current()) answered = false;
  return startWorker(handlers);
}
function stopWorker() {
  stopBoot();
  answered = false;
  for (const entry of pending.values()) clearTimeout(entry.timer);
}
var restarting = null;
function restartWorker(error) {
  if (restarting) return;
  const waiting = [...pending.values()];
  for (const entry of waiting.filter(({ tries }) => tries >= 2)) {
    pending.delete(entry.message.id);
    entry.reject(error);
  }
  const again = waiting.filter(({ tries }) => tries < 2);
  html2.dataset.kwWorkerRestarts = String(Number(html2.dataset.kwWorkerRestarts || 0) + 1);
  html2.dataset.kwWorkerError = `${error.reason}: ${error.message}`;
  stopWorker();
  if (!again.length) return;
  restarting = ensureWorker().then(
    () => {
      for (const entry of again) if (pending.has(entry.message.id)) send(entry);
    },
    (bootError) => {
      for (const entry of again) {
        pending.delete(entry.message.id);
        entry.reject(bootError);
      }
    }
  ).finally(() => {
    restarting = null;
  });
}
function send(entry) {
  entry.tries += 1;
  clearTimeout(entry.timer);
  entry.timer = setTimeout(
    () => restartWorker(failure("timeout", "no answer")),
    answered ? LIMITS.request : LIMITS.stall
  );
  current().postMessage(entry.message);
}
function ask(name, inputs, lang, link) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const message = { type: "view", id, name, inputs, lang, ...link ? { link } : {} };
    const entry = { message, tries: 0, timer: null };
    entry.resolve = (view) => {
      clearTimeout(entry.timer);
      resolve(view);
    };
    entry.reject = (error) => {
      clearTimeout(entry.timer);
      reject(error);
    };
    pending.set(id, entry);
    send(entry);
  });
}

// scripts/calculators/calculators.js
async function recompute(widget) {
  const kept = stateOf(widget);
  const sent = formValues(widget);
  const request = kept.request = (kept.request || 0) + 1;
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
    return;
  }
  const name = widget.dataset.calculator;
  const lang = widget.dataset.lang;
  try {
    const view = await ask(name, sent, lang, kept.pending);
    if (request !== kept.request) return;
    apply(widget, view);
    if (widget === workload && view.ok) follow(recompute);
    if (view.ok) writeSoon();
    else cancelWrite();
  } catch (error) {
    if (request !== kept.request) return;
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
    kept.own = true;
    kept.pending = null;
    showNotices(widget, []);
    recompute(widget);
  });
  form.addEventListener("change", (event) => {
    const custom = (
      /** @type {HTMLDetailsElement | null} */
      widget.querySelector('[data-group="custom_model"]')
    );
    const field = (
      /** @type {HTMLInputElement | HTMLSelectElement} */
      event.target
    );
    if (custom && field.name === "model") custom.open = field.value === "custom";
    kept.own = true;
    kept.pending = null;
    showNotices(widget, []);
    recompute(widget);
  });
  for (const type of ["focusin", "pointerenter", "touchstart"]) {
    widget.addEventListener(type, () => ensureWorker().catch(() => {
    }), { once: true, passive: true });
  }
  const tools = (
    /** @type {HTMLElement | null} */
    widget.querySelector("[data-tools]")
  );
  if (tools) tools.hidden = false;
  widget.querySelector("[data-copy-link]")?.addEventListener("click", () => copyLink(widget));
}
if (widgets.length) {
  try {
    spawnWorker();
  } catch {
  }
  applyFragment(location.hash, { scroll: true }, recompute);
  window.addEventListener("hashchange", (event) => {
    cancelWrite();
    const hash = new URL(event.newURL).hash;
    if (isState(hash)) applyFragment(hash, { scroll: true }, recompute);
  });
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
