"""The theme's own words (the footer's credit, the error page, the headings' ¶ links) from the gettext catalogs.

`wiki/plugin.py` gives the theme's templates `kw_ui(key, **links)` for the language being built, so that
`overrides/partials/copyright.html` and `kw-not-found.html` hold no language of their own.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from widgets import strings
from widgets.locale import locale_of


def ui(lang: str, key: str, **links: str) -> Markup:
    """`strings.UI[key]` in `lang`, escaped, its `{name}` placeholders filled with the template's own markup
    (a link), so that a translation stays text and the sentence stays whole around its links."""
    return escape(locale_of(lang).text(strings.UI[key])).format(**{name: Markup(html) for name, html in links.items()})


def permalink_title(lang: str) -> str:
    """The title of each heading's ¶ link in `lang`: Python-Markdown's toc option `permalink_title`, set for
    the language being built (mkdocs.yml holds one toc configuration for every language)."""
    return locale_of(lang).text(strings.UI["permalink_title"])
