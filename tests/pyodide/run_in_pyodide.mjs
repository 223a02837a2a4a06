// Run Python inside Pyodide under Node (the npm package the site serves), with our wheels installed.
// usage: node tests/pyodide/run_in_pyodide.mjs SCRIPT.py WHEEL...   (prints what the script prints)
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";

const [script, ...wheels] = process.argv.slice(2);
const py = await loadPyodide({ stdout: (line) => console.log(line), stderr: (line) => console.error(line) });
// Installed by Pyodide's own loader, as the worker's plain boot does (wiki/stdlib_trim.mjs too).
await py.loadPackage(wheels.map((wheel) => path.resolve(wheel)), { messageCallback() {} });
py.runPython(fs.readFileSync(script, "utf8"));
