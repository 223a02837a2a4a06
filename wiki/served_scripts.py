"""The site's own scripts are served without their comments, as the page script's bundle is (esbuild, pinned
in package.json, the same as `wiki/page_bundle.py`'s): a first visit reads most of them before any
interaction (`offline.js`, `early.js`, `links.js`, `runtime-files.js`, the calculators' worker, `sw.js`), and
their comments, written for the next maintainer, were half of their gzipped bytes (2026-12-05: 28.0 KB with
them, 13.9 KB without). The sources keep them; `tsc` and ESLint check the sources.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from wiki.page_bundle import ESBUILD
from wiki.page_bundle import OUTPUT as BUNDLE

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "overrides" / "assets" / "javascripts"  # the theme's custom_dir: served at assets/javascripts/
FLAGS = ["--charset=utf8", "--legal-comments=none", "--log-level=warning"]


def _esbuild(args: list[str], what: str, source: str | None = None) -> str:
    """Run the pinned esbuild with the served scripts' flags; its output, or an error naming ``what``."""
    result = subprocess.run([str(ESBUILD), *args, *FLAGS], input=source, capture_output=True, text=True,
                            encoding="utf-8", cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"esbuild could not read {what}:\n{result.stderr}")
    return result.stdout


def without_comments(source: str) -> str:
    """`source` (JavaScript, a module or a classic script) as esbuild prints it: the same code, no comments."""
    return _esbuild(["--loader=js"], "a served script", source)


def strip_site(site_dir: Path) -> list[Path]:
    """Rewrite the site's copies of our scripts in `overrides/assets/javascripts/` without their comments (the
    bundle, `calculators.js`, is written without them already); return the files rewritten."""
    served = site_dir / "assets" / "javascripts"
    names = sorted(path.name for path in SOURCES.glob("*.js") if path.name != BUNDLE.name)
    targets = [served / name for name in names if (served / name).is_file()]
    if targets:
        _esbuild([*map(str, targets), f"--outdir={served}", "--allow-overwrite"], "the served scripts")
    return targets
