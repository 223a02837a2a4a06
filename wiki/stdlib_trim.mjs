// Write the trimmed, precompiled standard library of a plain boot (run by wiki/runtime.py).
// usage: node wiki/stdlib_trim.mjs OUT.zip LATER.zip WHEEL...
// A plain boot as the browser worker does it: Pyodide starts, our wheels are unpacked into site-packages
// (unpackArchive, calculator-worker.js installWheels), then every calculator and widget runs once per
// language, with good and bad inputs.
// The members of python_stdlib.zip the interpreter then holds are written as bytecode (.pyc, unchecked
// hash-based, which zipimport takes before any source): Python neither reads nor compiles their source
// at boot (in Node: 3.0 s to a first result with the sources, 1.1 s with this). Those Pyodide's own
// start-up imports go into OUT.zip, the others into LATER.zip, which the worker downloads while Python
// starts and puts on sys.path before it installs the wheels.
import { loadBuildPyodide } from "./pyodide_build.mjs";
import fs from "node:fs";

const [out, later, ...wheels] = process.argv.slice(2);
const py = await loadBuildPyodide();
const imported = `sorted({m.__file__ for m in list(sys.modules.values()) if ".zip/" in (getattr(m, "__file__", None) or "")})`;
py.runPython(`import sys; at_start = ${imported}`);
const site = py.runPython("import site; site.getsitepackages()[0]");
for (const wheel of wheels) py.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel", { extractDir: site });
py.runPython("import importlib; importlib.invalidate_caches()");
py.runPython(`
import sys
from widgets.worker import warm

warm(${JSON.stringify(process.env.KW_LANGUAGES.split(","))})

import importlib._bootstrap_external as external
import importlib.util, zipfile, zipimport


def write(name, paths):
    # Stored, not deflated: wiki/runtime.py gzips the whole zip, which is smaller than deflating each member
    # (0.89 against 0.96 MB), and zipimport then reads members without inflating them.
    with zipfile.ZipFile(name, "w", zipfile.ZIP_STORED) as trimmed:
        for path in paths:
            archive, member = path.split(".zip/", 1)
            source = zipimport.zipimporter(archive + ".zip").get_data(member)
            # optimize=2: without docstrings and asserts, as under python -OO, which the standard
            # library supports (1.46 MB instead of 1.70 MB)
            code = compile(source, path, "exec", dont_inherit=True, optimize=2)
            pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
            trimmed.writestr(zipfile.ZipInfo(member + "c", date_time=(2020, 1, 1, 0, 0, 0)), pyc)


used = ${imported}
# A package's submodules are found on its own __path__, not on sys.path: a package Pyodide's start-up
# imports keeps all its used submodules in OUT.zip (encodings.cp437, for the wheels' zip directory).
started = {p.split(".zip/", 1)[1].split("/")[0] for p in at_start}
later = [p for p in used if p not in at_start and p.split(".zip/", 1)[1].split("/")[0] not in started]
write("/tmp/stdlib.zip", [p for p in used if p not in later])
write("/tmp/later.zip", later)
`);
fs.writeFileSync(out, py.FS.readFile("/tmp/stdlib.zip"));
fs.writeFileSync(later, py.FS.readFile("/tmp/later.zip"));
