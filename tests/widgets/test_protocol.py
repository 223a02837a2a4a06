"""widgets/protocol.py is the one description of the view and the messages: the code on both sides keeps to it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

import calculators
from tests.conftest import ROOT
from widgets import protocol
from widgets.view import view
from wiki import runtime

SCRIPTS = ROOT / "overrides" / "assets" / "javascripts"
WORKER = (SCRIPTS / "calculator-worker.js").read_text(encoding="utf-8")
# The page's side: every page script but the worker, the live calculators' as their modules (scripts/calculators/,
# bundled into the served calculators.js).
PAGE = "\n".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "scripts" / "calculators").glob("*.js"))
                 + sorted(p for p in SCRIPTS.glob("*.js") if p.name not in ("calculator-worker.js", "calculators.js")))


def keys(typed: type) -> set[str]:
    return set(typed.__annotations__)


@pytest.mark.parametrize("name", list(calculators.CALCULATORS))
@pytest.mark.parametrize("lang", ["da", "fr"])
def test_a_view_has_exactly_the_described_keys(name: str, lang: str) -> None:
    good = view(name, {}, lang)
    if good["ok"]:  # a calculator not shown by any widget yet may still fail on its defaults
        assert set(good) == keys(protocol.View)
        assert set(good["html"]) == keys(protocol.ViewHtml)
        assert list(good["outputs"]) == calculators.CALCULATORS[name]["shown"]
        for row in good["trace"]:
            assert set(row) == keys(protocol.TraceRow)
    bad = view(name, {"gpus": "x"}, lang)
    assert bad["ok"] is False and set(bad) == keys(protocol.ViewFailure)


def test_the_runtime_config_is_the_described_one(tmp_path: Path) -> None:
    (tmp_path / "app.whl").write_bytes(b"")
    config = runtime.Runtime("0.0.0", "digest", tmp_path).page_config()
    assert set(config) == keys(protocol.RuntimeConfig)


def literal(typed: type) -> str:
    return get_args(get_type_hints(typed)["type"])[0]


def test_every_message_type_is_sent_by_its_side_and_read_by_the_other() -> None:
    to_worker = (protocol.Prepare, protocol.Boot, protocol.Wasm, protocol.ViewRequest)
    to_page = (protocol.Step, protocol.Progress, protocol.Ready, protocol.BootError, protocol.Line, protocol.Kept,
               protocol.KeepFailed, protocol.ViewReply)
    for sender, reader, messages in ((PAGE, WORKER, to_worker), (WORKER, PAGE, to_page)):
        for message in messages:
            kind = literal(message)
            assert re.search(rf'\{{ type: "{kind}"', sender), kind  # a message literal, sent as it is or kept
            assert f'type === "{kind}"' in reader, kind


def sent_fields(kind: str) -> set[str]:
    """The fields of the page's message literal `{ type: "<kind>", ... }`; a spread of the runtime's files
    (`...runtime.files`) stands for the fields of runtime-files.js's `files` literal."""
    message = re.search(rf'\{{ type: "{kind}",([^{{}}]*)\}}', PAGE)[1]
    sent = set(re.findall(r"(\w+):", message)) | {"type"}
    if "...runtime.files" in message:
        files = (SCRIPTS / "runtime-files.js").read_text(encoding="utf-8")
        sent |= set(re.findall(r"(\w+):", re.search(r"files: \{(.*?)\}", files, flags=re.DOTALL)[1]))
    return sent


def test_the_boot_message_carries_every_described_field() -> None:
    # tsc holds both to the generated types (`@type {Boot}`, `@param {Boot} config`); this holds the page to
    # sending every field, optional ones included, and the worker to reading none the protocol lacks.
    assert sent_fields("boot") == keys(protocol.Boot)
    assert sent_fields("prepare") == keys(protocol.Prepare)
    read = set(re.findall(r"config\.(\w+)", WORKER)) | {"type"}
    assert read <= keys(protocol.Boot), read - keys(protocol.Boot)
