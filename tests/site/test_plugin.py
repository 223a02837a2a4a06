"""The build's glue is a MkDocs plugin as the ecosystem writes one: found through its `mkdocs.plugins` entry
point (no `hooks:` file loaded by path, no `sys.path` insertion), with typed options that MkDocs checks and
whose errors name the option."""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from tests.conftest import ROOT
from wiki import languages
from wiki.plugin import KentinoPlugin


def _plugins_with(kentino: Any) -> list[Any]:
    """mkdocs.yml's plugins, with the `kentino` entry replaced by `kentino` (a name or {name: options})."""
    plugins = languages.read_config(ROOT / "mkdocs.yml")["plugins"]
    found = [i for i, p in enumerate(plugins) if p == "kentino" or (isinstance(p, dict) and "kentino" in p)]
    assert len(found) == 1, "mkdocs.yml lists the kentino plugin once"
    plugins[found[0]] = kentino
    return plugins


def _config(kentino: Any) -> Any:
    return load_config(str(ROOT / "mkdocs.yml"), plugins=_plugins_with(kentino))


def test_the_plugin_is_installed_through_its_entry_point() -> None:
    (entry,) = [e for e in entry_points(group="mkdocs.plugins") if e.name == "kentino"]
    assert entry.load() is KentinoPlugin
    config = languages.read_config(ROOT / "mkdocs.yml")
    assert "hooks" not in config


def test_the_site_as_published_writes_the_service_worker() -> None:
    config = _config("kentino")
    assert isinstance(config.plugins["kentino"], KentinoPlugin)
    config.plugins.on_startup(command="build", dirty=False)
    config = config.plugins.on_config(config)
    assert config.extra["kw_offline"] is True


@pytest.mark.parametrize(("command", "offline", "expected"), [("build", False, False), ("serve", True, False)])
def test_offline_is_an_option_and_never_under_serve(command: str, offline: bool, expected: bool) -> None:
    config = _config({"kentino": {"offline": offline}})
    config.plugins.on_startup(command=command, dirty=False)
    config = config.plugins.on_config(config)
    assert config.extra["kw_offline"] is expected


def test_a_wrong_option_is_named_for_the_author(caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(Abort):
        _config({"kentino": {"offline": "sometimes"}})
    assert "Plugin 'kentino' option 'offline'" in caplog.text and "bool" in caplog.text
    caplog.clear()
    with pytest.raises(Abort):  # a warning, which the site's `strict: true` makes fatal
        _config({"kentino": {"ofline": False}})
    assert "Plugin 'kentino' option 'ofline'" in caplog.text


@pytest.mark.parametrize("command", ["build", "serve"])
def test_serve_bundles_the_page_script_again_and_a_build_serves_the_committed_one(command: str, tmp_path,
                                                                                monkeypatch) -> None:
    """Under `mkdocs serve`, an edit of scripts/calculators/ shows at the next rebuild; a build never runs esbuild."""
    from wiki import page_bundle

    stale = tmp_path / "calculators.js"
    stale.write_text("// an older bundle\n", encoding="utf-8")
    monkeypatch.setattr(page_bundle, "OUTPUT", stale)
    config = _config({"kentino": {}})
    config.plugins.on_startup(command=command, dirty=False)
    config.plugins.on_config(config)
    written = stale.read_text(encoding="utf-8")
    if command == "build":
        assert written == "// an older bundle\n"
    else:
        assert written.startswith(page_bundle.BANNER) and "// scripts/calculators/boot.js" in written
        before = stale.stat().st_mtime_ns
        assert page_bundle.refresh() is False and stale.stat().st_mtime_ns == before  # unchanged: not rewritten
