"""The browser runtime of the live calculators, prepared at build time and copied into the site.

- Pyodide's core files come from the npm package `pyodide` (exact version in package-lock.json) and
  go to `site/pyodide/<version>/`.
- Our Python goes into one `py3-none-any` wheel, `kentino-wiki-runtime` (`calculators` + `widgets` +
  the compiled catalogs), built the standard way: `pip wheel` with setuptools (wiki/runtime_wheel.toml).
  `pyodide build` is not used: it downloads a cross-build environment, which cannot work offline,
  and a pure-Python wheel does not need it.
- Babel is shipped as a trimmed wheel: the modules the calculators import and the CLDR data they read,
  of the site's languages (and `root`) only (`wiki/babel_trim.py`; the full wheel is ~10 MB of locale
  data). The languages are mkdocs.yml's (`wiki/languages.py`), handed to `prepare()` by the build.
- Both wheels carry bytecode compiled by Pyodide's Python (`wiki/bytecode.mjs`), not sources.
- A memory snapshot (`wiki/snapshot.mjs`, run with Node and the same npm package) holds an
  interpreter that has already imported everything and formatted numbers in every language, so the
  browser skips Python's start-up. It is tied to the Pyodide build (the snapshot carries its build
  id); the worker falls back to a plain boot if it does not load.
- The app files go to `site/pyodide/app-<digest>/`: a content digest in the path lets a host cache
  them forever.

Everything is cached in `build/runtime/<digest>/`, so only a change to the Python, the catalogs or a
pinned version pays for new wheels, standard libraries and snapshot (11.5 s on 2 cores, 2026-12-05).
"""

from __future__ import annotations

import base64
import fcntl
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from widgets.protocol import RuntimeConfig
from wiki.material_bundle import CDN_URL

ROOT = Path(__file__).resolve().parent.parent
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / "build" / "runtime"
SNAPSHOT_SCRIPT = Path(__file__).resolve().parent / "snapshot.mjs"
# The snapshot's file format, written by snapshot.mjs (and by the browser's worker) with this module.
SNAPSHOT_IMAGE_SCRIPT = ROOT / "overrides" / "assets" / "javascripts" / "snapshot-image.js"
SPARSE_MAGIC = b"KWSPARSE"  # the first bytes of that format (snapshot-image.js MAGIC), for the tests that read it
STDLIB_SCRIPT = Path(__file__).resolve().parent / "stdlib_trim.mjs"
BYTECODE_SCRIPT = Path(__file__).resolve().parent / "bytecode.mjs"
NODE_PYODIDE_SCRIPT = Path(__file__).resolve().parent / "pyodide_build.mjs"  # how the three scripts start Pyodide
BABEL_TRIM = Path(__file__).resolve().parent / "babel_trim.py"
WHEEL_PROJECT = Path(__file__).resolve().parent / "runtime_wheel.toml"  # the wheel's pyproject.toml
# npm file name -> served name. The ES modules are served as `.js`: every host maps `.js` to a JavaScript
# type, while `.mjs` is text/plain on a stock Debian nginx (1.22's mime.types), and browsers refuse a
# module script of any other type.
PYODIDE_FILES = {"pyodide.mjs": "pyodide.js", "pyodide.asm.mjs": "pyodide.asm.js",
                 "pyodide.asm.wasm": "pyodide.asm.wasm", "python_stdlib.zip": "python_stdlib.zip"}
APP_NAME = "kentino-wiki-runtime"
SOURCES = ("calculators", "widgets")
KEEP_VERSIONS = 4


class RuntimeUnavailable(RuntimeError):
    """The runtime could not be prepared; the message says what to install or fix."""


@dataclass(frozen=True)
class Runtime:
    """A prepared runtime: where its files are and the URLs (relative to the site root) they get."""

    version: str
    digest: str
    app_dir: Path

    @property
    def pyodide_url(self) -> str:
        return f"pyodide/{self.version}/"

    @property
    def app_url(self) -> str:
        return f"pyodide/app-{self.digest}/"

    def page_config(self) -> RuntimeConfig:
        """What the page passes to the worker (URLs relative to the site root), and the size of the .wasm
        the page downloads (hosts may send it gzip-encoded: the body the page reads is this size)."""
        return {
            "wasm_bytes": (NODE_PYODIDE / "pyodide.asm.wasm").stat().st_size,
            "pyodide": self.pyodide_url,
            "loader": self.pyodide_url + PYODIDE_FILES["pyodide.mjs"],
            "asm": self.pyodide_url + PYODIDE_FILES["pyodide.asm.mjs"],
            "wasm": self.pyodide_url + PYODIDE_FILES["pyodide.asm.wasm"],
            "lock": self.app_url + "pyodide-lock.json",
            "snapshot": self.app_url + "snapshot.bin",
            "stdlib": self.app_url + "stdlib.zip",
            "stdlib_later": self.app_url + "stdlib-later.zip",
            "wheels": [self.app_url + wheel.name for wheel in sorted(self.app_dir.glob("*.whl"))],
            "packages": [APP_NAME, "babel"],
        }

    def boot_files(self) -> dict[str, list[str]]:
        """The files each boot reads (URLs relative to the site root), for the service worker
        (`wiki/offline.py`): `common` to both, then a snapshot boot's and a plain boot's own. Holding
        `common` and either of the others, the calculators boot offline."""
        config = self.page_config()
        return {"common": [config["loader"], config["asm"], config["wasm"], config["lock"]],
                "snapshot": [config["snapshot"]],
                "plain": [config["stdlib"], config["stdlib_later"], *config["wheels"]]}

    def gzipped_files(self) -> list[str]:
        """The runtime files stored gzipped (any host serves them as they are, no `Content-Encoding`):
        the service worker keeps them decompressed, so that a later boot does not inflate them again."""
        config = self.page_config()
        return [config["snapshot"], config["stdlib"], config["stdlib_later"]]


def pyodide_version() -> str:
    """The installed npm `pyodide` version, or an error that says how to install it."""
    package = NODE_PYODIDE / "package.json"
    if not package.exists():
        raise RuntimeUnavailable("node_modules/pyodide is missing: run `python3 build.py build` (it runs `npm ci`).")
    return json.loads(package.read_text(encoding="utf-8"))["version"]


def digest(languages: tuple[str, ...]) -> str:
    """A digest of everything the app files depend on (sources, catalogs, languages, pinned versions, scripts)."""
    sha = hashlib.sha256()
    files = [p for src in SOURCES for p in sorted((ROOT / src).rglob("*.py"))]
    files += sorted((ROOT / "i18n").rglob("*.po")) + [Path(__file__).resolve(), SNAPSHOT_SCRIPT, SNAPSHOT_IMAGE_SCRIPT,
                                                      STDLIB_SCRIPT, BYTECODE_SCRIPT, NODE_PYODIDE_SCRIPT, BABEL_TRIM,
                                                      WHEEL_PROJECT]
    for path in files:
        sha.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    sha.update(f"babel {metadata.version('babel')} pyodide {pyodide_version()} languages {languages}".encode())
    return sha.hexdigest()[:16]


def build_app_wheel(out: Path, languages: tuple[str, ...]) -> Path:
    """`pip wheel` of this repository's `calculators` and `widgets` (with compiled catalogs).

    Built from a copy of the sources in `out`, so setuptools' build folders never land in the
    repository and concurrent builds do not share them.
    """
    from wiki import catalogs

    catalogs.compile_all(languages)
    source = out / "source"
    for package in SOURCES:
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(WHEEL_PROJECT, source / "pyproject.toml")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                             "--wheel-dir", str(out), str(source)], cwd=out, capture_output=True, text=True,
                            env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    if result.returncode != 0:
        raise RuntimeUnavailable(f"`pip wheel` of calculators + widgets failed:\n{result.stdout}\n{result.stderr}")
    shutil.rmtree(source)
    return next(out.glob(f"{APP_NAME.replace('-', '_')}-*.whl"))


def babel_locales(languages: tuple[str, ...]) -> set[str]:
    """The CLDR locales Babel reads for `languages`: each one, its parents (`de_AT`: `de`) and `root`."""
    found = {"root"}
    for lang in languages:
        parts = lang.replace("-", "_").split("_")
        found.update("_".join(parts[:i]) for i in range(1, len(parts) + 1))
    return found


def babel_usage(languages: tuple[str, ...]) -> dict:
    """What the calculators use of Babel in `languages`: its modules and the CLDR data keys they read
    (`wiki/babel_trim.py`, run in a fresh interpreter: this one's Babel caches stay as they are)."""
    result = subprocess.run([sys.executable, "-m", "wiki.babel_trim", *languages], cwd=ROOT, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if result.returncode != 0:
        raise RuntimeUnavailable(f"could not find what the calculators use of Babel:\n{result.stderr}")
    return json.loads(result.stdout)


def build_babel_wheel(out: Path, languages: tuple[str, ...]) -> Path:
    """Babel's installed files as a wheel: the modules the calculators import and, of the CLDR data of
    `languages` (`babel_locales`), only the keys they read (`babel_usage`)."""
    from wiki.babel_trim import trim_pickle

    usage = babel_usage(languages)
    modules = {f"{name.replace('.', '/')}.py" for name in usage["modules"]}
    modules |= {f"{name.replace('.', '/')}/__init__.py" for name in usage["modules"]}
    keep_data = {f"babel/locale-data/{loc}.dat" for loc in babel_locales(languages)} | {"babel/global.dat"}
    dist = metadata.distribution("babel")
    files = []
    for entry in sorted(dist.files or [], key=str):
        rel = entry.as_posix()
        if not rel.startswith("babel/") or "__pycache__" in rel:
            continue
        if rel.endswith(".py") and rel not in modules or rel.endswith(".dat") and rel not in keep_data:
            continue
        data = Path(dist.locate_file(entry)).read_bytes()
        if rel == "babel/global.dat":
            data = trim_pickle(data, usage["global"])
        elif rel.endswith(".dat"):
            data = trim_pickle(data, usage["locale"])
        files.append((rel, data))
    version = dist.version
    metadata_text = f"Metadata-Version: 2.1\nName: babel\nVersion: {version}\n"
    return write_wheel(out, "babel", version, files, metadata_text)


def write_wheel(out: Path, name: str, version: str, files: list[tuple[str, bytes]], metadata_text: str) -> Path:
    """Write a reproducible `py3-none-any` wheel (sorted entries, fixed timestamps, RECORD hashes)."""
    info = f"{name}-{version}.dist-info"
    entries = [*files, (f"{info}/METADATA", metadata_text.encode()),
               (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: wiki.runtime\nRoot-Is-Purelib: true\n"
                                 b"Tag: py3-none-any\n")]
    record = [f"{rel},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
              f"{len(data)}" for rel, data in entries]
    entries.append((f"{info}/RECORD", ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()))
    path = out / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for rel, data in entries:
            item = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
            item.external_attr = 0o644 << 16
            archive.writestr(item, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return path


def with_bytecode(wheels: list[Path], languages: tuple[str, ...]) -> None:
    """Rewrite each wheel with Pyodide-compiled bytecode (`wiki/bytecode.mjs`) in place of its `.py`
    files: a plain boot in the browser then neither reads nor compiles them (its first result ~0.2 s
    sooner at 10 Mbit/s, `bench --network`)."""
    out = wheels[0].parent
    bytecode = run_node_script(BYTECODE_SCRIPT, out / "bytecode.zip", wheels, languages, "compile the wheels")
    with zipfile.ZipFile(bytecode) as compiled:
        pyc = {name: compiled.read(name) for name in compiled.namelist()}
    bytecode.unlink()
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            info = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
            files = [(name + "c", pyc[name + "c"]) if name.endswith(".py") else (name, archive.read(name))
                     for name in archive.namelist() if ".dist-info/" not in name]
            metadata_text = archive.read(info).decode()
        name, version = wheel.name.split("-")[:2]
        wheel.unlink()
        write_wheel(out, name, version, files, metadata_text)


def write_lock(out: Path, wheels: list[Path]) -> Path:
    """A pyodide-lock.json listing only our wheels, by relative file name (nothing outside the site)."""
    info = json.loads((NODE_PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    packages = {}
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            tops = sorted({n.split("/")[0] for n in archive.namelist() if "/" in n and ".dist-info" not in n})
        name = wheel.name.split("-")[0].replace("_", "-")
        packages[name] = {
            "name": name, "version": wheel.name.split("-")[1], "file_name": wheel.name, "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(), "package_type": "package",
            "imports": tops, "depends": [], "unvendored_tests": False,
        }
    packages[APP_NAME]["depends"] = ["babel"]
    path = out / "pyodide-lock.json"
    path.write_text(json.dumps({"info": info, "packages": packages}, indent=1, sort_keys=True), encoding="utf-8")
    return path


def run_node_script(script: Path, output: Path, wheels: list[Path], languages: tuple[str, ...], what: str) -> Path:
    """Run one of our Node scripts (`node SCRIPT OUTPUT WHEEL...`, the npm `pyodide`, the languages in
    `KW_LANGUAGES`); return OUTPUT."""
    node = shutil.which("node")
    if not node:
        raise RuntimeUnavailable(f"Node.js is needed to {what}: install Debian's `nodejs`.")
    result = subprocess.run([node, str(script), str(output), *map(str, wheels)], cwd=ROOT,
                            capture_output=True, text=True, env={**os.environ, "KW_LANGUAGES": ",".join(languages)})
    if result.returncode != 0 or not output.exists():
        raise RuntimeUnavailable(f"could not {what}:\n{result.stdout}\n{result.stderr}")
    return output


def write_trimmed_stdlib(out: Path, wheels: list[Path], languages: tuple[str, ...]) -> Path:
    """`stdlib.zip` and `stdlib-later.zip`: the members of Pyodide's python_stdlib.zip that a plain boot
    of our wheels imports, as bytecode (`wiki/stdlib_trim.mjs`), and no compiling at boot; those Pyodide's
    start-up imports in the first, the others in the second, which downloads while Python starts. The
    worker boots with them when the snapshot is not worth downloading, and fetches the whole standard
    library if a call ever needs more. Each is a zip of stored members, gzipped whole (as `snapshot.bin`,
    `gzipped_files`): 0.89 + 0.08 MB to download, against 0.96 + 0.08 MB with each member deflated, and
    Python reads its modules without inflating them."""
    trimmed = run_node_script(STDLIB_SCRIPT, out / "stdlib.zip", [out / "stdlib-later.zip", *wheels], languages,
                              "trim the standard library")
    for path in (trimmed, out / "stdlib-later.zip"):
        path.write_bytes(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
    return trimmed


def make_snapshot(out: Path, wheels: list[Path], languages: tuple[str, ...]) -> Path:
    """Run `wiki/snapshot.mjs` under Node: install the wheels, pre-warm, write `snapshot.bin`."""
    raw = run_node_script(SNAPSHOT_SCRIPT, out / "snapshot.raw", wheels, languages, "make the Pyodide snapshot")
    target = out / "snapshot.bin"
    # Compressed here, not by the host: hosts leave application/octet-stream alone (18 MB → 6 MB).
    target.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0))
    raw.unlink()
    return target


def prepare(languages: tuple[str, ...] | None = None) -> Runtime:
    """Build (or reuse from `build/runtime/`) the wheels, lock file and snapshot for this source tree,
    in `languages` (by default mkdocs.yml's, `wiki/languages.py`).

    Safe with concurrent builds: the first takes the version's lock and builds it in a temporary folder
    renamed into place; the others wait for it and reuse what it made.
    """
    if languages is None:
        from wiki import languages as site_languages

        languages = site_languages.read().all
    version, key = pyodide_version(), digest(languages)
    app_dir = CACHE / key
    if not (app_dir / "snapshot.bin").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        # Builds that start together (the test processes) wait for the first one's runtime, not make their own.
        with open(CACHE / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (app_dir / "snapshot.bin").exists():
                build_runtime(app_dir, languages)
        # Keep a few recent versions: test builds of modified copies share this cache.
        done = sorted((d for d in CACHE.iterdir() if d.is_dir() and not d.name.startswith("tmp-")),
                      key=lambda d: d.stat().st_mtime)
        for stale in done[:-KEEP_VERSIONS]:
            if stale.name != key:
                shutil.rmtree(stale, ignore_errors=True)
                (CACHE / f"{stale.name}.lock").unlink(missing_ok=True)
    return Runtime(version, key, app_dir)


def build_runtime(app_dir: Path, languages: tuple[str, ...]) -> None:
    """Build the wheels, lock file, standard libraries and snapshot into `app_dir`, through a temporary
    folder renamed into place once complete."""
    work = Path(tempfile.mkdtemp(prefix="tmp-", dir=CACHE))
    work.chmod(0o755)  # mkdtemp's 0700 would follow the folder into site/ (wiki/site_files.py resets it there too)
    try:
        wheels = [build_app_wheel(work, languages), build_babel_wheel(work, languages)]
        with_bytecode(wheels, languages)
        write_lock(work, wheels)
        write_trimmed_stdlib(work, wheels, languages)
        make_snapshot(work, wheels, languages)
        try:
            work.rename(app_dir)
        except OSError:  # another build finished first with the same content (one without the lock)
            pass
    finally:
        shutil.rmtree(work, ignore_errors=True)


def renamed_asm_import(loader: str) -> str:
    """pyodide.mjs with its one reference to `pyodide.asm.mjs` pointed at the served name."""
    count = loader.count("pyodide.asm.mjs")
    if count != 1:
        raise RuntimeUnavailable(f"pyodide.mjs names pyodide.asm.mjs {count} times, not once: this Pyodide "
                                 "version loads its module differently; update wiki/runtime.py's renaming.")
    return loader.replace("pyodide.asm.mjs", PYODIDE_FILES["pyodide.asm.mjs"])


def install(runtime: Runtime, site_dir: Path) -> None:
    """Copy the Pyodide core files and the app files into the built site."""
    core = site_dir / runtime.pyodide_url
    core.mkdir(parents=True, exist_ok=True)
    for name, served in PYODIDE_FILES.items():
        if name.endswith(".mjs"):
            # pyodide.mjs names a CDN as its default package source; the worker always passes our own
            # packageBaseUrl, and the served file must not name a third-party host at all. Its loader
            # imports pyodide.asm.mjs by name (when not handed the module): it gets the served name.
            text = CDN_URL.sub("about:blank", (NODE_PYODIDE / name).read_text(encoding="utf-8"))
            if name == "pyodide.mjs":
                text = renamed_asm_import(text)
            (core / served).write_text(text, encoding="utf-8")
        else:
            shutil.copy2(NODE_PYODIDE / name, core / served)
    shutil.copytree(runtime.app_dir, site_dir / runtime.app_url, dirs_exist_ok=True)
