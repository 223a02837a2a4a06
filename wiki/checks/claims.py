"""Claims ledger: every numeric claim of the articles, in `claims.yml`, still in the prose and still true.

A claim names its `page` (slug: `scale-out`), its `section` (anchor id), the `text` as written in each
language (it must occur in that section's prose; blanks and `*` emphasis are ignored when searching),
and either `unchecked: <reason>` or a `calculator` call that reproduces it:

```yaml
- id: node-vram-pro-6000
  page: scale-out
  section: gpu-ceiling
  text: {da: "768 GB", fr: "768 GB"}
  calculator:
    name: vram_fit                 # calculators.run(name, inputs)
    inputs: {gpu: rtx-pro-6000, gpus: 8}
    value: vram_gb                 # an output name, or a path: inputs.weights_limit, verdict, values.trace.4.step
    compare: equal                 # equal (default), between, below, at_most, above, at_least
```

Optional calculator keys: `number` (which number of `text`, from 0; `between` uses it and the next
one), `scale` and `offset` (prose number × scale + offset = the calculator's unit, e.g. `scale: 0.01`
for a percentage against a ratio, `scale: 1000` for TB against GB), `tolerance` (absolute, in the
calculator's unit; `equal` defaults to half a unit of the last digit written, so `0,73` holds for
0.7273; the bound comparisons default to 0), and `expect` (compare with this value instead of the
prose number: for yes/no outputs, verdicts, and claims written in words). `note:` explains anything
unusual. The numbers of `text` must be the same in every language.

A claim can also state the verdict of the widget its paragraph sits next to, so that the reader never
sees a claim beside a widget that says otherwise:

```yaml
  widget: {name: vram_fit, verdict: does_not_fit}   # the calculator widget of the claim's section
```

The check runs that widget's presets (the ```` ```calculator ```` fence of the claim's section, in
every language) and compares its verdict. `name` may be left out when the section has one widget.
Once a page's ledger states one widget verdict, every calculator widget of that page must have a
claim that states its verdict.

`check()` reports, for an editor: an entry it cannot read; a text no longer in its section (the prose
was corrected but not the ledger, or the other way round); and a calculator that disagrees with the
prose, on the prose line, with the ledger line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import yaml

import calculators
from wiki.checks.finding import Finding
from wiki.checks.parity import PENDING, language_name
from wiki.checks.project import Project
from wiki.checks.prose import Document, Number, Section, find_numbers, read, squeeze
from wiki.embed import Embed
from wiki.ledger import describe, holds, is_number, result_value

NAME = "claims"
COMPARES = ("equal", "between", "below", "at_most", "above", "at_least")
CALCULATOR_KEYS = {"name", "inputs", "value", "compare", "number", "scale", "offset", "tolerance", "expect"}
CLAIM_KEYS = {"id", "page", "section", "text", "calculator", "unchecked", "note", "widget"}
WIDGET_KEYS = {"name", "verdict"}


# What to add to the finding of a claim (its ledger line, its entry) whose text is no longer in its section.
Hint = Callable[[int, dict[str, Any]], str]


class ClaimError(ValueError):
    """A ledger entry that cannot be checked as written."""


def load(project: Project) -> tuple[list[tuple[int, dict[str, Any]]], list[Finding]]:
    """The ledger's entries with their line numbers, or the finding that says why it cannot be read."""
    path, rel = project.claims_file, project.rel(project.claims_file)
    if not path.exists():
        return [], [Finding(NAME, rel, None, "the claims ledger is missing: restore it from git")]
    text = path.read_text(encoding="utf-8")
    try:
        root, data = yaml.compose(text), yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        return [], [Finding(NAME, rel, mark.line + 1 if mark else None, f"cannot read the ledger as YAML: "
                            f"{getattr(error, 'problem', None) or error}")]
    if data is None:
        return [], []
    if not isinstance(data, list) or not isinstance(root, yaml.SequenceNode):
        return [], [Finding(NAME, rel, 1, "the ledger is a list of claims, each starting with '- id: ...'")]
    return [(node.start_mark.line + 1, item) for node, item in zip(root.value, data, strict=True)], []


def searchable(text: str) -> str:
    """Text as the ledger searches it: blanks collapsed, emphasis markers dropped."""
    return squeeze(text.replace("*", ""))


def joined(section: Section) -> tuple[str, list[tuple[int, int]]]:
    """A section's prose as one searchable text, and where each of its lines starts in it: (offset, line)."""
    text, starts = "", []
    for line, prose in section.lines:
        starts.append((len(text), line))
        text += searchable(prose) + " "
    return text, starts


def line_at(starts: list[tuple[int, int]], offset: int) -> int:
    """The line of the joined text's `offset` (`joined`)."""
    return max((start, line) for start, line in starts if start <= offset)[1]


def locate(section: Section, wanted: str) -> int | None:
    """The line of `section` where `wanted` starts, or None when the section does not contain it."""
    text, starts = joined(section)
    found = text.find(searchable(wanted))
    return None if found < 0 else line_at(starts, found)


def rounding(number: Number) -> float:
    """Half a unit of the last digit written: `0,73` → 0.005, `768` → 0.5."""
    return 0.5 * 10.0 ** min(0, number.value.as_tuple().exponent)


def test_of(calc: dict[str, Any], numbers: list[Number]) -> dict[str, Any]:
    """The test (`wiki/ledger.py`) a calculator's value must pass for the prose `numbers` to hold."""
    scale, offset = float(calc.get("scale", 1)), float(calc.get("offset", 0))
    tolerance = calc.get("tolerance")
    if "expect" in calc:
        return {"kind": "is", "want": calc["expect"], "tol": float(tolerance or 0)}
    compare, index = calc.get("compare", "equal"), int(calc.get("number", 0))
    if compare not in COMPARES:
        raise ClaimError(f"compare: {compare!r} is not one of {', '.join(COMPARES)}")
    needed = index + (2 if compare == "between" else 1)
    if len(numbers) < needed:
        raise ClaimError(f"the text has {len(numbers)} number(s); '{compare}' with number: {index} needs {needed}")
    target = float(numbers[index].value) * scale + offset
    if compare == "equal":
        tol = float(tolerance) if tolerance is not None else rounding(numbers[index]) * abs(scale)
        return {"kind": "equal", "target": target, "tol": tol}
    if compare == "between":
        low, high = sorted((target, float(numbers[index + 1].value) * scale + offset))
        return {"kind": "between", "low": low, "high": high, "tol": float(tolerance or 0)}
    return {"kind": compare, "target": target, "tol": float(tolerance or 0)}


def verdict(calc: dict[str, Any], numbers: list[Number], value: Any) -> tuple[bool, str]:
    """Whether the calculator's `value` agrees with the prose `numbers`, and what was expected, in words."""
    test = test_of(calc, numbers)
    if test["kind"] != "is" and not is_number(value):
        raise ClaimError(f"'{calc['value']}' is {value!r}, not a number: use `expect:` to compare it")
    return holds(test, value), describe(test)


def expectations(project: Project) -> list[dict[str, Any]]:
    """Every claim with a calculator as plain data for `wiki/ledger.py`: id, calculator, inputs, value and
    the test, the prose number read from the default language's text. Raises `ClaimError` on a claim
    the check would report (`python3 build.py check` says which and how to fix it)."""
    entries, problems = load(project)
    if problems:
        raise ClaimError("; ".join(p.message for p in problems))
    found, documents = [], {}
    lang = project.default_language
    for _line, claim in entries:
        calc = claim.get("calculator")
        if not calc:
            continue
        doc = documents.setdefault(claim["page"], read(project.page_file(claim["page"], lang), lang))
        section = doc.section(str(claim["section"]))
        line = locate(section, str(claim["text"][lang])) if section else None
        if line is None:
            raise ClaimError(f"claim '{claim['id']}': its text is not in section #{claim['section']}")
        numbers = find_numbers(str(claim["text"][lang]), lang, line)
        found.append({"id": str(claim["id"]), "calculator": calc["name"], "inputs": calc.get("inputs") or {},
                      "value": str(calc["value"]), "test": test_of(calc, numbers)})
    return found


def _validate(claim: Any, seen: set[str]) -> str:
    if not isinstance(claim, dict):
        raise ClaimError("each claim is a mapping with id, page, section, text and calculator or unchecked")
    unknown = set(claim) - CLAIM_KEYS
    if unknown:
        raise ClaimError(f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(CLAIM_KEYS))}")
    for key in ("id", "page", "section", "text"):
        if not claim.get(key):
            raise ClaimError(f"'{key}' is missing")
    if claim["id"] in seen:
        raise ClaimError(f"the id '{claim['id']}' is used twice: give each claim its own id")
    if not isinstance(claim["text"], dict):
        raise ClaimError("'text' maps each language to the claim as written: {da: \"768 GB\", fr: \"768 GB\"}")
    if ("calculator" in claim) == ("unchecked" in claim):
        raise ClaimError("give either 'calculator' (how to reproduce the number) or 'unchecked' (why not)")
    if "unchecked" in claim and not str(claim["unchecked"]).strip():
        raise ClaimError("'unchecked' needs a reason")
    calc = claim.get("calculator")
    if calc is not None:
        if not isinstance(calc, dict) or not calc.get("name") or not calc.get("value"):
            raise ClaimError("'calculator' needs at least 'name' and 'value'")
        if set(calc) - CALCULATOR_KEYS:
            raise ClaimError(f"unknown calculator key(s) {', '.join(sorted(set(calc) - CALCULATOR_KEYS))}")
        if calc["name"] not in calculators.CALCULATORS:
            raise ClaimError(f"unknown calculator '{calc['name']}'; known: {', '.join(calculators.CALCULATORS)}")
        if calc.get("compare", "equal") not in COMPARES:
            raise ClaimError(f"compare: {calc['compare']!r} is not one of {', '.join(COMPARES)}")
    widget = claim.get("widget")
    if widget is not None:
        if not isinstance(widget, dict) or not widget.get("verdict") or set(widget) - WIDGET_KEYS:
            raise ClaimError("'widget' states the verdict of the section's widget: {name: vram_fit, verdict: fits}")
        if "name" in widget and widget["name"] not in calculators.CALCULATORS:
            raise ClaimError(f"unknown calculator '{widget['name']}'; known: {', '.join(calculators.CALCULATORS)}")
    return str(claim["id"])


def check(project: Project, hint: Hint | None = None) -> list[Finding]:
    """Every claim of the ledger: still in its section in every language, and reproduced by its calculator
    (`hint`: see `check_claim`)."""
    entries, findings = load(project)
    ledger, seen = project.rel(project.claims_file), set()
    documents: dict[tuple[str, str], Document] = {}
    covered: dict[str, set[tuple[str, str]]] = {}  # page -> (section, calculator) whose verdict a claim states
    for line, claim in entries:
        here = f"{ledger}:{line}"
        try:
            seen.add(_validate(claim, seen))
            findings += check_claim(project, claim, here, documents, hint)
            if claim.get("widget"):
                findings += check_widget(project, claim, here, documents, covered)
        except ClaimError as error:
            name = f"claim '{claim['id']}'" if isinstance(claim, dict) and claim.get("id") else "this claim"
            findings.append(Finding(NAME, ledger, line, f"{name}: {error}"))
    return findings + uncovered_widgets(project, documents, covered)


def _widgets(section: Section, name: str | None) -> list[Embed]:
    return [e for e in section.embeds if e.kind == "calculator" and (name is None or e.name == name)]


def check_widget(project: Project, claim: dict[str, Any], here: str, documents: dict[tuple[str, str], Document],
                 covered: dict[str, set[tuple[str, str]]]) -> list[Finding]:
    """The verdict the claim's widget shows, in every language, against the verdict the claim states."""
    want, name = claim["widget"]["verdict"], claim["widget"].get("name")
    findings = []
    for (page, _lang), doc in sorted(documents.items()):
        if page != claim["page"]:
            continue
        section = doc.section(str(claim["section"]))
        found = _widgets(section, name) if section else []
        if len(found) != 1:
            what = f"no {name} widget" if name else "no calculator widget"
            if found:
                what = f"{len(found)} calculator widgets: name one with widget: {{name: ..., verdict: ...}}"
            raise ClaimError(f"section #{claim['section']} of {project.rel(doc.path)} has {what}")
        embed = found[0]
        covered.setdefault(page, set()).add((str(claim["section"]), embed.name))
        result = calculators.run(embed.name, embed.presets)
        shown = result.get("verdict") if result.get("ok") else None
        if shown != want:
            findings.append(Finding(NAME, project.rel(doc.path), embed.line, (
                f"claim '{claim['id']}': the {embed.name} widget next to “{claim['text'][doc.lang]}” shows the "
                f"verdict {shown!r}, the ledger states {want!r} ({here}): make the widget's presets tell the "
                "paragraph's story, or correct the prose and the ledger"), other=here))
    return findings


def uncovered_widgets(project: Project, documents: dict[tuple[str, str], Document],
                      covered: dict[str, set[tuple[str, str]]]) -> list[Finding]:
    """On a page whose ledger states widget verdicts, every calculator widget without such a claim."""
    findings = []
    for (page, _lang), doc in sorted(documents.items()):
        if page not in covered:
            continue
        for section in doc.sections:
            for embed in _widgets(section, None):
                if (section.id, embed.name) not in covered[page]:
                    findings.append(Finding(NAME, project.rel(doc.path), embed.line, (
                        f"the {embed.name} widget of section #{section.id} has no claim that states its verdict: "
                        f"add widget: {{name: {embed.name}, verdict: ...}} to the claim of the paragraph it "
                        f"illustrates ({project.rel(project.claims_file)})")))
    return findings


def check_claim(project: Project, claim: dict[str, Any], here: str, documents: dict[tuple[str, str], Document],
                hint: Hint | None = None) -> list[Finding]:
    """One claim: its texts in the prose, the same numbers in every language, its calculator; `hint` adds to
    the finding of a text that is no longer in its section (what `--fix-claims` would do)."""
    ledger, line = here.rsplit(":", 1)
    name = f"claim '{claim['id']}'"
    located: dict[str, tuple[Document, int, list[Number]]] = {}
    for lang in project.languages:
        path = project.page_file(claim["page"], lang)
        if not path.exists():
            original = project.page_file(claim["page"], project.default_language)
            if lang != project.default_language and original.exists() and str(
                    read(original, project.default_language).meta.get("translation", "")).strip() == PENDING:
                continue  # not translated yet: only the original is checked
            raise ClaimError(f"page '{claim['page']}' has no {language_name(lang)} file {project.rel(path)}")
        doc = documents.setdefault((claim["page"], lang), read(path, lang))
        section = doc.section(str(claim["section"]))
        if section is None:
            raise ClaimError(f"{project.rel(path)} has no section #{claim['section']}")
        text = claim["text"].get(lang)
        if not text:
            raise ClaimError(f"'text' has no {language_name(lang)} ({lang}) version")
        found = locate(section, str(text))
        if found is None:
            return [Finding(NAME, ledger, int(line), (
                f"{name}: the {language_name(lang)} text “{text}” is no longer in section #{claim['section']} "
                f"of {project.rel(path)} (line {section.line}): if the prose was corrected, correct the "
                "ledger's text (and check the number with its calculator), else restore the prose"
                + (hint(int(line), claim) if hint else "")), other=f"{project.rel(path)}:{section.line}")]
        located[lang] = (doc, found, find_numbers(str(text), lang, found))
    values = {lang: [n.value for n in numbers] for lang, (_doc, _line, numbers) in located.items()}
    if len({tuple(v) for v in values.values()}) > 1:
        shown = "; ".join(f"{lang}: {', '.join(map(_plain, v)) or 'none'}" for lang, v in values.items())
        raise ClaimError(f"the texts carry different numbers ({shown}): the languages must state the same")
    if "calculator" not in claim:
        return []
    calc = claim["calculator"]
    value = computed(calc)
    doc, found, numbers = located[project.default_language]
    agrees, expected = verdict(calc, numbers, value)
    if agrees:
        return []
    text = claim["text"][project.default_language]
    return [Finding(NAME, project.rel(doc.path), found, (
        f"{name}: the prose says “{text}” (the ledger reads {expected}) but {calc['name']} gives "
        f"{calc['value']} = {value!r} ({here}): correct the prose in every language and the ledger's text, "
        "or the calculator inputs if they do not describe the claim"), other=here)]


def computed(calc: dict[str, Any]) -> Any:
    """The value a claim's calculator call gives (`calculators.run`, then the `value` path into its result)."""
    result = calculators.run(calc["name"], calc.get("inputs") or {})
    if not result.get("ok"):
        problems = "; ".join(f"{e['field']}: {e['code']}" for e in result.get("errors", []))
        raise ClaimError(f"{calc['name']} refuses the inputs ({problems}): see calculators/README.md")
    try:
        return result_value(result, str(calc["value"]))
    except (KeyError, IndexError, ValueError, TypeError):
        raise ClaimError(f"{calc['name']} has no output '{calc['value']}': see calculators/README.md") from None


def _plain(value: Decimal) -> str:
    return re.sub(r"\.0+$", "", format(value, "f"))
