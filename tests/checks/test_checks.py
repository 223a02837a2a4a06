"""The checks of `python3 build.py check`: each fixture under fixtures/ holds one problem and gives exactly one finding.

A fixture is a small site (`docs/`, maybe `claims.yml`, or an already built `site/`) with a `case.yml`:

    checker: parity          # which check runs (a name of `python -m wiki.checks`), or `all`
    build: true              # build the fixture with the repository's mkdocs.yml, theme and plugin first
    catalog: {lang: fr, msgid: Nodes, msgstr: ""}   # catalogs: an edit of a copy of the real i18n/
    findings:                # exactly what the check prints, in order ({line}: the edited msgid's line)
      - "docs/article.md:12: parity: ..."

The last test runs every check on this repository: the real site has no finding.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from tests.checks.projects import FIXTURES, buildable
from tests.conftest import ROOT
from wiki import catalogs as catalog_module
from wiki.checks import Finding, run_all, site_checkers, source_checkers, strict_build, unique
from wiki.checks.project import Project
from wiki.problems import read_report

CASES = sorted(path for path in FIXTURES.iterdir() if (path / "case.yml").exists())


def edit_catalog(i18n: Path, edit: dict) -> int:
    """Change one entry of a copy of the catalogs; return the line of its msgid."""
    path = i18n / edit["lang"] / "LC_MESSAGES" / "messages.po"
    lines = path.read_text(encoding="utf-8").split("\n")
    index = lines.index(f"msgid {json.dumps(edit['msgid'], ensure_ascii=False)}")
    if "msgstr" in edit:
        lines[index + 1] = f"msgstr {json.dumps(edit['msgstr'], ensure_ascii=False)}"
    if edit.get("fuzzy"):
        if lines[index - 1].startswith("#,"):
            lines[index - 1] += ", fuzzy"
        else:
            lines.insert(index, "#, fuzzy")
            index += 1
    path.write_text("\n".join(lines), encoding="utf-8")
    return index + 1


@pytest.fixture(scope="module")
def fixture_build(tmp_path_factory: pytest.TempPathFactory):
    """Build a fixture once per module: its project, its site and the strict build's findings."""
    done: dict[str, tuple[Project, Path, list[Finding]]] = {}

    def build(case: Path) -> tuple[Project, Path, list[Finding]]:
        if case.name not in done:
            folder = tmp_path_factory.mktemp(case.name)
            project = buildable(case, folder / "project")
            done[case.name] = (project, folder / "site", strict_build.check(project, folder / "site"))
        return done[case.name]

    return build


def all_checks(project: Project, site: Path, built: list[Finding]) -> list[Finding]:
    """What `run_all(project)` finds, given the findings of its strict build into `site` (made once, elsewhere):
    every source check, the build's findings, and the checks of the built site when it built."""
    findings = [finding for checker in source_checkers().values() for finding in checker(project)] + built
    if not built:
        findings += [finding for checker in site_checkers().values() for finding in checker(project, site)]
    return unique(findings)


def run_case(case: Path, spec: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             fixture_build) -> tuple[list[Finding], dict]:
    """The findings of the fixture's checker, and the values to fill into the expected lines."""
    checker, fill = spec["checker"], {}
    if "catalog" in spec:
        i18n = tmp_path / "i18n"
        shutil.copytree(ROOT / "i18n", i18n, ignore=shutil.ignore_patterns("*.mo"))
        fill["line"] = edit_catalog(i18n, spec["catalog"])
        monkeypatch.setattr(catalog_module, "ROOT", tmp_path)
        monkeypatch.setattr(catalog_module, "I18N", i18n)
        monkeypatch.setattr(catalog_module, "TEMPLATE", i18n / "messages.pot")
    # `run_all` itself, its own build included, on the clean fixture; the other built fixtures are built once
    # for this test and the one below.
    if spec.get("build") and checker not in source_checkers() and case.name != "clean":
        project, site, built = fixture_build(case)
        if checker == "all":
            return all_checks(project, site, built), fill
        if checker == "build" or built:
            return built, fill
        return site_checkers()[checker](project, site), fill
    project = buildable(case, tmp_path / "project") if spec.get("build") else Project(root=case)
    if checker == "all":
        return run_all(project), fill
    if checker in source_checkers():
        return source_checkers()[checker](project), fill
    return site_checkers()[checker](project, case / "site"), fill


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_fixture_gives_exactly_the_expected_findings(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     fixture_build) -> None:
    spec = yaml.safe_load((case / "case.yml").read_text(encoding="utf-8"))
    findings, fill = run_case(case, spec, tmp_path, monkeypatch, fixture_build)
    expected = [line.replace("{line}", str(fill.get("line"))) for line in spec["findings"] or []]
    assert [str(finding) for finding in findings] == expected


def test_a_finding_in_one_language_names_the_other_location() -> None:
    project = Project(root=FIXTURES / "parity-number-changed-in-one-language")
    (finding,) = source_checkers()["parity"](project)
    assert (finding.where, finding.other) == ("docs/article.md:12", "docs/article.fr.md:12")


def test_an_untranslated_page_shows_the_notice_in_the_readers_language(fixture_build) -> None:
    _project, site, built = fixture_build(FIXTURES / "untranslated-pending-page-shows-notice")
    assert built == []
    tmp_path = site.parent
    french = (tmp_path / "site" / "fr" / "other" / "index.html").read_text(encoding="utf-8")
    assert "Cette page n&#x27;est pas encore traduite" in french
    assert 'href="https://github.com/kentino/kentino-wiki/edit/main/docs/other.md"' in french
    danish = (tmp_path / "site" / "other" / "index.html").read_text(encoding="utf-8")
    assert "kw-untranslated" not in danish
    translated = (tmp_path / "site" / "fr" / "article" / "index.html").read_text(encoding="utf-8")
    assert "kw-untranslated" not in translated
    # The Danish text (title included) says it is Danish; the notice inside it says it is French.
    assert french.count('<div lang="da">') == 1
    start = french.index('<div lang="da">')
    assert start < french.index("<h1") < french.index('kw-untranslated" lang="fr"') < french.index("Tekst med 8")
    assert '<div lang="da">' not in translated
    # Danish text is found by a Danish search only.
    def locations(lang_prefix: str) -> list[str]:
        index = tmp_path / "site" / lang_prefix / "search" / "search_index.json"
        return [doc["location"] for doc in json.loads(index.read_text(encoding="utf-8"))["docs"]]
    assert any(loc.startswith("other/") for loc in locations(""))
    assert not any(loc.startswith("other/") for loc in locations("fr"))
    assert any(loc.startswith("article/") for loc in locations("fr"))


def test_the_real_repository_has_no_finding(server, monkeypatch: pytest.MonkeyPatch) -> None:
    """`run_all()` on this repository, with the session's strict build as its build (the same command, with
    the plugin's report): every source check, the build's problems, and the checks of the built site."""
    monkeypatch.setenv("SITE_URL", server.url)  # the URL the session's site was built for (links read it)
    project = Project()
    recorded, output = read_report(server.report), server.output
    built = [Finding(strict_build.NAME, p.file, p.line, p.message) for p in recorded]
    built += strict_build.findings_from(output["stdout"] + "\n" + output["stderr"], project, skip_errors=bool(recorded))
    assert [str(finding) for finding in all_checks(project, server.root, built)] == []
