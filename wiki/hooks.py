"""MkDocs hooks (see `hooks:` in mkdocs.yml): thin adapters, each delegating to a plain module.

MkDocs loads this file by path, so the repository root is put on `sys.path` to import `wiki`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.pages import Page  # noqa: E402

from wiki import catalogs, csp, runtime  # noqa: E402
from wiki.checks import untranslated  # noqa: E402
from wiki.embed import EmbedError, body_start_line, render_embeds  # noqa: E402
from wiki.material_bundle import patch_site  # noqa: E402
from wiki.search_index import write_split_indexes  # noqa: E402
from wiki.sitemap import rewrite_sitemap  # noqa: E402


def _languages(config: MkDocsConfig) -> tuple[str, list[str]]:
    langs = config.plugins["i18n"].config.languages
    default = next(lang.locale for lang in langs if lang.default)
    return default, [lang.locale for lang in langs if not lang.default]


def _page_languages(page: Page, config: MkDocsConfig) -> tuple[str, str]:
    """(the language the page is written in, the language being built); they differ on a fallback page."""
    default, _others = _languages(config)
    return getattr(page.file, "locale", None) or default, config.plugins["i18n"].current_language or default


def _site_root(config: MkDocsConfig, others: list[str]) -> Path:
    # static-i18n points site_dir at site/<lang> while it builds a non-default language.
    site_dir = Path(config.site_dir)
    return site_dir.parent if site_dir.name in others else site_dir


def on_config(config: MkDocsConfig) -> None:
    """Check the gettext catalogs (a missing or fuzzy translation fails the build) and compile them."""
    default, others = _languages(config)
    langs = (default, *others)
    problems = catalogs.check(langs)
    if problems:
        raise PluginError("The translation catalogs are not complete:\n  " + "\n  ".join(problems))
    catalogs.compile_all(langs)


def _prepare_runtime(config: MkDocsConfig) -> None:
    # Only a site that embeds a calculator pays for the browser runtime (cached in build/runtime/).
    if "kw_runtime" in config.extra:
        return
    try:
        prepared = runtime.prepare()
    except (runtime.RuntimeUnavailable, OSError) as error:
        raise PluginError(f"The live calculators' runtime could not be prepared: {error}") from None
    config.extra["kw_runtime"] = prepared.page_config()
    config.extra["kw_runtime_prepared"] = prepared


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Replace calculator embeds with their prerendered widgets, in the page's language.

    A page shown in a language it is not written in (static-i18n's fallback to the default language)
    gets the localized "not yet translated" notice, and its edit button opens the file that exists.
    """
    lang, building = _page_languages(page, config)
    first_line = body_start_line(page.file.content_string)
    try:
        rendered = render_embeds(markdown, lang, f"docs/{page.file.src_uri}", first_line)
    except EmbedError as error:
        raise PluginError(f"Broken calculator embed: {error}") from None
    if rendered != markdown:
        _prepare_runtime(config)
    markdown = rendered
    if lang != building:
        markdown = untranslated.with_notice(markdown, building)
        if config.repo_url and config.edit_uri:
            page.edit_url = untranslated.edit_url(config.repo_url, config.edit_uri, page.file.src_uri)
        # Its text is in the default language: it belongs in that language's search index only.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    return markdown


def on_page_content(html: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Mark the text of a page shown in a language it is not written in with the language it is in."""
    lang, building = _page_languages(page, config)
    return untranslated.in_language(html, lang) if lang != building else html


@event_priority(-200)  # after static-i18n (-100) has built every language and merged the index
def on_post_build(config: MkDocsConfig) -> None:
    """Per-language search indexes, x-default in the sitemap, no CDN in Material's bundle, `_headers` (CSP)."""
    default, others = _languages(config)
    root = _site_root(config, others)
    write_split_indexes(root, default, others)
    rewrite_sitemap(root, default)
    patch_site(root)
    if "kw_runtime_prepared" in config.extra:
        runtime.install(config.extra["kw_runtime_prepared"], root)
    csp.write_headers(root)
