"""The Kentino Wiki's MkDocs plugin (`kentino` in mkdocs.yml; an `mkdocs.plugins` entry point in pyproject.toml).

Each event is a thin adapter delegating to a plain module of `wiki/`; the plugin holds the build's state.

A problem in a page (active content, a broken calculator embed, a script the theme did not write) does
not stop the build at once: every page of every language is built and checked, each problem is recorded
as it is found (`wiki/problems.py`), and the build fails once, at its end, listing all of them. (Logged
as they come, they would count as warnings of static-i18n's nested build of the next language, which
would then stop on its own, half-told; if the build stops for another reason, `on_build_error` lists them.)
static-i18n builds each further language inside the first one's `on_post_build`, with the same config and
so the same plugin instance: what is kept on `self` spans every language of one `mkdocs build`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.pages import Page

from wiki import (
    catalogs,
    content_policy,
    csp,
    error_pages,
    katex,
    languages,
    methods,
    offline,
    page_bundle,
    runtime,
    served_scripts,
    site_files,
    theme_words,
    toc,
    untranslated,
)
from wiki.embed import body_start_line
from wiki.fences import Embeds, register
from wiki.material_bundle import BundlePatchError, patch_site
from wiki.plugin_config import KentinoConfig
from wiki.problems import Problem, record
from wiki.search_index import write_split_indexes
from wiki.sitemap import rewrite_sitemap

log = logging.getLogger("mkdocs.plugins.kentino")
FOUND = "The pages have problems; the site was not built"


def _fail(title: str, problems: list[Problem]) -> NoReturn:
    """Stop the build on `problems`: recorded as data for the checks (`wiki/problems.py`), listed in the log."""
    record(problems)
    raise PluginError(f"{title}:\n  " + "\n  ".join(map(str, problems)))


def _unknown_script(output: str, allowed: frozenset[str]) -> str | None:
    """What to say about the first inline script of `output` the theme did not write, if there is one."""
    unknown = [line for line, text in csp.located_inline_scripts(output) if csp.script_hash(text) not in allowed]
    return (f"an inline script that is not the theme's own reached the built page (line {unknown[0]} of the "
            "HTML): look at the front matter and the overrides") if unknown else None


@dataclass
class _PageState:
    """What the plugin adds to a page between its events."""

    blocks: dict[str, str] = field(default_factory=dict)  # a calculator page's token -> its block (wiki/methods.py)
    refused: bool = False  # the content policy refused the page: its own script is said once, with its line
    script_hashes: frozenset[str] = frozenset()  # the theme's inline scripts of the page (its CSP)


class KentinoPlugin(BasePlugin[KentinoConfig]):
    """Calculator embeds, method pages, catalogs, the content policy, the CSP and the offline service worker."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.problems: list[Problem] = []  # of the pages built so far, in every language
        self.told = False  # the problems were listed (the build failed on them)
        self.serving = False  # `mkdocs serve` injects its live-reload script inline, unhashable (a timestamp)
        self.env: Environment | None = None  # the theme's: the CSP hashes its own script partials
        self.hashes: set[str] = set()  # every page's inline-script hashes: the policy of `_headers`
        self.templates: dict[str, frozenset[str]] = {}  # the theme's own pages' (404.html)
        self.pages: dict[str, _PageState] = {}  # by the page's source path, in the language being built
        self.prepared: runtime.Runtime | None = None  # the live calculators' runtime, once a page needs it
        self.embeds = Embeds()  # the calculator fences (wiki/fences.py), told which page renders
        self.langs = languages.Languages("", ())  # the i18n plugin's, read once per build (on_config)

    # Helpers ----------------------------------------------------------------------------------------------

    def _i18n(self, config: MkDocsConfig) -> Any:
        return config.plugins[self.config.i18n_plugin]

    def _building(self, config: MkDocsConfig) -> str:
        """The language being built (static-i18n sets it before each language's build)."""
        return self._i18n(config).current_language or self.langs.default

    def _page_languages(self, page: Page, config: MkDocsConfig) -> tuple[str, str]:
        """(the language the page is written in, the language being built); they differ on a fallback page."""
        return getattr(page.file, "locale", None) or self.langs.default, self._building(config)

    def _nested(self, config: MkDocsConfig) -> bool:
        """Whether this is static-i18n's build of a further language, inside the first one's."""
        return bool(getattr(self._i18n(config), "building", False))

    def _add(self, problems: list[Problem]) -> None:
        """Record `problems` now (a later failure must not lose them); the build fails on them at its end."""
        new = [problem for problem in problems if problem not in self.problems]  # a fallback page: seen twice
        record(new)
        self.problems += new

    def _page(self, page: Page) -> _PageState:
        return self.pages.setdefault(page.file.src_uri, _PageState())

    def _prepare_runtime(self, config: MkDocsConfig) -> None:
        # Only a site that embeds a calculator pays for the browser runtime (cached in build/runtime/).
        if self.prepared is not None:
            return
        try:
            self.prepared = runtime.prepare(self.langs.all)
        except (runtime.RuntimeUnavailable, OSError) as error:
            raise PluginError(f"The live calculators' runtime could not be prepared: {error}") from None
        config.extra["kw_runtime"] = self.prepared.page_config()

    def _with_policy(self, context: dict, config: MkDocsConfig) -> frozenset[str]:
        hashes = csp.theme_script_hashes(self.env or config.theme.get_env(), context)
        self.hashes |= hashes
        context["kw_csp"] = None if self.serving else csp.policy(hashes, meta=True)
        return hashes

    # Events -----------------------------------------------------------------------------------------------

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Remember whether this is `mkdocs serve`: its pages carry no `<meta>` policy (live reload is inline)."""
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> None:
        """Check the gettext catalogs (a missing or fuzzy translation fails the build) and compile them."""
        self.hashes.clear()
        self.pages.clear()
        if not self._nested(config):  # a new build (`mkdocs serve` rebuilds, with this instance) starts
            self.problems.clear()
            self.told = False
            self.prepared = None  # prepared again: a calculator changed under `mkdocs serve` rebuilds it
            if self.serving:  # an edit of the page script's modules shows at once (a build serves the committed file)
                page_bundle.refresh()
        self.langs = languages.from_plugin(self._i18n(config).config.languages)
        problems = catalogs.check(self.langs.all)
        if problems:
            _fail("The translation catalogs are not complete", problems)
        catalogs.compile_all(self.langs.all)
        building = self._building(config)
        config.mdx_configs.setdefault("toc", {})["permalink_title"] = theme_words.permalink_title(building)
        register(config.markdown_extensions, config.mdx_configs, self.embeds)  # ```calculator NAME fences
        # <lang>/404.html (wiki/error_pages.py)
        config.theme.static_templates.update(error_pages.names(self.langs.others))
        # The service worker (wiki/offline.py), registered by overrides' offline.js; not under live reload.
        config.extra["kw_offline"] = self.config.offline and not self.serving

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Any) -> Environment:
        """Keep the theme's environment (the CSP's hashes are those of the theme's own script partials) and give
        its templates the catalogs' words in the language being built (`kw_ui`, wiki/theme_words.py) and the
        other languages' error pages (wiki/error_pages.py)."""
        self.env = env
        error_pages.install(env, self.langs.others)
        env.globals["kw_ui"] = lambda key, **links: theme_words.ui(config.theme["language"], key, **links)
        return env

    def on_page_markdown(self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Any) -> str:
        """Escape the front matter; fill a calculator page's placeholders; read the page's calculator embeds,
        which SuperFences renders next as prerendered widgets in the page's language (wiki/fences.py).

        A page shown in a language it is not written in (static-i18n's fallback to the default language)
        gets the localized "not yet translated" notice, and its edit button opens the file that exists.
        """
        page.meta = content_policy.escaped(page.meta)
        lang, building = self._page_languages(page, config)
        source = f"docs/{page.file.src_uri}"
        first_line = body_start_line(page.file.content_string)
        # A calculator's page (wiki/methods.py): the numbers and tables that come from the code, its template.
        here = methods.where(page.url, building, self.langs.default, config.docs_dir, page.meta)
        expanded = methods.expand(markdown, page.meta, lang, source, first_line, here)
        self._add(expanded.problems)
        self._page(page).blocks = expanded.blocks
        self.embeds.start(expanded.markdown, lang, source, first_line, here)  # SuperFences renders them next
        markdown = expanded.markdown
        if lang != building:
            markdown = untranslated.with_notice(markdown, building)
            if config.repo_url and config.edit_uri:
                page.edit_url = untranslated.edit_url(config.repo_url, config.edit_uri, page.file.src_uri)
            # Its text is in the default language: it belongs in that language's search index only.
            page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        return markdown

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Any) -> str:
        """Say what was wrong with the page's calculator fences; refuse what the content policy does not allow
        (scripts, handlers, frames, meta refresh, off-site images, malformed HTML...) in a page, with file:line,
        our widgets standing as tokens; put a calculator page's blocks in (made by our code, after the check:
        `wiki/content_policy.py`); mark the text of a page shown in a language it is not written in with the
        language it is in."""
        html, widgets, problems = self.embeds.finish(html)
        self._add(problems)
        if widgets:
            self._prepare_runtime(config)
        state, source = self._page(page), page.file.content_string
        checked, tokens = content_policy.standing_for(html, widgets)  # our widgets, made from escaped data
        problems = content_policy.page_problems(checked, source, f"docs/{page.file.src_uri}",
                                                urlsplit(config.site_url or "").hostname, [*tokens, *state.blocks],
                                                body_start_line(source))
        self._add(problems)
        state.refused = bool(problems)
        html = methods.place_blocks(html, state.blocks)
        lang, building = self._page_languages(page, config)
        toc.keep_spaces(page.toc, html)  # the side navigation's titles keep the headings' no-break spaces
        return untranslated.in_language(html, lang) if lang != building else html

    def on_page_context(self, context: dict, /, *, page: Page, config: MkDocsConfig, nav: Any) -> dict:
        """The page's Content-Security-Policy (the `<meta>` of main.html), from the theme's scripts only."""
        self._page(page).script_hashes = self._with_policy(context, config)
        return context

    def on_template_context(self, context: dict, /, *, template_name: str, config: MkDocsConfig) -> dict:
        """The same policy for the theme's own pages (404.html)."""
        self.templates[template_name] = self._with_policy(context, config)
        return context

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        """Fail the build (at its end) on an inline script the theme did not write (front matter, a template,
        a plugin)."""
        state = self._page(page)
        unknown = _unknown_script(output, state.script_hashes)
        if unknown and not state.refused:  # a page's own script: said once, with its line
            self._add([Problem(f"docs/{page.file.src_uri}", None, unknown)])
        return methods.mark_main(output, page.meta)

    def on_post_template(self, output: str, /, *, template_name: str, config: MkDocsConfig) -> str:
        """The same for the theme's own pages, at once."""
        unknown = _unknown_script(output, self.templates.get(template_name, frozenset()))
        if unknown:
            raise PluginError(f"theme page {template_name}: {unknown}.")
        return output

    @event_priority(-200)  # after static-i18n (-100) has built every language and merged the index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Fail on the problems of every page of every language, once; else per-language search indexes,
        x-default in the sitemap, no CDN in Material's bundle, `_headers` (CSP), the service worker (last: it
        hashes what the others wrote)."""
        if self.problems:
            if self._nested(config):
                return  # static-i18n's build of another language, inside the first one's: that one fails
            self.told = True
            raise PluginError(f"{FOUND}:\n  " + "\n  ".join(map(str, self.problems)))
        default, others = self.langs.default, list(self.langs.others)
        site_dir = Path(config.site_dir)
        # static-i18n points site_dir at site/<lang> while it builds a non-default language.
        root = site_dir.parent if site_dir.name in others else site_dir
        write_split_indexes(root, default, others)
        rewrite_sitemap(root, default)
        try:
            patch_site(root, config.theme.dirs)
        except BundlePatchError as error:
            raise PluginError(str(error)) from None
        if self.prepared is not None:
            runtime.install(self.prepared, root)
        csp.write_headers(root, self.hashes)
        katex.install(root)  # the calculator pages' formulas (before the service worker, which lists the files)
        served_scripts.strip_site(root)  # before the service worker too: it keeps what is served
        if config.extra.get("kw_offline"):
            offline.write_service_worker(root, self.prepared, self.langs.all)
        site_files.make_readable(root)

    def on_build_error(self, *, error: Exception) -> None:
        """A build that stops for another reason (a strict warning of the next language) still lists the problems."""
        if self.problems and not self.told:
            self.told = True
            log.error(f"{FOUND}:\n  " + "\n  ".join(map(str, self.problems)))
