"""The README's and CONTRIBUTING.md's commands, each as the first command of a fresh copy of the project.

A fresh copy holds the project's files as a clone has them (what git tracks, and what it would commit), none of
what a command makes (compiled catalogs, a built site, results): each command has to make what it needs. The
environments (`.venv/`, `node_modules/`) and the runtime's cache (`build/`) are shared with this checkout, which
the test command has set up: that a clean clone sets them up itself is what CI's first command proves
(`.ci/run`: `check`, then `summary`, then the test command, on a clean clone). `bench` is not run here (the
README says why)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT

# One worker runs them one after the other: each builds a site, and two at once on CI's two cores slow every
# browser test beside them.
pytestmark = pytest.mark.xdist_group("fresh-copies")
SHARED = (".venv", "node_modules", "build")
MADE = ("widgets/locales", "site")  # what the build makes in the tree: a fresh copy has none of it


def fresh_copy(target: Path) -> Path:
    """The project's files as a clone of the working tree has them, the environments and runtime cache linked."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():  # a file deleted in the working tree is not copied
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    for name in SHARED:
        (ROOT / name).mkdir(exist_ok=True)
        (target / name).symlink_to(ROOT / name, target_is_directory=True)
    assert not any((target / made).exists() for made in MADE)
    return target


def build_py(root: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """`python3 build.py ARGS` in `root`, as a person types it (no standard input, CI's environment)."""
    return subprocess.run([sys.executable, "build.py", *args], cwd=root, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, env={**os.environ, "CI": "true"})


def said(result: subprocess.CompletedProcess[str]) -> str:
    """What a command printed, for an assertion's message."""
    return f"exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    return fresh_copy(tmp_path / "project")


def test_build_writes_the_site_in_both_languages(fresh: Path) -> None:
    result = build_py(fresh, "build")
    assert result.returncode == 0, said(result)
    assert (fresh / "site" / "index.html").is_file() and (fresh / "site" / "fr" / "index.html").is_file()


def test_smoke_builds_the_site_and_drives_it_as_github_pages_serves_it(fresh: Path) -> None:
    result = build_py(fresh, "smoke")
    assert result.returncode == 0, said(result)
    assert (fresh / "site" / "index.html").is_file()
    assert " passed" in result.stdout and " failed" not in result.stdout, said(result)


@pytest.mark.parametrize(("command", "outputs"), [
    ("catalogs", ("i18n/messages.pot", "i18n/da/LC_MESSAGES/messages.po", "i18n/fr/LC_MESSAGES/messages.po")),
    ("types", ("types/protocol.d.ts",)),
    ("bundle", ("overrides/assets/javascripts/calculators.js",)),
])
def test_a_generating_command_leaves_an_unchanged_project_unchanged(fresh: Path, command: str,
                                                                    outputs: tuple[str, ...]) -> None:
    """Run on sources whose outputs are up to date, a generator rewrites none of them (not even a date)."""
    result = build_py(fresh, command)
    assert result.returncode == 0, said(result)
    assert [name for name in outputs if (fresh / name).read_bytes() != (ROOT / name).read_bytes()] == []


def test_one_checker_runs_by_its_name(fresh: Path) -> None:
    result = build_py(fresh, "check", "parity")
    assert result.returncode == 0, said(result)
    assert "check passed: parity" in result.stdout
    wrong = build_py(fresh, "check", "parties")
    assert wrong.returncode == 2 and "unknown checker parties" in wrong.stderr


def test_lock_resolves_every_requirement_to_an_exact_pin_with_hashes(fresh: Path) -> None:
    result = build_py(fresh, "lock")
    assert result.returncode == 0, said(result)
    lock = (fresh / "requirements.lock").read_text(encoding="utf-8").lower()
    wanted = [line.split("==")[0].split(">")[0].split("<")[0].strip().lower()
              for line in (fresh / "requirements.in").read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    pins = {line.split("==")[0].replace("_", "-") for line in lock.splitlines() if "==" in line and line[0].isalnum()}
    assert [name for name in wanted if name.replace("_", "-") not in pins] == []
    assert lock.count("--hash=sha256:") >= len(pins)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def children(pid: int) -> list[int]:
    """The processes `pid` started (Linux's /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "\nState:\tZ" not in status.read_text()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl+C"])
def test_serve_stops_the_server_it_started(fresh: Path, stop: signal.Signals) -> None:
    """Stopped as a process manager stops it (SIGTERM to build.py alone) or with Ctrl+C (SIGINT, here to build.py
    alone too: the harder case, a terminal sends it to the server as well), serve leaves no server behind."""
    port, servers = free_port(), []
    serve = subprocess.Popen([sys.executable, "build.py", "serve", "--addr", f"127.0.0.1:{port}"], cwd=fresh,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 300
        while True:
            assert serve.poll() is None, serve.stdout.read() if serve.stdout else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "serve did not answer within 300 s"
                time.sleep(1)
        servers = children(serve.pid)
        assert servers, "serve runs MkDocs' server as its child"
        serve.send_signal(stop)
        assert serve.wait(30) == 0
        assert [pid for pid in servers if alive(pid)] == []
        with socket.socket() as sock:  # the port is free again: the next serve can start (as it binds it)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", port))
    finally:
        for pid in [*servers, serve.pid]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        serve.wait()
