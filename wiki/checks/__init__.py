"""`python3 build.py check`: one command that keeps both languages, the catalogs and the numbers in agreement.

Each checker is a small module with a `check(...) -> list[Finding]` function:

- `catalogs`: the gettext catalogs: every msgid translated in every language, none fuzzy, same placeholders;
- `parity`: every page in both languages; the same headings and anchor ids; per section, the same
  calculators with the same presets and the same numbers once read in each locale;
- `numbers_lint`: numbers in Danish and French prose written as those readers read them (`2.000`, `1,5`);
- `glossary`: one term per concept and language (`i18n/glossary.yml`), in the prose and the catalogs;
- `typography`: units and typography per language (`Go`, `60 %`, en dash in ranges, spaces before `: ; ? !`),
  in the prose and the catalogs;
- `references`: articles the wiki does not have yet are cited the same way (`K03 (kommende artikel om …)`);
- `methods`: the calculator pages: their placeholders resolve, the same in every language, and their prose
  writes no number that does not come from the code (or `claims.yml`);
- `claims`: `claims.yml`, each numeric claim still in the prose and reproduced by its calculator;
- `corrections`: each new text recorded in `CORRECTIONS.md` is what its page says now;
- `strict_build`: `mkdocs build --strict` of both languages, into a temporary folder;
- `links`: every internal link and `#anchor` of the built site resolves, no third-party resource;
- `untranslated`: a page not translated yet shows the localized notice, its edit button a file that exists.

`run_all()` runs them all (the built-site checkers on the one strict build) and returns the findings;
`python -m wiki.checks` prints them as `path:line: checker: message` and exits 1 when there is any.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from wiki.checks.finding import Finding
from wiki.checks.project import Project


def source_checkers() -> dict[str, Callable[[Project], list[Finding]]]:
    """The checkers that read the sources only, by name, in the order they run."""
    from wiki.checks import (
        catalogs,
        claims_fix,
        corrections,
        glossary,
        methods,
        numbers_lint,
        parity,
        references,
        typography,
    )

    return {"catalogs": catalogs.check, "parity": parity.check, "numbers": numbers_lint.check,
            "glossary": glossary.check, "typography": typography.check, "references": references.check,
            "methods": methods.check, "claims": claims_fix.check, "corrections": corrections.check}


def site_checkers() -> dict[str, Callable[[Project, Path], list[Finding]]]:
    """The checkers that read the built site, by name."""
    from wiki.checks import links, untranslated

    return {"links": links.check, "untranslated": untranslated.check}


def unique(findings: Iterable[Finding]) -> list[Finding]:
    """Drop repeats (the strict build repeats what the catalog check already said), keeping the order."""
    seen, kept = set(), []
    for finding in findings:
        key = (finding.file, finding.line, finding.message)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def compile_catalogs(project: Project) -> tuple[str, ...]:
    """Compile each language's catalog into `widgets/locales/`, as the build does in `on_config` (a fresh clone
    has none yet); return the languages that have no catalog to compile."""
    from wiki import catalogs as i18n

    present = tuple(lang for lang in project.languages if i18n.po_path(lang).exists())
    i18n.compile_all(present)
    return tuple(lang for lang in project.languages if lang not in present)


def run_all(project: Project | None = None, only: Iterable[str] = ()) -> list[Finding]:
    """Every check (or the ones named in `only`) on `project` (default: this repository)."""
    from wiki.checks import catalogs, strict_build

    project = project or Project()
    wanted = set(only)
    if compile_catalogs(project):  # the checkers render widgets in every language: not without its catalog
        return catalogs.check(project)  # it names the language whose catalog is missing
    findings: list[Finding] = []
    for name, checker in source_checkers().items():
        if not wanted or name in wanted:
            findings += checker(project)
    built = site_checkers()
    if not wanted or wanted & {"build", *built}:
        with tempfile.TemporaryDirectory(prefix="kentino-check-") as site:
            build_findings = strict_build.check(project, Path(site))
            findings += build_findings
            if not build_findings:
                for name, checker in built.items():
                    if not wanted or name in wanted:
                        findings += checker(project, Path(site))
    return unique(findings)
