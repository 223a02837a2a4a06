"""The site's languages, declared once: the `languages` of the mkdocs-static-i18n plugin in mkdocs.yml.

Everything else derives them from here: the build's plugin (catalogs, pages, search indexes), the
browser runtime (`wiki/runtime.py`: the catalogs compiled into the wheel, the CLDR data kept in the
trimmed Babel, the languages the snapshot is warmed in) and the checks (`wiki/checks/project.py`). The
page script finds the site root in the page (`main.html`), not by knowing a language.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Languages:
    """The default language (served at `/`) and the others (each at `/<lang>/`), in mkdocs.yml's order."""

    default: str
    others: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        """Every language, the default first."""
        return (self.default, *self.others)


def _field(entry: Any, name: str) -> Any:
    return entry.get(name) if isinstance(entry, dict) else getattr(entry, name, None)


def from_plugin(languages: Iterable[Any]) -> Languages:
    """The plugin's `languages` option: dicts as written in mkdocs.yml, or the plugin's parsed config."""
    entries = list(languages)
    defaults = [_field(e, "locale") for e in entries if _field(e, "default")]
    others = tuple(_field(e, "locale") for e in entries if not _field(e, "default"))
    if len(defaults) != 1:
        raise ValueError(f"the i18n plugin in mkdocs.yml declares {len(defaults)} default languages, not one")
    return Languages(defaults[0], others)


def read_config(path: Path = ROOT / "mkdocs.yml") -> dict[str, Any]:
    """mkdocs.yml as plain data, read by MkDocs' own YAML loader (`!ENV` as MkDocs resolves it)."""
    with path.open(encoding="utf-8") as handle:
        return yaml_load(handle) or {}


def i18n_options(config: dict[str, Any]) -> dict[str, Any]:
    """The options of the mkdocs-static-i18n plugin in a read mkdocs.yml (empty without the plugin)."""
    for plugin in config.get("plugins", []):
        if isinstance(plugin, dict) and "i18n" in plugin:
            return plugin["i18n"] or {}
    return {}


def read(path: Path = ROOT / "mkdocs.yml") -> Languages:
    """The languages declared in the mkdocs.yml at `path`."""
    return from_plugin(i18n_options(read_config(path)).get("languages", []))
