"""What a plain boot downloads besides Pyodide: our wheels as bytecode, and Babel trimmed to what the
calculators read (`wiki/runtime.py`, `wiki/babel_trim.py`). Whether they still run is test_in_pyodide's
and the browser tests' to say; here: that nothing else rides along."""

from __future__ import annotations

import pickle
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from wiki import languages, runtime


@pytest.fixture(scope="module")
def wheels() -> dict[str, zipfile.ZipFile]:
    app_dir = runtime.prepare().app_dir
    return {path.name.split("-")[0]: zipfile.ZipFile(path) for path in app_dir.glob("*.whl")}


def test_the_wheels_carry_bytecode_and_no_source(wheels: dict[str, zipfile.ZipFile]) -> None:
    for wheel in wheels.values():
        names = wheel.namelist()
        assert not [n for n in names if n.endswith(".py")]
        assert any(n.endswith("/__init__.pyc") for n in names)


def test_babel_carries_only_the_cldr_data_and_modules_the_calculators_read(
        wheels: dict[str, zipfile.ZipFile]) -> None:
    usage = runtime.babel_usage(languages.read().all)
    babel = wheels["babel"]
    for locale in runtime.babel_locales(languages.read().all):
        data = pickle.loads(babel.read(f"babel/locale-data/{locale}.dat"))
        assert set(data) <= set(usage["locale"])
        assert "number_symbols" in data or locale != "root"
    assert set(pickle.loads(babel.read("babel/global.dat"))) == set(usage["global"])
    shipped = {n.removesuffix(".pyc").removesuffix("/__init__").replace("/", ".") for n in babel.namelist()
               if n.endswith(".pyc")}
    assert shipped == set(usage["modules"])
    assert "babel.messages" not in shipped and "babel.support" not in shipped


def test_builds_that_start_together_make_the_runtime_once(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test processes' builds start at once: the first builds the runtime, the others wait and reuse it."""
    built: list[str] = []

    def slow_build(app_dir, languages) -> None:
        built.append(app_dir.name)
        time.sleep(0.5)  # long enough for every other thread to have asked for the same version
        app_dir.mkdir()
        (app_dir / "snapshot.bin").write_bytes(b"")

    monkeypatch.setattr(runtime, "CACHE", tmp_path)
    monkeypatch.setattr(runtime, "build_runtime", slow_build)
    with ThreadPoolExecutor(4) as pool:
        made = list(pool.map(lambda _: runtime.prepare(("da",)).app_dir, range(4)))
    assert len(built) == 1 and len(set(made)) == 1 and (made[0] / "snapshot.bin").exists()
