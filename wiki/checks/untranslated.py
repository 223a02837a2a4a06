"""Pages not translated yet: the check that the build's notice (`wiki/untranslated.py`) is there.

Whether the missing translation is deliberate (`translation: pending` in the Danish front matter) is
`parity`'s business. `check()` reads the built site: every page shown in a language it was not written in carries the
notice, and every edit button opens a file that exists in `docs/`.
"""

from __future__ import annotations

import html
from pathlib import Path

from wiki.checks.finding import Finding
from wiki.checks.links import edit_prefix, edit_target
from wiki.checks.parity import language_name
from wiki.checks.project import Project
from wiki.untranslated import MARKER, notice_text

NAME = "untranslated"


def built_page(site: Path, slug: str, lang: str, default: str) -> Path:
    """Where the page `slug` of `lang` is built (directory URLs: `fr/scale-out/index.html`)."""
    prefix = "" if lang == default else f"{lang}/"
    stem = slug[:-len("index")] if slug == "index" or slug.endswith("/index") else f"{slug}/"
    return site / f"{prefix}{stem}index.html"


def check(project: Project, site: Path) -> list[Finding]:
    """Untranslated pages without the notice, and edit buttons that open a file that does not exist."""
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
                    f"{language_name(lang)} readers without the 'not yet translated' notice: the plugin "
                    "(wiki/plugin.py) must add it (is the i18n plugin's fallback_to_default on?)")))
            if edit_target(project, built) is None:
                findings.append(Finding(NAME, where, 1, (
                    f"site/{built.relative_to(site).as_posix()} has no edit button: keep content.action.edit in "
                    "mkdocs.yml, so readers can correct the text they see")))
    return findings
