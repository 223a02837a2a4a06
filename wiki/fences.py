"""Calculator embeds as `pymdownx.superfences` custom fences: ```` ```calculator NAME ```` and
```` ```calculator-table NAME ```` become the prerendered widget or table, in the page's language.

The plugin registers the two fences (`custom_fences()`, as markdown-exec does) and tells `Embeds` which
page Markdown is about to render (`start`) and when it is done (`finish`). SuperFences decides what is a
fence (and hands our formatter its body); `wiki.embed.find_embeds`, the scanner the editors' checks share,
gives each embed its source line (for errors: `docs/page.md:LINE`), its widget id and its heading level.
The two must agree, and the build says so when they do not: a fence the checks read as an embed that
SuperFences did not render, or the other way round, is a problem at its line.

SuperFences also calls the formatter for a fence inside an indented code block, and then shows the fence's
text instead of what it returned: such a call is answered like the embed it matches, and nothing of it
reaches the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wiki import methods, render
from wiki.embed import Embed, EmbedError, find_embeds, heading_level, validate
from wiki.problems import Problem

FENCES = ("calculator", "calculator-table")
UNPLANNED = "kw-unplanned-fence-{}"  # what an unplanned fence renders as, until `finish` names it


def _key(kind: str, name: str, body: str) -> tuple[str, str, tuple[str, ...]]:
    """What identifies a fence between the two readings: its kind, name and non-blank body lines."""
    return kind, name, tuple(line.strip() for line in body.split("\n") if line.strip())


@dataclass
class _Planned:
    embed: Embed
    key: tuple[str, str, tuple[str, ...]]
    widget_id: str
    level: int
    rendered: str | None = None


@dataclass
class _Page:
    lang: str
    source: str
    markdown: str
    first_line: int
    here: methods.Where
    planned: list[_Planned] = field(default_factory=list)
    broken: bool = False  # the scanner refused the page (an unclosed fence, a preset that is not `name: value`)
    unplanned: list[tuple[str, str]] = field(default_factory=list)  # (kind, name) of fences it did not plan
    problems: list[Problem] = field(default_factory=list)


class Embeds:
    """The custom fences' validator and formatter, and the page they render."""

    def __init__(self) -> None:
        self._page: _Page | None = None

    def custom_fences(self) -> list[dict[str, Any]]:
        """The `custom_fences` entries of `pymdownx.superfences` for both kinds of embed."""
        return [{"name": kind, "class": kind, "validator": self.validator, "format": self.formatter}
                for kind in FENCES]

    def start(self, markdown: str, lang: str, source: str, first_line: int, here: methods.Where) -> None:
        """Read the embeds of the page `source` (whose body, `markdown`, starts at `first_line`) before it renders."""
        page = _Page(lang, source, markdown, first_line, here)
        self._page = page
        try:
            found = find_embeds(markdown, source, first_line)
        except EmbedError as error:  # the page goes on without its widgets, for the problems of the others
            page.broken = True
            page.problems.append(_broken(error))
            return
        lines, count = markdown.split("\n"), {}
        for start, end, embed in found:
            count[embed.name] = count.get(embed.name, 0) + 1
            page.planned.append(_Planned(embed, _key(embed.kind, embed.name, "\n".join(lines[start + 1:end])),
                                         f"kw-{embed.name.replace('_', '-')}-{count[embed.name]}",
                                         heading_level(lines[:start])))

    def validator(self, language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, Any],
                 md: Any) -> bool:
        """Take every fence of ours (the formatter says what is wrong with one): its options are its name."""
        options["kw_inputs"] = dict(inputs)
        return True

    def formatter(self, src: str, language: str, class_name: str, options: dict[str, Any], md: Any,
               **kwargs: Any) -> str:
        """The prerendered widget or table of the fence, or nothing when it is broken (a problem at its line)."""
        page = self._page
        if page is None or page.broken:
            return ""
        name = " ".join(options.get("kw_inputs", {}))  # ```calculator vram_fit: the one bare word
        planned = _match(page.planned, _key(language, name, src))
        if planned is None:
            page.unplanned.append((language, name))
            return UNPLANNED.format(len(page.unplanned) - 1)
        if planned.rendered is None:
            planned.rendered = self._render(page, planned)
        return planned.rendered

    def _render(self, page: _Page, planned: _Planned) -> str:
        embed = planned.embed
        try:
            validate(embed, page.source)
        except EmbedError as error:
            page.problems.append(_broken(error))
            return ""
        if embed.kind == "calculator":
            html = render.widget(embed.name, embed.presets, page.lang, planned.widget_id, planned.level)
        else:
            html = render.table(embed.name, page.lang, planned.widget_id)
        return methods.method_link(html, page.here)

    def finish(self, html: str) -> tuple[str, list[str], list[Problem]]:
        """The page's HTML (any unplanned fence taken out), the HTML of each widget in it, and the problems."""
        page, self._page = self._page, None
        if page is None:
            return html, [], []
        problems = list(page.problems)
        for index, (kind, name) in enumerate(page.unplanned):
            marker = UNPLANNED.format(index)
            if marker in html:  # not inside an indented code block: SuperFences rendered it
                html = html.replace(marker, "")
                problems.append(Problem(page.source, _line_of(page.markdown, kind, name, page.first_line),
                                        f"Broken calculator embed: Markdown reads this '{kind}' fence where "
                                        "the checks read no embed (wiki/embed.py), in a quote for example: put "
                                        "it at the start of a line, or indented under its list item or admonition"))
        for planned in page.planned:
            if planned.rendered is None and not page.broken:
                problems.append(Problem(page.source, planned.embed.line,
                                        f"Broken calculator embed: the '{planned.embed.kind}' fence was not "
                                        "rendered: is it indented as deep as its list item's text?"))
        widgets = [p.rendered for p in page.planned if p.rendered and p.rendered in html]
        return html, widgets, problems


def register(extensions: list[Any], configs: dict[str, Any], embeds: Embeds) -> None:
    """Add SuperFences (when mkdocs.yml does not list it) and the two fences of `embeds` to a Markdown
    configuration; earlier entries of ours (static-i18n configures each language again) are replaced."""
    if "pymdownx.superfences" not in extensions:
        extensions.append("pymdownx.superfences")
    options = configs["pymdownx.superfences"] = dict(configs.get("pymdownx.superfences") or {})
    theirs = [fence for fence in options.get("custom_fences", []) if fence.get("name") not in FENCES]
    options["custom_fences"] = theirs + embeds.custom_fences()


def _match(planned: list[_Planned], key: tuple[str, str, tuple[str, ...]]) -> _Planned | None:
    """The first embed of `key` not rendered yet, else the last one rendered (a fence shown as code before it)."""
    same = [p for p in planned if p.key == key]
    return next((p for p in same if p.rendered is None), same[-1] if same else None)


def _broken(error: EmbedError) -> Problem:
    found = error.problem
    return Problem(found.file, found.line, f"Broken calculator embed: {found.message}")


def _line_of(markdown: str, kind: str, name: str, first_line: int) -> int | None:
    """The line of the first fence opening `kind name` in `markdown` (the page's body, from `first_line`)."""
    opening = re.compile(rf"^[ \t>]*(?:`{{3,}}|~{{3,}})[ \t]*{re.escape(kind)}[ \t]+{re.escape(name)}[ \t]*$")
    return next((n for n, line in enumerate(markdown.split("\n"), first_line) if opening.match(line)), None)

