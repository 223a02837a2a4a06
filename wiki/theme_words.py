"""The theme's own words (the footer's credit, the error page, the headings' ¶ links) from the gettext catalogs.

`wiki/hooks.py` gives the theme's templates `kw_ui(key, **links)` for the language being built, so that
`overrides/partials/copyright.html` and `kw-not-found.html` hold no language of their own.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from widgets import strings
from widgets.messages import text


def ui(lang: str, key: str, **links: str) -> Markup:
    """`strings.UI[key]` in `lang`, escaped, its `{name}` placeholders filled with the template's own markup
    (a link), so that a translation stays text and the sentence stays whole around its links."""
    return escape(text(lang, strings.UI[key])).format(**{name: Markup(html) for name, html in links.items()})


# Python-Markdown's toc writes one `permalink_title` for every language (mkdocs.yml has one toc config).
_PERMALINK = re.compile(r'(<a class="headerlink" href="[^"]*") title="Permanent link"')


def permalink_titles(html: str, lang: str) -> str:
    """`html` with the title of each heading's ¶ link in `lang` (the catalogs' `permalink_title`)."""
    title = str(ui(lang, "permalink_title"))
    return _PERMALINK.sub(lambda m: f'{m[1]} title="{title}"', html)
