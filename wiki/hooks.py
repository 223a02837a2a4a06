"""MkDocs hooks (see `hooks:` in mkdocs.yml): thin adapters, each delegating to a plain module.

MkDocs loads this file by path, so the repository root is put on `sys.path` to import `wiki`.

A problem in a page (active content, a broken calculator embed, a script the theme did not write) does
not stop the build at once: every page of every language is built and checked, each problem is recorded
as it is found (`wiki/problems.py`), and the build fails once, at its end, listing all of them. (Logged
as they come, they would count as warnings of static-i18n's nested build of the next language, which
would then stop on its own, half-told; if the build stops for another reason, `on_build_error` lists them.)
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from jinja2 import Environment  # noqa: E402
from mkdocs.config.defaults import MkDocsConfig  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.pages import Page  # noqa: E402

from wiki import (  # noqa: E402
    catalogs,
    content_policy,
    csp,
    error_pages,
    katex,
    languages,
    methods,
    offline,
    runtime,
    site_files,
    theme_words,
    toc,
    untranslated,
)
from wiki.embed import EmbedError, body_start_line, place_widgets, render_embeds  # noqa: E402
from wiki.material_bundle import BundlePatchError, patch_site  # noqa: E402
from wiki.problems import Problem, record  # noqa: E402
from wiki.search_index import write_split_indexes  # noqa: E402
from wiki.sitemap import rewrite_sitemap  # noqa: E402

log = logging.getLogger("mkdocs.hooks.kentino")
FOUND = "The pages have problems; the site was not built"


@dataclass
class _Found:
    """The problems of the pages built so far, in every language: the build fails on them at its end."""

    problems: list[Problem] = field(default_factory=list)
    told: bool = False

    def add(self, problems: list[Problem]) -> None:
        """Record `problems` now (a later failure must not lose them); the build fails on them at its end."""
        new = [problem for problem in problems if problem not in self.problems]  # a fallback page: seen twice
        record(new)
        self.problems += new

    def clear(self) -> None:
        """Forget them: a new build (`mkdocs serve` rebuilds) starts."""
        self.problems.clear()
        self.told = False


_found = _Found()


def _fail(title: str, problems: list[Problem]) -> NoReturn:
    """Stop the build on `problems`: recorded as data for the checks (`wiki/problems.py`), listed in the log."""
    record(problems)
    raise PluginError(f"{title}:\n  " + "\n  ".join(map(str, problems)))


def _languages(config: MkDocsConfig) -> tuple[str, list[str]]:
    langs = languages.from_plugin(config.plugins["i18n"].config.languages)
    return langs.default, list(langs.others)


def _page_languages(page: Page, config: MkDocsConfig) -> tuple[str, str]:
    """(the language the page is written in, the language being built); they differ on a fallback page."""
    default, _others = _languages(config)
    return getattr(page.file, "locale", None) or default, config.plugins["i18n"].current_language or default


def _site_root(config: MkDocsConfig, others: list[str]) -> Path:
    # static-i18n points site_dir at site/<lang> while it builds a non-default language.
    site_dir = Path(config.site_dir)
    return site_dir.parent if site_dir.name in others else site_dir


@dataclass
class _Theme:
    """The theme's Jinja environment and the inline-script hashes its pages were given."""

    env: Environment | None = None
    serving: bool = False  # `mkdocs serve` injects its live-reload script inline, unhashable (a timestamp)
    hashes: set[str] = field(default_factory=set)  # every page's: the policy of `_headers`
    templates: dict[str, frozenset[str]] = field(default_factory=dict)  # 404.html's


_theme = _Theme()


def on_startup(command: str, **_: object) -> None:
    """Remember whether this is `mkdocs serve`: its pages carry no `<meta>` policy (live reload is inline)."""
    _theme.serving = command == "serve"


def on_config(config: MkDocsConfig) -> None:
    """Check the gettext catalogs (a missing or fuzzy translation fails the build) and compile them."""
    _theme.hashes.clear()
    if not getattr(config.plugins["i18n"], "building", False):  # not static-i18n's build of the next language
        _found.clear()
    default, others = _languages(config)
    langs = (default, *others)
    problems = catalogs.check(langs)
    if problems:
        _fail("The translation catalogs are not complete", problems)
    catalogs.compile_all(langs)
    building = config.plugins["i18n"].current_language or default  # static-i18n sets it before each build
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = theme_words.permalink_title(building)
    config.theme.static_templates.update(error_pages.names(others))  # <lang>/404.html (wiki/error_pages.py)
    # The service worker (wiki/offline.py), registered by overrides' offline.js; not under live reload.
    config.extra["kw_offline"] = not _theme.serving


def _prepare_runtime(config: MkDocsConfig) -> None:
    # Only a site that embeds a calculator pays for the browser runtime (cached in build/runtime/).
    if "kw_runtime" in config.extra:
        return
    try:
        default, others = _languages(config)
        prepared = runtime.prepare((default, *others))
    except (runtime.RuntimeUnavailable, OSError) as error:
        raise PluginError(f"The live calculators' runtime could not be prepared: {error}") from None
    config.extra["kw_runtime"] = prepared.page_config()
    config.extra["kw_runtime_prepared"] = prepared


def on_env(env: Environment, config: MkDocsConfig, **_: object) -> Environment:
    """Keep the theme's environment (the CSP's hashes are those of the theme's own script partials) and give
    its templates the catalogs' words in the language being built (`kw_ui`, wiki/theme_words.py) and the
    other languages' error pages (wiki/error_pages.py)."""
    _theme.env = env
    error_pages.install(env, _languages(config)[1])
    env.globals["kw_ui"] = lambda key, **links: theme_words.ui(config.theme["language"], key, **links)
    return env


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Escape the front matter; replace calculator embeds with their prerendered widgets, in the page's language.

    A page shown in a language it is not written in (static-i18n's fallback to the default language)
    gets the localized "not yet translated" notice, and its edit button opens the file that exists.
    """
    page.meta = content_policy.escaped(page.meta)
    lang, building = _page_languages(page, config)
    first_line = body_start_line(page.file.content_string)
    # A calculator's page (wiki/methods.py): the numbers and tables that come from the code, its template.
    here = methods.where(page.url, building, _languages(config)[0], config.docs_dir, page.meta)
    expanded = methods.expand(markdown, page.meta, lang, f"docs/{page.file.src_uri}", first_line, here)
    markdown = expanded.markdown
    _found.add(expanded.problems)
    try:
        markdown, page.kw_widgets = render_embeds(markdown, lang, f"docs/{page.file.src_uri}", first_line)
    except EmbedError as error:  # the page goes on without its widgets, for the problems of the others
        found = error.problem
        _found.add([Problem(found.file, found.line, f"Broken calculator embed: {found.message}")])
        page.kw_widgets = {}
    if page.kw_widgets:
        _prepare_runtime(config)
    page.kw_widgets = {**methods.with_method_links(page.kw_widgets, here), **expanded.blocks}
    if lang != building:
        markdown = untranslated.with_notice(markdown, building)
        if config.repo_url and config.edit_uri:
            page.edit_url = untranslated.edit_url(config.repo_url, config.edit_uri, page.file.src_uri)
        # Its text is in the default language: it belongs in that language's search index only.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    return markdown


def on_page_content(html: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Refuse what the content policy does not allow (scripts, handlers, frames, meta refresh, off-site
    images, malformed HTML...) in a page, with file:line; then put the prerendered widgets in (made by
    our code, after the check: `wiki/content_policy.py`); mark the text of a page shown in a language it
    is not written in with the language it is in."""
    widgets, source = getattr(page, "kw_widgets", {}), page.file.content_string
    problems = content_policy.page_problems(html, source, f"docs/{page.file.src_uri}",
                                            urlsplit(config.site_url or "").hostname, widgets, body_start_line(source))
    _found.add(problems)
    page.kw_refused = bool(problems)
    html = place_widgets(html, widgets)
    lang, building = _page_languages(page, config)
    toc.keep_spaces(page.toc, html)  # the side navigation's titles keep the headings' no-break spaces
    return untranslated.in_language(html, lang) if lang != building else html


def _with_policy(context: dict, config: MkDocsConfig) -> frozenset[str]:
    hashes = csp.theme_script_hashes(_theme.env or config.theme.get_env(), context)
    _theme.hashes |= hashes
    context["kw_csp"] = None if _theme.serving else csp.policy(hashes, meta=True)
    return hashes


def on_page_context(context: dict, page: Page, config: MkDocsConfig, **_: object) -> dict:
    """The page's Content-Security-Policy (the `<meta>` of main.html), from the theme's scripts only."""
    page.kw_script_hashes = _with_policy(context, config)
    return context


def on_template_context(context: dict, template_name: str, config: MkDocsConfig) -> dict:
    """The same policy for the theme's own pages (404.html)."""
    _theme.templates[template_name] = _with_policy(context, config)
    return context


def _unknown_script(output: str, allowed: frozenset[str]) -> str | None:
    """What to say about the first inline script of `output` the theme did not write, if there is one."""
    unknown = [line for line, text in csp.located_inline_scripts(output) if csp.script_hash(text) not in allowed]
    return (f"an inline script that is not the theme's own reached the built page (line {unknown[0]} of the "
            "HTML): look at the front matter and the overrides") if unknown else None


def on_post_page(output: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Fail the build (at its end) on an inline script the theme did not write (front matter, a template, a plugin)."""
    unknown = _unknown_script(output, page.kw_script_hashes)
    if unknown and not getattr(page, "kw_refused", False):  # a page's own script: said once, with its line
        _found.add([Problem(f"docs/{page.file.src_uri}", None, unknown)])
    return methods.mark_main(output, page.meta)


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    """The same for the theme's own pages, at once."""
    unknown = _unknown_script(output, _theme.templates.get(template_name, frozenset()))
    if unknown:
        raise PluginError(f"theme page {template_name}: {unknown}.")
    return output


@event_priority(-200)  # after static-i18n (-100) has built every language and merged the index
def on_post_build(config: MkDocsConfig) -> None:
    """Fail on the problems of every page of every language, once; else per-language search indexes,
    x-default in the sitemap, no CDN in Material's bundle, `_headers` (CSP), the service worker (last: it
    hashes what the others wrote)."""
    if _found.problems:
        if getattr(config.plugins["i18n"], "building", False):
            return  # static-i18n's build of another language, inside the first one's: that one fails
        _found.told = True
        raise PluginError(f"{FOUND}:\n  " + "\n  ".join(map(str, _found.problems)))
    default, others = _languages(config)
    root = _site_root(config, others)
    write_split_indexes(root, default, others)
    rewrite_sitemap(root, default)
    try:
        patch_site(root, config.theme.dirs)
    except BundlePatchError as error:
        raise PluginError(str(error)) from None
    if "kw_runtime_prepared" in config.extra:
        runtime.install(config.extra["kw_runtime_prepared"], root)
    csp.write_headers(root, _theme.hashes)
    katex.install(root)  # the calculator pages' formulas (before the service worker, which lists the files)
    if config.extra.get("kw_offline"):
        offline.write_service_worker(root, config.extra.get("kw_runtime_prepared"), (default, *others))
    site_files.make_readable(root)


def on_build_error(error: Exception, **_: object) -> None:
    """A build that stops for another reason (a strict warning of the next language) still lists the problems."""
    if _found.problems and not _found.told:
        _found.told = True
        log.error(f"{FOUND}:\n  " + "\n  ".join(map(str, _found.problems)))
