"""Calculator embeds in Markdown: a fenced block becomes a prerendered, localized widget.

An editor writes, in either language's page::

    ```calculator vram_fit
    model: llama-3.1-405b
    precision: fp8
    ```

or, for the tables the article fills from the calculators::

    ```calculator-table scaling_efficiency
    ```

`render_embeds(markdown, lang, source)` replaces each fence with raw HTML (computed with
`widgets.view`, i.e. `calculators.run`), and raises `EmbedError` naming the page and line for an
unknown calculator, input or value. Presets are written as in source code: `0.7`, not `0,7`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mkdocs.utils.meta import YAML_RE as FRONT_MATTER  # what MkDocs strips before the hooks see a page

import calculators
from wiki import render
from wiki.problems import Problem

FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<kind>calculator(?:-table)?)[ \t]+(?P<name>\S+)[ \t]*$")
PRESET = re.compile(r"^\s*(?P<key>[a-z_][a-z0-9_]*)\s*:\s*(?P<value>.*?)\s*$")
TABLES = ("scaling_efficiency", "single_node_build")


class EmbedError(ValueError):
    """A broken embed: `problem` says where (page, line) and what is wrong; its text is "page:line: message"."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.problem = Problem(file, line, message)
        super().__init__(str(self.problem))


@dataclass
class Embed:
    """One fenced block: which calculator (or table), its presets, where it starts."""

    kind: str
    name: str
    line: int
    presets: dict[str, Any] = field(default_factory=dict)


def parse_value(text: str) -> Any:
    """A preset value as written in source: integers, decimals with a dot, true/false, or an id."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    return text.strip("\"'")


def find_embeds(markdown: str, source: str, first_line: int = 1) -> list[tuple[int, int, Embed]]:
    """Every embed as (first line index, last line index, embed).

    Indexes are 0-based in `markdown`; `Embed.line` and error messages count from `first_line`, the
    line of the source file where `markdown` starts (MkDocs hands hooks the text after the front matter).
    """
    offset = first_line - 1
    lines = markdown.split("\n")
    found, i = [], 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        embed = Embed(match["kind"], match["name"], offset + i + 1)
        closing = re.compile(rf"^ {{0,3}}{match['fence'][0]}{{{len(match['fence'])},}}\s*$")
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            if lines[j].strip():
                preset = PRESET.match(lines[j])
                if not preset:
                    raise EmbedError(source, offset + j + 1, f"write presets as 'name: value', "
                                     f"not {lines[j].strip()!r}")
                embed.presets[preset["key"]] = parse_value(preset["value"])
            j += 1
        if j == len(lines):
            raise EmbedError(source, offset + i + 1, f"the '{match['kind']}' block is never closed")
        found.append((i, j, embed))
        i = j + 1
    return found


def validate(embed: Embed, source: str) -> None:
    """Raise `EmbedError` for an unknown calculator or table, input or value."""
    if embed.kind == "calculator-table":
        if embed.name not in TABLES:
            raise EmbedError(source, embed.line, f"unknown table {embed.name!r}; known: {', '.join(TABLES)}")
        return
    if embed.name not in calculators.CALCULATORS:
        raise EmbedError(source, embed.line,
                         f"unknown calculator {embed.name!r}; known: {', '.join(calculators.CALCULATORS)}")
    result = calculators.run(embed.name, embed.presets)
    if not result["ok"]:
        details = "; ".join(_describe(error) for error in result["errors"])
        raise EmbedError(source, embed.line, f"{embed.name}: {details}")


def _describe(error: dict[str, Any]) -> str:
    params = ", ".join(f"{k}={v}" for k, v in error["params"].items())
    return f"input {error['field']!r}: {error['code']}" + (f" ({params})" if params else "")


def body_start_line(document: str) -> int:
    """The 1-based line where the Markdown body starts, after YAML front matter (as MkDocs strips it)."""
    match = FRONT_MATTER.match(document)
    if not match:
        return 1
    rest = document[match.end():]
    return document.count("\n", 0, match.end()) + (len(rest) - len(rest.lstrip("\n"))) + 1


def render_embeds(markdown: str, lang: str, source: str, first_line: int = 1) -> str:
    """Replace every embed of a page by its prerendered widget or table, in `lang`."""
    lines = markdown.split("\n")
    out, last, count = [], 0, {}
    for start, end, embed in find_embeds(markdown, source, first_line):
        validate(embed, source)
        count[embed.name] = count.get(embed.name, 0) + 1
        widget_id = f"kw-{embed.name.replace('_', '-')}-{count[embed.name]}"
        if embed.kind == "calculator":
            html = render.widget(embed.name, embed.presets, lang, widget_id)
        else:
            html = render.table(embed.name, lang, widget_id)
        out.extend(lines[last:start])
        out.extend(["", html, ""])
        last = end + 1
    out.extend(lines[last:])
    return "\n".join(out)
