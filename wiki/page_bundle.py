"""The live calculators' page script, served as one file: `scripts/calculators/*.js` (ES modules by concern)
bundled by esbuild into `overrides/assets/javascripts/calculators.js`.

One served file, because each module of its own costs a request to the page and a revalidation by the
service worker's install (benchmarks/README.md: the split served as seven files sent 266.7 KB before any
interaction, against a 250 KB budget). esbuild (pinned in package.json) drops the sources' comments;
`tsc` and ESLint check the sources. `python -m wiki.page_bundle` (`build.py bundle`) writes the file; a
test fails, naming that command, when it is not what the sources give.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "scripts" / "calculators"
ENTRY = SOURCES / "calculators.js"
OUTPUT = ROOT / "overrides" / "assets" / "javascripts" / "calculators.js"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
BANNER = ("// Generated from scripts/calculators/*.js by `python3 build.py bundle` (wiki/page_bundle.py): "
          "do not edit.")


def bundle(output: Path = OUTPUT) -> None:
    """Write the bundle of the page script's modules to `output` (ES module, comments dropped, UTF-8 kept)."""
    result = subprocess.run(
        [str(ESBUILD), str(ENTRY.relative_to(ROOT)), "--bundle", "--format=esm", "--charset=utf8",
         "--legal-comments=none", "--log-level=warning", f"--banner:js={BANNER}", f"--outfile={output}"],
        cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"esbuild could not bundle {ENTRY.relative_to(ROOT)}:\n{result.stderr}")


def refresh() -> bool:
    """Bundle again if the sources give another file than the one written (`mkdocs serve` after an edit of
    `scripts/calculators/`); an unchanged bundle is not rewritten, so the server's watcher is not woken."""
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / OUTPUT.name
        bundle(fresh)
        if OUTPUT.exists() and OUTPUT.read_bytes() == fresh.read_bytes():
            return False
        OUTPUT.write_bytes(fresh.read_bytes())
        return True


if __name__ == "__main__":
    bundle(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT)
