"""The theme's own words (the footer's credit, the error page) from the gettext catalogs, for the templates.

`wiki/hooks.py` gives the theme's templates `kw_ui(key, **links)` for the language being built, so that
`overrides/partials/copyright.html` and `kw-not-found.html` hold no language of their own.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from widgets import strings
from widgets.messages import text


def ui(lang: str, key: str, **links: str) -> Markup:
    """`strings.UI[key]` in `lang`, escaped, its `{name}` placeholders filled with the template's own markup
    (a link), so that a translation stays text and the sentence stays whole around its links."""
    return escape(text(lang, strings.UI[key])).format(**{name: Markup(html) for name, html in links.items()})
