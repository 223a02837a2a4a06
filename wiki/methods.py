"""The calculator pages ("Beregnere" / "Calculateurs"): one page per calculator, in every language.

A calculator's page is `docs/metode/<slug>.md` (Danish) and `docs/metode/<slug>.fr.md` (French), the slug
being its name with hyphens (`vram_fit`: `/metode/vram-fit/` and `/fr/metode/vram-fit/`), with
`method: <name>` in its front matter. The prose is written per language like the articles; what comes
from the code is filled in by the build (`wiki/plugin.py` calls `expand`, `place_blocks` and `mark_main`;
`wiki/fences.py` calls `method_link`):

- placeholders, in the page's language: `{{ assumptions.DEFAULT_WEIGHTS_LIMIT | percent }}` is a constant
  of a `calculators` module (`[i]` indexes a tuple or mapping, `.name` reads a record's field; formats
  `number(d)`, `percent(d)`, `times(d)`, `int`, and `tex(d)` for a number inside a formula; `d` the most
  decimals shown; a tuple is shown as a range); `{{ label efficiency_range }}` is the widget's name for one
  of its values, `{{ verdict one_node }}` for one of its verdicts;
  `{{ validation }}`, alone on its line, is the validation table: every figure of the reference suite
  (`calculators/reference.py`, `Reference.calculator`) the calculator is checked against, or, for a
  calculator with no formula of its own, those of the calculators it is built on (`builds_on`);
- each widget's "How we calculate" link (`<a data-method-link href="kw-method:<name>">` in
  `wiki/templates/widget.html`) points at its calculator's page, relative to the page it is on (on the
  calculator's own page: its `#method` section); without a page the link is left out;
- `data-method="<name>"` on the page's `<main>`, and the theme template `method.html`, which loads KaTeX
  (`wiki/katex.py`) for the formulas when the page has any.

`wiki/checks/methods.py` checks the pages for `build.py check`: placeholders that resolve, the same ones
in every language, no number in the prose that does not come from the code (or `claims.yml`), the
sections every page has.
"""

from __future__ import annotations

import importlib
import math
import re
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from babel.numbers import format_decimal
from markupsafe import escape
from mkdocs.utils import get_relative_url

import calculators
from calculators import reference as R
from widgets import numbers, strings
from widgets.locale import locale_of
from wiki.problems import Problem
from wiki.render import environment, one_block

FOLDER = "metode"
TEMPLATE = "method.html"
METHOD_SECTION = "method"  # the section a widget's link points at on its own calculator's page
VALIDATION_SECTION = "validation"
UNCERTAINTY_SECTION = "uncertainty"
PLACEHOLDER = re.compile(r"\{\{\s*(?P<expr>[^{}]*?)\s*\}\}")
VALUE = re.compile(r"(?P<module>[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\.(?P<name>[A-Z][A-Z0-9_]*)"
                   r"(?P<path>(?:\[[\w.\-]+\]|\.[a-z_][a-z0-9_]*)*)(?:\s*\|\s*(?P<format>[a-z]+)(?:\((?P<digits>\d)\))?)?")
STEP = re.compile(r"\[(?P<index>[\w.\-]+)\]|\.(?P<attribute>[a-z_][a-z0-9_]*)")
LABEL = re.compile(r"(?P<kind>label|verdict)\s+(?P<name>[a-z0-9_]+)")
BLOCKS = ("validation",)
# The most decimals each format shows by default (Babel drops trailing zeros).
FORMATS = {"number": 4, "percent": 1, "times": 2, "int": 0, "tex": 4}
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
METHOD_HREF = re.compile(r'href="kw-method:(?P<name>[a-z0-9_]+)"')
METHOD_PARAGRAPH = re.compile(r'<p class="kw-calc__method">(?:(?!</p>).)*kw-method:(?P<name>[a-z0-9_]+)".*?</p>',
                              re.DOTALL)
MAIN = '<main class="md-main"'


class PlaceholderError(ValueError):
    """A placeholder that names nothing the code has, or a format that does not exist; the text says which."""


def slug(name: str) -> str:
    """The URL slug of a calculator's page: `vram_fit` -> `vram-fit`."""
    return name.replace("_", "-")


def page_file(name: str, lang: str | None = None, default: str | None = None) -> str:
    """The page's file under `docs/`: `metode/vram-fit.md`, or `metode/vram-fit.fr.md` for another language."""
    suffix = "" if lang is None or lang == default else f".{lang}"
    return f"{FOLDER}/{slug(name)}{suffix}.md"


def page_url(name: str, prefix: str = "") -> str:
    """The page's URL from the site root, in the language whose URL prefix is `prefix` (`""`, `"fr/"`)."""
    return f"{prefix}{FOLDER}/{slug(name)}/"


# --- Placeholders ---------------------------------------------------------------------------------------

def constant(module: str, name: str, path: str = "") -> Any:
    """The value of `calculators.<module>.<name>` (a constant: upper case), followed along `path`: `[key]` into
    a tuple or mapping, `.field` of a record (`serving_memory.ENGINES[vllm].utilization`)."""
    try:
        owner = importlib.import_module(f"calculators.{module}")
    except ImportError:
        raise PlaceholderError(f"calculators has no module {module!r}") from None
    if not hasattr(owner, name):
        raise PlaceholderError(f"calculators.{module} has no constant {name}")
    value, where = getattr(owner, name), f"calculators.{module}.{name}"
    for step in STEP.finditer(path or ""):
        try:
            if step["attribute"]:
                if step["attribute"].startswith("_"):
                    raise AttributeError(step["attribute"])
                value = getattr(value, step["attribute"])
            else:
                key = step["index"]
                value = value[key] if isinstance(value, Mapping) else value[int(key)]
        except (AttributeError, KeyError, IndexError, ValueError, TypeError):
            raise PlaceholderError(f"{where} has no {step.group(0)}") from None
        where += step.group(0)
    if _number(value) or (isinstance(value, (tuple, list)) and len(value) == 2 and all(map(_number, value))):
        return value
    raise PlaceholderError(f"{where} is not a number or a (low, high) pair")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def tex_number(value: float, lang: str, digits: int) -> str:
    """A number for a formula, written as `lang` writes it: `0{,}7`, `8\\,192` (TeX would space a bare comma)."""
    loc = locale_of(lang)
    symbols = loc.numbers.symbols
    written = loc.numbers.decimal(value, digits)
    integer, _, fraction = written.partition(symbols["decimal"])
    integer = integer.replace(symbols["group"], "\\,")
    return integer + ("{" + symbols["decimal"] + "}" + fraction if fraction else "")


def _prose_percent(written: str, lang: str) -> str:
    """A percentage as the prose writes it: French prose takes U+202F before % (CONTRIBUTING.md),
    where CLDR's number format, which the widgets keep, writes U+00A0."""
    return written.replace("\u00a0%", "\u202f%") if lang.split("-")[0] == "fr" else written


def formatted(value: Any, fmt: str, digits: int, lang: str) -> str:
    """A constant in `lang`: one number, or a (low, high) pair as a range (`25–52 %`, `0,6–0,9`)."""
    loc = locale_of(lang)
    if isinstance(value, (tuple, list)):
        low, high = value
        if fmt == "tex":
            raise PlaceholderError("a range cannot go into a formula: name its two ends ([0] and [1])")
        if fmt == "percent":
            return _prose_percent(loc.text(strings.UNITS["range"], low=loc.numbers.decimal(low * 100, digits),
                                           high=loc.numbers.percent(high, digits)), lang)
        if fmt == "times":
            return loc.text(strings.UNITS["multiplier_range"], low=loc.numbers.decimal(low, digits),
                            high=loc.numbers.decimal(high, digits))
        return loc.text(strings.UNITS["range"], low=loc.numbers.decimal(low, digits),
                        high=loc.numbers.decimal(high, digits))
    if fmt == "percent":
        return _prose_percent(loc.numbers.percent(value, digits), lang)
    if fmt == "times":
        return loc.text(strings.UNITS["multiplier"], value=loc.numbers.decimal(value, digits))
    if fmt == "tex":
        return tex_number(value, lang, digits)
    return loc.numbers.decimal(value, digits)


def fill(expr: str, lang: str) -> str:
    """The text of one inline placeholder (`expr` is what stands between `{{` and `}}`), in `lang`."""
    label = LABEL.fullmatch(expr)
    if label:
        table, key = (strings.OUTPUTS, "OUTPUTS") if label["kind"] == "label" else (strings.VERDICTS, "VERDICTS")
        if label["name"] not in table:
            raise PlaceholderError(f"no widget {label['kind']} is called {label['name']!r} (widgets/strings.py {key})")
        return str(escape(locale_of(lang).text(table[label["name"]])))
    match = VALUE.fullmatch(expr)
    if not match:
        if expr in BLOCKS:
            raise PlaceholderError(f"{{{{ {expr} }}}} stands alone on its line")
        raise PlaceholderError("write a constant as {{ module.NAME | format }} (formats: "
                               f"{', '.join(FORMATS)}), a value's name as {{{{ label name }}}}, a verdict's as "
                               "{{ verdict name }}, or "
                               f"{', '.join('{{ ' + b + ' }}' for b in BLOCKS)} alone on a line")
    value = constant(match["module"], match["name"], match["path"])
    fmt = match["format"] or ("int" if isinstance(value, int) else "number")
    if fmt not in FORMATS:
        raise PlaceholderError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    digits = int(match["digits"]) if match["digits"] else FORMATS[fmt]
    return formatted(value, fmt, digits, lang)


def placeholders(line: str) -> list[str]:
    """The placeholders of a line of Markdown, as written between the braces (blanks squeezed)."""
    return [" ".join(match["expr"].split()) for match in PLACEHOLDER.finditer(line)]


# --- Where a page is, and the links between pages ---------------------------------------------------------

@dataclass(frozen=True)
class Where:
    """The page being built: its URL, the URL prefix of the language built, the docs folder, its calculator."""

    page_url: str
    prefix: str
    docs: Path
    own: str | None = None

    def href(self, name: str) -> str | None:
        """The link from this page to `name`'s page (its `#method` section on that page itself), or None
        when the calculator has no page."""
        if not (self.docs / page_file(name)).exists():
            return None
        if name == self.own:
            return f"#{METHOD_SECTION}"
        return get_relative_url(page_url(name, self.prefix), self.page_url)


def where(url: str, building: str, default: str, docs_dir: str | Path, meta: Mapping[str, Any]) -> Where:
    """The `Where` of a page at `url` built in the language `building` (the default one has no URL prefix)."""
    method = meta.get("method")
    own = str(method) if method is not None and str(method) in calculators.CALCULATORS else None
    return Where(url, "" if building == default else f"{building}/", Path(docs_dir), own)


def method_link(html: str, here: Where) -> str:
    """A prerendered widget with its "How we calculate" link pointed at the calculator's page (left out when
    it has none)."""
    html = METHOD_PARAGRAPH.sub(lambda m: m.group(0) if here.href(m["name"]) else "", html)
    return METHOD_HREF.sub(lambda m: f'href="{escape(here.href(m["name"]))}"', html)


def place_blocks(html: str, blocks: Mapping[str, str]) -> str:
    """The page's HTML with each block's token paragraph (`expand`) replaced by the block; each is there once."""
    for token, block in blocks.items():
        html, found = re.subn(rf"(?:<p>)?{token}(?:</p>)?", lambda _m, b=block: b, html)
        if found != 1:
            raise ValueError(f"the placeholder of a calculator page's block appears {found} times in its HTML")
    return html


def mark_main(output: str, meta: Mapping[str, Any]) -> str:
    """A calculator page's HTML with `data-method="<name>"` on its `<main>` element."""
    method = meta.get("method") if meta else None
    if method is None or str(method) not in calculators.CALCULATORS:
        return output
    return output.replace(MAIN, f'{MAIN} data-method="{escape(str(method))}"', 1)


# --- What a calculator is built on ------------------------------------------------------------------------

@cache
def builds_on(name: str) -> tuple[str, ...]:
    """The other calculators whose code `name` runs: the modules and functions its module uses, followed through
    the modules that are no calculator (the planner, serving memory, the catalogs), in the registry's order."""
    known, seen, found = set(calculators.CALCULATORS), set(), set()

    def visit(module_name: str) -> None:
        seen.add(module_name)
        module = sys.modules.get(module_name) or importlib.import_module(module_name)
        for value in vars(module).values():
            used = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
            if not isinstance(used, str) or not used.startswith("calculators.") or used in seen:
                continue
            short = used.removeprefix("calculators.")
            if short in known:
                found.add(short)
            elif used != "calculators.registry":  # the registry runs every calculator: not a dependency
                visit(used)

    visit(f"calculators.{name}")
    found.discard(name)
    return tuple(other for other in calculators.CALCULATORS if other in found)


def references(name: str) -> list[R.Reference]:
    """The reference suite's figures `name` is checked against (`Reference.calculator`)."""
    return [ref for ref in R.REFERENCES if ref.calculator == name]


# --- The validation table ---------------------------------------------------------------------------------

def _digits(value: float) -> int:
    """Decimals for about four significant digits, at most three."""
    if value == 0 or not math.isfinite(value):
        return 0
    return max(0, min(3, 3 - math.floor(math.log10(abs(value)))))


def _reference_number(value: float, lang: str, exact: bool = False) -> str:
    """A reference's number in `lang`: exactly as published (`exact`) or to about four digits."""
    loc = locale_of(lang)
    if exact:
        return loc.numbers.write(Decimal(repr(float(value))).normalize())
    return loc.numbers.decimal(value, _digits(value))


def _in_unit(number: str, unit: str, lang: str) -> str:
    msgid = strings.REFERENCE_UNITS.get(unit)
    return locale_of(lang).text(msgid, value=number) if msgid else f"{number} {unit}"


def quantity(value: float, unit: str, lang: str, exact: bool = False) -> str:
    """A value in a reference's unit, in `lang`: exactly as published (`exact`) or to about four digits."""
    if unit == "MFU":
        return numbers.of(lang).percent(value, 1)
    return _in_unit(_reference_number(value, lang, exact), unit, lang)


def quantity_range(low: float, high: float, unit: str, lang: str) -> str:
    """A (low, high) pair in a reference's unit, the unit written once: `22–32 GB/s`."""
    loc = locale_of(lang)
    if unit == "MFU":
        return loc.text(strings.UNITS["range"], low=quantity(low, unit, lang), high=quantity(high, unit, lang))
    return _in_unit(loc.text(strings.UNITS["range"], low=_reference_number(low, lang),
                             high=_reference_number(high, lang)), unit, lang)


def quantity_label(ref: R.Reference, lang: str) -> str:
    """What a reference measures, in `lang`: by its function, or by the output it reads (and its unit)."""
    loc = locale_of(lang)
    key = ref.call.get("fn") or ref.call.get("value", "")
    for candidate in (f"{key}@{ref.unit}", key):
        if candidate in strings.REFERENCE_QUANTITIES:
            return loc.text(strings.REFERENCE_QUANTITIES[candidate])
    return loc.text(strings.OUTPUTS[key]) if key in strings.OUTPUTS else ""


def _band(low: float, high: float, lang: str) -> str:
    loc = locale_of(lang)
    return loc.text(strings.UNITS["multiplier_range"], low=loc.numbers.decimal(low, 2),
                    high=loc.numbers.decimal(high, 2))


def budget(ref: R.Reference, lang: str) -> str:
    """The row's budget in words: how far ours may be from the published figure."""
    loc = locale_of(lang)
    if ref.kind == "at_most":
        return loc.text(strings.METHODS["budget_at_most"])
    if ref.kind == "at_least":
        return loc.text(strings.METHODS["budget_at_least"])
    if ref.kind == "within":
        return loc.text(strings.METHODS["budget_within"])
    if ref.kind == "band" and _budget_bands():
        return loc.text(strings.METHODS["budget_band"], band=_band(*_budget_bands()[0], lang))
    if ref.tolerance == 0:
        return loc.text(strings.METHODS["budget_exact"])
    tolerance = loc.numbers.percent(ref.tolerance, 1)
    if ref.expect != 1.0:
        return loc.text(strings.METHODS["budget_expected"], tolerance=tolerance,
                        expect=loc.numbers.decimal(ref.expect, 2))
    return loc.text(strings.METHODS["budget_ratio"], tolerance=tolerance)


def row(ref: R.Reference, lang: str) -> dict[str, Any]:
    """One row of the table: the reference evaluated now, every text in `lang`."""
    result = R.evaluate(ref)
    ours = result["ours"]
    if result.get("refused"):
        ours_text = locale_of(lang).text(strings.METHODS["refused"])
    elif isinstance(ours, tuple):
        ours_text = quantity_range(ours[0], ours[1], ref.unit, lang)
    else:
        ours_text = quantity(ours, ref.unit, lang)
    ratio = result.get("ratio")
    setup = ref.what + (f"; {ref.note}" if ref.note else "")
    return {"id": ref.id, "kind": ref.kind, "calibration": ref.calibration, "quantity": quantity_label(ref, lang),
            "setup": setup, "published": quantity(ref.figure, ref.unit, lang, exact=True), "ours": ours_text,
            "ratio": format_decimal(ratio, "#,##0.00", locale=numbers.of(lang).locale) if ratio is not None else "–",
            "budget": budget(ref, lang),
            "held": bool(result["ok"]), "source": ref.source, "url": ref.url}


@dataclass
class Group:
    """One calculator's rows, with their summary."""

    name: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    summary: str = ""
    serving: str = ""
    href: str | None = None
    title: str = ""


def _budget_bands() -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The reference suite's budget over `band` rows: (outer band, inner band, the share required inside)."""
    names = ("BAND", "INNER", "INNER_SHARE") if hasattr(R, "BAND") else ("SERVING_BAND", "SERVING_INNER",
                                                                          "SERVING_INNER_SHARE")
    found = tuple(getattr(R, name, None) for name in names)
    return found if all(value is not None for value in found) else None  # type: ignore[return-value]


def budget_line(name: str, lang: str) -> str:
    """The budget over `name`'s `band` rows, as the reference suite checks it (`reference.budget`): the prediction
    rows' and, beside them, the calibration rows' (whose share shows a fit)."""
    loc = locale_of(lang)
    bands = _budget_bands()
    if bands is None or not hasattr(R, "budget"):
        return ""
    band, inner, required = bands
    lines = []
    for role in ("prediction", "calibration"):
        found = R.budget(name, role)
        if not found["rows"]:
            continue
        line = loc.text(strings.METHODS["serving_budget"], rows=loc.numbers.decimal(found["rows"], 0),
                        share=loc.numbers.percent(found["inner_share"], 0), inner=_band(*inner, lang),
                        outside=loc.numbers.decimal(found["outside"], 0), band=_band(*band, lang),
                        required=loc.numbers.percent(required, 0))
        lines.append(loc.text(strings.METHODS["role_budget"], role=loc.text(strings.METHODS["role_" + role]),
                              budget=line))
    return " ".join(lines)


def group(name: str, lang: str, here: Where) -> Group:
    """The rows of `name`'s references and their summary line, in `lang`."""
    loc = locale_of(lang)
    refs = references(name)
    rows = [row(ref, lang) for ref in refs]
    count = len(rows)
    summary = loc.text(strings.METHODS["summary"],
                       figures=loc.plural_text(strings.METHODS["figures"], count, value=loc.numbers.decimal(count, 0)),
                       calibrations=loc.numbers.decimal(sum(r["calibration"] for r in rows), 0),
                       held=loc.numbers.decimal(sum(r["held"] for r in rows), 0))
    serving = budget_line(name, lang) if any(ref.kind == "band" for ref in refs) else ""
    return Group(name, rows, summary, serving, here.href(name), loc.text(strings.TITLES[name]))


def validation(name: str, lang: str, here: Where) -> str:
    """The validation block of `name`'s page in `lang`: its own figures, else those of what it is built on."""
    own = group(name, lang, here)
    groups = [own] if own.rows else [g for g in (group(other, lang, here) for other in builds_on(name)) if g.rows]
    titles = locale_of(lang)
    bases = [] if own.rows else [(titles.text(strings.TITLES[other]), here.href(other)) for other in builds_on(name)]
    html = environment(lang).get_template("validation.html").render(
        name=name, slug=slug(name), own=bool(own.rows), groups=groups, bases=bases, strings=strings)
    return one_block(html)


# --- A page -----------------------------------------------------------------------------------------------

@dataclass
class Expanded:
    """A page's Markdown with its placeholders filled, the HTML of its blocks by token, and what was wrong."""

    markdown: str
    blocks: dict[str, str]
    problems: list[Problem]


def expand(markdown: str, meta: dict[str, Any], lang: str, source: str, first_line: int, here: Where) -> Expanded:
    """Fill a page's placeholders in `lang` (code blocks left alone) and put a token line where each block goes
    (its HTML is placed after Markdown, like a widget's); a calculator page gets the template `method.html`."""
    if here.own and "template" not in meta:
        meta["template"] = TEMPLATE
    lines, out, blocks, problems, fence = markdown.split("\n"), [], {}, [], None
    for index, line in enumerate(lines):
        number = first_line + index
        opening = FENCE.match(line)
        if fence or opening:
            if fence is None:
                fence = opening.group(1)
            elif opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            out.append(line)
            continue
        whole = PLACEHOLDER.fullmatch(line.strip())
        if whole and whole["expr"] in BLOCKS:
            if here.own is None:
                problems.append(Problem(source, number, f"{{{{ {whole['expr']} }}}} belongs on a calculator's page "
                                        "(front matter `method: <name>`)"))
                out.append("")
                continue
            token = f"kwmethod{len(blocks)}x{uuid.uuid4().hex}"
            try:
                blocks[token] = validation(here.own, lang, here)
            except Exception as error:  # noqa: BLE001 - a reference that fails to run is the page's problem
                problems.append(Problem(source, number, f"the validation table could not be made: {error!r}"))
                out.append("")
                continue
            out.append(line[:len(line) - len(line.lstrip())] + token)  # one line for one: embeds' lines stay right
            continue

        def filled(match: re.Match[str], number: int = number) -> str:
            try:
                return fill(" ".join(match["expr"].split()), lang)
            except PlaceholderError as error:
                problems.append(Problem(source, number, f"{match.group(0)}: {error}"))
                return match.group(0)

        out.append(PLACEHOLDER.sub(filled, line))
    return Expanded("\n".join(out), blocks, problems)
