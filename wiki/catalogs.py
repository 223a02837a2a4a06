"""The gettext catalogs in `i18n/`: check them and compile them for the widgets (build and browser).

`check()` returns `Problem`s (file, line, plain-English message) for an editor: a msgid used by the code but
missing from the template or a language, an empty or fuzzy translation, placeholders that differ.
A translation may use only the plain `{name}` placeholders of its msgid: no conversion (`{value!r}`),
format spec (`{value:>50000}`), attribute or index (`{value.__class__}`), and no stray brace (a
literal brace is written `{{` or `}}`); each is reported on the .po line, before anything renders it.
`compile_all()` writes `widgets/locales/<lang>/LC_MESSAGES/messages.mo`.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from string import Formatter

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from widgets import strings
from widgets.messages import DOMAIN, LOCALE_DIR
from wiki.problems import Problem

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "i18n"
TEMPLATE = I18N / f"{DOMAIN}.pot"
NAME = re.compile(r"[A-Za-z_]\w*")


class FormatProblem(ValueError):
    """A translation that `str.format` cannot read, or that asks it for more than a plain `{name}`."""


def placeholders(text: str) -> set[str]:
    """The `{name}` placeholders of a format string; raise FormatProblem for anything else in braces."""
    names = set()
    try:
        parsed = list(Formatter().parse(text))
    except ValueError as error:
        raise FormatProblem(f"a brace that is not a placeholder ({error}): write {{{{ or }}}} for a literal "
                            "brace, {name} for a placeholder") from None
    for _literal, field, spec, conversion in parsed:
        if field is None:
            continue
        if not NAME.fullmatch(field) or spec or conversion:
            written = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            raise FormatProblem(f"placeholder {written} is not allowed: use only the msgid's placeholders, "
                                "written {name} (no !conversion, :format, attribute or index)")
        names.add(field)
    return names


def po_path(lang: str) -> Path:
    """Where the catalog of `lang` lives."""
    return I18N / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, lang: str | None = None) -> Catalog:
    """Parse a .po or .pot file."""
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def used_msgids() -> set[str]:
    """Every msgid the widgets can show (the tables of `widgets.strings`; a plural pair by its singular)."""
    tables = [value for key, value in vars(strings).items() if key.isupper() and isinstance(value, dict)]
    ids = set()
    for table in tables:
        for msgid in table.values():
            if isinstance(msgid, tuple):
                ids.add(msgid[0])
            elif isinstance(msgid, str):
                ids.add(msgid)
    return ids


def _singular(msgid: str | tuple[str, ...]) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


def _forms(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def check(langs: tuple[str, ...]) -> list[Problem]:
    """Problems with the template and the catalogs of `langs`."""
    problems = []
    template = read(TEMPLATE)
    template_ids = {_singular(m.id) for m in template if m.id}
    for msgid in sorted(used_msgids() - template_ids):
        problems.append(Problem(TEMPLATE.relative_to(ROOT).as_posix(), None, f"msgid {msgid!r} is used by the code "
                                "but missing: run `python3 build.py catalogs`"))
    for lang in langs:
        path = po_path(lang)
        if not path.exists():
            problems.append(Problem(path.relative_to(ROOT).as_posix(), None, f"missing catalog for {lang!r}"))
            continue
        catalog = read(path, lang)
        rel = path.relative_to(ROOT).as_posix()
        present = {_singular(m.id) for m in catalog if m.id}
        for msgid in sorted(template_ids - present):
            problems.append(Problem(rel, None, f"msgid {msgid!r} is not in this catalog: "
                                    "run `python3 build.py catalogs`"))
        for message in catalog:
            if not message.id:
                continue
            line, msgid = message.lineno, _singular(message.id)
            if message.fuzzy:
                problems.append(Problem(rel, line, f"translation of {msgid!r} is marked fuzzy: check it and "
                                        "remove the flag"))
            try:
                wanted = placeholders(msgid)
            except FormatProblem as problem:
                problems.append(Problem(rel, line, f"msgid {msgid!r}: {problem} "
                                        "(the msgid comes from widgets/strings.py)"))
                continue
            for form in _forms(message.string):
                if not form:
                    problems.append(Problem(rel, line, f"{msgid!r} is not translated"))
                    continue
                try:
                    found = placeholders(form)
                except FormatProblem as problem:
                    problems.append(Problem(rel, line, f"translation {form!r} of {msgid!r}: {problem}"))
                    continue
                if found != wanted:
                    problems.append(Problem(rel, line, f"placeholders differ: {sorted(wanted)} in the msgid, "
                                            f"{sorted(found)} in the translation {form!r}"))
    return problems


def compile_all(langs: tuple[str, ...], target: Path = LOCALE_DIR) -> list[Path]:
    """Compile each language's .po into `target/<lang>/LC_MESSAGES/messages.mo`; return the paths."""
    written = []
    for lang in langs:
        out = target / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        out.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        write_mo(buffer, read(po_path(lang), lang))
        # Rewrite only a changed file: `serve` watches widgets/, and a rewrite would trigger a rebuild.
        if not out.exists() or out.read_bytes() != buffer.getvalue():
            out.write_bytes(buffer.getvalue())
        written.append(out)
    return written
