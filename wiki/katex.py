"""KaTeX, self-hosted: the calculator pages' formulas are typeset in the reader's browser from our own files.

The npm package `katex` (exact version in package.json and package-lock.json, installed by `npm ci`) is
copied into `site/assets/katex/` by the build, as Pyodide is into `site/pyodide/`: `katex.min.js`,
`contrib/auto-render.min.js`, `katex.min.css` and its fonts. Only the WOFF2 fonts are copied (every browser
that runs the site's ES modules reads WOFF2) and the stylesheet is rewritten to name only them, so a
browser never asks for a file that is not there.

The theme template `overrides/method.html` loads them on a page whose content has formulas
(pymdown-extensions' arithmatex, `generic: true`: `<span class="arithmatex">\\(...\\)</span>`), and
`overrides/assets/javascripts/math.js` renders those with KaTeX's auto-render. KaTeX writes its layout as
element styles through the DOM (the CSSOM), which the site's policy allows (`wiki/csp.py`: no inline
style attributes in HTML). The service worker keeps these files as a page first loads them, not at
install (`wiki/offline.py`): a reader who never opens a page with formulas never downloads them.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_KATEX = ROOT / "node_modules" / "katex"
TARGET = "assets/katex"
SCRIPTS = ("katex.min.js", "contrib/auto-render.min.js")
STYLESHEET = "katex.min.css"
# One @font-face source list: the WOFF2 file first, then WOFF and TrueType fallbacks of the same font.
FALLBACKS = re.compile(r'(url\(fonts/(?P<font>[\w-]+)\.woff2\) format\("woff2"\)),url\(fonts/(?P=font)\.woff\) '
                       r'format\("woff"\),url\(fonts/(?P=font)\.ttf\) format\("truetype"\)')


class KatexUnavailable(RuntimeError):
    """The npm package is missing or laid out otherwise than this module expects; the message says what to do."""


def version() -> str:
    """The installed KaTeX version (node_modules/katex/package.json)."""
    package = NODE_KATEX / "package.json"
    if not package.exists():
        raise KatexUnavailable("node_modules/katex is missing: run `python3 build.py build` (it runs `npm ci`).")
    return json.loads(package.read_text(encoding="utf-8"))["version"]


def woff2_only(css: str) -> str:
    """KaTeX's stylesheet with each font's WOFF and TrueType fallbacks taken out of its `src` list."""
    fonts = css.count("@font-face")
    rewritten, count = FALLBACKS.subn(r"\1", css)
    if count != fonts or re.search(r"\.(woff|ttf)\)", rewritten):
        raise KatexUnavailable(f"KaTeX {version()}'s stylesheet names its fonts otherwise than expected ({count} of "
                               f"{fonts} @font-face rules matched): update wiki/katex.py's FALLBACKS.")
    return rewritten


def files() -> list[str]:
    """The files the site gets, relative to `assets/katex/`."""
    dist = NODE_KATEX / "dist"
    fonts = sorted(f"fonts/{path.name}" for path in (dist / "fonts").glob("*.woff2"))
    return [*SCRIPTS, STYLESHEET, *fonts]


def install(site_dir: Path) -> Path:
    """Copy KaTeX into `site_dir/assets/katex/`; return that folder."""
    version()
    dist, target = NODE_KATEX / "dist", site_dir / TARGET
    for name in files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        if name == STYLESHEET:
            (target / name).write_text(woff2_only((dist / name).read_text(encoding="utf-8")), encoding="utf-8")
        else:
            shutil.copyfile(dist / name, target / name)
    return target
