// Module Web Worker running the calculators' Python in Pyodide (self-hosted, same origin only).
// Boot: from the build-time memory snapshot (fast), else a plain boot with our wheels. The snapshot
// streams in while Pyodide's module is created, so the slowest of (download, compile, module set-up)
// sets the pace, not their sum.
// Protocol (the messages both ways, the view it returns, the error reply): widgets/protocol.py, the one
// description of it. The worker returns plain data (the view of widgets/view.py); the page places it.

const SNAPSHOT_MAGIC = 1886286592; // first u32 of a Pyodide memory snapshot
// Memory grown once at boot, beyond the snapshot: growing it later (as caches fill) stalls a keystroke.
const HEAP_HEADROOM = 64 * 2 ** 20;
let python = null;
// The page compiles pyodide.asm.wasm (compileStreaming: it checks the MIME type, and Chromium's wasm
// code cache serves warm visits) and posts the module, or the error, right after the boot message.
let wasmFromPage;
const compiledWasm = new Promise((resolve, reject) => { wasmFromPage = { resolve, reject }; });
compiledWasm.catch(() => {});
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

// The snapshot as this browser already holds it (HTTP cache), or null: only-if-cached never touches
// the network.
async function cachedSnapshot(config) {
  try {
    const response = await fetch(config.snapshot, { cache: "only-if-cached", mode: "same-origin" });
    return response.ok ? response : null;
  } catch {
    return null;
  }
}

// Is the line fast enough for the memory snapshot? It moves ~5 MB more than a plain boot (the stdlib
// and the wheels) and saves ~1 s of Python start-up (bench --network: at 10 Mbit/s the plain boot is
// sooner, at 50 the snapshot). Pyodide's JavaScript tells, which both boots need first, so the
// judging costs no byte and no wait: fast when its 1.25 MB (decoded; 0.26 MB of gzip) arrive at
// RATE or more, from its first byte on (~40 Mbit/s on a line it shares with the .wasm; the round trip
// and a busy host's delay before it are left out). Judged here, not on the page: the page's thread is
// busy when a reader first acts (loopback: its verdict on the .wasm's bytes came 0.3-0.6 s late).
const RATE = 8000; // decoded bytes per ms

// Imported as soon as the worker is asked to boot (the page is already downloading the .wasm); the
// larger one fetched first, timed, then imported from the HTTP cache (/pyodide/ is immutable). With the
// snapshot already here (`cached`) there is no line to judge: both are imported at once.
function importModules(config, cached) {
  let answered = 0;
  const asm = cached ? Promise.resolve(null) : fetch(config.asm).then((response) => {
    answered = performance.now();
    return response.arrayBuffer();
  });
  const fast = asm.then((bytes) => !bytes || bytes.byteLength >= RATE * (performance.now() - answered));
  const modules = Promise.all([import(config.loader), asm.then(() => import(config.asm))])
    .then(([{ loadPyodide }, module]) => ({ loadPyodide, createPyodideModule: module.default }));
  modules.then(() => postMessage({ type: "step" }), () => {});
  for (const promise of [modules, fast]) promise.catch(() => {});
  return { modules, fast };
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

// The response with its bytes reported to the page as they arrive (at most every 256 KB): a slow line
// shows as progress, not as a hang. The snapshot is stored compressed, so Content-Length is its size.
function counting(response) {
  const total = Number(response.headers.get("Content-Length")) || 0;
  let loaded = 0;
  let reported = 0;
  const counter = new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      if (loaded - reported >= 262144 || loaded === total) {
        reported = loaded;
        postMessage({ type: "progress", loaded, total: Math.max(total, loaded) });
      }
      controller.enqueue(chunk);
    },
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

// The snapshot's bytes as a sparse image: from the host it is gzipped (a gzip starts with 0x1f), the
// service worker's cache keeps it decompressed (sw.js, `kept`). One branch of a tee is read for its
// first byte and dropped; the other carries every byte.
async function sparseImage(body) {
  const [peek, stream] = body.tee();
  const reader = peek.getReader();
  const { value } = await reader.read();
  reader.cancel();
  return value?.[0] === 0x1f ? stream.pipeThrough(new DecompressionStream("gzip")) : stream;
}

// snapshot.bin is the gzip of a sparse image (wiki/runtime.py, sparse()): magic, u32 image length,
// u32 segment count, (u32 offset, u32 length) per segment, then the segments' bytes; the rest of the
// image is zeros. It is written into the image while it downloads (decompressed on the way if need be).
async function readSnapshot(response, onImage) {
  const reader = (await sparseImage(response.body)).getReader();
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
    Promise.resolve(source).then((response) => response.body?.cancel()).catch(() => {});
    const module = await compiled;
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
      if (!(bytes instanceof Uint8Array) || bytes.length > 256) return new target(...args);
      const key = String.fromCharCode(...bytes);
      if (!compiled.has(key)) compiled.set(key, new target(bytes));
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
async function bootFromSnapshot(config, downloads) {
  const { loadPyodide, createPyodideModule } = await downloads.modules;
  const image = await downloads.image;
  const py = await withSharedAdapters(() => failOnWasmWarning(loadPyodide({
    indexURL: config.pyodide,
    lockFileURL: config.lock,
    packageBaseUrl: new URL(".", config.lock).href, // our wheels sit next to our lock file; never a CDN
    // The restored interpreter has imported all it needs: the 2.5 MB stdlib zip waits (restoreFiles).
    stdLibURL: emptyStdlib(config),
    _loadSnapshot: image,
    createPyodideModule: async (settings) => {
      const module = await withCompiledWasm(downloads.wasm, () => createPyodideModule(settings));
      const snapshot = await downloads.snapshot; // the same array as `image`, now complete
      growHeap(module, snapshot.length - new Uint32Array(snapshot.buffer, 0, 2)[1] + HEAP_HEADROOM);
      return module;
    },
  })));
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
// Its files come one after the other, in the order they are needed, so that each step's work overlaps
// the next file's download instead of all of it waiting for the last byte: the .wasm (Pyodide's
// module is created while the standard library arrives), the standard library Pyodide's start-up
// imports (Python starts while the rest of it and the wheels arrive), the rest (installed last).
// bench --network, 10 Mbit/s: the first result ~0.2 s sooner than with all of them at once.
async function bootPlain(config, downloads) {
  const { loadPyodide, createPyodideModule } = await downloads.modules;
  await downloads.wasm; // compiled: downloaded
  // Pyodide gets the standard library from here, once what comes after it has been asked for: Python's
  // start-up then holds this thread for a while, and those requests would wait for it.
  let later = null;
  const stdlib = download(config.stdlib).then((bytes) => {
    later = Promise.all([download(config.stdlib_later), ...config.wheels.map(download)]);
    later.catch(() => {});
    return new Response(bytes);
  });
  stdlib.catch(() => {});
  const stdlibFailure = stdlib.then(() => new Promise(() => {}));
  const started = withResponse(config.stdlib, stdlib, () => loadPyodide({
    indexURL: config.pyodide, lockFileURL: config.lock, packageBaseUrl: new URL(".", config.lock).href,
    stdLibURL: config.stdlib,
    createPyodideModule: (settings) => withCompiledWasm(downloads.wasm, () => createPyodideModule(settings)),
  }));
  const py = await Promise.race([stdlibFailure, failOnWasmWarning(started)]);
  const [laterStdlib] = await later;
  const laterPath = stdlibPath(py, "-later");
  py.FS.writeFile(laterPath, laterStdlib);
  py.runPython(`import sys; sys.path.append("${laterPath}")`);
  // Not loadPyodide's `packages`: it would fetch the wheels at once, alongside the standard library.
  await py.loadPackage(config.packages, { messageCallback() {} });
  restoreFiles = () => putWholeStdlib(py, config);
  return py;
}

// Pyodide's whole standard library in place of the one the boot started with (trimmed or empty), for
// a call that needs a module the boot left out; the importers forget the zip they read before.
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

// The (empty) standard library a snapshot boot gives Pyodide: the restored interpreter has what it needs.
function emptyStdlib(config) {
  return new URL("empty-stdlib.zip", config.lock).href;
}

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

// Fetch `url` and return its bytes; a step every 256 KB tells the page the boot is moving (the share
// it shows is the .wasm's).
async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const chunks = [];
  let unreported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    unreported += value.byteLength;
    if (unreported >= 262144) {
      unreported = 0;
      postMessage({ type: "step" });
    }
  }
  postMessage({ type: "step" });
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

// Which boot: the snapshot when this browser has it already, or when the line is fast enough for it
// (RATE); otherwise a plain boot, which moves ~5 MB less, and the snapshot is fetched afterwards for
// the next visit. Under Save-Data or on 2G (config.frugal) neither is fetched.
async function boot(config) {
  const cached = await cachedSnapshot(config);
  const { modules, fast } = importModules(config, Boolean(cached));
  // A .wasm that cannot compile (wrong MIME type, blocked) makes both boots impossible: fail at once.
  const wasmFailure = compiledWasm.then(() => new Promise(() => {}));
  let snapshotResponse = null;
  if (cached) snapshotResponse = Promise.resolve(cached);
  else if (!config.frugal && await Promise.race([fast, wasmFailure])) snapshotResponse = fetch(config.snapshot);
  const downloads = startDownloads(modules, snapshotResponse);
  if (snapshotResponse) {
    try {
      // A snapshot that fails to arrive ends this boot at once, not once the .wasm is in as well.
      const arrived = downloads.snapshot.then(() => new Promise(() => {}));
      const py = await Promise.race([bootFromSnapshot(config, downloads), wasmFailure, arrived]);
      return { py, via: "snapshot", kept: true };
    } catch (error) {
      if (/wasm|WebAssembly/i.test(error.message)) throw error;
      postMessage({ type: "step" });
    }
  }
  return { py: await Promise.race([bootPlain(config, downloads), wasmFailure]), via: "plain", kept: false };
}

// After a plain boot: the snapshot into the HTTP cache, for the next page and the next visit.
// With the snapshot, the (empty) standard library a snapshot boot passes Pyodide: the next boot needs
// both, and the service worker keeps what the HTTP cache holds.
async function keepSnapshot(config) {
  for (const url of [config.snapshot, emptyStdlib(config)]) {
    const response = await fetch(url);
    if (!response.ok) return;
    await response.arrayBuffer();
  }
  postMessage({ type: "kept" });
}

let viewFunction = null; // widgets.protocol.handle_view, looked up once

function view(request) {
  viewFunction ??= python.pyimport("widgets.protocol").handle_view;
  return JSON.parse(viewFunction(JSON.stringify(request)));
}

onmessage = async ({ data }) => {
  if (data.type === "boot") {
    try {
      const { py, via, kept } = await boot(data);
      python = py;
      globalThis.pyodide = py; // for diagnosis from the browser's dev tools (and the fault tests)
      postMessage({ type: "ready", via });
      if (kept) postMessage({ type: "kept" });
      else if (!data.frugal) keepSnapshot(data).catch(() => {});
    } catch (error) {
      postMessage({ type: "boot-error", message: String(error?.message ?? error) });
    }
    return;
  }
  if (data.type === "wasm") {
    postMessage({ type: "step" });
    if (data.module) wasmFromPage.resolve(data.module);
    else wasmFromPage.reject(new Error(`WebAssembly: ${data.error}`));
    return;
  }
  if (data.type === "view") {
    const { name, inputs, lang, link } = data; // ViewRequest (link: a link's values, when there are)
    const request = { name, inputs, lang, link };
    try {
      let result;
      try {
        result = view(request);
      } catch (error) {
        // After a snapshot boot a file that was not pre-warmed may be missing: restore, retry once.
        if (!restoreFiles) throw error;
        const restore = restoreFiles;
        restoreFiles = null;
        await restore();
        result = view(request);
      }
      postMessage({ type: "view", id: data.id, view: result });
    } catch (error) {
      postMessage({ type: "view", id: data.id, view: null, error: String(error?.message ?? error) });
    }
  }
};
