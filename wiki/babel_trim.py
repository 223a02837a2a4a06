"""What of Babel the calculators use, found by running them: its modules and the CLDR data they read.

`python -m wiki.babel_trim LANG...` runs `widgets.worker.warm` (every calculator in every language,
good and bad input) under CPython with the installed Babel, recording each module imported and each
key read from the CLDR data, and prints the record as JSON. `wiki/runtime.py` ships Babel's wheel with
only those (`trim_pickle`): the browser downloads, unpickles and keeps in memory ~90 % less of it.

Global data (`global.dat`) is recorded two levels deep (`likely_subtags` is a third of it, and only a
few of its entries are looked up); a locale's data (`locale-data/*.dat`) by its top-level keys, so a
category read once (number symbols, unit patterns) is kept whole, whatever value a reader types.
"""

from __future__ import annotations

import json
import pickle
import sys
from typing import Any

ALL = "*"  # a dictionary read as a whole (iterated): kept whole


class Recorder(dict):
    """A dict that notes every key read from it in `log` (ALL when it is iterated)."""

    def __init__(self, data: dict, log: set) -> None:
        super().__init__(data)
        self.log = log

    def __getitem__(self, key: Any) -> Any:
        self.log.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.log.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.log.add(key)
        return super().__contains__(key)

    def copy(self) -> dict:  # Babel copies a parent locale's data to merge a child's into: not a read
        return dict(dict.items(self))

    def __iter__(self):
        self.log.add(ALL)
        return super().__iter__()

    def keys(self):
        self.log.add(ALL)
        return super().keys()

    def items(self):
        self.log.add(ALL)
        return super().items()

    def values(self):
        self.log.add(ALL)
        return super().values()


def record(languages: list[str]) -> dict[str, Any]:
    """Run the calculators in `languages`; return the Babel modules imported and the data keys read:
    `{"modules": [...], "global": {key: [subkey, ...] or "*"}, "locale": [key, ...] or "*"}`."""
    import babel.core
    import babel.localedata

    with open(babel.core.__file__.replace("core.py", "global.dat"), "rb") as file:
        global_data = pickle.load(file)
    global_log: set = set()
    sub_logs: dict[str, set] = {}
    wrapped = {}
    for key, value in global_data.items():
        sub_logs[key] = set()
        wrapped[key] = Recorder(value, sub_logs[key]) if isinstance(value, dict) else value
    babel.core._global_data = Recorder(wrapped, global_log)

    locale_log: set = set()
    load = babel.localedata.load
    babel.localedata.load = lambda name, merge_inherited=True: Recorder(load(name, merge_inherited), locale_log)

    from widgets.worker import warm

    warm(languages)
    if ALL in global_log:
        found_global = {key: ALL for key in global_data}
    else:
        found_global = {key: ALL if ALL in sub_logs[key] or not isinstance(global_data[key], dict)
                        else sorted(k for k in sub_logs[key] if k in global_data[key])
                        for key in sorted(k for k in global_log if k in global_data)}
    return {"modules": sorted(m for m in sys.modules if m == "babel" or m.startswith("babel.")),
            "global": found_global,
            "locale": ALL if ALL in locale_log else sorted(k for k in locale_log if isinstance(k, str))}


def trim_pickle(data: bytes, keep: dict[str, Any] | list[str] | str) -> bytes:
    """A Babel data file with only the keys in `keep` (a list of keys, or per key its subkeys or ALL)."""
    if keep == ALL:
        return data
    loaded = pickle.loads(data)
    if isinstance(keep, list):
        trimmed = {key: value for key, value in loaded.items() if key in keep}
    else:
        trimmed = {key: loaded[key] if keep[key] == ALL else {k: loaded[key][k] for k in keep[key]}
                   for key in keep if key in loaded}
    return pickle.dumps(trimmed, protocol=pickle.HIGHEST_PROTOCOL)


if __name__ == "__main__":
    print(json.dumps(record(sys.argv[1:])))
