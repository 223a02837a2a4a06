// Loaded async from <head> on pages with calculators (an ES module; links.js and runtime-files.js are
// preloaded beside it). Opened from a link that sets a calculator's values (links.js has the grammar), the
// page needs the live calculator at once, and its boot starts from here, while the page still parses,
// instead of once it has parsed and run its scripts:
// - the .wasm, 3.5 of the ~5 MB any boot needs, is downloaded and compiled (bench --network, 10 Mbit/s:
//   ~0.3 s of an idle line); the page script (boot.js, compileWasm) takes both over, `kwWasm`;
// - the worker the head started (kw-worker.html) is told to prepare a boot from a snapshot an earlier page
//   made (Prepare): it looks for one and, found, imports Pyodide's JavaScript, none of it over the line
//   (the next page at 10 Mbit/s: the compiled .wasm and Pyodide's JavaScript were the boot's last ~0.1 s).
// Any other visit fetches nothing here, and so does a link that names no widget of this page: the ids of
// the page's widgets are written into this script's `data-widgets` by the build (overrides/main.html), as
// the body is not parsed yet.
import { readLink } from "./links.js";
import { compiling, runtimeFiles } from "./runtime-files.js";

const script = /** @type {HTMLScriptElement | null} */ (document.querySelector("script[data-widgets]"));
const ids = new Set((script?.dataset.widgets || "").split(" ").filter(Boolean));
const runtime = runtimeFiles();
if (runtime && readLink(location.hash).some(({ id }) => ids.has(id))) {
  const worker = globalThis.kwWorker;
  if (worker && !worker.kwFailed) worker.postMessage({ type: "prepare", ...runtime.files });
  globalThis.kwWasm = startWasm(runtime.wasm);
}

/**
 * The .wasm's download, compiled as it arrives where the host allows (compiling()); `abort` ends the download.
 * @param {string} href
 * @returns {EarlyWasm}
 */
function startWasm(href) {
  const controller = new AbortController();
  const started = fetch(href, { signal: controller.signal }).then(compiling);
  started.catch(() => {}); // the page script awaits it and reports its failure
  return { started, abort: () => controller.abort() };
}
