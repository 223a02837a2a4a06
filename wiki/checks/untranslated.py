"""Pages not translated yet: the notice the build writes on them, and the check that it is there.

With `fallback_to_default: true` (mkdocs.yml), a Danish page without its `.fr.md` is also built under
`/fr/`. `wiki/hooks.py` then puts `notice_html()` at the top of that French page: a sentence from the
gettext catalogs (`widgets.strings.PAGES["untranslated"]`) in the reader's language, and points the
edit button at the Danish file, the one that exists. The Danish text is marked `lang="da"` (screen
readers pronounce it as Danish) and left out of the French search index. Whether the missing translation is deliberate
(`translation: pending` in the Danish front matter) is `parity`'s business.

`check()` reads the built site: every page shown in a language it was not written in carries the
notice, and every edit button opens a file that exists in `docs/`.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urljoin

from widgets import strings
from widgets.messages import DOMAIN, LOCALE_DIR, text
from wiki import catalogs
from wiki.checks import Finding
from wiki.checks.links import edit_prefix, edit_target
from wiki.checks.parity import language_name
from wiki.checks.project import Project

NAME = "untranslated"
MARKER = "kw-untranslated"
H1 = re.compile(r"^# .*$", re.MULTILINE)


def notice_text(lang: str) -> str:
    """The 'not yet translated' sentence in `lang`, from the catalogs."""
    return text(lang, strings.PAGES["untranslated"])


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


def built_page(site: Path, slug: str, lang: str, default: str) -> Path:
    """Where the page `slug` of `lang` is built (directory URLs: `fr/scale-out/index.html`)."""
    prefix = "" if lang == default else f"{lang}/"
    stem = slug[:-len("index")] if slug == "index" or slug.endswith("/index") else f"{slug}/"
    return site / f"{prefix}{stem}index.html"


def check(project: Project, site: Path) -> list[Finding]:
    """Untranslated pages without the notice, and edit buttons that open a file that does not exist."""
    if not all((LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").exists() for lang in project.languages):
        catalogs.compile_all(project.languages)  # normally done by the build's on_config
    findings = []
    prefix = edit_prefix(project)
    for page in sorted(site.rglob("*.html")):
        target = edit_target(project, page)
        if target is not None and not (project.docs / target).is_file():
            findings.append(Finding(NAME, f"site/{page.relative_to(site).as_posix()}", None, (
                f"the edit button opens {prefix}{target}, but docs/{target} does not exist: check edit_uri "
                "in mkdocs.yml and the page's file name")))
    default = project.default_language
    for entry in project.pages():
        original = entry.files.get(default)
        for lang in project.translations:
            if original is None or lang in entry.files:
                continue
            built = built_page(site, entry.slug, lang, default)
            where = project.rel(original)
            if not built.is_file():
                continue  # not built at all: fallback_to_default is off, and parity reports the missing page
            page = built.read_text(encoding="utf-8")
            if MARKER not in page or html.escape(notice_text(lang)) not in page:
                findings.append(Finding(NAME, where, 1, (
                    f"site/{built.relative_to(site).as_posix()} shows this {language_name(default)} text to "
                    f"{language_name(lang)} readers without the 'not yet translated' notice: the hook in "
                    "wiki/hooks.py must add it (is the i18n plugin's fallback_to_default on?)")))
            if edit_target(project, built) is None:
                findings.append(Finding(NAME, where, 1, (
                    f"site/{built.relative_to(site).as_posix()} has no edit button: keep content.action.edit in "
                    "mkdocs.yml, so readers can correct the text they see")))
    return findings
