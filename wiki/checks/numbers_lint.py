"""Locale-number lint: numbers in the prose are written the way the page's readers read them.

In a language whose decimal symbol is a comma (Danish, French; CLDR through Babel):

- `2,000` (a comma before exactly three digits, English thousands) reads as two, not two thousand:
  write `2.000` in Danish, `2 000` in French (CLDR groups French thousands with a narrow no-break
  space, U+202F; a no-break space or `&#8239;` in the Markdown is fine too).
- `1.5` (an English decimal point) reads oddly, and in Danish a dot separates thousands: write `1,5`.
  Danish `2.000` (dot before groups of three) is the Danish thousands separator and is fine.

What counts as a number, and what is left out (fences with calculator presets, `Llama 3.1`, `Qwen2.5`,
`K07`, `3.x`), is defined once in `wiki.checks.prose`. Every finding names the line and the fix.
"""

from __future__ import annotations

from decimal import Decimal

from babel import Locale

from wiki.checks.finding import Finding
from wiki.checks.project import Project
from wiki.checks.prose import ENGLISH_THOUSANDS, local_form, read, symbols

NAME = "numbers"


def suggestion(token: str, value: Decimal, lang: str) -> str:
    """What to write instead of an English-style `token`, in `lang`."""
    language = Locale.parse(lang).get_display_name("en")
    if ENGLISH_THOUSANDS.fullmatch(token):
        comma = local_form(Decimal(token.replace(",", ".")), lang)
        return (f"'{token}' reads as the decimal number {comma} to a {language} reader: write {local_form(value, lang)}"
                + (" (with a narrow no-break space)" if "\u202f" in local_form(value, lang) else "")
                + " for the thousands")
    if symbols(lang)[1] not in ".," and len(token.rpartition(".")[2]) == 3 and token.count(".") >= 1:
        thousands = local_form(Decimal(token.replace(".", "")), lang)
        return (f"'{token}' uses a dot, which {language} readers do not use in numbers: write "
                f"{thousands} for the thousands, or {local_form(value, lang)} for the decimal number")
    return f"'{token}' uses an English decimal point: write {local_form(value, lang)} in {language}"


def check(project: Project) -> list[Finding]:
    """English-style numbers in the prose of every page whose language writes them otherwise."""
    findings = []
    for page in project.pages():
        for lang, path in page.files.items():
            doc = read(path, lang)
            for section in doc.sections:
                for number in doc.numbers(section):
                    if number.english:
                        findings.append(Finding(NAME, project.rel(path), number.line,
                                                suggestion(number.text, number.value, lang)))
    return findings
