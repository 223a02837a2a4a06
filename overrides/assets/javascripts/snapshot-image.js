// The file a Pyodide memory snapshot is kept in, written by the build (wiki/snapshot.mjs, under Node) and by
// the calculators' worker (calculator-worker.js, makeSnapshot: a plain boot's interpreter snapshotted for
// the next page). The worker reads it (readSnapshot); tests/pyodide/test_snapshot_format.py checks both.
//
// Layout: "KWSPARSE", u32 image length, u32 segment count, (u32 offset, u32 length) per segment, then the
// segments' bytes; the rest of the image is zeros. All little-endian.

const MAGIC = "KWSPARSE";
// Shorter runs of zeros stay inside a segment: a table row (8 bytes) and a restart of the copy cost more.
const ZERO_RUN = 4096;

/**
 * Zero the heap's free memory, which still holds what was there before (3.3 of the 13.9 MB malloc arena
 * after the pre-warming): zeroed, the sparse format leaves it out (snapshot.bin: 16.5 → 14.4 MB to
 * decompress, 6.26 → 5.61 MB to download). Every free block is taken (the heap not grown for it: a
 * footprint limit meanwhile), filled with zeros, and given back.
 * @param {any} module Pyodide's Emscripten module (`pyodide._module`)
 */
export function zeroFreeMemory(module) {
  module._malloc_set_footprint_limit(module._malloc_footprint());
  const taken = [];
  for (let size = 2 ** 24; size >= 64; size /= 2) {
    for (let block = module._malloc(size); block; block = module._malloc(size)) {
      module.HEAPU8.fill(0, block, block + size);
      taken.push(block);
    }
  }
  for (const block of taken) module._free(block);
  module._malloc_set_footprint_limit(-1); // dlmalloc: SIZE_MAX is no limit, as before (the limit is in the snapshot)
  if (module._malloc_footprint_limit() !== -1) throw new Error("the heap's footprint limit stayed set");
}

/**
 * The sparse file of a snapshot image (`pyodide.makeMemorySnapshot()`), as parts to join (a Blob, or
 * Buffer.concat): the header and table, then views of the image's segments (no copy).
 * @param {Uint8Array<ArrayBuffer>} image
 * @returns {Uint8Array<ArrayBuffer>[]}
 */
export function sparseImage(image) {
  const segments = [];
  let start = 0; // where the current segment began
  let zeros = 0; // length of the run of zeros that ends at `at`
  for (let at = 0; at < image.length; at += 1) {
    if (image[at] === 0) {
      zeros += 1;
      continue;
    }
    if (zeros >= ZERO_RUN) {
      const end = at - zeros;
      if (end > start) segments.push([start, end - start]);
      start = at;
    }
    zeros = 0;
  }
  const end = zeros >= ZERO_RUN ? image.length - zeros : image.length;
  if (end > start) segments.push([start, end - start]);
  const head = new Uint8Array(16 + 8 * segments.length);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode(MAGIC));
  view.setUint32(8, image.length, true);
  view.setUint32(12, segments.length, true);
  segments.forEach(([offset, length], i) => {
    view.setUint32(16 + 8 * i, offset, true);
    view.setUint32(20 + 8 * i, length, true);
  });
  return [head, ...segments.map(([offset, length]) => image.subarray(offset, offset + length))];
}
