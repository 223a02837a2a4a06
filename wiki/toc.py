"""The table of contents keeps the headings' no-break spaces.

Python-Markdown's toc extension names each entry after its heading's text with every run of whitespace
collapsed to one ordinary space, so a French heading's « : » (U+202F before the colon) reaches the side
navigation as a plain space, where a line may then break before the colon. `keep_spaces` puts each
entry's no-break spaces back from the rendered heading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import unescape
from typing import Any

_HEADING = re.compile(r'<h[1-6] id="([^"]+)"[^>]*>(.*?)</h[1-6]>', re.S)
_PERMALINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.S)
_TAG = re.compile(r"<[^>]+>")
_SPACES = re.compile(r"[ \t\n\r\f\v\u00a0\u202f]+")
_KEPT = ("\u202f", "\u00a0")  # the no-break spaces a heading's entry keeps, narrow first


def heading_texts(html: str) -> dict[str, str]:
    """Each heading's text by its id, as the reader sees it (tags and the ¶ link left out)."""
    return {hid: unescape(_TAG.sub("", _PERMALINK.sub("", inner))).strip() for hid, inner in _HEADING.findall(html)}


def with_spaces(title: str, heading: str) -> str:
    """`title` (the entry's words, one plain space between them) with the no-break spaces `heading` has
    between the same words; `title` unchanged when the words differ (a `data-toc-label`, say)."""
    words = title.split(" ")
    gaps = _SPACES.findall(heading)
    if _SPACES.split(heading) != [unescape(word) for word in words] or len(gaps) != len(words) - 1:
        return title
    kept = [next((space for space in _KEPT if space in gap), " ") for gap in gaps]
    return words[0] + "".join(gap + word for gap, word in zip(kept, words[1:], strict=True))


def keep_spaces(toc: Iterable[Any], html: str) -> None:
    """Give every entry of `toc` (MkDocs' AnchorLinks, with their children) its heading's no-break spaces."""
    texts = heading_texts(html)

    def walk(items: Iterable[Any]) -> None:
        for item in items:
            if item.id in texts:
                item.title = with_spaces(item.title, texts[item.id])
            walk(item.children)

    walk(toc)
