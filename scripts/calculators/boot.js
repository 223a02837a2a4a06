// The boot: the worker thread (started at once, spare), the runtime's config and the .wasm compiled by the
// page, the reader's line as the worker last judged it (remembered for the origin), the download progress,
// and the states every widget goes through while Python starts. Requests are requests.js's.

import { setAll, setState, showShare } from "./rendering.js";
import { widgets } from "./page-widgets.js";
import { compiling, runtimeFiles } from "../../overrides/assets/javascripts/runtime-files.js";

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
export const LIMITS = { stall: 15000, request: 5000, snapshotStall: 5000, ...globalThis.kwLimits };

// The last judgement of the reader's line (calculator-worker.js, chooseBoot), remembered for the origin
// with its age: a page whose Pyodide comes from a cache cannot judge the line, and must not guess. It is
// forgotten after LINE_MAX_AGE_MS or when the browser's connection type changes (Wi-Fi to mobile).
const LINE_KEY = "kw-line";
const LINE_MAX_AGE_MS = 30 * 60 * 1000;
const html = document.documentElement;
/** @type {Worker | null} */
let worker = null;
/** @type {Promise<void> | null} */
let booted = null;
let abortBoot = null; // aborts the page's own downloads of the boot under way
let everReady = false; // once a worker answered, a later failure is "stopped", not "could not start"

/** The worker that answers, once booted (null before, and after it stopped). */
export function current() {
  return booted ? worker : null;
}

/** Whether a worker has ever been ready on this page: a later failure is "failed", not "could not start". */
export function wasEverReady() {
  return everReady;
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
export function failure(reason, message) {
  return Object.assign(new Error(message), { reason });
}

// Forget the worker (crashed, killed, hung or never booted): the next request starts a new one.
export function stopBoot() {
  worker?.terminate(); // its own downloads end with it
  abortBoot?.();
  abortBoot = null;
  worker = null;
  booted = null;
}

// The worker thread itself (5 KB over the wire; it downloads nothing until told to boot) is started before
// any input, so that a reader's first input does not also wait for a thread to start (bench --network,
// warm visits at 10 Mbit/s: first result 0.68 s instead of 0.84 s, medians of 5; started when the browser
// was idle, it was not there yet for an input at DOMContentLoaded). The first one is the page's <head>'s
// (overrides/partials/javascripts/kw-worker.html: started while the page parses), adopted here; a restart
// starts one here.
let spare = null;

export function spawnWorker() {
  if (!spare) {
    const fromHead = globalThis.kwWorker;
    globalThis.kwWorker = undefined; // adopted once
    spare = fromHead ?? new Worker(
      new URL("assets/javascripts/calculator-worker.js", runtimeFiles()?.root ?? location.href), { type: "module" });
    // A script that cannot load fails the worker before anyone asked it anything: remember that (the
    // head's worker does it itself: it may fail before this script runs).
    const failed = spare;
    if (!fromHead) {
      failed.addEventListener("error", (event) => { failed.kwFailed = event.message || "worker script failed"; });
    }
  }
  return spare;
}

// What the reader asked for: Save-Data or a 2G connection means no snapshot now and none for later.
// Whether the line is fast enough for the snapshot is the worker's to find out (RATE).
function frugal() {
  const connection = navigator.connection;
  return Boolean(connection?.saveData) || /2g/.test(connection?.effectiveType ?? "");
}

// The share of the .wasm (its decoded bytes) after which the worker is told to ask for the standard library
// of a plain boot ("wasm-tail"): the line then carries both, with no round trip of silence between them, and
// the .wasm still ends first, so Pyodide's module is created while the standard library arrives. The last
// 15 % are about half the standard library's bytes (gzip or brotli). bench --network, 10 Mbit/s, 8 pairs
// of cold visits, with the wheels unpacked from the bytes at hand (calculator-worker.js): the first result
// 140 ms sooner (median), in every pair.
const WASM_TAIL = 0.85;

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
  showShare(total ? Math.min(99, Math.floor((100 * loaded) / total)) : null);
}

// The .wasm, compiled while it downloads (its bytes counted for the progress): the download early.js
// started on a shared link's page, once, taken over with its compilation, or one of its own. A host that
// does not send the application/wasm type (an old mime.types, a bare object store) still gets the bytes
// compiled, once they are all there (compiling()).
async function compileWasm(href, total, signal, onProgress) {
  const early = globalThis.kwWasm;
  globalThis.kwWasm = undefined; // taken over once: a restarted worker's boot downloads it again
  if (early) signal.addEventListener("abort", early.abort);
  const { response, compiled } = early ? await early.started : compiling(await fetch(href, { signal }));
  if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
  const chunks = [];
  const counted = (async () => {
    const reader = response.body.getReader();
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      if (!compiled) chunks.push(value);
      loaded += value.byteLength;
      onProgress(loaded, Math.max(total, loaded));
    }
  })();
  if (!compiled) return WebAssembly.compile(await new Blob(await counted).arrayBuffer());
  counted.catch(() => {}); // the copy's reader fails with the download, which the compilation reports
  return compiled;
}

/**
 * Start the worker and boot Python in it, once (the boot under way is returned while it lasts): every
 * widget loads meanwhile and says so if it fails. The worker's replies to requests go to `onReply`; a
 * worker that dies after its boot goes to `onCrash` (requests.js answers both).
 * @param {{onReply: (reply: ViewReply) => void, onCrash: (error: Error) => void}} handlers
 * @returns {Promise<void>}
 */
export function startWorker({ onReply, onCrash }) {
  if (booted) return booted;
  // Every widget loads; after a worker's restart, one whose request failed keeps saying so until its next
  // input (recompute()) is answered.
  for (const widget of widgets) if (!everReady || widget.dataset.state !== "error") setState(widget, "loading");
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
        html.dataset.kwRuntimeSnapshot = data.snapshot; // held, made here, or downloaded...
        if (data.madeError) html.dataset.kwMadeError = data.madeError; // ...because making one failed: why
      } else if (data.type === "keep-failed") {
        // The page works on; its next page boots plain from the cache. The reason is the trace.
        html.dataset.kwRuntime = "not-kept";
        html.dataset.kwRuntimeError = data.message;
      } else if (data.type === "view") {
        onReply(data);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const error = failure("crashed", event.message || "worker error");
      if (!ready) fail(error);
      else if (worker === current) onCrash(error); // died after its boot: a new one answers instead
    };
    // The self-hosted runtime's files (written by the build, wiki/runtime.py).
    const runtime = runtimeFiles();
    if (!runtime) {
      fail(failure("script", "no runtime configuration (#kw-runtime) on this page"));
      return;
    }
    /** @type {Boot} */
    const bootMessage = { type: "boot", ...runtime.files, frugal: frugal(), line: rememberedLine(),
      snapshotStallMs: LIMITS.snapshotStall };
    worker.postMessage(bootMessage);
    // The .wasm compiles from here, at once (or early.js's download and compilation, if a shared link
    // started them), while the worker imports Pyodide's JavaScript, and the compiled module is handed over.
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
      stopBoot();
      setAll("error", everReady ? "failed" : "error", error);
    },
  );
  return attempt;
}
