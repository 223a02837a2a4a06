"""The error page of each language after the default one (`<lang>/404.html`), from mkdocs.yml's languages.

MkDocs renders the theme's 404.html in every language build, all to the site root, and writes nothing
for a template that renders empty. overrides/404.html renders only in the default language's build;
for every other language the plugin lists `<lang>/404.html` among the theme's static templates, and the
Jinja loader below writes that template: it renders only in its own language's build, with the page's
URLs relative to `<lang>/` and search pointed at that language's index. No language is named in a file.
"""

from __future__ import annotations

from collections.abc import Iterable

from jinja2 import BaseLoader, ChoiceLoader, Environment, FunctionLoader

NAME = "{lang}/404.html"

_SOURCE = """{{#- The {lang} error page, /{lang}/404.html: written by wiki/error_pages.py. -#}}
{{% extends "main.html" if config.theme.language == "{lang}" else "partials/kw-empty.html" %}}
{{% set home = "{lang}/" %}}
{{% set i18n_page_locale = "{lang}" %}}
{{% block content %}}
  {{% include "partials/kw-not-found.html" %}}
{{% endblock %}}
"""


def names(others: Iterable[str]) -> set[str]:
    """The static templates of the languages after the default one."""
    return {NAME.format(lang=lang) for lang in others}


def source(lang: str) -> str:
    """The Jinja source of one language's error page."""
    return _SOURCE.format(lang=lang)


def loader(fallback: BaseLoader | None, others: Iterable[str]) -> BaseLoader:
    """`fallback` (the theme's loader), with each other language's error page added under its name."""
    pages = {NAME.format(lang=lang): source(lang) for lang in others}
    generated = FunctionLoader(lambda name: pages.get(name))
    return ChoiceLoader([generated, fallback]) if fallback else generated


def install(env: Environment, others: Iterable[str]) -> None:
    """Give the theme's environment the other languages' error pages (idempotent)."""
    if not getattr(env, "kw_error_pages", False):
        env.loader = loader(env.loader, others)
        env.kw_error_pages = True  # type: ignore[attr-defined]
