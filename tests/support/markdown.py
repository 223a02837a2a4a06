"""Markdown as the build renders it: mkdocs.yml's extensions and their options, with the plugin's calculator
fences (`wiki.fences`) registered the way the plugin registers them."""

from __future__ import annotations

import functools
from typing import Any

import markdown
from mkdocs.config import load_config
from mkdocs.utils.meta import get_data

from tests.conftest import ROOT
from wiki import languages, methods
from wiki.embed import body_start_line
from wiki.fences import Embeds, register
from wiki.problems import Problem


@functools.cache
def _setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
    config = load_config(str(ROOT / "mkdocs.yml"))
    return tuple(config["markdown_extensions"]), dict(config["mdx_configs"])


def rendered(text: str, *more: str, embeds: Embeds | None = None) -> str:
    """`text` as the site's Markdown renders it (with `more` extensions); its fences through `embeds`."""
    extensions, configs = _setup()
    extensions, configs = [*extensions, *more], dict(configs)
    register(extensions, configs, embeds or Embeds())
    return markdown.markdown(text, extensions=extensions, extension_configs=configs)


def rendered_page(source: str, lang: str, file: str) -> tuple[str, list[str], list[Problem]]:
    """A page's file text (front matter included) as the build renders it at `file` (`docs/...`): its HTML,
    the HTML of each widget in it, and the problems of its calculator fences."""
    body, _meta = get_data(source)
    here = methods.where("page/", lang, languages.read(ROOT / "mkdocs.yml").default, ROOT / "docs", {})
    embeds = Embeds()
    embeds.start(body, lang, file, body_start_line(source), here)
    return embeds.finish(rendered(body, embeds=embeds))
