"""A page that reports its own timeline to the host, and one visit of it in a browser with no debugger.

`Host.probe(PROBE_JS, pages)` serves the script at `PROBE_PATH` and loads it first in those pages'
`<head>`; `visit()` opens a page in `Chromium` and returns what it reported.
"""

from __future__ import annotations

import queue
import re

from harness.chromium import Chromium
from harness.host import REPORT_PATH, Host

# Served at PROBE_PATH and loaded first in the article's <head>, deferred (Host.probe): the visit's timeline in ms
# since navigation start, POSTed once the first live result (or an error) shows. The reader types at
# DOMContentLoaded, as early as the page can take input.
_PROBE = """
(() => {
  const marks = {};
  let sent = false;
  const send = () => {
    if (sent) return;
    sent = true;
    marks.boot = document.documentElement.dataset.kwBoot ?? null; // "snapshot" or "plain"
    navigator.sendBeacon("REPORT", JSON.stringify(marks));
  };
  // The report waits until the snapshot is kept for the next visit (a plain boot fetches it after the
  // first result) and the service worker holds the runtime (offline.js), as a reader who stays on the
  // page would let them; the marks are taken when they happen.
  const root = document.documentElement;
  const kept = () => root.dataset.kwRuntime === "kept" && root.dataset.kwOffline === "runtime";
  const mark = (key) => {
    if (key in marks) return;
    marks[key] = performance.now();
    if (key !== "first_live" && key !== "error") return;
    marks.fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
    if (key === "error" || kept()) return send();
    new MutationObserver((_, observer) => {
      if (!kept()) return;
      observer.disconnect();
      marks.kept = performance.now();
      send();
    }).observe(root, { attributes: true, attributeFilter: ["data-kw-runtime", "data-kw-offline"] });
    setTimeout(send, 60000);
  };
  document.addEventListener("DOMContentLoaded", () => {
    mark("dcl");
    const widget = document.querySelector('[data-calculator="vram_fit"]');
    const out = widget.querySelector('[data-output="vram_gb"]');
    if (out.textContent) mark("numbers_in_dom");
    const before = out.textContent;
    new MutationObserver(() => {
      if (widget.dataset.state === "ready") mark("ready");
      if (widget.dataset.state === "error") mark("error");
    }).observe(widget, { attributes: true, attributeFilter: ["data-state"] });
    new MutationObserver(() => { if (out.textContent !== before) mark("first_live"); })
      .observe(out, { childList: true, characterData: true, subtree: true });
    /*INPUT*/
    mark("interaction");
  });
})();
""".replace("REPORT", REPORT_PATH)
# The reader's first input, at DOMContentLoaded: 16 GPUs typed into the VRAM widget.
TYPED_INPUT = """const input = widget.querySelector('[name="gpus"]');
    input.focus();
    input.value = "16";
    input.dispatchEvent(new Event("input", { bubbles: true }));"""
# PROBE_JS types it; PROBE_LINK_JS types nothing: the page is opened from a shared link that sets the
# value (`link_url`), as the issue's own measurement did, and the page applies it.
PROBE_JS = _PROBE.replace("/*INPUT*/", TYPED_INPUT)
PROBE_LINK_JS = _PROBE.replace("/*INPUT*/", "")

# The next page's probe (bench --network, the reader's next page): opened from a shared link, each page
# reports at its first live result at once (a reader does not wait for the snapshot's keeping), with its
# path and how it booted; the first page of a tab presses the language switcher SWITCH_MS after its report
# when SWITCH_MS is not negative (the tab's sessionStorage remembers that it did).
_NEXT_PROBE = """
(() => {
  const marks = {};
  const root = document.documentElement;
  const mark = (key) => {
    if (key in marks) return;
    marks[key] = performance.now();
    if (key !== "first_live" && key !== "error") return;
    Object.assign(marks, { path: location.pathname, boot: root.dataset.kwBoot ?? null,
      reason: root.dataset.kwBootReason ?? null });
    navigator.sendBeacon("REPORT", JSON.stringify(marks));
    if (SWITCH_MS >= 0 && !sessionStorage.getItem("kw-bench-switched")) {
      sessionStorage.setItem("kw-bench-switched", "1");
      setTimeout(() => document.querySelector("a.md-select__link[hreflang]:not([aria-current])").click(), SWITCH_MS);
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    mark("dcl");
    const widget = document.querySelector('[data-calculator="vram_fit"]');
    const out = widget.querySelector('[data-output="vram_gb"]');
    const before = out.textContent;
    new MutationObserver(() => {
      if (widget.dataset.state === "ready") mark("ready");
      if (widget.dataset.state === "error") mark("error");
    }).observe(widget, { attributes: true, attributeFilter: ["data-state"] });
    new MutationObserver(() => { if (out.textContent !== before) mark("first_live"); })
      .observe(out, { childList: true, characterData: true, subtree: true });
  });
})();
""".replace("REPORT", REPORT_PATH)


def next_probe(switch_ms: int = -1) -> str:
    """The next page's probe (`_NEXT_PROBE`); `switch_ms` >= 0: the first page presses the language switcher
    that long after its first live result."""
    return _NEXT_PROBE.replace("SWITCH_MS", str(int(switch_ms)))


def link_url(page_url: str, html: str) -> str:
    """A shared link to `page_url` that sets 16 GPUs in its VRAM widget (calculators.js's fragment format),
    given the page's HTML (where the widget's id is)."""
    widget = re.search(r'id="([^"]+)" data-calculator="vram_fit"', html)[1]
    return f"{page_url}#{widget}/gpus=16"


def visit(browser: Chromium, host: Host, url: str) -> dict[str, float]:
    """Open `url` in a new tab of `browser`; return what its page reports (`PROBE_JS`, `PLAIN_BOOT_JS`)."""
    host.discard_reports()
    tab = browser.open(url)
    try:
        return host.next_report(timeout=120)
    except queue.Empty:
        raise SystemExit(f"no report from {url} within 120 s") from None
    finally:
        browser.close(tab)
