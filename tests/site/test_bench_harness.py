"""The benchmark's timing harness: a browser with no debugger attached, and a page that reports its own
timeline to the host (`harness/chromium.py`, `harness/host.py`, `harness/probe.py`)."""

from __future__ import annotations

import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from harness.chromium import Chromium
from harness.host import PROBE_PATH, REPORT_PATH, Host
from harness.probe import PROBE_JS, visit
from tests.support.content import page_with

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTICLE = page_with("vram_fit").url("da")  # the benchmark's article: the one with the VRAM widget


def fetch(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return response.read().decode()


def test_the_probe_is_served_and_loaded_by_the_chosen_pages_only(site_dir: Path) -> None:
    with Host(site_dir) as host:
        assert PROBE_PATH not in fetch(host.url + ARTICLE)
        host.probe(PROBE_JS, {"/" + ARTICLE})
        article = fetch(host.url + ARTICLE)
        assert f'<meta charset="utf-8"><script src="{PROBE_PATH}" defer></script>' in article
        assert PROBE_PATH not in fetch(host.url + "fr/" + ARTICLE)
        assert REPORT_PATH in fetch(host.url + PROBE_PATH.lstrip("/"))
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(host.url + "elsewhere", data=b"{}", method="POST"))
        assert refused.value.code == 404


def test_a_cold_visit_reports_its_timeline_from_a_browser_without_a_debugger(site_dir: Path) -> None:
    with Host(site_dir) as host, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile, \
            Chromium(CHROMIUM, Path(profile), settle_ms=0) as browser:
        host.probe(PROBE_JS, {"/" + ARTICLE})
        report = visit(browser, host, host.url + ARTICLE)
        requested = list(host.counter.requests)
    assert "error" not in report, report
    assert "numbers_in_dom" in report  # the prerendered numbers are there at DOMContentLoaded
    assert 0 < report["fcp"] and 0 < report["dcl"] <= report["interaction"] < report["ready"] <= report["first_live"]
    assert PROBE_PATH in requested and any(path.endswith("snapshot.bin") for path in requested)
