"""Headless Chromium with no debugger attached to its pages, for timing a visit as a reader's browser runs it.

Playwright attaches to every page and worker it sees and holds each new worker until its driver lets
it run (`Target.setAutoAttach` with `waitForDebuggerOnStart`), and forwards console messages. A
reader's browser does none of that; on this machine it added about 100 ms to the article's cold first
live result (its work runs in workers) and nothing measurable to a plain main-thread boot. Here the
browser is started with an ephemeral DevTools port that is only used to open and close tabs (its
HTTP `/json/new` and `/json/close` endpoints); nothing attaches. The page reports its own timings
(`harness/host.py`, `Host.probe()`).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Chromium:
    """One browser process on `profile` (its own HTTP cache); use as a context manager.

    The browser starts on about:blank and is left alone for `settle_ms` first: a freshly started
    headless Chromium spends ~1.2 s of CPU on itself (it renders its omnibox popup WebUI), which on
    2 cores would otherwise be measured as the page's."""

    def __init__(self, executable: str, profile: Path, settle_ms: int) -> None:
        self.executable, self.profile, self.settle_ms = executable, Path(profile), settle_ms
        self._process: subprocess.Popen | None = None
        self._endpoint = ""

    def __enter__(self) -> Chromium:
        self._process = subprocess.Popen(
            [self.executable, *ARGS, "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        active = self.profile / "DevToolsActivePort"  # written by Chromium: the port, then the browser path
        deadline = time.monotonic() + 30
        while not (active.exists() and active.read_text().strip()):
            if time.monotonic() > deadline or self._process.poll() is not None:
                self.__exit__()
                raise RuntimeError(f"Chromium did not start ({self.executable})")
            time.sleep(0.05)
        self._endpoint = f"http://127.0.0.1:{active.read_text().split()[0]}"
        time.sleep(self.settle_ms / 1000)
        return self

    def open(self, url: str) -> str:
        """Open `url` in a new tab; return the tab's id."""
        # Quoted: a fragment would otherwise not reach Chromium (it is not sent in a request line).
        request = urllib.request.Request(f"{self._endpoint}/json/new?{urllib.parse.quote(url, safe=':/')}",
                                         method="PUT")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)["id"]

    def close(self, tab: str) -> None:
        """Close a tab opened by `open()`."""
        with urllib.request.urlopen(f"{self._endpoint}/json/close/{tab}", timeout=30):
            pass

    def __exit__(self, *exc: object) -> None:
        if self._process and self._process.poll() is None:
            os.killpg(self._process.pid, signal.SIGTERM)
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait()
