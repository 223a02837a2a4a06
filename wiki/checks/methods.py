"""Calculator pages: what the build fills in from the code resolves, and the prose states no number of its own.

A calculator's page (`method: <name>` in its front matter; `wiki/methods.py`) explains a calculator in the
page's language; its constants, tables and sources come from the code at build time. For every such page:

1. `method:` names a calculator, and the page is that calculator's file (`docs/metode/<slug>.md`,
   `.fr.md`), so that its URL is the one every widget links to; when the wiki has calculator pages,
   every calculator has one.
2. It opens with that calculator's widget (before its first `##` section) and has the sections
   `{ #method }` and `{ #validation }`, the latter with `{{ validation }}` on a line of its own; when its
   widget shows ranges (`SPEC.ranges`), a `{ #uncertainty }` section names each of them
   (`{{ label <range> }}`).
3. Every placeholder resolves (`wiki.methods.fill`), and each section carries the same placeholders in
   every language.
4. No number of its own: every number of the prose (see `wiki.checks.prose`) comes from a placeholder,
   or is a claim of `claims.yml` for that page and section (which the `claims` checker then verifies).
   Left alone: numbers in a link's text (a source's name: a paper's table, an arXiv id), names such as
   `ZeRO-3` and `Llama 3` (`wiki.checks.prose.VERSIONED`), and whole numbers inside a formula
   (`\\( ... \\)`, `\\[ ... \\]`): a formula's structure, the `2` of K and V. A decimal number in a
   formula is a constant: write it as `{{ module.NAME | tex }}`.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import calculators
from wiki import methods
from wiki.checks.claims import load as load_claims
from wiki.checks.finding import Finding
from wiki.checks.parity import language_name
from wiki.checks.project import Project
from wiki.checks.prose import FENCE, VERSIONED, Document, clean, find_numbers, read

NAME = "methods"
INLINE_MATH = re.compile(r"\\\((?P<tex>.*?)\\\)")
LINK_TEXT = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\([^)]*\)")
NAME_NUMBER = re.compile(r"[A-Za-z]-\d+(?!\d|[.,]\d)")  # ZeRO-3, GPT-4: part of a name
# A product and its version (Llama 3, Qwen 2.5): a name, not a quantity.
PRODUCT_VERSION = re.compile(r"\b(?P<name>" + "|".join(VERSIONED) + r")[ \t\u00a0]*\d+(?:\.\d+)*(?![\d,])")


def method_pages(project: Project) -> list[tuple[str, str, Document]]:
    """(calculator, language, document) of every page whose front matter names a `method`."""
    found = []
    for page in project.pages():
        for lang, path in page.files.items():
            doc = read(path, lang)
            if "method" in doc.meta:
                found.append((str(doc.meta["method"]), lang, doc))
    return found


def _math_and_text(lines: list[str]) -> tuple[dict[int, str], dict[int, list[str]]]:
    """Per line (0-based): its text with formulas and placeholders blanked, and the formulas it holds."""
    text, formulas, block = {}, {}, None
    for index, line in enumerate(lines):
        rest, parts = line, []
        if block is not None:
            if "\\]" not in rest:
                formulas[index] = [rest]
                text[index] = ""
                continue
            before, _, rest = rest.partition("\\]")
            parts.append(before)
            block = None
        while "\\[" in rest:
            head, _, tail = rest.partition("\\[")
            if "\\]" in tail:
                inside, _, rest = tail.partition("\\]")
                parts.append(inside)
                rest = head + " " + rest
            else:
                parts.append(tail)
                rest, block = head, index
                break
        parts += [m["tex"] for m in INLINE_MATH.finditer(rest)]
        rest = INLINE_MATH.sub(" ", rest)
        text[index] = methods.PLACEHOLDER.sub(" ", rest)
        formulas[index] = parts
    return text, formulas


def claimed_numbers(project: Project) -> dict[str, set[tuple[str, str, Any]]]:
    """By page slug: (language, section, value) of every number a claims.yml entry states (read once: the
    ledger is long, and YAML slow)."""
    entries, _problems = load_claims(project)
    claimed: dict[str, set[tuple[str, str, Any]]] = {}
    for _line, claim in entries:
        if not isinstance(claim, dict) or not isinstance(claim.get("text"), dict):
            continue
        for lang, written in claim["text"].items():
            claimed.setdefault(str(claim.get("page")), set()).update(
                (lang, str(claim.get("section")), n.value) for n in find_numbers(str(written), lang))
    return claimed


def check_page(project: Project, name: str, lang: str, doc: Document,
               claimed: set[tuple[str, str, Any]]) -> tuple[list[Finding], dict[str, list[str]]]:
    """The findings of one calculator page in one language (its own rules), and its placeholders by section (for
    the parity between languages, `check`'s)."""
    rel, findings = project.rel(doc.path), []
    slug = doc.path.relative_to(project.docs).as_posix()
    slug = re.sub(r"(\.[a-z]{2})?\.md$", "", slug)
    if name not in calculators.CALCULATORS:
        known = ", ".join(calculators.CALCULATORS)
        return [Finding(NAME, rel, 1, f"method: {name!r} is no calculator; known: {known}")], {}
    expected = methods.page_file(name, lang, project.default_language)
    if slug + ("" if lang == project.default_language else f".{lang}") + ".md" != expected:
        findings.append(Finding(NAME, rel, 1, f"the page of {name} is docs/{expected}: rename this file, so that "
                                "the widgets' links find it"))
    first = next((s for s in doc.sections if s.embeds), None)
    opening = doc.sections[1] if len(doc.sections) > 1 else None
    if first is None or first is not opening or first.embeds[0].name != name or first.embeds[0].kind != "calculator":
        findings.append(Finding(NAME, rel, opening.line if opening else 1, (
            f"open the page with its widget: a ```calculator {name}``` block under the title, before the first "
            "## section")))
    ids = {s.id for s in doc.sections}
    for section in (methods.METHOD_SECTION, methods.VALIDATION_SECTION):
        if section not in ids:
            findings.append(Finding(NAME, rel, None, f"add the section {{ #{section} }} (every calculator page has "
                                    "it)"))
    lines = doc.path.read_text(encoding="utf-8").split("\n")
    text, formulas = _math_and_text(lines)
    section_of = {}
    for section in doc.sections:
        for number, _text in section.lines:
            section_of[number] = section.id
    used: dict[str, list[str]] = {}
    fence = None
    for index, raw in enumerate(lines):
        number = index + 1
        opening_fence = FENCE.match(raw)
        if fence or opening_fence:
            if fence is None:
                fence = opening_fence.group(1)
            elif opening_fence and opening_fence.group(1)[0] == fence[0] and len(opening_fence.group(1)) >= len(fence):
                fence = None
            continue
        if number not in section_of:
            continue  # front matter keys other than title and description
        section = section_of[number]
        for expr in methods.placeholders(raw):
            used.setdefault(section, []).append(expr)
            if expr in methods.BLOCKS:
                if methods.PLACEHOLDER.fullmatch(raw.strip()) is None:
                    findings.append(Finding(NAME, rel, number, f"{{{{ {expr} }}}} stands alone on its line"))
                continue
            try:
                methods.fill(expr, lang)
            except methods.PlaceholderError as error:
                findings.append(Finding(NAME, rel, number, f"{{{{ {expr} }}}}: {error}"))
        prose = LINK_TEXT.sub(" ", text[index])
        prose = NAME_NUMBER.sub(lambda m: m.group(0)[0] + "-", prose)
        prose = PRODUCT_VERSION.sub(lambda m: m["name"], prose)
        for found in find_numbers(clean(prose), lang, number):
            if (lang, section, found.value) not in claimed:
                findings.append(Finding(NAME, rel, number, (
                    f"'{found.text}' is a number written by hand: take it from the code with a placeholder "
                    "({{ module.NAME | format }}, see wiki/methods.py), or list it in claims.yml for this page")))
        for formula in formulas.get(index, []):
            formula = methods.PLACEHOLDER.sub(" ", formula)
            for decimal in re.findall(r"\d+[.,]\d+|\d+\{[.,]\}\d+", formula):
                findings.append(Finding(NAME, rel, number, (
                    f"'{decimal}' in a formula is a constant: write {{{{ module.NAME | tex }}}} to take it from "
                    "the code")))
    if methods.VALIDATION_SECTION in ids and "validation" not in used.get(methods.VALIDATION_SECTION, []):
        section = doc.section(methods.VALIDATION_SECTION)
        findings.append(Finding(NAME, rel, section.line, "put {{ validation }} on a line of its own in this section: "
                                "the table of published figures is made from the reference suite"))
    ranges = [r["name"] for r in calculators.CALCULATORS[name]["ranges"]]
    if ranges:
        explained = set(used.get(methods.UNCERTAINTY_SECTION, []))
        missing = [r for r in ranges if f"label {r}" not in explained]
        if missing:
            section = doc.section(methods.UNCERTAINTY_SECTION)
            findings.append(Finding(NAME, rel, section.line if section else None, (
                f"explain the widget's range{'s' if len(missing) > 1 else ''} in a {{ #uncertainty }} section, "
                f"naming {'each' if len(missing) > 1 else 'it'} with "
                + ", ".join(f"{{{{ label {r} }}}}" for r in missing))))
    return findings, used


def _parity(project: Project, pages: dict[tuple[str, str], tuple[Document, dict[str, list[str]]]]) -> list[Finding]:
    """Each section carries the same placeholders in every language as in the default one."""
    findings = []
    default = project.default_language
    for (name, lang), (doc, mine) in sorted(pages.items(), key=lambda item: item[0]):
        if lang == default or (name, default) not in pages:
            continue
        base, theirs = pages[(name, default)]
        for section in sorted(set(mine) | set(theirs)):
            here, there = Counter(mine.get(section, [])), Counter(theirs.get(section, []))
            if here == there:
                continue
            missing, extra = there - here, here - there
            where = doc.section(section)
            what = "; ".join(filter(None, [
                ("missing " + ", ".join(f"{{{{ {e} }}}}" for e in missing.elements())) if missing else "",
                ("not in " + language_name(default) + " " + ", ".join(f"{{{{ {e} }}}}" for e in extra.elements()))
                if extra else ""]))
            findings.append(Finding(NAME, project.rel(doc.path), where.line if where else None, (
                f"section #{section}: {what} ({project.rel(base.path)}): the languages fill in the same values"),
                other=project.rel(base.path)))
    return findings


def check(project: Project) -> list[Finding]:
    """Findings for every calculator page of `project`, and the calculators that have none."""
    found = method_pages(project)
    findings, pages = [], {}
    claimed = claimed_numbers(project) if found else {}
    for name, lang, doc in found:
        slug = re.sub(r"(\.[a-z]{2})?\.md$", "", doc.path.relative_to(project.docs).as_posix())
        page_findings, used = check_page(project, name, lang, doc, claimed.get(slug, set()))
        findings += page_findings
        pages[(name, lang)] = (doc, used)
    findings += _parity(project, pages)
    if found:
        for name in calculators.CALCULATORS:
            path: Path = project.docs / methods.page_file(name)
            if not path.exists():
                findings.append(Finding(NAME, project.rel(path), None, (
                    f"{name} has no page: write docs/{methods.page_file(name)} (and its translations), as the "
                    "other calculators have")))
    return findings
