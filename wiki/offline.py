"""The service worker (`sw.js` at the site root, source `wiki/sw.js`): offline reading, warm later visits.

The build writes `site/sw.js` as one line of build data, `const BUILD = {...};`, then the source:

- `cache`: `kw-<digest>`, a digest of every file the worker keeps (and of its own source), so a build
  that changes anything is a new `sw.js`, installs a new cache and deletes the old one; the worker
  names its cache `kw:<its scope's path>:kw-<digest>`, so that two sites on one origin (two GitHub
  Pages project sites) never delete each other's;
- `shell`: what is cached at install (~0.1 MB over the wire once the page has loaded): every page
  of both languages, the theme's assets without source maps, the sitemap;
- `later`: what only a search loads (each language's index, the Lunr scripts of the site's
  languages), cached as the reader's first search fetches it: a reader who never searches does not
  download it (~32 KB gzipped), and one who searched once online searches offline too; likewise
  (`first_use`) the calculator pages (`metode/`, `wiki/methods.py`: 18 pages, ~280 KB gzipped, which would
  more than double the install) and KaTeX (~0.6 MB with its fonts, which those pages load, `wiki/katex.py`),
  kept as a reader first opens them;
- `runtime`: the files of each boot (`Runtime.boot_files`), kept once a boot has fetched them;
- `dirs`: the runtime's versioned folders, served cache-first.
- `gzipped`: runtime files stored gzipped (`Runtime.gzipped_files`), kept decompressed;
- `notFound`: each language's folder and its error page (`""` the default language's, at the root),
  served offline for a page the build does not have; a language without one gets the default's.

URLs are relative to the site root, so the site works under a sub-path. `mkdocs serve` gets no
service worker (its pages change under live reload).

Beside it, `offline-messages.json`: what `offline.js` says on the page, in each language, while the
worker's install failed and waits to be tried again (read only then; not part of the shell).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from widgets import strings
from widgets.locale import locale_of
from wiki import served_scripts
from wiki.runtime import Runtime

SOURCE = Path(__file__).resolve().parent / "sw.js"
SCRIPT = "sw.js"
MESSAGES = "offline-messages.json"
LEFT_OUT = ("pyodide/", "bench-")
LEFT_OUT_SUFFIXES = (".map", ".gz")
LUNR = "assets/javascripts/lunr/"
SEARCH_INDEX = "search/search_index.json"  # one per language: search/, fr/search/
# Kept as a reader first uses them, not at install: KaTeX, the calculator pages (every language's), and the
# module a worker imports only to make a snapshot after a plain boot (calculator-worker.js makeSnapshot).
FIRST_USE = ("assets/katex/", "metode/", "assets/javascripts/snapshot-image.js")


def shell_paths(site_dir: Path, languages: Iterable[str]) -> list[str]:
    """The URL paths (relative to the site root) of the build's files the worker keeps: pages as their
    folder URL."""
    lunr = {f"{LUNR}min/lunr.{name}.min.js" for name in ("stemmer.support", "multi", *languages)}
    paths = []
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(site_dir).as_posix()
        if rel.startswith(LEFT_OUT) or rel.endswith(LEFT_OUT_SUFFIXES):
            continue
        if "/" not in rel and not rel.endswith((".html", ".xml")):  # _headers, sw.js itself
            continue
        if rel.startswith(LUNR) and rel not in lunr:
            continue
        paths.append(rel[: -len("index.html")] if rel == "index.html" or rel.endswith("/index.html") else rel)
    return paths


def only_for_search(rel: str) -> bool:
    """Whether only a search loads this file (it is cached on first use, not at install). Material's
    search worker is not one: every page starts it."""
    return rel.startswith(LUNR) or rel.endswith(SEARCH_INDEX)


def first_use(rel: str, languages: Iterable[str]) -> bool:
    """Whether a file is kept as a reader first opens or uses it rather than at install (`FIRST_USE`; the
    calculator pages in every language: `fr/metode/...`)."""
    return rel.startswith(FIRST_USE) or any(rel.startswith(f"{lang}/{prefix}") for lang in languages
                                            for prefix in FIRST_USE)


def build_data(site_dir: Path, runtime: Runtime | None, languages: Iterable[str]) -> dict[str, object]:
    """What `sw.js` is given: its cache name, the shell, search's files, the runtime's files and folders, and
    which of them are gzipped."""
    paths = shell_paths(site_dir, languages)
    languages = tuple(languages)
    shell = [rel for rel in paths if not only_for_search(rel) and not first_use(rel, languages)]
    later = [rel for rel in paths if only_for_search(rel) or first_use(rel, languages)]
    boots = runtime.boot_files() if runtime else {"common": [], "snapshot": [], "plain": []}
    dirs = [runtime.pyodide_url, runtime.app_url] if runtime else []
    gzipped = runtime.gzipped_files() if runtime else []
    sha = hashlib.sha256(SOURCE.read_bytes())
    for rel in paths:
        file = site_dir / (rel + "index.html" if rel == "" or rel.endswith("/") else rel)
        sha.update(rel.encode() + b"\0" + file.read_bytes())
    sha.update(json.dumps([boots, dirs, gzipped]).encode())
    # A language whose error page is not in the shell (wiki/error_pages.py writes one per language;
    # a page outside the shell is never cached) falls back to the default language's.
    not_found = {"": "404.html", **{f"{lang}/": f"{lang}/404.html" for lang in languages[1:]
                                    if f"{lang}/404.html" in shell}}
    return {"cache": "kw-" + sha.hexdigest()[:16], "shell": shell, "later": later, "runtime": boots, "dirs": dirs,
            "gzipped": gzipped, "notFound": not_found}


def messages(languages: Iterable[str]) -> dict[str, dict[str, str]]:
    """What `offline.js` may say on the page, per language (the catalogs' texts)."""
    return {lang: {"install_failed": locale_of(lang).text(strings.UI["offline_install_failed"])} for lang in languages}


def write_service_worker(site_dir: Path, runtime: Runtime | None, languages: Iterable[str]) -> Path:
    """Write `site_dir/sw.js` (and `offline-messages.json`) for this build; return the worker's path."""
    languages = tuple(languages)
    (site_dir / MESSAGES).write_text(json.dumps(messages(languages), ensure_ascii=False), encoding="utf-8")
    data = build_data(site_dir, runtime, languages)
    target = site_dir / SCRIPT
    source = served_scripts.without_comments(SOURCE.read_text(encoding="utf-8"))
    target.write_text(f"const BUILD = {json.dumps(data, separators=(',', ':'))};\n" + source, encoding="utf-8")
    return target
