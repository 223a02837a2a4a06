// Module Web Worker running the calculators' Python in Pyodide (self-hosted, same origin only).
// Boot: from the build-time memory snapshot (fast), else a plain boot with our wheels.
// Protocol: page -> {type: "boot", pyodide, lock, snapshot}; worker -> {type: "ready", via} | {type: "boot-error"}
//           page -> {type: "view", id, name, inputs, lang}; worker -> {type: "view", id, view}
// The worker returns plain data (the view of widgets/view.py); the page renders it.

const SNAPSHOT_MAGIC = 1886286592; // first u32 of a Pyodide memory snapshot
const PACKAGES = ["kentino-wiki-runtime", "babel"];
// Memory grown once at boot, beyond the snapshot: growing it later (as caches fill) stalls a keystroke.
const HEAP_HEADROOM = 64 * 2 ** 20;
let python = null;
let restoreFiles = null; // after a snapshot boot: puts the stdlib and the wheels' files back, on demand

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

// Started as soon as the worker is asked to boot, all at once: the two module scripts, the snapshot
// download and the WebAssembly compilation (Pyodide would only start the last after the snapshot).
function startDownloads(config) {
  const modules = Promise.all([import(`${config.pyodide}pyodide.mjs`), import(`${config.pyodide}pyodide.asm.mjs`)])
    .then(([{ loadPyodide }, asm]) => ({ loadPyodide, createPyodideModule: asm.default }));
  const snapshot = fetch(config.snapshot).then(async (response) => {
    if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
    const bytes = unsparse(await response.arrayBuffer());
    const header = new Uint32Array(bytes.buffer, 0, 2);
    if (bytes.length < 64 || header[0] !== SNAPSHOT_MAGIC) throw new Error("snapshot: not a Pyodide snapshot");
    return bytes;
  });
  // compileStreaming checks the MIME type (application/wasm) and uses Chromium's wasm code cache.
  const wasm = WebAssembly.compileStreaming(fetch(`${config.pyodide}pyodide.asm.wasm`));
  snapshot.catch(() => {});
  wasm.catch(() => {});
  return { modules, snapshot, wasm };
}

// The snapshot is stored without its long zero runs (wiki/runtime.py, sparse()): rebuild the image.
function unsparse(buffer) {
  const view = new DataView(buffer);
  const magic = new TextDecoder().decode(new Uint8Array(buffer, 0, 8));
  if (magic !== "KWSPARSE") throw new Error("snapshot: unknown format");
  const image = new Uint8Array(view.getUint32(8, true));
  const count = view.getUint32(12, true);
  let data = 16 + 8 * count;
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(16 + 8 * i, true);
    const length = view.getUint32(20 + 8 * i, true);
    image.set(new Uint8Array(buffer, data, length), offset);
    data += length;
  }
  return image;
}

// Pyodide starts with a 30 MiB heap; a larger snapshot needs the heap grown before restoring it.
function growHeap(module, bytes) {
  if (module.HEAP8.length >= bytes) return;
  module._sbrk(bytes - module._sbrk(0));
  if (module.HEAP8.length < bytes) throw new Error("cannot grow the heap for the snapshot");
}

// Pyodide instantiates its .wasm itself (instantiateStreaming, with imports of its own) once the
// snapshot is in; hand it the module compiled meanwhile instead of compiling it only then.
async function withCompiledWasm(compiled, create) {
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    Promise.resolve(source).then((response) => response.body?.cancel()).catch(() => {});
    return { module: compiled, instance: await WebAssembly.instantiate(compiled, imports) };
  };
  try {
    return await create();
  } finally {
    WebAssembly.instantiateStreaming = original;
  }
}

async function bootFromSnapshot(config, downloads) {
  const { loadPyodide, createPyodideModule } = await downloads.modules;
  const snapshot = await downloads.snapshot;
  const heapBytes = snapshot.length - new Uint32Array(snapshot.buffer, 0, 2)[1];
  const compiled = await downloads.wasm;
  const py = await failOnWasmWarning(loadPyodide({
    indexURL: config.pyodide,
    lockFileURL: config.lock,
    packageBaseUrl: new URL(".", config.lock).href, // our wheels sit next to our lock file; never a CDN
    // The restored interpreter has imported all it needs: the 2.5 MB stdlib zip waits (restoreFiles).
    stdLibURL: new URL("empty-stdlib.zip", config.lock).href,
    _loadSnapshot: snapshot,
    createPyodideModule: async (settings) => {
      const module = await withCompiledWasm(compiled, () => createPyodideModule(settings));
      growHeap(module, heapBytes + HEAP_HEADROOM);
      return module;
    },
  }));
  py.runPython("import random; random.seed()"); // every restore would otherwise share one random state
  // The snapshot holds memory, not files. Everything is pre-warmed, so the files are only put back
  // if a call ever needs one (a lazy import, a data file); doing it eagerly would delay first results.
  restoreFiles = async () => {
    const stdlib = await fetch(`${config.pyodide}python_stdlib.zip`).then((r) => r.arrayBuffer());
    const [major, minor] = py.runPython("import sys; sys.version_info[:2]").toJs();
    py.FS.writeFile(`/lib/python${major}${minor}.zip`, new Uint8Array(stdlib));
    await py.loadPackage(PACKAGES, { messageCallback() {} });
    py.runPython("import importlib; importlib.invalidate_caches()");
  };
  return py;
}

async function bootPlain(config, downloads) {
  const { loadPyodide, createPyodideModule } = await downloads.modules;
  const py = await failOnWasmWarning(loadPyodide({
    indexURL: config.pyodide, lockFileURL: config.lock, packageBaseUrl: new URL(".", config.lock).href,
    createPyodideModule, packages: PACKAGES,
  }));
  py.runPython(`
import json, widgets

def _kw_view(payload):
    request = json.loads(payload)
    return json.dumps(widgets.view(request["name"], request["inputs"], request["lang"]))
`);
  return py;
}

async function boot(config) {
  const downloads = startDownloads(config);
  // A .wasm that cannot compile (wrong MIME type, blocked) makes both boots impossible: fail at once.
  const wasmFailure = downloads.wasm.then(() => new Promise(() => {}));
  try {
    return await Promise.race([bootFromSnapshot(config, downloads).then((py) => ({ py, via: "snapshot" })),
      wasmFailure]);
  } catch (error) {
    if (/wasm|WebAssembly/i.test(error.message)) throw error;
    return { py: await bootPlain(config, downloads), via: "plain" };
  }
}

let viewFunction = null; // the Python function _kw_view, looked up once

function view(request) {
  viewFunction ??= python.globals.get("_kw_view");
  return JSON.parse(viewFunction(JSON.stringify(request)));
}

onmessage = async ({ data }) => {
  if (data.type === "boot") {
    try {
      const { py, via } = await boot(data);
      python = py;
      globalThis.pyodide = py; // for diagnosis from the browser's dev tools (and the fault tests)
      postMessage({ type: "ready", via });
    } catch (error) {
      postMessage({ type: "boot-error", message: String(error?.message ?? error) });
    }
    return;
  }
  if (data.type === "view") {
    const request = { name: data.name, inputs: data.inputs, lang: data.lang };
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
