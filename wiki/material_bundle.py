"""The patches to Material's built JavaScript bundle, in one table (Material is pinned in requirements.lock).

Each patch says what it matches, what it writes instead and how many times it must match in the
bundle. A count that differs (a Material upgrade that changed its minified code) fails the build
with the patch's name: a patch never silently stops applying.

- `cdn-fallbacks`: Material loads a ResizeObserver polyfill and Mermaid from a public CDN when the
  browser lacks them or a page has a diagram. This site uses neither and makes no third-party
  request, so those URLs become `about:blank` (a script that loads nothing).
- `search-on-demand`: Material builds its search index (parses the JSON it fetched, loads Lunr's
  language scripts into its worker and indexes every page) on every page view, except under `file:`,
  where it waits until search is opened. Here it always waits: that work (~150 ms of CPU here,
  several times that on a phone) is done only for a reader who opens search, and never while a
  calculator is starting.
- `index-for-highlight-on-demand`: with `search.highlight`, Material fetches the page language's search
  index on every page view, to highlight the terms of a search result that was followed (`?h=` in the
  URL). Here the index is fetched only for such a page; any other page view fetches no index (about
  13 KB gzipped) until search is opened.
- `palette-switching-on-change`: Material marks the body `data-md-color-switching` while it applies a
  palette, so that its `[data-md-color-switching] *` rule stops transitions; it does so at load too,
  where the palette is usually the one the page already shows. Setting and removing that attribute
  restyles every element of the page twice (on the article, about 100 ms of a simulated phone's
  main thread in Lighthouse). Here it is set only when the palette's scheme, primary or accent colour
  differs from the body's (a reader's first visit in dark mode, a click on the toggle).
- `color-scheme-in-css`: Material adds a `<meta name="color-scheme">` at load and fills it from the
  header's computed style; the new meta changes the page's colour scheme, which restyles every element
  again. The root's colour scheme follows the palette in `wiki.css` instead (`html:has(> body[...])`).

No patch is needed for Material's alternate-language code (it fetches `sitemap.xml` next to every
`<link rel="alternate">` of a page): the pages carry no such link, the hreflang alternates are in
`sitemap.xml` only (`wiki/sitemap.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CDN_URL = re.compile(r"https://(?:unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com)/[^\"'`\s)]*")


@dataclass(frozen=True)
class Patch:
    """One rewrite of the bundle: `pattern` is replaced by `replacement`, exactly `count` times."""

    name: str
    pattern: re.Pattern[str]
    replacement: str
    count: int


PATCHES = (
    Patch("cdn-fallbacks", CDN_URL, "about:blank", 2),
    # combineLatest([of(location.protocol !== "file:"), watchToggle("search")]), minified.
    Patch("search-on-demand", re.compile(r'([\w$]+)\(location\.protocol!=="file:"\)(,[\w$]+\("search"\))'),
          r"\1(!1)\2", 1),
    # function mountSearchHighlight(el, { index$, location$ }) { return combineLatest([index$, location$...  ->
    # index$ only when the page has ?h=, else an observable that never emits (nothing is fetched).
    Patch("index-for-highlight-on-demand",
          re.compile(r'(\{index\$:([\w$]+),location\$:[\w$]+\}\)\{return [\w$]+\(\[)\2,'),
          r'\1new URLSearchParams(location.search).has("h")?\2:new \2.constructor(()=>{}),', 1),
    # palette$.subscribe(palette => { if (body.setAttribute("data-md-color-switching", ""), ...  ->  only when
    # the palette's colours differ from the body's
    Patch("palette-switching-on-change",
          re.compile(r'([\w$]+)=>\{if\(document\.body\.setAttribute\("data-md-color-switching",""\),'),
          r'\1=>{if(["scheme","primary","accent"].some(kw=>document.body.getAttribute("data-md-color-"+kw)!==\1.color[kw])'
          r'&&document.body.setAttribute("data-md-color-switching",""),', 1),
    # let o=x("meta",{name:"color-scheme"});document.head.appendChild(o);  ->  let o={};  (o.content is set later)
    Patch("color-scheme-in-css",
          re.compile(r'let ([\w$]+)=[\w$]+\("meta",\{name:"color-scheme"\}\);document\.head\.appendChild\(\1\);'),
          r"let \1={};", 1),
)


class BundlePatchError(RuntimeError):
    """Material's bundle is not the one the patches were written for; the message names the patch."""


def patch_bundle(text: str, where: str = "Material's bundle") -> str:
    """Apply every patch of `PATCHES` to the bundle's source; raise `BundlePatchError` on a count that differs."""
    for patch in PATCHES:
        text, found = patch.pattern.subn(patch.replacement, text)
        if found != patch.count:
            raise BundlePatchError(
                f"{where}: the patch {patch.name!r} matched {found} times instead of {patch.count}; Material's "
                "bundle changed (an upgrade?): update that patch in wiki/material_bundle.py's PATCHES, or drop it "
                "if it is no longer needed")
    return text


def patch_site(site_dir: Path, theme_dirs: list[str]) -> Path:
    """Write the theme's one bundle (`assets/javascripts/bundle.*.min.js`) into the site, patched; return its path.

    The patches are applied to the theme's own file (the first of `theme_dirs` that has it, as MkDocs
    copied it), not to the site's copy: each language's build may call this on the same site.
    """
    bundles = sorted((site_dir / "assets" / "javascripts").glob("bundle.*.min.js"))
    if len(bundles) != 1:
        raise BundlePatchError(f"{len(bundles)} Material bundles (assets/javascripts/bundle.*.min.js) in "
                               f"{site_dir}, expected one: the patches of wiki/material_bundle.py cannot be applied")
    bundle = bundles[0]
    where = bundle.relative_to(site_dir).as_posix()
    source = next((Path(d) / where for d in theme_dirs if (Path(d) / where).is_file()), bundle)
    bundle.write_text(patch_bundle(source.read_text(encoding="utf-8"), where), encoding="utf-8")
    return bundle
