"""A reader's access line for the bench host: one bottleneck that every connection shares, and a delay.

`Link(mbit_per_s, rtt_ms)` paces the bytes the host writes through one FIFO queue at the line rate, so
that parallel downloads share the line as they would on a real access link (not each at the full
rate, as per-request throttling would have it). Each response starts one round trip after its request
(request out, first byte back), and a new connection costs one more (the TCP handshake). Loopback
itself adds nothing measurable.
"""

from __future__ import annotations

import threading
import time
from typing import BinaryIO

CHUNK = 16 * 1024


class Link:
    """A shared line of `mbit_per_s` (None: unthrottled) with `rtt_ms` round trips."""

    def __init__(self, mbit_per_s: float | None, rtt_ms: float) -> None:
        self.rate = None if mbit_per_s is None else mbit_per_s * 1e6 / 8  # bytes per second
        self.rtt = rtt_ms / 1000
        self._lock = threading.Lock()
        self._free_at = 0.0  # when the line has sent everything queued so far

    @property
    def name(self) -> str:
        """How the line is shown in tables: `10 Mbit/s, 40 ms` or `unthrottled`."""
        if self.rate is None:
            return "unthrottled" if not self.rtt else f"unthrottled, {self.rtt * 1000:g} ms"
        return f"{self.rate * 8 / 1e6:g} Mbit/s, {self.rtt * 1000:g} ms"

    def wait_round_trip(self, new_connection: bool) -> None:
        """The delay before a response's first byte: one round trip, two on a new connection."""
        if self.rtt:
            time.sleep(self.rtt * (2 if new_connection else 1))

    def _reserve(self, size: int) -> float:
        """Queue `size` bytes on the line; return when they have gone through it."""
        with self._lock:
            start = max(time.monotonic(), self._free_at)
            self._free_at = start + size / self.rate
            return self._free_at

    def send(self, out: BinaryIO, body: bytes) -> None:
        """Write `body` to `out` at the pace of the line, chunk by chunk, sharing it with every other sender."""
        if self.rate is None:
            out.write(body)
            return
        for offset in range(0, len(body), CHUNK):
            chunk = body[offset:offset + CHUNK]
            done = self._reserve(len(chunk))
            delay = done - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            out.write(chunk)
