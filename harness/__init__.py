"""The local web harness that the tests and the benchmarks share, and neither owns.

- `server`: a small threaded static server with a real host's content types (`StaticServer`);
- `host`: a stand-in for a CDN-backed static host (the site's `_headers`, gzip, revalidation, byte
  counts, an optional reader's line, a timeline probe);
- `link`: a reader's access line (one shared rate, round trips);
- `chromium`: headless Chromium with no debugger attached, and its launch arguments;
- `probe`: a page that reports its own timeline to the host, and one visit of it;
- `site`: a throwaway copy of the project to build, and the runtime config a built page carries.

Tests (`tests/`) and benchmarks (`benchmarks/`) import from here; they never import each other.
"""
