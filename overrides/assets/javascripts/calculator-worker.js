// Module Web Worker running the calculators' Python in Pyodide (self-hosted, same origin only).
// Boot: from the build-time memory snapshot (fast), else a plain boot with our wheels.
// Protocol: page -> {type: "boot", pyodide, lock, snapshot}; worker -> {type: "ready", via} | {type: "boot-error"}
//           page -> {type: "view", id, name, inputs, lang}; worker -> {type: "view", id, view}
// The worker returns plain data (the view of widgets/view.py); the page renders it.

const SNAPSHOT_MAGIC = 1886286592; // first u32 of a Pyodide memory snapshot
let python = null;
let reinstall = null; // after a snapshot boot: puts the wheels' files back, on demand

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

async function runtimeModules(base) {
  // Both module scripts load in parallel (the second is otherwise fetched only after the first).
  const [{ loadPyodide }, asm] = await Promise.all([import(`${base}pyodide.mjs`), import(`${base}pyodide.asm.mjs`)]);
  return { loadPyodide, createPyodideModule: asm.default };
}

// Pyodide starts with a 30 MiB heap; a larger snapshot needs the heap grown before restoring it.
function growHeap(module, bytes) {
  if (module.HEAP8.length >= bytes) return;
  module._sbrk(bytes - module._sbrk(0));
  if (module.HEAP8.length < bytes) throw new Error("cannot grow the heap for the snapshot");
}

async function bootFromSnapshot(config, { loadPyodide, createPyodideModule }) {
  let heapBytes = 0;
  const snapshot = fetch(config.snapshot).then(async (response) => {
    if (!response.ok) throw new Error(`snapshot: HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const header = new Uint32Array(bytes.buffer, 0, 2);
    if (bytes.length < 64 || header[0] !== SNAPSHOT_MAGIC) throw new Error("snapshot: not a Pyodide snapshot");
    heapBytes = bytes.length - header[1];
    return bytes;
  });
  const py = await failOnWasmWarning(loadPyodide({
    indexURL: config.pyodide,
    lockFileURL: config.lock,
    packageBaseUrl: new URL(".", config.lock).href, // our wheels sit next to our lock file; never a CDN
    _loadSnapshot: snapshot,
    createPyodideModule: async (settings) => {
      const module = await createPyodideModule(settings);
      growHeap(module, heapBytes);
      return module;
    },
  }));
  // The snapshot holds memory, not files. Everything is pre-warmed, so the files are only put back
  // if a call ever needs one (a lazy import, a data file); doing it eagerly would delay first results.
  reinstall = () => py.loadPackage(["kentino-wiki-runtime", "babel"], { messageCallback() {} });
  return py;
}

async function bootPlain(config, { loadPyodide, createPyodideModule }) {
  const py = await failOnWasmWarning(loadPyodide({
    indexURL: config.pyodide, lockFileURL: config.lock, packageBaseUrl: new URL(".", config.lock).href,
    createPyodideModule,
    packages: ["kentino-wiki-runtime", "babel"],
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
  const modules = await runtimeModules(config.pyodide);
  try {
    return { py: await bootFromSnapshot(config, modules), via: "snapshot" };
  } catch (error) {
    if (/wasm instantiation failed/.test(error.message)) throw error; // a plain boot would fail too
    return { py: await bootPlain(config, modules), via: "plain" };
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
        // After a snapshot boot a file that was not pre-warmed may be missing: reinstall, retry once.
        if (!reinstall) throw error;
        const pending = reinstall;
        reinstall = null;
        await pending();
        result = view(request);
      }
      postMessage({ type: "view", id: data.id, view: result });
    } catch (error) {
      postMessage({ type: "view", id: data.id, view: null, error: String(error?.message ?? error) });
    }
  }
};
