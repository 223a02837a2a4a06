"""A local stand-in for a real static host: the site's `_headers` rules, gzip, validators, byte counts.

Serves a built site on 127.0.0.1 the way a CDN-backed static host would: the `Content-Type`,
`Cache-Control` and security headers from `site/_headers` (Netlify / Cloudflare Pages format; path
patterns with `*`), a default of `Cache-Control: public, max-age=0, must-revalidate`, gzip when the
browser accepts it for the content types such hosts compress (text, JavaScript, JSON, XML, SVG,
WebAssembly; not `application/octet-stream`, such as the Pyodide snapshot, which the build gzips
itself), compressed once and kept in memory, and
`Last-Modified` / `If-Modified-Since` and `ETag` / `If-None-Match` revalidation, and byte ranges
(`Range`, `If-Range`, `206 Partial Content`) of the files it sends uncompressed, as nginx, Apache,
GitHub Pages and the CDNs do: a browser resumes a download that was cut off. It counts the bytes it
sends, so a benchmark can tell what a visit transferred (a response from the browser's cache never
reaches the server), and records every range asked for (`Counter.ranges`).

`Host.faults` makes chosen files fail as a real host or line can: stall after some bytes, close the
connection early (truncate), refuse (503), or trickle at a few bytes per second for a while (`Fault`).

With a `Link` (`harness/link.py`, `Host.link`), every response waits a round trip and all bytes
share one line of a given rate, like a reader's access line.

For timing without a debugger in the browser, `probe()` adds a measuring script to chosen pages (a
`<script src defer>` first in `<head>`, allowed by the site's own CSP: it runs before the page's own
scripts and before DOMContentLoaded, without holding up the parser) and collects what it reports (a
JSON `POST` to `REPORT_PATH`, see `next_report()`).
"""

from __future__ import annotations

import email.utils
import fnmatch
import gzip
import json
import mimetypes
import queue
import re
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import unquote, urlsplit

from harness.link import Link
from harness.server import CONTENT_TYPES, QuietServer, StaticServer
from wiki.csp import read_headers

DEFAULT_CACHE = "public, max-age=0, must-revalidate"
TYPES = {**CONTENT_TYPES, ".bin": "application/octet-stream"}
PROBE_PATH = "/__bench/probe.js"
REPORT_PATH = "/__bench/report"
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "application/xml", "image/svg+xml",
                    "application/wasm")


RANGE = re.compile(r"bytes=(\d*)-(\d*)$")


@dataclass
class Fault:
    """How the host fails one file: `stall` (send `after` bytes of the body, then nothing until the host
    closes or `release()`), `truncate` (send `after` bytes and close the connection, the announced length
    unmet), `refuse` (503 Service Unavailable), `trickle` (`rate` bytes per second for `seconds`, then the
    rest at the line's pace). `times`: how many requests it applies to (None: all); each one counts."""

    kind: str
    after: int = 0
    rate: int = 0
    seconds: float = 0.0
    times: int | None = None
    served: int = 0
    _released: threading.Event = field(default_factory=threading.Event, repr=False)

    def release(self) -> None:
        """End a stall: the stalled responses close their connection."""
        self._released.set()

    def applies(self) -> bool:
        """Whether this request gets the fault (and count it)."""
        if self.times is not None and self.served >= self.times:
            return False
        self.served += 1
        return True


class Counter:
    """Bytes and requests served, thread-safe; `reset()` between the phases of a measurement.
    `requests`: the paths of responses sent in full; `asked`: every path requested, as it arrives (a
    download the browser gave up on is in `asked` only); `ranges`: (path, `Range` header) of every
    request that asked for a range; `events`: ("asked" or "sent", path) in the order they happened, of
    which `asked` and `requests` are the two views."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self.bytes, self.ranges = 0, []
            self.events: list[tuple[str, str]] = []

    @property
    def asked(self) -> list[str]:
        with self._lock:
            return [path for what, path in self.events if what == "asked"]

    @property
    def requests(self) -> list[str]:
        with self._lock:
            return [path for what, path in self.events if what == "sent"]

    def ask(self, path: str, range_: str | None = None) -> None:
        with self._lock:
            self.events.append(("asked", path))
            if range_:
                self.ranges.append((path, range_))

    def add(self, path: str, sent: int) -> None:
        with self._lock:
            self.bytes += sent
            self.events.append(("sent", path))


class _Handler(BaseHTTPRequestHandler):
    root: Path
    rules: list[tuple[str, dict[str, str]]]
    counter: Counter
    gzipped: dict[tuple[Path, int, bool], bytes]  # (file, mtime, probed): its gzip body (a new deploy: a new one)
    missing: set[str]  # URL paths answered 404, as if not deployed
    faults: dict[str, Fault]  # URL path: how the host fails it
    headers_of: dict[str, dict[str, str]]  # URL path: headers sent on top of the rules
    probe: dict[str, object]  # "script": the probe's source, "pages": URL paths that load it
    reports: queue.Queue
    line: dict[str, Link | None]  # "link": the reader's line, or None for loopback as it is
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self._new_connection = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass

    def _file(self, path: str) -> Path | None:
        target = (self.root / unquote(path).lstrip("/")).resolve()
        if self.root not in target.parents and target != self.root:
            return None
        if target.is_dir():
            target = target / "index.html"
        return target if target.is_file() else None

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        path = urlsplit(self.path).path
        self.counter.ask(path, self.headers.get("Range"))
        if path == PROBE_PATH and self.probe.get("script"):
            # Cached like the page's own scripts would be: a warm visit pays no round trip the site does not.
            return self._send(HTTPStatus.OK, {"Content-Type": "text/javascript", "Cache-Control": "max-age=3600"},
                              str(self.probe["script"]).encode(), path)
        fault = self.faults.get(path)
        if fault and fault.kind == "refuse" and fault.applies():
            return self._send(HTTPStatus.SERVICE_UNAVAILABLE, {"Content-Type": "text/plain"}, b"refused", path)
        target = None if path in self.missing else self._file(path)
        if target is None:
            return self._send(HTTPStatus.NOT_FOUND, {"Content-Type": "text/plain"}, b"not found", path)
        stat = target.stat()
        headers = {"Content-Type": TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0]
                   or "application/octet-stream", "Cache-Control": DEFAULT_CACHE,
                   "Last-Modified": email.utils.formatdate(stat.st_mtime, usegmt=True)}
        for pattern, values in self.rules:
            if fnmatch.fnmatchcase(path, pattern):
                headers.update(values)
        headers.update(self.headers_of.get(path, {}))
        probed = path in self.probe.get("pages", ())
        compressed = ("gzip" in self.headers.get("Accept-Encoding", "")
                      and headers["Content-Type"].startswith(COMPRESSED_TYPES))
        # nginx's form (mtime-size, hex); a gzip body is another representation: a weak validator, no ranges.
        tag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}{"-p" if probed else ""}"'
        headers["ETag"] = f"W/{tag}" if compressed else tag
        if not compressed:
            headers["Accept-Ranges"] = "bytes"
        match = self.headers.get("If-None-Match")
        since = self.headers.get("If-Modified-Since")
        if (match and headers["ETag"].removeprefix("W/") in {t.strip().removeprefix("W/") for t in match.split(",")}
                or not match and since
                and email.utils.parsedate_to_datetime(since).timestamp() >= int(stat.st_mtime)):
            return self._send(HTTPStatus.NOT_MODIFIED, {k: v for k, v in headers.items() if k != "Content-Type"},
                              b"", path)
        body = target.read_bytes()
        if probed:
            probe = f'<meta charset="utf-8"><script src="{PROBE_PATH}" defer></script>'
            body = body.replace(b'<meta charset="utf-8">', probe.encode(), 1)
        if compressed:
            key = (target, stat.st_mtime_ns, probed)
            if key not in self.gzipped:
                self.gzipped[key] = gzip.compress(body, compresslevel=6, mtime=0)
            body = self.gzipped[key]
            headers["Content-Encoding"] = "gzip"
            headers["Vary"] = "Accept-Encoding"
        status = HTTPStatus.OK
        wanted = self.headers.get("Range")
        if wanted and not compressed and self._if_range(headers):
            found = RANGE.match(wanted.strip())
            first, last = (found[1], found[2]) if found else ("", "")
            if not found or (not first and not last):
                return self._send(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                                  {"Content-Range": f"bytes */{len(body)}", "Content-Type": "text/plain"}, b"", path)
            start, end = ((len(body) - int(last), len(body) - 1) if not first
                          else (int(first), min(int(last), len(body) - 1) if last else len(body) - 1))
            if start >= len(body) or start > end:
                return self._send(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                                  {"Content-Range": f"bytes */{len(body)}", "Content-Type": "text/plain"}, b"", path)
            headers["Content-Range"] = f"bytes {max(start, 0)}-{end}/{len(body)}"
            body = body[max(start, 0):end + 1]
            status = HTTPStatus.PARTIAL_CONTENT
        self._send(status, headers, body, path, fault if fault and fault.kind != "refuse" else None)

    def _if_range(self, headers: dict[str, str]) -> bool:
        """Whether a `Range` may be honoured: no `If-Range`, or one that names this very file (its strong
        ETag or its Last-Modified date); else the whole file is sent (RFC 9110, 13.1.5)."""
        condition = self.headers.get("If-Range")
        return condition is None or condition in {headers["ETag"], headers["Last-Modified"]}

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        path = urlsplit(self.path).path
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if path != REPORT_PATH:
            return self._send(HTTPStatus.NOT_FOUND, {"Content-Type": "text/plain"}, b"not found", path)
        self.reports.put(json.loads(body))
        self.send_response(HTTPStatus.NO_CONTENT)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, status: HTTPStatus, headers: dict[str, str], body: bytes, path: str,
              fault: Fault | None = None) -> None:
        link = self.line.get("link")
        if link:
            link.wait_round_trip(self._new_connection)
        self._new_connection = False
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        if fault and fault.applies():
            return self._send_faulty(fault, body, path)
        if body and self.command != "HEAD":
            if link:
                link.send(self.wfile, body)
            else:
                self.wfile.write(body)
        self.counter.add(path, len(body) + sum(len(k) + len(v) + 4 for k, v in headers.items()) + 17)

    def _send_faulty(self, fault: Fault, body: bytes, path: str) -> None:
        """Send `body` the way `fault` says; the connection is closed afterwards (no keep-alive)."""
        self.close_connection = True
        if fault.kind == "trickle":
            sent, ends = 0, time.monotonic() + fault.seconds
            while sent < len(body) and time.monotonic() < ends:
                step = max(1, fault.rate // 10)
                self.wfile.write(body[sent:sent + step])
                self.wfile.flush()
                sent += step
                time.sleep(0.1)
            link = self.line.get("link")
            (link.send if link else lambda out, rest: out.write(rest))(self.wfile, body[sent:])
            self.counter.add(path, len(body))
            return
        self.wfile.write(body[:fault.after])
        self.wfile.flush()
        if fault.kind == "stall":
            fault._released.wait(timeout=600)


class Host(StaticServer):
    """Serve `root` on 127.0.0.1 (a free port) like a static host; use as a context manager."""

    def __init__(self, root: Path) -> None:
        headers_file = root / "_headers"
        rules = read_headers(headers_file.read_text(encoding="utf-8")) if headers_file.exists() else []
        self.counter = Counter()
        self.missing: set[str] = set()  # add a URL path to serve it as 404 (`python3 build.py bench` does)
        self.faults: dict[str, Fault] = {}  # URL path: how the host fails it (`Fault`)
        # URL path: headers sent on top of `_headers` (a test's `Cache-Control: no-store`, say)
        self.headers: dict[str, dict[str, str]] = {}
        self._probe: dict[str, object] = {}
        self._reports: queue.Queue = queue.Queue()
        self._line: dict[str, Link | None] = {"link": None}
        handler = type("Handler", (_Handler,), {"root": root.resolve(), "rules": rules, "counter": self.counter,
                                                "gzipped": {}, "missing": self.missing, "faults": self.faults,
                                                "headers_of": self.headers,
                                                "probe": self._probe, "reports": self._reports, "line": self._line})
        self.root = root
        self._httpd = QuietServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __exit__(self, *exc: object) -> None:
        for fault in self.faults.values():  # a stalled response ends with the host
            fault.release()
        super().__exit__(*exc)

    @property
    def link(self) -> Link | None:
        """The reader's line every response goes through (None: loopback as it is)."""
        return self._line["link"]

    @link.setter
    def link(self, link: Link | None) -> None:
        self._line["link"] = link

    def probe(self, script: str, pages: set[str]) -> None:
        """Serve `script` at `PROBE_PATH` and load it first in the HTML of the URL paths `pages`."""
        self._probe.update(script=script, pages=frozenset(pages))

    def discard_reports(self) -> None:
        """Drop reports not taken yet (a late one from an earlier visit would pass for the next)."""
        while not self._reports.empty():
            self._reports.get_nowait()

    def next_report(self, timeout: float) -> dict:
        """The next JSON report POSTed to `REPORT_PATH` (raises `queue.Empty` after `timeout` s)."""
        return self._reports.get(timeout=timeout)
