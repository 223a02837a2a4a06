"""Parity: the translations say the same thing as the default-language page, section by section.

For every page of `docs/` and every translation (French):

1. The page exists in both languages. A Danish page whose French file is missing is an error (with
   `fallback_to_default` the French site would silently show Danish text) unless its front matter
   declares `translation: pending`; a page that declares it while its translation exists is an error too.
2. The headings match: same levels, same explicit anchor ids (`## Titel { #id }`), in the same order.
3. Each section (cut at `#`/`##`, named by anchor id) embeds the same calculators, in the same order,
   with the same presets.
4. Each section carries the same numbers, compared as a multiset of values read in each language's
   locale (`1,5` in Danish equals `1,5` or `1.5` in French). See `wiki.checks.prose` for what counts
   as a number. A number that differs is reported once, on the Danish line, with the French line.

Sections are paired by position when both pages have as many headings, else by anchor id; a heading
that has no counterpart is reported once, and its section is not compared further.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from babel import Locale

from wiki.checks.finding import Finding
from wiki.checks.project import Project
from wiki.checks.prose import Document, Number, Section, read

NAME = "parity"
PENDING = "pending"


def language_name(lang: str) -> str:
    """`fr` → `French`, for messages."""
    return Locale.parse(lang).get_display_name("en")


def check(project: Project) -> list[Finding]:
    """Parity findings for every page of `project`."""
    findings = []
    default = project.default_language
    for page in project.pages():
        base = page.files.get(default)
        for lang in project.translations:
            other = page.files.get(lang)
            if base is None:
                findings.append(Finding(NAME, project.rel(other), 1, (
                    f"this {language_name(lang)} page has no {language_name(default)} original "
                    f"{project.rel(project.page_file(page.slug, default))}: add it, or rename this file")))
                continue
            original = read(base, default)
            pending = str(original.meta.get("translation", "")).strip().lower() == PENDING
            if other is None:
                if not pending:
                    findings.append(Finding(NAME, project.rel(base), 1, (
                        f"no {language_name(lang)} page: {project.rel(project.page_file(page.slug, lang))} is "
                        f"missing, so the {language_name(lang)} site would show this {language_name(default)} "
                        "text; translate it, or add `translation: pending` to this front matter")))
                continue
            if pending:
                findings.append(Finding(NAME, project.rel(base), 1, (
                    f"the front matter says `translation: pending` but {project.rel(other)} exists: "
                    "remove the `translation` line")))
            findings += compare(project, original, read(other, lang))
    return findings


def compare(project: Project, a: Document, b: Document) -> list[Finding]:
    """Headings, embeds and numbers of a page (`a`) against its translation (`b`)."""
    findings = headings(project, a, b)
    for left, right in paired_sections(a, b):
        findings += embeds(project, a, b, left, right)
        findings += numbers(project, a, b, left, right)
    return findings


def _at(project: Project, doc: Document, line: int) -> str:
    return f"{project.rel(doc.path)}:{line}"


def headings(project: Project, a: Document, b: Document) -> list[Finding]:
    """Missing anchor ids, and headings whose level or id differ between the languages."""
    findings, name = [], language_name(b.lang)
    for doc in (a, b):
        for heading in doc.headings:
            if heading.id is None:
                findings.append(Finding(NAME, project.rel(doc.path), heading.line, (
                    f"heading '{heading.text}' has no anchor id: write it as "
                    f"`{'#' * heading.level} {heading.text} {{ #some-id }}` with the same id in both languages")))
    if len(a.headings) == len(b.headings):
        for left, right in zip(a.headings, b.headings, strict=True):
            if (left.level, left.id) != (right.level, right.id) and left.id and right.id:
                findings.append(Finding(NAME, project.rel(a.path), left.line, (
                    f"heading {'#' * left.level} {{ #{left.id} }} is {'#' * right.level} {{ #{right.id} }} in "
                    f"{name} ({_at(project, b, right.line)}): use the same level and anchor id in both languages"),
                    other=_at(project, b, right.line)))
        return findings
    ids_b = {h.id for h in b.headings}
    ids_a = {h.id for h in a.headings}
    for heading in a.headings:
        if heading.id and heading.id not in ids_b:
            findings.append(Finding(NAME, project.rel(a.path), heading.line, (
                f"heading {{ #{heading.id} }} has no counterpart in {name} ({project.rel(b.path)}): "
                "translate the section, or use the same anchor id in both languages")))
    for heading in b.headings:
        if heading.id and heading.id not in ids_a:
            findings.append(Finding(NAME, project.rel(b.path), heading.line, (
                f"heading {{ #{heading.id} }} has no counterpart in {language_name(a.lang)} "
                f"({project.rel(a.path)}): add the section there too, or use the same anchor id in both languages")))
    return findings


def paired_sections(a: Document, b: Document) -> list[tuple[Section, Section]]:
    """Sections of both languages side by side: by position when the structure matches, else by id."""
    if len(a.sections) == len(b.sections):
        return list(zip(a.sections, b.sections, strict=True))
    by_id = {s.id: s for s in b.sections}
    return [(s, by_id[s.id]) for s in a.sections if s.id in by_id]


def embeds(project: Project, a: Document, b: Document, left: Section, right: Section) -> list[Finding]:
    """The calculators of a section: same kind, name and presets in both languages."""
    findings, name = [], language_name(b.lang)

    def describe(embed) -> str:
        return f"{embed.kind} {embed.name}"

    if [describe(e) for e in left.embeds] != [describe(e) for e in right.embeds]:
        where = left.embeds[0].line if left.embeds else left.line
        return [Finding(NAME, project.rel(a.path), where, (
            f"section #{left.id} embeds [{', '.join(map(describe, left.embeds))}] but in {name} "
            f"[{', '.join(map(describe, right.embeds))}] ({_at(project, b, right.line)}): "
            "embed the same calculators in the same order"), other=_at(project, b, right.line))]
    for mine, theirs in zip(left.embeds, right.embeds, strict=True):
        for key in sorted(set(mine.presets) | set(theirs.presets)):
            here, there = mine.presets.get(key, "(not set)"), theirs.presets.get(key, "(not set)")
            if here != there:
                findings.append(Finding(NAME, project.rel(a.path), mine.line, (
                    f"{describe(mine)}: preset {key} is {here} here but {there} in {name} "
                    f"({_at(project, b, theirs.line)}): use the same presets in both languages"),
                    other=_at(project, b, theirs.line)))
    return findings


def _extras(mine: list[Number], theirs: list[Number], matched: set[int]) -> list[Number]:
    """The numbers of `mine` that `theirs` lacks, preferring those the alignment left unmatched."""
    surplus = Counter(n.value for n in mine) - Counter(n.value for n in theirs)
    order = [i for i in range(len(mine)) if i not in matched] + [i for i in reversed(range(len(mine)))
                                                                 if i in matched]
    picked = []
    for i in order:
        if surplus[mine[i].value] > 0:
            surplus[mine[i].value] -= 1
            picked.append(i)
    return [mine[i] for i in sorted(picked)]


def numbers(project: Project, a: Document, b: Document, left: Section, right: Section) -> list[Finding]:
    """Numbers that appear in one language's section and not in the other's, paired where possible."""
    mine, theirs = a.numbers(left), b.numbers(right)
    if Counter(n.value for n in mine) == Counter(n.value for n in theirs):
        return []
    blocks = SequenceMatcher(None, [n.value for n in mine], [n.value for n in theirs], autojunk=False)
    matched_a, matched_b = set(), set()
    for block in blocks.get_matching_blocks():
        matched_a.update(range(block.a, block.a + block.size))
        matched_b.update(range(block.b, block.b + block.size))
    only_a, only_b = _extras(mine, theirs, matched_a), _extras(theirs, mine, matched_b)
    findings, name, own = [], language_name(b.lang), language_name(a.lang)
    section = "the front matter" if left.id.startswith("(") else f"section #{left.id}"
    for here, there in zip(only_a, only_b, strict=False):
        findings.append(Finding(NAME, project.rel(a.path), here.line, (
            f"{here.text} in {section} is {there.text} in {name} ({_at(project, b, there.line)}): "
            "correct the language that is wrong (and claims.yml if it lists this number)"),
            other=_at(project, b, there.line)))
    for here in only_a[len(only_b):]:
        findings.append(Finding(NAME, project.rel(a.path), here.line, (
            f"{here.text} in {section} is not in the {name} section ({_at(project, b, right.line)}): "
            f"add it there, or remove it here"), other=_at(project, b, right.line)))
    for there in only_b[len(only_a):]:
        findings.append(Finding(NAME, project.rel(b.path), there.line, (
            f"{there.text} in {section} is not in the {own} section ({_at(project, a, left.line)}): "
            f"add it there, or remove it here"), other=_at(project, a, left.line)))
    return findings
