"""The code is ruff clean (the same configuration as pyproject.toml), and the JavaScript type-checks from
its JSDoc with tsc (typescript, pinned in package.json): the page's scripts, the calculators' worker
and the service worker, each against its own globals; ESLint (pinned too, eslint.config.mjs) passes."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

TSC = ROOT / "node_modules" / ".bin" / "tsc"
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def test_ruff_is_clean() -> None:
    cmd = [sys.executable, "-m", "ruff", "check", "."]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("project", ["tsconfig.json", "tsconfig.workers.json", "tsconfig.sw.json"])
def test_the_javascript_type_checks(project: str) -> None:
    result = subprocess.run([str(TSC), "-p", project, "--pretty", "false"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_protocol_types_are_what_widgets_protocol_gives() -> None:
    """types/protocol.d.ts, which tsc holds the page's scripts to, is generated from widgets/protocol.py."""
    from wiki.protocol_types import OUTPUT, declarations

    assert OUTPUT.read_text(encoding="utf-8") == declarations(), (
        "widgets/protocol.py changed: run `python3 build.py types` and commit types/protocol.d.ts")


def test_the_served_page_script_is_the_bundle_of_its_modules(tmp_path) -> None:
    """overrides/assets/javascripts/calculators.js is esbuild's bundle of scripts/calculators/*.js, as they are."""
    from wiki.page_bundle import OUTPUT, bundle

    bundle(tmp_path / "calculators.js")
    assert OUTPUT.read_text(encoding="utf-8") == (tmp_path / "calculators.js").read_text(encoding="utf-8"), (
        "scripts/calculators/ changed: run `python3 build.py bundle` and commit the served calculators.js")


def test_the_bundle_keeps_every_module_and_the_shared_link_grammar(tmp_path) -> None:
    """Every module is in the one served file, `links.js`' grammar too; no module is fetched on its own."""
    from wiki.page_bundle import OUTPUT, SOURCES

    served = OUTPUT.read_text(encoding="utf-8")
    assert all(f"// scripts/calculators/{module.name}" in served for module in SOURCES.glob("*.js"))
    assert "// overrides/assets/javascripts/links.js" in served and "export function writeLink" not in served
    assert not re.search(r"^\s*import\b", served, re.MULTILINE)  # nothing left to fetch


def test_tsc_holds_the_page_to_the_protocol(tmp_path) -> None:
    """A message the page reads wrongly (a field the protocol does not have) fails the type check."""
    probe = tmp_path / "probe.js"
    probe.write_text("/** @param {WorkerMessage} data */\nexport function read(data) {\n"
                     "  if (data.type === \"ready\") return data.via + data.loaded;\n  return \"\";\n}\n")
    result = subprocess.run([str(TSC), "--noEmit", "--allowJs", "--checkJs", "--target", "es2022", "--module",
                             "es2022", "--lib", "es2022,dom", "--skipLibCheck", str(ROOT / "types" / "protocol.d.ts"),
                             str(probe)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0 and "Property 'loaded' does not exist on type 'Ready'" in result.stdout


def eslint(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ESLINT), *args], cwd=ROOT, input=stdin, capture_output=True, text=True)


def test_the_javascript_lints() -> None:
    result = eslint(".", "--max-warnings", "0")
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_refuses_a_silent_catch_and_an_unused_name() -> None:
    """The rules the page's scripts are held to: a `catch` says why it is silent, nothing unused."""
    source = "const unused = 1;\ntry { globalThis.fetch('x'); } catch (error) {}\n"
    result = eslint("--stdin", "--stdin-filename", "overrides/assets/javascripts/probe.js", "--format", "json",
                    stdin=source)
    rules = {m["ruleId"] for m in json.loads(result.stdout)[0]["messages"]}
    assert result.returncode == 1 and {"no-empty", "no-unused-vars"} <= rules
