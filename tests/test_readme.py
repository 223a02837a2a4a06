"""The maintainers' documents stay true: the README's "Where each fact lives" table names files that exist and
hold what it says, its Layout names folders that exist, its test command is CI's, and every link of the README,
`benchmarks/README.md`, `tests/README.md` and `docs-dev/` points to a file and heading that exist."""

from __future__ import annotations

import ast
import functools
import importlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

import calculators
from tests.conftest import ROOT
from tests.support.content import site_languages
from wiki import languages

README = ROOT / "README.md"
DOCUMENTS = (README, ROOT / "benchmarks" / "README.md", ROOT / "tests" / "README.md",
             *sorted((ROOT / "docs-dev").glob("*.md")))
CODE = re.compile(r"`([^`]+)`")
# A repository path as the table writes one: folders and a file name, `<lang>` and `<name>` as placeholders.
PATH = re.compile(r"^\.?[\w<>-]+(?:[./][\w<>.-]+)*/?$")
SUFFIXES = (".py", ".js", ".mjs", ".yml", ".md", ".html", ".po", ".pot", ".json", ".lock", ".toml")
DOTTED = re.compile(r"(?:calculators|widgets|wiki)(?:\.\w+)+")  # a name of our packages: importable
NOT_REFERRING = (".po", ".pot")  # catalogs hold the texts, not a reference to where they come from


@dataclass(frozen=True)
class Row:
    """One row of the facts table: the fact, the file that declares it, what it is there, who reads it."""

    fact: str
    source: str
    names: tuple[str, ...]
    readers: str


def section(text: str, heading: str) -> str:
    """The text under `heading` (a whole heading line), up to the next heading of the same or a higher level."""
    level = heading.split(" ", 1)[0]
    start = text.index("\n" + heading + "\n") + len(heading) + 2
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", text[start:], flags=re.MULTILINE)]
    return text[start:start + ends[0]] if ends else text[start:]


def table(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table in `text` (its header and separator left out), as cells."""
    lines = []
    for line in text.strip().splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    return [[cell.strip() for cell in line.strip().strip("|").split(" | ")] for line in lines[2:]]


def rows(text: str) -> list[Row]:
    """The facts table of a README text."""
    found = []
    for cells in table(section(text, "### Where each fact lives")):
        assert len(cells) == 4, cells
        fact, source, names, readers = cells
        sources = CODE.findall(source)
        assert len(sources) == 1 and source == f"`{sources[0]}`", f"{fact}: one file, not {source!r}"
        found.append(Row(fact, sources[0], tuple(CODE.findall(names)), readers))
    return found


def expand(path: str, langs: tuple[str, ...]) -> list[str]:
    """`path` with `<lang>` as each of `langs` (mkdocs.yml's languages) and `<name>` as each calculator of the
    registry."""
    paths = [path]
    for placeholder, values in (("<lang>", langs), ("<name>", calculators.NAMES)):
        paths = [p.replace(placeholder, value) for p in paths for value in values] if placeholder in path else paths
    return paths


def is_path(token: str) -> bool:
    """Whether a backticked token of the table is a repository path (not a symbol, a key or a command)."""
    return bool(PATH.match(token)) and ("/" in token or token.endswith(SUFFIXES)) and " " not in token


@functools.cache
def python_names(source: str) -> frozenset[str]:
    """What a module defines at its top level, and its classes' fields and methods as `Class.name` (read once
    per text)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(f"{node.name}.{item.target.id}")
                elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(f"{node.name}.{item.name}")
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return frozenset(names)


def yaml_holds(data: Any, dotted: str) -> bool:
    """Whether the key path `a.b.c` is in `data`; at a list, in the item (or items) that have the key."""
    head, _, rest = dotted.partition(".")
    if isinstance(data, list):
        items = [item[head] for item in data if isinstance(item, dict) and head in item]
        return bool(items) and all(not rest or yaml_holds(item, rest) for item in items)
    return isinstance(data, dict) and head in data and (not rest or yaml_holds(data[head], rest))


def holds(path: Path, name: str) -> bool:
    """Whether the file at `path` declares `name`: a Python definition, a JavaScript declaration, a YAML key
    path, or else the literal text."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return name in python_names(text)
    if path.suffix in (".js", ".mjs"):
        return re.search(rf"^(?:export )?(?:async )?(?:function\*? |const |let |class ){re.escape(name)}\b", text,
                         flags=re.MULTILINE) is not None
    if path.suffix == ".yml":
        return yaml_holds(yaml_data(path, text), name)
    return name in text


@functools.cache
def yaml_data(path: Path, text: str) -> Any:
    """A YAML file's data, read once per text: mkdocs.yml by MkDocs' own loader (its `!ENV` tags), any other YAML
    file as plain data."""
    return languages.read_config(path) if path.name == "mkdocs.yml" else yaml.safe_load(text)


def refers(reader: Path, row: Row) -> bool:
    """Whether `reader` names the declaring file (its name or module), a name it declares, or a name the row says
    the fact reaches readers through (`calculators.CALCULATORS`)."""
    source = Path(row.source)
    words = {part for part in source.parts[1:] if "<" not in part}  # `messages.po`, `LC_MESSAGES`, `catalog`
    if "<" not in source.name:
        words |= {source.name, source.stem}
    words |= {*row.names, *(n.rsplit(".", 1)[-1] for n in row.names)}
    words |= {token.rsplit(".", 1)[-1] for token in CODE.findall(row.readers) if DOTTED.fullmatch(token)}
    text = reader.read_text(encoding="utf-8")
    return any(re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) for word in words)


def importable(dotted: str) -> bool:
    """Whether `package.module.name` is a module, or an attribute of the longest importable module prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def problems(text: str) -> list[str]:
    """Everything the facts table says that the repository does not hold, one line each."""
    found = []
    langs = site_languages()  # read once: the table's paths ask for them about 120 times
    for row in rows(text):
        sources = expand(row.source, langs)
        for source in sources:
            path = ROOT / source
            if not path.is_file():
                found.append(f"{row.fact}: {source} does not exist")
                continue
            found += [f"{row.fact}: {source} does not declare {name}" for name in row.names if not holds(path, name)]
        for token in CODE.findall(row.fact + " " + row.readers):
            if is_path(token):
                for reader in expand(token, langs):
                    path = ROOT / reader.rstrip("/")
                    if not path.exists():
                        found.append(f"{row.fact}: {reader} does not exist")
                    elif (path.is_file() and token in CODE.findall(row.readers) and not reader.endswith(NOT_REFERRING)
                          and not refers(path, row)):
                        found.append(f"{row.fact}: {reader} does not refer to {row.source} or {row.names}")
            elif DOTTED.fullmatch(token) and not importable(token):
                found.append(f"{row.fact}: {token} cannot be imported")
    return found


def test_every_fact_lives_where_the_table_says() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(rows(text)) >= 20
    assert problems(text) == []


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("| `wiki/csp.py` |", "| `wiki/policy.py` |", "wiki/policy.py does not exist"),
    ("| `PATCHES` |", "| `PATCHES`, `NO_SUCH_PATCHES` |", "does not declare NO_SUCH_PATCHES"),
    ("| `plugins.i18n.languages` |", "| `plugins.i18n.locales` |", "does not declare plugins.i18n.locales"),
    ("| `readLink`, `writeLink` |", "| `readLink`, `parseLink` |", "does not declare parseLink"),
    ("`tests/site/test_material_bundle.py`", "`tests/site/test_bundle.py`", "test_bundle.py does not exist"),
    ("`wiki/checks/glossary.py` |", "`wiki/checks/links.py` |", "links.py does not refer to i18n/glossary.yml"),
    ("`calculators.GPUS`", "`calculators.GPU_TABLE`", "calculators.GPU_TABLE cannot be imported"),
])
def test_a_wrong_row_is_found(old: str, new: str, expected: str) -> None:
    text = README.read_text(encoding="utf-8")
    assert old in text
    assert any(expected in line for line in problems(text.replace(old, new, 1)))


def test_the_layout_names_what_exists() -> None:
    paths = [cells[0].strip("`") for cells in table(section(README.read_text(encoding="utf-8"), "## Layout"))]
    assert "calculators/" in paths
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_the_readme_test_command_is_ci_s() -> None:
    commands = re.findall(r"^(python3 build\.py \w+)", README.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert commands == ["python3 build.py serve", "python3 build.py test"]
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # An editor's pull request first (check, then the summary against a base commit), then the test command.
    steps = re.findall(r"^(?:exec )?python3 build\.py (\w+)(.*)$", run, flags=re.MULTILINE)
    assert [name for name, _rest in steps] == ["check", "summary", "test"]
    assert steps[1][1].startswith(" --base ") and steps[2][1] == ""
    assert re.search(r"^exec python3 build\.py test$", run, flags=re.MULTILINE)


def test_the_benchmarks_readme_explains_every_budget() -> None:
    bench = ast.parse((ROOT / "benchmarks" / "bench_site.py").read_text(encoding="utf-8"))  # not imported: layers
    budgets = next(node.value for node in bench.body if isinstance(node, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == "BUDGETS" for t in node.targets))
    metrics = ast.literal_eval(budgets)
    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    assert metrics and [m for m in metrics if f"`{m}`" not in text] == []


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text.replace("`", ""))
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (outside code fences), GitHub's `-1` for a repeated one."""
    seen: dict[str, int] = {}
    fence = None
    for line in path.read_text(encoding="utf-8").splitlines():
        opening = re.match(r"^(`{3,}|~{3,})", line)
        if opening and (fence is None or opening.group(1).startswith(fence)):
            fence = None if fence else opening.group(1)
            continue
        heading = re.match(r"^#{1,6} (.*)$", line)
        if heading and fence is None:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
    return {base if n == 0 else f"{base}-{n}" for base, count in seen.items() for n in range(count)}


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """The Markdown links of `path` (outside code) whose file or heading does not exist, named from `root`."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for target in re.findall(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue  # another site: not this repository's to keep
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(f"{path.relative_to(root)}: {target}: no such file")
        elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
            broken.append(f"{path.relative_to(root)}: {target}: no such heading")
    return broken


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_points_to_a_file_and_heading_that_exist(path: Path) -> None:
    assert broken_links(path) == []


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n## Next page (issue 32)\n\n[ok](#next-page-issue-32) [here](page.md#a-page) "
                    "[gone](#nowhere) [missing](missing.md) [web](https://example.com/x)\n", encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in broken_links(page, tmp_path)] == [
        "#nowhere: no such heading", "missing.md: no such file"]
