"""Split the merged search index that mkdocs-static-i18n writes into one index per language.

static-i18n stacks the entries of every language build into a single `search/search_index.json`
with every stemmer enabled. Material fetches `<config.base>/search/search_index.json`, and our
`overrides/main.html` points `config.base` of a French page at `/fr/`, so each language gets its
own index, its own lunr stemmer and only its own pages.

Folding: a reader types `noeud` for `nœud`, `echelle` for `échelle`, `baandbredde` for `båndbredde`.
Each entry gets a `fold` field with the folded spelling of every word of its title and text that has
one (French: œ → oe, æ → ae, accents dropped; Danish: æ → ae, ø → oe, å → aa), and the index's config
lists that field, so Material's Lunr indexes it next to `title` and `text` (it never shows it). A query
typed either way then matches: the original words are still in `text`, their folded forms in `fold`.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from pathlib import Path

FOLD_FIELD = "fold"
LIGATURES = {"œ": "oe", "Œ": "Oe", "æ": "ae", "Æ": "Ae"}
DANISH = {"æ": "ae", "Æ": "Ae", "ø": "oe", "Ø": "Oe", "å": "aa", "Å": "Aa"}
WORD = re.compile(r"[^\W\d_]{2,}")
TAG = re.compile(r"<[^>]+>")


def fold(word: str, lang: str) -> str:
    """How a reader without the language's keyboard types `word` (`nœud` → `noeud`, `båndbredde` → `baandbredde`)."""
    if lang == "da":
        return "".join(DANISH.get(char, char) for char in word)
    word = "".join(LIGATURES.get(char, char) for char in word)
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def folded_words(text: str, lang: str) -> str:
    """The folded forms of the words of `text` (HTML allowed) that fold to something else, once each."""
    seen: dict[str, None] = {}
    for word in WORD.findall(html.unescape(TAG.sub(" ", text))):
        folded = fold(word, lang)
        if folded != word:
            seen.setdefault(folded.lower(), None)
    return " ".join(seen)


def with_folding(index: dict, lang: str) -> dict:
    """`index` with a `fold` field on every entry that has folded words, and that field in its config."""
    config = index.get("config", {})
    fields = {**config.get("fields", {"title": {"boost": 1e3}, "text": {"boost": 1.0}}), FOLD_FIELD: {"boost": 1.0}}
    docs = []
    for doc in index.get("docs", []):
        folded = folded_words(f"{doc.get('title', '')} {doc.get('text', '')}", lang)
        docs.append({**doc, FOLD_FIELD: folded} if folded else doc)
    return {**index, "config": {**config, "fields": fields}, "docs": docs}


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
    return {lang: with_folding({"config": {**config, "lang": [lang]}, "docs": entries}, lang)
            for lang, entries in docs.items()}


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
