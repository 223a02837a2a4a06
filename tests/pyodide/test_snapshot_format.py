"""The snapshot file the worker reads (calculator-worker.js, readSnapshot): gzip of a sparse image."""

from __future__ import annotations

import gzip
import struct

from wiki import runtime

PYODIDE_SNAPSHOT_MAGIC = 1886286592  # SNAPSHOT_MAGIC in calculator-worker.js


def unsparse(data: bytes) -> bytes:
    """The full image, rebuilt the way the worker does."""
    assert data[:8] == runtime.SPARSE_MAGIC
    total, count = struct.unpack("<II", data[8:16])
    image = bytearray(total)
    position = 16 + 8 * count
    for i in range(count):
        offset, length = struct.unpack("<II", data[16 + 8 * i:24 + 8 * i])
        image[offset:offset + length] = data[position:position + length]
        position += length
    assert position == len(data)
    return bytes(image)


def test_sparse_drops_long_zero_runs_and_round_trips() -> None:
    image = b"head" + bytes(10_000) + b"middle" + bytes(100) + b"tail" + bytes(5_000)
    packed = runtime.sparse(image)
    assert unsparse(packed) == image
    count = struct.unpack("<I", packed[12:16])[0]
    assert count == 2  # the 100 zeros stay inside a segment, the long runs (and the tail) are dropped
    assert len(packed) < 200


def test_the_built_snapshot_is_a_gzipped_sparse_pyodide_image() -> None:
    packed = (runtime.prepare().app_dir / "snapshot.bin").read_bytes()
    assert packed[:2] == b"\x1f\x8b"
    image = unsparse(gzip.decompress(packed))
    assert struct.unpack("<I", image[:4])[0] == PYODIDE_SNAPSHOT_MAGIC
    assert len(image) >= 30 * 2**20  # at least Pyodide's initial 30 MiB heap
    assert len(packed) < len(image) / 3
