// Compile the Python of our wheels with the interpreter the browser runs (run by wiki/runtime.py).
// usage: node wiki/bytecode.mjs OUT.zip WHEEL...
// OUT.zip holds, for every `.py` member of the wheels, its bytecode under the same path with a `c`
// appended: unchecked hash-based .pyc, compiled without docstrings and asserts (as under python -OO,
// like the trimmed standard library). The build then ships the wheels with these instead of their
// sources, so the browser neither reads nor compiles our Python or Babel's at boot.
import { loadBuildPyodide } from "./pyodide_build.mjs";
import fs from "node:fs";
import path from "node:path";

const [out, ...wheels] = process.argv.slice(2);
const py = await loadBuildPyodide();
for (const wheel of wheels) py.FS.writeFile(`/tmp/${path.basename(wheel)}`, fs.readFileSync(wheel));
py.runPython(`
import importlib._bootstrap_external as external
import importlib.util, zipfile

with zipfile.ZipFile("/tmp/bytecode.zip", "w", zipfile.ZIP_STORED) as compiled:
    for name in ${JSON.stringify(wheels.map((w) => path.basename(w)))}:
        with zipfile.ZipFile("/tmp/" + name) as wheel:
            for member in wheel.namelist():
                if not member.endswith(".py"):
                    continue
                source = wheel.read(member)
                code = compile(source, member, "exec", dont_inherit=True, optimize=2)
                pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
                compiled.writestr(zipfile.ZipInfo(member + "c", date_time=(2020, 1, 1, 0, 0, 0)), pyc)
`);
fs.writeFileSync(out, py.FS.readFile("/tmp/bytecode.zip"));
