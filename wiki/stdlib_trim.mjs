// Write the trimmed, precompiled standard library of a plain boot (run by wiki/runtime.py).
// usage: node wiki/stdlib_trim.mjs OUT.zip WHEEL...
// A plain boot as the browser worker does it: Pyodide's loader installs our wheels (loadPackage), then
// every calculator and widget runs once per language, with good and bad inputs. The members of
// python_stdlib.zip the interpreter then holds go into OUT.zip as bytecode (.pyc, unchecked hash-based,
// which zipimport takes before any source): Python neither reads nor compiles their source at boot
// (in Node: 3.0 s to a first result with the sources, 1.1 s with this).
import { loadBuildPyodide } from "./pyodide_build.mjs";
import fs from "node:fs";
import path from "node:path";

const [out, ...wheels] = process.argv.slice(2);
const py = await loadBuildPyodide();
await py.loadPackage(wheels.map((wheel) => path.resolve(wheel)), { messageCallback() {} });
py.runPython(`
import sys
from widgets.protocol import warm

warm(${JSON.stringify(process.env.KW_LANGUAGES.split(","))})

import importlib._bootstrap_external as external
import importlib.util, zipfile, zipimport

used = sorted({m.__file__ for m in list(sys.modules.values()) if ".zip/" in (getattr(m, "__file__", None) or "")})
with zipfile.ZipFile("/tmp/stdlib.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as trimmed:
    for path in used:
        archive, member = path.split(".zip/", 1)
        source = zipimport.zipimporter(archive + ".zip").get_data(member)
        # optimize=2: without docstrings and asserts, as under python -OO, which the standard library
        # supports (1.46 MB instead of 1.70 MB)
        code = compile(source, path, "exec", dont_inherit=True, optimize=2)
        pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        trimmed.writestr(zipfile.ZipInfo(member + "c", date_time=(2020, 1, 1, 0, 0, 0)), pyc,
                         compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
`);
fs.writeFileSync(out, py.FS.readFile("/tmp/stdlib.zip"));
