"""Pages not translated yet, as the build shows them (`wiki/plugin.py`).

With `fallback_to_default: true` (mkdocs.yml), a page of the default language without its translation
is also built under `/<lang>/`. The build puts `notice_html()` at the top of that page: a sentence
from the gettext catalogs (`widgets.strings.PAGES["untranslated"]`) in the reader's language, and
points the edit button at the file that exists. The text is marked with the language it is in (screen
readers pronounce it so) and left out of that language's search index. `wiki/checks/untranslated.py`
checks the built site for it.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urljoin

from widgets import strings
from widgets.locale import locale_of

MARKER = "kw-untranslated"
H1 = re.compile(r"^# .*$", re.MULTILINE)


def notice_text(lang: str) -> str:
    """The 'not yet translated' sentence in `lang`, from the catalogs."""
    return locale_of(lang).text(strings.PAGES["untranslated"])


def notice_html(lang: str) -> str:
    """The notice as a raw HTML block (a Material admonition with only its title line)."""
    return (f'<div class="admonition info {MARKER}" lang="{lang}">\n'
            f'<p class="admonition-title">{html.escape(notice_text(lang))}</p>\n</div>')


def with_notice(markdown: str, lang: str) -> str:
    """`markdown` with the notice in `lang` right after its `#` title (or at the top without one)."""
    block = "\n\n" + notice_html(lang) + "\n\n"
    title = H1.search(markdown)
    if not title:
        return block.lstrip("\n") + markdown
    return markdown[:title.end()] + block + markdown[title.end():].lstrip("\n")


def in_language(page_html: str, lang: str) -> str:
    """The page's HTML in an element that says which language it is in (the notice says its own)."""
    return f'<div lang="{lang}">\n{page_html}\n</div>'


def edit_url(repo_url: str, edit_uri: str, src_uri: str) -> str:
    """The edit button's URL for the source file that was actually built."""
    return urljoin(repo_url.rstrip("/") + "/", edit_uri + src_uri)
