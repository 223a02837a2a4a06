// Make the Pyodide memory snapshot the browser worker starts from (run by wiki/runtime.py).
// usage: node wiki/snapshot.mjs OUT WHEEL...   (OUT: the sparse image, snapshot-image.js; runtime.py gzips it)
// The npm `pyodide` used here is the very build the site serves: the snapshot carries its build id
// and the worker falls back to a plain boot if they ever differ.
// Wheels are unzipped into site-packages (loadPackage() before makeMemorySnapshot() is refused).
import { loadBuildPyodide } from "./pyodide_build.mjs";
import { sparseImage, zeroFreeMemory } from "../overrides/assets/javascripts/snapshot-image.js";
import fs from "node:fs";
import path from "node:path";

const [out, ...wheels] = process.argv.slice(2);
const py = await loadBuildPyodide({ _makeSnapshot: true });
for (const wheel of wheels) py.FS.writeFile(`/tmp/${path.basename(wheel)}`, fs.readFileSync(wheel));
py.runPython(`
import importlib, os, site, zipfile
target = site.getsitepackages()[0]
for name in ${JSON.stringify(wheels.map((w) => path.basename(w)))}:
    with zipfile.ZipFile("/tmp/" + name) as archive:
        archive.extractall(target)
    os.remove("/tmp/" + name)
importlib.invalidate_caches()

import widgets.worker  # the worker calls its handle_view: imported here, it is in the snapshot
from widgets.worker import warm

# Pre-warm every code path once per language (Babel's CLDR data, catalogs, SVG) so that the
# restored interpreter never needs a file: the snapshot holds memory, not the file system.
warm(${JSON.stringify(process.env.KW_LANGUAGES.split(","))})
import gc
gc.collect()
gc.freeze()  # everything imported so far is permanent: later collections need not walk it
`);
zeroFreeMemory(py._module);
fs.writeFileSync(out, Buffer.concat(sparseImage(py.makeMemorySnapshot())));
