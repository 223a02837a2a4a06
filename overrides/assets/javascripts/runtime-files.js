// The self-hosted runtime's files as absolute URLs. The build writes their paths, relative to the site root,
// into the page's <script id="kw-runtime"> in <head> (wiki/runtime.py, overrides/main.html), and the root,
// relative to the page, into its data-root. Read by early.js (a shared link starts the boot's first steps)
// and by the page script (scripts/calculators/boot.js): both ask for the same URLs, and compile the .wasm
// the same way (compiling()).

/**
 * The site root and the runtime's files, or null on a page without calculators.
 * @returns {{root: URL, files: RuntimeFiles, wasm: string, wasmBytes: number} | null}
 */
export function runtimeFiles() {
  const element = document.getElementById("kw-runtime");
  if (!element) return null;
  const runtime = /** @type {RuntimeConfig} */ (JSON.parse(element.textContent || "{}"));
  const root = new URL(`${element.dataset.root || "."}/`, location.href);
  const url = (/** @type {string} */ path) => new URL(path, root).href;
  return {
    root, wasm: url(runtime.wasm), wasmBytes: runtime.wasm_bytes || 0,
    files: { pyodide: url(runtime.pyodide), loader: url(runtime.loader), asm: url(runtime.asm), lock: url(runtime.lock),
      snapshot: url(runtime.snapshot), stdlib: url(runtime.stdlib), stdlib_later: url(runtime.stdlib_later),
      wheels: (runtime.wheels || []).map(url), packages: runtime.packages },
  };
}

/**
 * The .wasm's `response` with its compilation started as it arrives, when the host gives it its type
 * (compileStreaming insists on application/wasm): `response` is then a copy, whose bytes the page counts for
 * the boot's progress. Without `compiled`, the caller compiles the bytes once they are all there.
 * @param {Response} response
 * @returns {{response: Response, compiled?: Promise<WebAssembly.Module>}}
 */
export function compiling(response) {
  if (!response.ok || !(response.headers.get("Content-Type") || "").startsWith("application/wasm")) return { response };
  const copy = response.clone();
  const compiled = WebAssembly.compileStreaming(response);
  compiled.catch(() => {}); // the page script awaits it and reports its failure
  return { response: copy, compiled };
}
