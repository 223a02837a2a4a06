"""Split the merged search index that mkdocs-static-i18n writes into one index per language.

static-i18n stacks the entries of every language build into a single `search/search_index.json`
with every stemmer enabled. Material fetches `<config.base>/search/search_index.json`, and our
`overrides/main.html` points `config.base` of a French page at `/fr/`, so each language gets its
own index, its own lunr stemmer and only its own pages.
"""

from __future__ import annotations

import json
from pathlib import Path


def split_index(merged: dict, default_lang: str, other_langs: list[str]) -> dict[str, dict]:
    """Return `{lang: index}`; locations of non-default languages become relative to `/<lang>/`."""
    config = merged.get("config", {})
    docs: dict[str, list[dict]] = {lang: [] for lang in [default_lang, *other_langs]}
    for doc in merged.get("docs", []):
        location = doc.get("location", "")
        lang = next((ln for ln in other_langs if location == f"{ln}/" or location.startswith(f"{ln}/")), None)
        if lang is None:
            docs[default_lang].append(doc)
        else:
            docs[lang].append({**doc, "location": location[len(lang) + 1 :]})
    return {lang: {"config": {**config, "lang": [lang]}, "docs": entries} for lang, entries in docs.items()}


def write_split_indexes(site_dir: Path, default_lang: str, other_langs: list[str]) -> list[Path]:
    """Rewrite `site_dir/search/search_index.json` as one index per language; return written paths."""
    source = site_dir / "search" / "search_index.json"
    if not source.exists():
        return []
    indexes = split_index(json.loads(source.read_text(encoding="utf-8")), default_lang, other_langs)
    written = []
    for lang, index in indexes.items():
        target = source if lang == default_lang else site_dir / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        written.append(target)
    return written
