"""Three surgical patches to Material's built JavaScript bundle (Material is pinned in requirements.lock).

1. CDN fallbacks: Material loads a ResizeObserver polyfill and Mermaid from a public CDN when the
   browser lacks them or a page has a diagram. This site uses neither and makes no third-party
   request, so those URLs become `about:blank` (a script that loads nothing).
2. Alternate-language sitemaps: for every `<link rel="alternate">` Material fetches `sitemap.xml`
   next to the alternate URL, meant for language roots. Ours are per-page hreflang links (static-i18n
   already points the language switcher at the same page), so those fetches 404 on every page view
   and the resulting map hijacks plain links. The selector is narrowed to match nothing.
3. Search on demand: Material builds its search index (parses the JSON it fetched, loads Lunr's
   language scripts into its worker and indexes every page) on every page view, except under `file:`,
   where it waits until search is opened. Here it always waits: that work (~150 ms of CPU here,
   several times that on a phone) is done only for a reader who opens search, and never while a
   calculator is starting.

`tests/site/test_browser.py` fails if a Material upgrade makes a patch stop applying.
"""

from __future__ import annotations

import re
from pathlib import Path

CDN_URL = re.compile(r"https://(?:unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com)/[^\"'`\s)]*")
ALTERNATE_SELECTOR = 'M("link[rel=alternate]")'
NO_ALTERNATE_SELECTOR = 'M("link[rel=alternate][data-md-sitemap]")'
# combineLatest([of(location.protocol !== "file:"), watchToggle("search")]), minified.
SEARCH_AT_LOAD = re.compile(r'([\w$]+)\(location\.protocol!=="file:"\)(,[\w$]+\("search"\))')


def patch_bundle(text: str) -> str:
    """Return the bundle source with CDN URLs removed, the sitemap prefetch disabled and search on demand."""
    text = CDN_URL.sub("about:blank", text).replace(ALTERNATE_SELECTOR, NO_ALTERNATE_SELECTOR)
    return SEARCH_AT_LOAD.sub(r"\1(!1)\2", text)


def patch_site(site_dir: Path) -> list[Path]:
    """Patch every built JavaScript file of the theme in place; return the files changed."""
    changed = []
    for path in (site_dir / "assets" / "javascripts").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        patched = patch_bundle(text)
        if patched != text:
            path.write_text(patched, encoding="utf-8")
            changed.append(path)
    return changed
