// Run Python inside Pyodide under Node (the npm package the site serves), with our wheels installed.
// usage: node tests/pyodide/run_in_pyodide.mjs SCRIPT.py WHEEL...   (prints what the script prints)
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";

const [script, ...wheels] = process.argv.slice(2);
const py = await loadPyodide({ stdout: (line) => console.log(line), stderr: (line) => console.error(line) });
for (const wheel of wheels) py.FS.writeFile(`/tmp/${path.basename(wheel)}`, fs.readFileSync(wheel));
py.runPython(`
import importlib, site, zipfile
for name in ${JSON.stringify(wheels.map((w) => path.basename(w)))}:
    with zipfile.ZipFile("/tmp/" + name) as archive:
        archive.extractall(site.getsitepackages()[0])
importlib.invalidate_caches()
`);
py.runPython(fs.readFileSync(script, "utf8"));
