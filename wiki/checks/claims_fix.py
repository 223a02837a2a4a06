"""`python3 build.py check --fix-claims`: the ledger follows a number an editor corrected in the prose.

When a claim's text is no longer in its section because a number of it changed, `propose()` looks for the
same sentence with other numbers in that section of every language. It proposes the new texts only when:

- every language has the sentence once, with the same wording around the numbers;
- the numbers read the same in every language (`1,5` in Danish and French alike);
- the claim has a calculator that compares the prose number (not `expect:`, not `unchecked:`), only the
  numbers it compares changed, and the calculator agrees with the new ones.

Otherwise it says why not, and the ledger is left for the editor. `apply()` writes the proposals into
`claims.yml` in place: only the changed `text` values, in the file's own quoting; nothing else moves.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from wiki.checks import claims
from wiki.checks.claims import ClaimError, computed, joined, line_at, load, searchable, verdict
from wiki.checks.finding import Finding
from wiki.checks.parity import language_name
from wiki.checks.project import Project
from wiki.checks.prose import SPACES, Number, find_numbers, number_matches, number_pattern, read, symbols

BLANKS = re.compile(r"[\s\u00a0\u202f]+")
# How the ledger writes the blanks that a reader cannot tell from a space (its header: French thousands).
ESCAPED = {"\u202f": "\\u202f", "\u00a0": "\\u00a0"}


@dataclass(frozen=True)
class Proposal:
    """What a claim's texts become (`texts`), or why the ledger is left as it is (`reason`)."""

    claim: str
    line: int
    texts: dict[str, str]
    reason: str = ""


def _literal(part: str) -> str:
    """A piece of a claim between two numbers as a pattern of the searchable text."""
    return re.escape(BLANKS.sub(" ", part.replace("*", ""))).replace(r"\ ", " ")


def _pattern(text: str, lang: str) -> tuple[re.Pattern[str], list[tuple[int, int]]]:
    """A claim's text with each number left open, and where each number stands in `text`."""
    spans = [(m.start(), m.end()) for m, _number in number_matches(text, lang)]
    parts, last = [], 0
    for start, end in spans:
        parts += [_literal(text[last:start]), f"({number_pattern(lang).pattern})"]
        last = end
    parts.append(_literal(text[last:]))
    return re.compile("".join(parts).strip()), spans


def _rewritten(text: str, spans: list[tuple[int, int]], tokens: tuple[str, ...], lang: str) -> str:
    """`text` with its numbers replaced by `tokens` as the section writes them (blanks as the locale groups)."""
    _decimal, group = symbols(lang)
    out, last = [], 0
    for (start, end), token in zip(spans, tokens, strict=True):
        out += [text[last:start], token.replace(" ", group) if group in SPACES else token]
        last = end
    return "".join(out) + text[last:]


def _values(numbers: list[Number]) -> tuple:
    return tuple(n.value for n in numbers)


def propose(project: Project, line: int, claim: dict[str, Any]) -> Proposal | None:
    """The new texts of a claim whose numbers changed in the prose (None when its texts are all still there)."""
    name, texts, found = str(claim["id"]), claim["text"], {}
    for lang in project.languages:
        path = project.page_file(claim["page"], lang)
        section = read(path, lang).section(str(claim["section"])) if path.exists() else None
        if section is None or lang not in texts:
            return None  # the claims check reports it as it is
        prose, starts = joined(section)
        if searchable(texts[lang]) in prose:
            found[lang] = None
            continue
        pattern, spans = _pattern(str(texts[lang]), lang)
        matches = list(pattern.finditer(prose))
        if len(matches) != 1:
            where = f"section #{claim['section']} of {project.rel(path)}"
            what = "does not hold this sentence with other numbers either" if not matches else \
                f"holds this sentence {len(matches)} times with other numbers"
            return Proposal(name, line, {}, f"the {language_name(lang)} {where} {what}: correct the ledger by hand")
        tokens = matches[0].groups()
        found[lang] = _rewritten(str(texts[lang]), spans, tokens, lang), line_at(starts, matches[0].start())
    if all(value is None for value in found.values()):
        return None
    unchanged = [language_name(lang) for lang, value in found.items() if value is None]
    if unchanged:
        return Proposal(name, line, {}, f"the {', '.join(unchanged)} text still says the old number: correct the "
                                        "number in every language first")
    new = {lang: new_text for lang, (new_text, _line) in found.items()}
    numbers = {lang: find_numbers(text, lang) for lang, text in new.items()}
    if len({_values(n) for n in numbers.values()}) > 1:
        shown = "; ".join(f"{lang}: {', '.join(n.text for n in nums)}" for lang, nums in numbers.items())
        return Proposal(name, line, {}, f"the languages now state different numbers ({shown}): make them agree")
    calc = claim.get("calculator")
    if not calc or "expect" in calc:
        return Proposal(name, line, {}, "no calculator compares this number (unchecked: or expect:): check the "
                                        "new number yourself and correct the ledger by hand")
    default = project.default_language
    old = find_numbers(str(texts[default]), default)
    checked = {int(calc.get("number", 0))} | ({int(calc.get("number", 0)) + 1}
                                               if calc.get("compare") == "between" else set())
    changed = {i for i, (a, b) in enumerate(zip(_values(old), _values(numbers[default]), strict=True)) if a != b}
    if changed - checked:
        return Proposal(name, line, {}, "a number the calculator does not compare changed too: check it yourself "
                                        "and correct the ledger by hand")
    try:
        value = computed(calc)
        agrees, expected = verdict(calc, numbers[default], value)
    except ClaimError as error:
        return Proposal(name, line, {}, str(error))
    if not agrees:
        return Proposal(name, line, {}, f"{calc['name']} gives {calc['value']} = {value!r}, the new text reads "
                                        f"{expected}: the prose or the calculator is wrong")
    return Proposal(name, line, new)


def proposals(project: Project) -> list[Proposal]:
    """A proposal for every claim whose text no longer stands in its page (none when the ledger is unreadable)."""
    entries, problems = load(project)
    if problems:
        return []
    found = []
    for line, claim in entries:
        if isinstance(claim, dict) and isinstance(claim.get("text"), dict) and claim.get("page") \
                and claim.get("section") and claim.get("id"):
            proposal = propose(project, line, claim)
            if proposal:
                found.append(proposal)
    return found


def hint(project: Project, line: int, claim: dict[str, Any]) -> str:
    """What `--fix-claims` would do with a claim whose text is not in its section, for the claims finding."""
    proposal = propose(project, line, claim)
    if proposal is None:
        return ""
    if proposal.reason:
        return f" (`--fix-claims` leaves it: {proposal.reason})"
    new = "; ".join(f"{lang}: “{text}”" for lang, text in proposal.texts.items())
    return f". The prose now says {new}, and the calculator agrees: `python3 build.py check --fix-claims` writes it"


def check(project: Project) -> list[Finding]:
    """The claims checker (`wiki.checks.claims`), its findings of a text no longer in its section saying what
    `--fix-claims` would do."""
    return claims.check(project, hint=lambda line, claim: hint(project, line, claim))


def quoted(text: str) -> str:
    """A YAML double-quoted scalar as the ledger writes them (JSON's escapes, `\\u202f` spelt out)."""
    out = json.dumps(text, ensure_ascii=False)
    for char, escape in ESCAPED.items():
        out = out.replace(char, escape)
    return out


def apply(project: Project) -> list[Proposal]:
    """Write every proposal with new texts into `claims.yml` (only those `text` values); return all proposals."""
    path: Path = project.claims_file
    made = proposals(project)
    if not any(p.texts for p in made):
        return made
    source = path.read_text(encoding="utf-8")
    root = yaml.compose(source)
    edits = []
    for node in root.value:
        fields = {key.value: value for key, value in node.value}
        proposal = next((p for p in made if p.texts and fields.get("id") and fields["id"].value == p.claim), None)
        if proposal is None:
            continue
        for key, value in fields["text"].value:
            if key.value in proposal.texts:
                edits.append((value.start_mark.index, value.end_mark.index, quoted(proposal.texts[key.value])))
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    path.write_text(source, encoding="utf-8")
    return made
