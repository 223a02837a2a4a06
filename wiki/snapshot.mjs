// Make the Pyodide memory snapshot the browser worker starts from (run by wiki/runtime.py).
// usage: node wiki/snapshot.mjs OUT WHEEL...
// The npm `pyodide` used here is the very build the site serves: the snapshot carries its build id
// and the worker falls back to a plain boot if they ever differ.
// Wheels are unzipped into site-packages (loadPackage() before makeMemorySnapshot() is refused).
import { loadBuildPyodide } from "./pyodide_build.mjs";
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
fs.writeFileSync(out, py.makeMemorySnapshot());

// The heap's free memory still holds what was there before (3.3 of the 13.9 MB malloc arena after the
// pre-warming): zeroed, the sparse format leaves it out (wiki/runtime.py, sparse()). snapshot.bin:
// 16.5 → 14.4 MB to decompress, 6.26 → 5.61 MB to download. Every free block is taken (the heap not
// grown for it: a footprint limit meanwhile), filled with zeros, and given back.
function zeroFreeMemory(module) {
  module._malloc_set_footprint_limit(module._malloc_footprint());
  const taken = [];
  for (let size = 2 ** 24; size >= 64; size /= 2) {
    for (let block = module._malloc(size); block; block = module._malloc(size)) {
      module.HEAPU8.fill(0, block, block + size);
      taken.push(block);
    }
  }
  for (const block of taken) module._free(block);
  module._malloc_set_footprint_limit(-1); // dlmalloc: SIZE_MAX is no limit, as before (the limit is in the snapshot)
  if (module._malloc_footprint_limit() !== -1) throw new Error("the heap's footprint limit stayed set");
}
