// Module Web Worker running the calculators' Python in Pyodide (self-hosted, same origin only).
// Boot: from a memory snapshot (fast: the build's, or one an earlier page made), else a plain boot with
// our wheels. The snapshot streams in while Pyodide's module is created, so the slowest of (download,
// compile, module set-up) sets the pace, not their sum. Which boot a page gets, and why, is
// chooseBoot()'s: a page never waits for a snapshot it does not have, and the line is judged only on
// bytes that crossed it. A shared link's page asks for the first steps of a boot from a snapshot made here
// before its page script sends the boot (Prepare, prepare()).
// Once a plain boot is over (its first answer, settle()) the worker keeps a snapshot for the next page
// (keepSnapshot): it makes one of its own interpreter, pre-warmed as the build's is, into this origin's
// Cache Storage (makeSnapshot: no byte crosses the line, ~0.2 s of this thread); where it cannot, it
// downloads the build's, in the background, paused while any page of this origin boots, resumed where it
// stopped (the HTTP cache keeps a download that was cut off and asks the host for the rest with a Range
// request).
// Protocol (the messages both ways, the view it returns, the error reply): widgets/protocol.py, the one
// description of it. The worker returns plain data (the view of widgets/view.py); the page places it.

/**
 * Send the page one message of the protocol (types/protocol.d.ts, generated from widgets/protocol.py).
 * @param {WorkerMessage} message
 */
function tell(message) {
  postMessage(message);
}

const SNAPSHOT_MAGIC = 1886286592; // first u32 of a Pyodide memory snapshot
// Memory grown once at boot, beyond the snapshot: growing it later (as caches fill) stalls a keystroke.
const HEAP_HEADROOM = 64 * 2 ** 20;
// A download reports to the page at least this often while bytes arrive (and at its end), however slow the
// line: the page gives a boot up only when it stops moving, and 256 KB could take longer than that on a
// slow line (at 140 kbit/s, 15 s: a boot that was still arriving was declared "could not start").
const PROGRESS_MS = 250;
// A snapshot download that delivers no byte for this long is dropped and the boot goes plain, which needs
// other files: well before the page's own limit (15 s without any progress), which would end the boot.
// The page may pass a shorter one (its test hook, calculators.js LIMITS).
const SNAPSHOT_STALL_MS = 5000;
// Pages of this origin that are booting hold this lock (shared) until their first answer; the snapshot's
// keeping waits while any does, and pauses when one starts ("booting" on CHANNEL), as does the service
// worker's copying into its cache (sw.js): neither competes with a page that boots, in this tab or another.
// Any site of the origin shares the reader's line, so one name.
const BOOT_LOCK = "kw-boot";
// Held while a worker downloads a file to keep it (keepFile). Another page's "held" answer for that file
// would join the unfinished download in the HTTP cache and wait for its bytes over the reader's line.
const KEEP_LOCK = "kw-keep";
const channel = "BroadcastChannel" in globalThis ? new BroadcastChannel("kw-runtime") : null;
let python = null;
// The page compiles pyodide.asm.wasm (compileStreaming: it checks the MIME type, and Chromium's wasm
// code cache serves warm visits) and posts the module, or the error, right after the boot message.
let wasmFromPage;
const compiledWasm = new Promise((resolve, reject) => { wasmFromPage = { resolve, reject }; });
compiledWasm.catch(() => {}); // awaited by the boot, which says what failed
// Resolved when the page's .wasm download is in its last part ("wasm-tail", boot.js WASM_TAIL).
let wasmTailFromPage = () => {};
const wasmTail = new Promise((resolve) => { wasmTailFromPage = () => resolve(undefined); });
let restoreFiles = null; // puts back files the boot left out (the whole stdlib...), on demand

// Pyodide only console.warn()s when WebAssembly fails to instantiate (for instance a .wasm served
// with the wrong MIME type) and loadPyodide() then never settles: turn that into a rejection.
function failOnWasmWarning(promise) {
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const warn = console.warn;
  console.warn = (...args) => {
    if (String(args[0]).includes("wasm instantiation failed")) fail(new Error(String(args[0])));
    warn.apply(console, args);
  };
  return Promise.race([promise, failed]).finally(() => { console.warn = warn; });
}

/** Whether a worker of this origin is downloading a file to keep (KEEP_LOCK); false without Web Locks. */
async function keeping() {
  try {
    const { held: holding = [] } = (await navigator.locks?.query()) ?? {};
    return holding.some((lock) => lock.name === KEEP_LOCK);
  } catch {
    return false; // a lock manager that refuses (an opaque origin): the "booting" message still pauses it
  }
}

/**
 * The response of `url` from this browser's caches (HTTP cache, or the service worker's), or null:
 * `only-if-cached` never touches the network, and a download that was cut off does not count.
 * @param {string} url
 * @returns {Promise<Response|null>}
 */
async function held(url) {
  try {
    const response = await fetch(url, { cache: "only-if-cached", mode: "same-origin" });
    return response.ok ? response : null;
  } catch {
    return null; // not held: only-if-cached rejects rather than go to the network, and "not held" is the answer
  }
}

/**
 * Whether every file a plain boot reads besides Pyodide's own is held (held()).
 * @param {Boot} config
 */
async function plainHeld(config) {
  const responses = await Promise.all([config.stdlib, config.stdlib_later, ...config.wheels].map(held));
  for (const response of responses) {
    // Only asked whether it is there: the boot reads it again (from the same cache).
    response?.body?.cancel().catch(() => {}); // a body that cannot be cancelled is read by no one: nothing lost
  }
  return responses.every(Boolean);
}

// Is the line fast enough for the memory snapshot? It moves ~5 MB more than a plain boot (the stdlib
// and the wheels) and saves ~1 s of Python start-up (bench --network: at 10 Mbit/s the plain boot is
// sooner, at 50 the snapshot). Judged on bytes that crossed the line, never on bytes from a cache
// (a page after the first reads Pyodide's JavaScript from a cache at memory speed: judged on that, a
// 10 Mbit/s line passed for a fast one and the next page fetched the snapshot over it):
// - Pyodide's JavaScript, which both boots need first, when it comes over the network: fast when its
//   1.25 MB (decoded; 0.26 MB of gzip) arrive at RATE or more, from its first byte on (~40 Mbit/s on a
//   line it shares with the .wasm; the round trip and a busy host's delay before it are left out);
// - the snapshot's own download when it is kept (keepSnapshot), alone on the line: FAST_LINE or more.
// The page remembers the last judgement for the origin, with its age (calculators.js, `line`), so that a
// page whose Pyodide comes from a cache does not guess. Judged here, not on the page: the page's thread is
// busy when a reader first acts (loopback: its verdict on the .wasm's bytes came 0.3-0.6 s late).
const RATE = 8000; // decoded bytes per ms of Pyodide's JavaScript
const FAST_LINE = 5000; // bytes per ms over the line (~40 Mbit/s)

/**
 * How `url`'s last download crossed the network (Resource Timing), or null when its bytes came from a
 * cache or through a service worker (which cannot say where it got them).
 * @param {string} url
 * @returns {{encoded: number, decoded: number, ms: number}|null}
 */
function crossed(url) {
  const entry = /** @type {PerformanceResourceTiming | undefined} */ (performance.getEntriesByName(url, "resource").at(-1));
  if (!entry || entry.workerStart > 0 || !entry.transferSize || !entry.encodedBodySize) return null;
  const ms = Math.max(1, entry.responseEnd - entry.responseStart);
  // A response the HTTP cache completed (a resumed download) moved fewer bytes than its body: not a sample.
  if (entry.transferSize < entry.encodedBodySize) return null;
  return { encoded: entry.encodedBodySize, decoded: entry.decodedBodySize, ms };
}

// Imported as soon as the worker is asked to boot (the page is already downloading the .wasm). To judge
// the line (`judge`), the larger one is fetched first, timed, then imported from the HTTP cache
// (/pyodide/ is immutable); otherwise both are imported at once.
/** @param {RuntimeFiles} config */
function importModules(config, judge) {
  const asm = judge ? fetch(config.asm).then((response) => response.arrayBuffer()) : Promise.resolve(null);
  const measured = asm.then((bytes) => {
    const sample = bytes && crossed(config.asm);
    if (!sample) return null; // from a cache: nothing to judge
    const judgement = { fast: sample.decoded / sample.ms >= RATE, rate: Math.round(sample.encoded / sample.ms),
      from: "javascript" };
    tell({ type: "line", ...judgement });
    return judgement;
  });
  const modules = Promise.all([import(config.loader), asm.then(() => import(config.asm))])
    .then(([{ loadPyodide }, module]) => ({ loadPyodide, createPyodideModule: module.default }));
  modules.then(() => tell({ type: "step" }), () => {}); // a failed import fails the boot, which says so
  for (const promise of [modules, measured]) promise.catch(() => {}); // awaited by the boot, which says so
  return { modules, measured };
}

/**
 * Which boot, and why (the page puts the reason on html[data-kw-boot-reason]):
 * - "made": an earlier page made one (makeSnapshot): that snapshot;
 * - "held": the build's snapshot is in this browser's caches: that one;
 * - "cached": the plain boot's files are: a plain boot from them, on any line (a page never waits
 *   for a snapshot it does not have; keeping it goes on after the first answer);
 * - "frugal": Save-Data or 2G (config.frugal): plain, and no snapshot downloaded now or later;
 * - "remembered": an earlier page's judgement of the line, still young (config.line): its verdict;
 * - "measured": Pyodide's JavaScript came over the line now: judged on its bytes;
 * - "unknown": it came from a cache and no judgement is remembered: plain, the boot of fewer bytes.
 * @returns {Promise<{via: Ready["via"], reason: Ready["reason"], modules: Promise<object>,
 *   snapshot?: Promise<Response>}>}
 * @param {Boot} config
 */
async function chooseBoot(config) {
  const early = prepared?.lock === config.lock ? prepared : null;
  prepared = null;
  // A snapshot another page is still keeping is not held: reading it would wait for its download.
  const snapshotHeld = keeping().then((busy) => (busy ? null : held(config.snapshot)));
  const plainFiles = plainHeld(config);
  // A made snapshot is the quickest to find (Cache Storage, no lock to ask): found, the boot starts without
  // waiting for the other answers (bench --network, the next page: ~10-35 ms).
  const made = await (early?.made ?? madeSnapshot(config));
  if (made) {
    // Only asked whether it is there: nothing lost.
    snapshotHeld.then((response) => response?.body?.cancel()).catch(() => {});
    return { via: "snapshot", reason: "made", modules: early ? early.modules : importModules(config, false).modules,
      snapshot: Promise.resolve(made) };
  }
  const [snapshot, plain] = await Promise.all([snapshotHeld, plainFiles]);
  const remembered = config.line && typeof config.line.fast === "boolean" ? config.line : null;
  const judge = !snapshot && !plain && !config.frugal && !remembered;
  const { modules, measured } = importModules(config, judge);
  if (snapshot) return { via: "snapshot", reason: "held", modules, snapshot: Promise.resolve(snapshot) };
  if (plain) return { via: "plain", reason: "cached", modules };
  if (config.frugal) return { via: "plain", reason: "frugal", modules };
  // A .wasm that cannot compile (wrong MIME type, blocked) makes both boots impossible: fail at once.
  const wasmFailure = compiledWasm.then(() => new Promise(() => {}));
  const judgement = remembered ?? await Promise.race([measured, wasmFailure]);
  const reason = remembered ? "remembered" : judgement ? "measured" : "unknown";
  if (!judgement?.fast) return { via: "plain", reason, modules };
  return { via: "snapshot", reason, modules, snapshot: watchedFetch(config.snapshot, config.snapshotStallMs) };
}

// What a shared link's page prepared (Prepare, from early.js) before its boot: the snapshot an earlier page
// made, looked up, and, found, Pyodide's JavaScript imported (from a cache: that page booted from it).
// Nothing crosses the line for it, and nothing is done on a page without a made snapshot.
/** @type {{lock: string, made: Promise<Response|null>, modules: Promise<object|null>} | null} */
let prepared = null;
let bootAsked = false;

/** @param {RuntimeFiles} files */
function prepare(files) {
  if (bootAsked) return; // a Prepare after the Boot (early.js ran late): nothing left to prepare
  const made = madeSnapshot(files);
  const modules = made.then((found) => (found ? importModules(files, false).modules : null));
  modules.catch(() => {}); // awaited by the boot, which says what failed
  prepared = { lock: files.lock, made, modules };
}

/**
 * `fetch(url)` given up (and its body errored) when no byte arrives for `stallMs`: a stalled host or line
 * does not hold the boot; a slow one keeps moving. The response's body reports each chunk to the watch.
 * @returns {Promise<Response>}
 */
function watchedFetch(url, stallMs = SNAPSHOT_STALL_MS) {
  const controller = new AbortController();
  let timer = null;
  const moved = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`${url}: stalled`)), stallMs);
  };
  moved();
  return fetch(url, { signal: controller.signal }).then((response) => {
    moved();
    if (!response.body) return response;
    const watch = new TransformStream({
      transform(chunk, stream) {
        moved();
        stream.enqueue(chunk);
      },
      flush() { clearTimeout(timer); },
    });
    return new Response(response.body.pipeThrough(watch), { status: response.status, headers: response.headers });
  }, (error) => {
    clearTimeout(timer);
    throw error;
  });
}

// The modules and, for a snapshot boot, the snapshot, read into its image as it arrives.
function startDownloads(modules, snapshotResponse) {
  let sized;
  const allocated = new Promise((resolve) => { sized = resolve; });
  const snapshot = !snapshotResponse ? Promise.reject(new Error("snapshot: not this boot's"))
    : snapshotResponse.then((response) => {
      if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
      return readSnapshot(counting(response), sized);
    });
  // `image`: the (still empty) snapshot image as soon as its size is known; `snapshot`: the same, filled.
  const image = Promise.race([allocated, snapshot]);
  // Awaited later, or never if an earlier step fails (the boot then falls back): not "unhandled".
  for (const promise of [modules, snapshot, image]) promise.catch(() => {});
  return { modules, image, snapshot, wasm: compiledWasm };
}

/**
 * A reporter of a download's bytes to the page: at most every PROGRESS_MS and at its end, however few
 * bytes came in between (a slow line shows as progress, not as a hang).
 * @param {(loaded: number) => WorkerMessage} message what to post for `loaded` bytes so far
 */
function reporter(message) {
  let loaded = 0;
  let reported = -Infinity;
  return (bytes, done = false) => {
    loaded += bytes;
    const now = performance.now();
    if (done || now - reported >= PROGRESS_MS) {
      reported = now;
      tell(message(loaded));
    }
  };
}

// The response with its bytes reported to the page as they arrive (reporter()). The snapshot is stored
// compressed, so Content-Length is its size.
function counting(response) {
  const total = Number(response.headers.get("Content-Length")) || 0;
  const report = reporter((loaded) => ({ type: "progress", loaded, total: Math.max(total, loaded) }));
  const counter = new TransformStream({
    transform(chunk, controller) {
      report(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush() { report(0, true); },
  });
  return new Response(response.body.pipeThrough(counter), { headers: response.headers });
}

const YIELD_BYTES = 2 ** 20;

// Resolves after the tasks already queued have run (scheduler.yield where the browser has it).
function yieldToTasks() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

// Resolves in a task of its own, after the page's messages already queued (a request the reader made):
// unlike scheduler.yield (yieldToTasks), whose continuation goes before them.
function afterQueuedMessages() {
  return new Promise((resolve) => setTimeout(resolve));
}

// A runtime file's bytes as the boot reads them: the snapshot and the trimmed standard library come
// gzipped from the host (a gzip starts with 0x1f; wiki/runtime.py gzipped_files), the service worker's
// cache keeps them decompressed (sw.js, `kept`). One branch of a tee is read for its first byte and
// dropped; the other carries every byte.
/** @param {ReadableStream} body */
async function inflated(body) {
  const [peek, stream] = body.tee();
  const reader = peek.getReader();
  const { value } = await reader.read();
  reader.cancel();
  return value?.[0] === 0x1f ? stream.pipeThrough(new DecompressionStream("gzip")) : stream;
}

// snapshot.bin is the gzip of a sparse image (snapshot-image.js, sparseImage()): magic, u32 image length,
// u32 segment count, (u32 offset, u32 length) per segment, then the segments' bytes; the rest of the
// image is zeros; a snapshot made here (makeSnapshot) is the same, not gzipped. It is written into the image
// while it arrives (decompressed on the way if need be).
async function readSnapshot(response, onImage) {
  const reader = (await inflated(response.body)).getReader();
  let sinceYield = 0;
  let head = new Uint8Array(0); // header and table, until they are complete
  let image = null;
  let segments = null;
  let index = 0;
  let written = 0; // bytes of segments[index] written so far
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = value;
    // From a cache the chunks come faster than they are written, and the loop would run to its end
    // before any other task: let Pyodide's JavaScript and the compiled .wasm in meanwhile.
    sinceYield += chunk.length;
    if (sinceYield >= YIELD_BYTES) {
      sinceYield = 0;
      await yieldToTasks();
    }
    if (!segments) {
      const joined = new Uint8Array(head.length + chunk.length);
      joined.set(head);
      joined.set(chunk, head.length);
      head = joined;
      if (head.length < 16) continue;
      if (new TextDecoder().decode(head.subarray(0, 8)) !== "KWSPARSE") throw new Error("snapshot: unknown format");
      const view = new DataView(head.buffer);
      const count = view.getUint32(12, true);
      if (head.length < 16 + 8 * count) continue;
      segments = Array.from({ length: count }, (_, i) => [view.getUint32(16 + 8 * i, true),
        view.getUint32(20 + 8 * i, true)]);
      image = new Uint8Array(view.getUint32(8, true));
      onImage(image);
      chunk = head.subarray(16 + 8 * count);
    }
    while (chunk.length) {
      if (index >= segments.length) throw new Error("snapshot: longer than its table");
      const [offset, length] = segments[index];
      const part = Math.min(length - written, chunk.length);
      image.set(chunk.subarray(0, part), offset + written);
      written += part;
      chunk = chunk.subarray(part);
      if (written === length) {
        index += 1;
        written = 0;
      }
    }
  }
  if (!segments || index < segments.length) throw new Error("snapshot: truncated");
  if (image.length < 64 || new Uint32Array(image.buffer, 0, 1)[0] !== SNAPSHOT_MAGIC) {
    throw new Error("snapshot: not a Pyodide snapshot");
  }
  return image;
}

// Pyodide starts with a 30 MiB heap; a larger snapshot needs the heap grown before restoring it.
function growHeap(module, bytes) {
  if (module.HEAP8.length >= bytes) return;
  module._sbrk(bytes - module._sbrk(0));
  if (module.HEAP8.length < bytes) throw new Error("cannot grow the heap for the snapshot");
}

// Pyodide instantiates its .wasm itself (instantiateStreaming, with imports of its own): hand it the
// module being compiled meanwhile instead of compiling it only then.
async function withCompiledWasm(compiled, create) {
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    // Pyodide's own download of the .wasm is not needed (the page compiled it): dropped. One that already
    // failed or ended has nothing left to drop.
    Promise.resolve(source).then((response) => response.body?.cancel()).catch(() => {});
    const module = /** @type {WebAssembly.Module} */ (await compiled);
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  try {
    return await create();
  } finally {
    WebAssembly.instantiateStreaming = original;
  }
}

// While Pyodide starts, it wraps a few hundred JavaScript functions for its function table, compiling one
// tiny WebAssembly module per function (Emscripten's convertJsFunctionToWasm); the module depends only
// on the signature, so one per signature is compiled and the others share it.
async function withSharedAdapters(run) {
  const Module = WebAssembly.Module;
  const compiled = new Map();
  WebAssembly.Module = new Proxy(Module, {
    construct(target, args) {
      const [bytes] = args;
      if (!(bytes instanceof Uint8Array) || bytes.length > 256) return Reflect.construct(target, args);
      const key = String.fromCharCode(...bytes);
      if (!compiled.has(key)) compiled.set(key, new target(/** @type {Uint8Array<ArrayBuffer>} */ (bytes)));
      return compiled.get(key);
    },
  });
  try {
    return await run();
  } finally {
    WebAssembly.Module = Module;
  }
}

// Pyodide waits for the snapshot before it creates its module; it gets the image as soon as its size
// is known instead, and the module is created (and the .wasm instantiated) while the image fills.
/** @param {Boot} config */
async function bootFromSnapshot(config, downloads) {
  const { loadPyodide, createPyodideModule } = await downloads.modules;
  const image = await downloads.image;
  const empty = Promise.resolve(new Response(EMPTY_ZIP));
  const py = await withResponse(EMPTY_STDLIB_URL, empty, () => withSharedAdapters(() => failOnWasmWarning(loadPyodide({
    indexURL: config.pyodide,
    lockFileURL: config.lock,
    packageBaseUrl: new URL(".", config.lock).href, // our wheels sit next to our lock file; never a CDN
    // The restored interpreter has imported all it needs: the 2.5 MB stdlib zip waits (restoreFiles).
    stdLibURL: EMPTY_STDLIB_URL,
    _loadSnapshot: image,
    createPyodideModule: async (settings) => {
      const module = await withCompiledWasm(downloads.wasm, () => createPyodideModule(settings));
      const snapshot = await downloads.snapshot; // the same array as `image`, now complete
      growHeap(module, snapshot.length - new Uint32Array(snapshot.buffer, 0, 2)[1] + HEAP_HEADROOM);
      return module;
    },
  }))));
  py.runPython("import random; random.seed()"); // every restore would otherwise share one random state
  // The snapshot holds memory, not files. Everything is pre-warmed, so the files are only put back
  // if a call ever needs one (a lazy import, a data file); doing it eagerly would delay first results.
  restoreFiles = async () => {
    await putWholeStdlib(py, config);
    await py.loadPackage(config.packages, { messageCallback() {} });
    py.runPython("import importlib; importlib.invalidate_caches()");
  };
  return py;
}

// A plain boot with the trimmed standard library (wiki/runtime.py): the modules our code imports. If a
// call ever needs another one, the whole library is fetched and the call retried (restoreFiles).
// Its files come in the order they are needed, so that each step's work overlaps the next file's
// download instead of all of it waiting for the last byte: the .wasm (Pyodide's module is created
// while the standard library arrives), the standard library Pyodide's start-up imports, asked for
// during the .wasm's last part (boot.js WASM_TAIL: no silent round trip between the two), then the
// rest of it and the wheels (Python starts while they arrive; they are unpacked last).
// bench --network, 10 Mbit/s: the first result ~0.2 s sooner than with all of them at once.
/** @param {Boot} config */
async function bootPlain(config, downloads) {
  const { loadPyodide, createPyodideModule } = await downloads.modules;
  await Promise.race([downloads.wasm, wasmTail]);
  // Pyodide gets the standard library from here, once what comes after it has been asked for: Python's
  // start-up then holds this thread for a while, and those requests would wait for it. They are asked
  // for once the .wasm is in too: sooner, they would share the line with the .wasm and the standard
  // library, which Python needs first.
  let later = /** @type {Promise<Uint8Array[]> | null} */ (null);
  const stdlib = download(config.stdlib).then(async (bytes) => {
    await downloads.wasm;
    later = Promise.all([download(config.stdlib_later), ...config.wheels.map(download)]);
    later.catch(() => {}); // awaited below, where its failure fails the boot
    return new Response(bytes);
  });
  stdlib.catch(() => {}); // raced below (stdlibFailure), where its failure fails the boot
  const stdlibFailure = stdlib.then(() => new Promise(() => {}));
  const started = withResponse(config.stdlib, stdlib, () => loadPyodide({
    indexURL: config.pyodide, lockFileURL: config.lock, packageBaseUrl: new URL(".", config.lock).href,
    stdLibURL: config.stdlib,
    _makeSnapshot: true, // Pyodide tracks what Python holds of JavaScript, so that makeSnapshot() can snapshot it
    createPyodideModule: (settings) => withCompiledWasm(downloads.wasm, () => createPyodideModule(settings)),
  }));
  const py = await Promise.race([stdlibFailure, failOnWasmWarning(started)]);
  const [laterStdlib, ...wheels] = await later;
  const laterPath = stdlibPath(py, "-later");
  py.FS.writeFile(laterPath, laterStdlib);
  py.runPython(`import sys; sys.path.append("${laterPath}")`);
  installWheels(py, wheels);
  restoreFiles = () => putWholeStdlib(py, config);
  return py;
}

// The wheels, unpacked from the bytes the boot downloaded (Pyodide's unpackArchive, as its loadPackage
// does): loadPackage would read them again from the HTTP cache and resolve them through the lock file.
// wiki/stdlib_trim.mjs installs them the same way, so the trimmed standard library has what this needs.
/** @param {Uint8Array[]} wheels */
function installWheels(py, wheels) {
  const site = py.runPython("import site; site.getsitepackages()[0]");
  for (const wheel of wheels) py.unpackArchive(wheel, "wheel", { extractDir: site });
  py.runPython("import importlib; importlib.invalidate_caches()");
}

// Pyodide's whole standard library in place of the one the boot started with (trimmed or empty), for
// a call that needs a module the boot left out; the importers forget the zip they read before.
/** @param {Boot} config */
async function putWholeStdlib(py, config) {
  const whole = await fetch(`${config.pyodide}python_stdlib.zip`).then((r) => r.arrayBuffer());
  py.FS.writeFile(stdlibPath(py), new Uint8Array(whole));
  py.runPython(`import importlib, sys, zipimport
getattr(zipimport, "_zip_directory_cache", {}).clear()
sys.path_importer_cache.clear()
importlib.invalidate_caches()`);
}

// A standard library zip in Pyodide's file system, by the interpreter's version: /lib/python3XY<suffix>.zip
// (without a suffix, the one on sys.path from the start).
function stdlibPath(py, suffix = "") {
  const [major, minor] = py.runPython("import sys; sys.version_info[:2]").toJs();
  return `/lib/python${major}${minor}${suffix}.zip`;
}

// The standard library a snapshot boot gives Pyodide: an empty zip (its end record alone), made here rather
// than fetched (no request, nothing to keep for offline reading). Pyodide asks for it by this name.
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
const EMPTY_STDLIB_URL = "kw:empty-stdlib.zip";

// `run()` with the worker's fetch of `url` answered by `response` (a promise of one), every other fetch
// as it is.
async function withResponse(url, response, run) {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => (String(input) === url ? response : original(input, init));
  try {
    return await run();
  } finally {
    globalThis.fetch = original;
  }
}

// Fetch `url` and return its bytes (decompressed as they arrive: inflated()), telling the page the boot is
// moving as they arrive (reporter(); the share it shows is the .wasm's).
async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const report = reporter(() => ({ type: "step" }));
  const counted = response.body.pipeThrough(new TransformStream({
    transform(chunk, stream) {
      report(chunk.byteLength);
      stream.enqueue(chunk);
    },
    flush() { report(0, true); },
  }));
  return new Uint8Array(await new Response(await inflated(counted)).arrayBuffer());
}

/**
 * The boot chooseBoot() chose; a snapshot that fails to arrive or to load (stalled, missing, corrupt,
 * another build's) falls back to a plain boot ("fallback").
 * @param {Boot} config
 * @returns {Promise<{py: any, via: Ready["via"], reason: Ready["reason"], kept: boolean, snapshotError?: string}>}
 */
async function boot(config) {
  const choice = await chooseBoot(config);
  // A .wasm that cannot compile (wrong MIME type, blocked) makes both boots impossible: fail at once.
  const wasmFailure = compiledWasm.then(() => new Promise(() => {}));
  const downloads = startDownloads(choice.modules, choice.snapshot ?? null);
  if (choice.via === "snapshot") {
    try {
      // A snapshot that fails to arrive ends this boot at once, not once the .wasm is in as well.
      const arrived = downloads.snapshot.then(() => new Promise(() => {}));
      const py = await Promise.race([bootFromSnapshot(config, downloads), wasmFailure, arrived]);
      return { py, via: "snapshot", reason: choice.reason, kept: true };
    } catch (error) {
      if (/wasm|WebAssembly/i.test(error.message)) throw error;
      if (choice.reason === "made") await dropMadeSnapshot(config, error);
      // The plain boot takes over (the page sees it moving); why the snapshot failed goes with "ready".
      tell({ type: "step" });
      const py = await Promise.race([bootPlain(config, downloads), wasmFailure]);
      return { py, via: "plain", reason: "fallback", kept: false, snapshotError: String(error?.message ?? error) };
    }
  }
  return { py: await Promise.race([bootPlain(config, downloads), wasmFailure]), via: "plain", reason: choice.reason,
    kept: false };
}

// --- keeping the snapshot for the next page --------------------------------------------------------------

/** Resolves once no page of this origin is booting (BOOT_LOCK held or asked for by none). */
async function noBootUnderWay() {
  if (!navigator.locks) return; // no Web Locks: the "booting" messages alone pause the keeping
  for (;;) {
    const { held: holding = [], pending: asking = [] } = await navigator.locks.query();
    if (![...holding, ...asking].some((lock) => lock.name === BOOT_LOCK)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

let bootOver = null;
let bootLock = null; // settles once this worker's BOOT_LOCK is released

// This page is booting: hold BOOT_LOCK until its first answer (or its failure), and say so to the pages
// that keep a snapshot now (they pause).
function announceBoot() {
  const over = new Promise((resolve) => { bootOver = resolve; });
  // A lock manager that refuses (an opaque origin) leaves the "booting" message: keeping only pauses later.
  bootLock = navigator.locks?.request(BOOT_LOCK, { mode: "shared" }, () => over).catch(() => {});
  channel?.postMessage({ type: "booting" });
}

function endBoot() {
  bootOver?.();
  bootOver = null;
}

/**
 * Download `url` into the HTTP cache (the service worker copies it from there, sw.js "keep"), pausing
 * while another page boots: the download is cut, the HTTP cache keeps its bytes, and the next fetch asks
 * the host for the rest (a Range request; a host without ranges makes the browser start over).
 * @returns {Promise<boolean>} whether it was paused at least once
 */
async function keepFile(url) {
  let paused = false;
  for (;;) {
    await noBootUnderWay();
    const controller = new AbortController();
    const pause = ({ data }) => {
      if (data?.type === "booting") controller.abort();
    };
    channel?.addEventListener("message", pause);
    const download = async () => {
      const response = await fetch(url, { signal: controller.signal });
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      await response.arrayBuffer();
    };
    try {
      await (navigator.locks ? navigator.locks.request(KEEP_LOCK, { mode: "shared" }, download) : download());
      return paused;
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      paused = true; // another page boots: resumed once it has its first answer
    } finally {
      channel?.removeEventListener("message", pause);
    }
  }
}

// --- a snapshot made here -------------------------------------------------------------------------------

// Where a plain boot's snapshot is kept: one cache per site, named after its root as the service worker's
// are (sw.js MADE; two sites of one origin, /a/ and /b/, have two), holding this build's only. Not the
// service worker's own cache: a page may have none yet, and a new build's replaces it.
/** @param {RuntimeFiles} config */
function madeCacheName(config) {
  return `kw:${new URL("../../", config.pyodide).pathname}:made`; // the runtime is at <root>pyodide/<version>/
}

// Its keys, by build (the runtime's folder): the snapshot made here (not the build's URL, which the service
// worker's install would take it for), and the mark left when one did not restore: this browser does not
// make another for that build.
/** @param {RuntimeFiles} config */
function madeKey(config) {
  return new URL("made-snapshot", config.lock).href;
}

/** @param {RuntimeFiles} config */
function madeFailedKey(config) {
  return new URL("made-failed", config.lock).href;
}

/**
 * The snapshot an earlier page made for this build (makeSnapshot), or null.
 * @param {RuntimeFiles} config
 * @returns {Promise<Response|null>}
 */
async function madeSnapshot(config) {
  try {
    const cache = await caches.open(madeCacheName(config));
    return (await cache.match(madeKey(config))) ?? null;
  } catch {
    return null; // no Cache Storage (an origin that is not secure) or a refusing one: none was made here
  }
}

/**
 * A snapshot made here that did not restore (why: the boot's snapshotError) is deleted, and marked so
 * that this build's pages download the build's snapshot instead of making another.
 * @param {Boot} config
 */
async function dropMadeSnapshot(config, error) {
  try {
    const cache = await caches.open(madeCacheName(config));
    await cache.delete(madeKey(config));
    await cache.put(madeFailedKey(config), new Response(String(error?.message ?? error)));
  } catch {
    // Cache Storage refused: the next page may try it again and fall back again, as this one did
  }
}

/**
 * Snapshot this plain boot's interpreter, pre-warmed in every language of the site as the build's is
 * (wiki/snapshot.mjs), into Cache Storage for the next page (madeSnapshot). Between the languages, the
 * requests the reader made meanwhile are answered first. Throws where it cannot (no Cache Storage, a
 * snapshot made here that did not restore before, Pyodide refusing): the caller downloads the build's.
 * @param {Boot} config
 */
async function makeSnapshot(config) {
  const cache = await caches.open(madeCacheName(config));
  const failedBefore = await cache.match(madeFailedKey(config));
  if (failedBefore) throw new Error(`a snapshot made here did not restore: ${await failedBefore.text()}`);
  const { sparseImage, zeroFreeMemory } = await import("./snapshot-image.js");
  const languages = JSON.parse(
    python.runPython("import json; from widgets.messages import languages; json.dumps(languages())"));
  for (const lang of languages) {
    await afterQueuedMessages(); // the reader's requests queued meanwhile are answered first
    // Run as Python text, not called from here with a JavaScript array: nothing of JavaScript is left in
    // Python for the snapshot to refuse.
    python.runPython(`from widgets.worker import warm; warm([${JSON.stringify(lang)}])`);
  }
  await afterQueuedMessages();
  python.runPython("import gc; gc.collect(); gc.freeze()"); // as the build's: later collections skip it all
  zeroFreeMemory(python._module);
  const image = new Blob(sparseImage(python.makeMemorySnapshot()));
  for (const request of await cache.keys()) await cache.delete(request); // an earlier build's
  await cache.put(madeKey(config), new Response(image, { headers: { "Content-Type": "application/octet-stream" } }));
}

// After a plain boot's first answer: a snapshot for the next page and the next visit, made here
// (makeSnapshot), else the build's downloaded into the HTTP cache (not under Save-Data or on 2G), which the
// service worker keeps. A download, alone on the line, judges it.
/** @param {Boot} config */
async function keepSnapshot(config) {
  await bootLock; // this worker's own lock gone first (noBootUnderWay would wait for it)
  let madeError = null;
  try {
    await makeSnapshot(config);
  } catch (error) {
    madeError = String(error?.message ?? error);
  }
  if (madeError && config.frugal) {
    tell({ type: "keep-failed", message: `not made: ${madeError}` }); // and not downloaded: Save-Data
    return;
  }
  if (madeError) {
    const paused = await keepFile(config.snapshot);
    const sample = paused ? null : crossed(config.snapshot);
    if (sample) {
      const rate = Math.round(sample.encoded / sample.ms);
      tell({ type: "line", fast: rate >= FAST_LINE, rate, from: "snapshot" });
    }
  }
  tell({ type: "kept", snapshot: madeError ? "downloaded" : "made", ...(madeError ? { madeError } : {}) });
}

let viewFunction = null; // widgets.worker.handle_view, looked up once

function view(request) {
  viewFunction ??= python.pyimport("widgets.worker").handle_view;
  return JSON.parse(viewFunction(JSON.stringify(request)));
}

// The boot is over with the first answer, or SETTLE_MS after "ready" when no request came (a reader who only
// focused a widget): then the boot's lock goes, and a plain boot's snapshot is kept (keepSnapshot). Not at
// "ready": the requests the reader made meanwhile come first, and the download would compete with them.
const SETTLE_MS = 1000;
let keepConfig = null; // the boot's config while the snapshot is still to be kept
let settleTimer = null;

function settle() {
  clearTimeout(settleTimer);
  endBoot();
  if (!keepConfig) return;
  const config = keepConfig;
  keepConfig = null;
  // The page lives without it (its next page boots plain from its cache): the reason is its trace.
  keepSnapshot(config).catch((error) => tell({ type: "keep-failed",
    message: String(error?.message ?? error) }));
}

onmessage = async (/** @type {MessageEvent<PageMessage>} */ { data }) => {
  if (data.type === "prepare") {
    prepare(data);
    return;
  }
  if (data.type === "boot") {
    bootAsked = true;
    announceBoot();
    try {
      const { py, via, reason, kept, snapshotError } = await boot(data);
      python = py;
      globalThis.pyodide = py; // for diagnosis from the browser's dev tools (and the fault tests)
      tell({ type: "ready", via, reason, ...(snapshotError ? { snapshotError } : {}) });
      if (kept) tell({ type: "kept", snapshot: reason === "made" ? "made" : "held" });
      else keepConfig = data;
      settleTimer = setTimeout(settle, SETTLE_MS);
    } catch (error) {
      endBoot();
      tell({ type: "boot-error", message: String(error?.message ?? error) });
    }
    return;
  }
  if (data.type === "wasm-tail") {
    wasmTailFromPage();
    return;
  }
  if (data.type === "wasm") {
    tell({ type: "step" });
    if (data.module) wasmFromPage.resolve(data.module);
    else wasmFromPage.reject(new Error(`WebAssembly: ${data.error}`));
    return;
  }
  if (data.type === "view") {
    const { name, inputs, lang, link } = data; // ViewRequest (link: a link's values, when there are)
    const request = { name, inputs, lang, link };
    let reason = /** @type {"files" | "python"} */ ("python");
    try {
      let result;
      try {
        result = view(request);
      } catch (error) {
        // After a snapshot boot a file that was not pre-warmed may be missing: restore, retry once.
        if (!restoreFiles) throw error;
        const restore = restoreFiles;
        restoreFiles = null;
        reason = "files";
        await restore();
        reason = "python";
        result = view(request);
      }
      tell({ type: "view", id: data.id, view: result });
    } catch (error) {
      // This request's widget says so (the page marks it alone); the worker goes on answering the others.
      tell({ type: "view", id: data.id, view: null, error: String(error?.message ?? error), reason });
    }
    settle();
  }
};
