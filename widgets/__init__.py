"""Presentation of calculator results in the site's languages (mkdocs.yml): parse, compute, format, explain, draw.

The same code runs at build time (CPython, to prerender the pages) and in the reader's browser
(Pyodide, in the worker), so a live result prints exactly what the static page printed. Numbers are
formatted and parsed with Babel (CLDR); texts come from the gettext catalogs in `i18n/`.
"""

from widgets.view import view

__all__ = ["view"]
