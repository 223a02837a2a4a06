"""Calculator embeds in Markdown: a fenced block becomes a prerendered, localized widget.

An editor writes, in either language's page::

    ```calculator vram_fit
    model: llama-3.1-405b
    precision: fp8
    ```

or, for the tables the article fills from the calculators::

    ```calculator-table scaling_efficiency
    ```

The build renders them through `pymdownx.superfences` custom fences (`wiki/fences.py`). `find_embeds()`
is the scanner the editors' checks read them with, and the build uses it too, for each fence's line, id
and heading level (the build fails where the two readings differ). It reads Markdown's blocks as
Python-Markdown does: a fence inside another fenced block (a ```` ```markdown ```` example) or inside an
indented code block is code, not an embed; a fence indented under a list item or an admonition (`!!!`,
`???`) is an embed. `validate` raises `EmbedError` naming the page and line for an unknown calculator,
input or value. Presets are written as in source code: `0.7`, not `0,7`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mkdocs.utils.meta import YAML_RE as FRONT_MATTER  # what MkDocs strips before the plugin sees a page

import calculators
from wiki import render
from wiki.problems import Problem

# Any fence opening line; an embed's info string is `calculator NAME` or `calculator-table NAME`.
OPENING = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
EMBED_INFO = re.compile(r"^(?P<kind>calculator(?:-table)?)[ \t]+(?P<name>\S+)[ \t]*$")
# A line that opens a container whose indented lines are its content: a list item or an admonition.
CONTAINER = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)]|!!!|\?\?\?\+?)[ \t]")
TAB = 4  # Python-Markdown's tab_length: content indented by 4 more than its parent is a code block
PRESET = re.compile(r"^\s*(?P<key>[a-z_][a-z0-9_]*)\s*:\s*(?P<value>.*?)\s*$")


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


def _width(indent: str) -> int:
    return len(indent.expandtabs(TAB))


def _allowed(lines: list[str], index: int, indent: int) -> bool:
    """Whether a fence indented by `indent` at `index` is a block of its own (not inside indented code):
    at most 3 spaces at the top level, or inside a list item or admonition that encloses it."""
    if indent < TAB:
        return True
    for previous in reversed(lines[:index]):
        if not previous.strip():
            continue
        width = _width(previous[:len(previous) - len(previous.lstrip())])
        if width < indent:
            return bool(CONTAINER.match(previous)) and indent - width < 2 * TAB
    return False


def _closing(fence: str, indent: int) -> re.Pattern[str]:
    return re.compile(rf"^[ \t]{{0,{indent + 3}}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")


def find_embeds(markdown: str, source: str, first_line: int = 1) -> list[tuple[int, int, Embed]]:
    """Every embed as (first line index, last line index, embed), skipping fences that are code.

    Indexes are 0-based in `markdown`; `Embed.line` and error messages count from `first_line`, the
    line of the source file where `markdown` starts (MkDocs hands plugins the text after the front matter).
    """
    offset = first_line - 1
    lines = markdown.split("\n")
    found, i = [], 0
    while i < len(lines):
        opening = OPENING.match(lines[i])
        indent = _width(opening["indent"]) if opening else 0
        if not opening or not _allowed(lines, i, indent):
            i += 1
            continue
        closing = _closing(opening["fence"], indent)
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        info = EMBED_INFO.match(opening["info"].strip())
        if not info:  # any other fenced block is code: nothing in it is an embed
            i = j + 1
            continue
        if j == len(lines):
            raise EmbedError(source, offset + i + 1, f"the '{info['kind']}' block is never closed")
        embed = Embed(info["kind"], info["name"], offset + i + 1)
        for k in range(i + 1, j):
            if lines[k].strip():
                preset = PRESET.match(lines[k])
                if not preset:
                    raise EmbedError(source, offset + k + 1, f"write presets as 'name: value', "
                                     f"not {lines[k].strip()!r}")
                embed.presets[preset["key"]] = parse_value(preset["value"])
        found.append((i, j, embed))
        i = j + 1
    return found


def validate(embed: Embed, source: str) -> None:
    """Raise `EmbedError` for an unknown calculator or table, input or value."""
    if embed.kind == "calculator-table":
        if embed.name not in render.TABLES:
            raise EmbedError(source, embed.line, f"unknown table {embed.name!r}; known: {', '.join(render.TABLES)}")
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


def heading_level(lines: list[str]) -> int:
    """The level a widget's title takes after these Markdown lines: one below their last ATX heading
    (the page's `#` title when no section has started yet), so that the outline skips no level."""
    level, fence = 1, None
    for line in lines:
        marker = re.match(r"\s*(`{3,}|~{3,})", line)
        if marker and (fence is None or marker.group(1).startswith(fence)):
            fence = marker.group(1)[:3] if fence is None else None  # a "# comment" in code is no heading
        elif fence is None and (match := re.match(r"(#{1,6})\s", line)):
            level = len(match.group(1))
    return min(level + 1, 6)
