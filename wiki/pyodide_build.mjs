// How the build runs Pyodide under Node (wiki/stdlib_trim.mjs, bytecode.mjs, snapshot.mjs): the npm
// package the site serves, compiling Python without the column tables of its code objects (CPython's
// -X no_debug_ranges, as the environment variable: tracebacks keep their line numbers and lose the
// ^^^ markers). The tables are a quarter of the bytecode a plain boot downloads, and they do not
// compress: stdlib.zip 1.40 → 1.06 MB.
import { loadPyodide } from "pyodide";

export function loadBuildPyodide(options = {}) {
  return loadPyodide({ ...options, env: { PYTHONNODEBUGRANGES: "1", ...options.env } });
}
