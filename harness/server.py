"""The one threaded static server of the tests and benchmarks; what a host does is its handler class.

`StaticServer(root, handler)` serves `root` on 127.0.0.1; `Handler` (the default) answers with a real
host's content types. A host's behaviour is a subclass: GitHub Pages' types or a `_headers` file
(tests/support/hosts.py), a wrong type for a file (tests/site/test_live.py), and `harness.host.Host`,
which stalls, truncates, refuses and throttles on top of the same server.
"""

from __future__ import annotations

import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CONTENT_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
}


class QuietHandler(SimpleHTTPRequestHandler):
    """The standard library's static handler without its log on stderr."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet test output
        pass


class Handler(QuietHandler):
    """A real host's content types (`CONTENT_TYPES` over the standard library's)."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **CONTENT_TYPES}


class QuietServer(ThreadingHTTPServer):
    """A threaded HTTP server that does not print the traceback of a connection the browser dropped
    mid-response (a test that closed its page, a download cut off on purpose): expected, and noise in a log."""

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class StaticServer:
    """Serve `root` on 127.0.0.1 on a free port; use as a context manager."""

    def __init__(self, root: Path, handler: type[SimpleHTTPRequestHandler] = Handler) -> None:
        self.root = root
        self._httpd = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """Base URL with a trailing slash, e.g. http://127.0.0.1:PORT/."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def __enter__(self) -> StaticServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
