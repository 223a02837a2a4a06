"""The snapshot file the worker reads (calculator-worker.js, readSnapshot): a sparse image, written by
snapshot-image.js for the build (gzipped) and for the snapshot a plain boot makes in the browser."""

from __future__ import annotations

import gzip
import struct
import subprocess

from wiki import runtime

PYODIDE_SNAPSHOT_MAGIC = 1886286592  # SNAPSHOT_MAGIC in calculator-worker.js
# Writes the sparse file of the image on stdin to stdout, with the module the build and the worker use.
SPARSE_WITH_NODE = f"""
import {{ sparseImage }} from {str(runtime.SNAPSHOT_IMAGE_SCRIPT)!r};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const image = new Uint8Array(Buffer.concat(chunks));
process.stdout.write(Buffer.concat(sparseImage(image)));
"""


def sparse(image: bytes) -> bytes:
    """`sparseImage(image)` of snapshot-image.js, run under Node."""
    return subprocess.run(["node", "--input-type=module", "-e", SPARSE_WITH_NODE], input=image, capture_output=True,
                          check=True).stdout


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
    image = bytes(4096) + b"head" + bytes(10_000) + b"middle" + bytes(100) + b"tail" + bytes(4095) + b"!" + bytes(5_000)
    packed = sparse(image)
    assert unsparse(packed) == image
    count = struct.unpack("<I", packed[12:16])[0]
    # The 100 and 4,095 zeros stay inside a segment; the runs of 4,096 and more (at the start, the end) go.
    assert count == 2
    assert len(packed) < len(image) - 19_000


def test_the_built_snapshot_is_a_gzipped_sparse_pyodide_image() -> None:
    packed = (runtime.prepare().app_dir / "snapshot.bin").read_bytes()
    assert packed[:2] == b"\x1f\x8b"
    image = unsparse(gzip.decompress(packed))
    assert struct.unpack("<I", image[:4])[0] == PYODIDE_SNAPSHOT_MAGIC
    assert len(image) >= 30 * 2**20  # at least Pyodide's initial 30 MiB heap
    assert len(packed) < len(image) / 3
