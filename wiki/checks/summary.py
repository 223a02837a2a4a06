"""`python3 build.py summary --base REF`: the numbers and verdicts a pull request changes, page by page, for
the pull request's reviewers (CI writes it into GitHub's job summary).

Two trees are read the same way: the base branch's (extracted with `git archive`) and the working tree. In
each, every page of `docs/` in each language: the verdict and the shown values of each widget, as the build
prerenders them (`widgets.view.view` with the fence's presets, in the page's language), and the claims of
`claims.yml` stated on that page (their text in that language). Each tree is read by its own Python process
with that tree on its path, so that its own calculators, widgets and catalogs answer. What differs is listed
as Markdown: the page, the widget or claim, the value before and after, in the page's language.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent

# Run inside a tree (its root is the working directory and on sys.path): prints
# {"<page file>": {"lang": ..., "values": {"<id>": ["<label in the page's language>", "<value>"]}}} as JSON
# (the id names the widget, its rank among the page's widgets of that calculator, and the output: a label
# the translators reword is the same row). Only the interfaces that every
# version since the checks exist has are used: wiki.languages, wiki.embed.find_embeds, wiki.catalogs,
# widgets.view.view, widgets.messages.translations, widgets.strings.
READ_TREE = r'''
import json, re, sys
from pathlib import Path
import yaml
from wiki import catalogs, languages
from wiki.embed import find_embeds
from widgets import strings
from widgets.messages import translations
from widgets.view import view

def text(lang, msgid):
    return translations(lang).gettext(msgid)

langs = languages.read()
catalogs.compile_all(langs.all)
suffix = re.compile(r"\.(" + "|".join(map(re.escape, langs.others)) + r")\.md$") if langs.others else None
claims = yaml.safe_load(Path("claims.yml").read_text(encoding="utf-8")) if Path("claims.yml").exists() else []
pages = {}
for path in sorted(Path("docs").rglob("*.md")):
    rel = path.relative_to("docs").as_posix()
    found = suffix.search(rel) if suffix else None
    lang, slug = (found.group(1), rel[:found.start()]) if found else (langs.default, rel[:-3])
    values, seen = {}, {}
    for _start, _end, embed in find_embeds(path.read_text(encoding="utf-8"), str(path)):
        if embed.kind != "calculator":
            continue
        seen[embed.name] = seen.get(embed.name, 0) + 1
        title = text(lang, strings.TITLES[embed.name]) if embed.name in strings.TITLES else embed.name
        where = f"{title} ({embed.name}" + (f" #{seen[embed.name]})" if seen[embed.name] > 1 else ")")
        widget = f"{embed.name}#{seen[embed.name]}"
        try:
            shown = view(embed.name, embed.presets, lang)
        except Exception as error:  # a broken embed: the check says where; here it is one more change
            values[widget] = [where, f"error: {error}"]
            continue
        if not shown.get("ok"):
            values[widget] = [where, "; ".join(shown.get("errors", {}).values())]
            continue
        verdict = text(lang, strings.UI["verdict_line"]).split("{verdict}")[0].strip(" :") \
            if "verdict_line" in strings.UI else "verdict"
        values[f"{widget}:verdict"] = [f"{where}: {verdict}", shown["verdict_text"]]
        for key, value in shown["outputs"].items():
            label = text(lang, strings.OUTPUTS[key]) if key in strings.OUTPUTS else key
            values[f"{widget}:{key}"] = [f"{where}: {label}", value]
    for claim in claims or []:
        said = (claim.get("text") or {}).get(lang)
        if claim.get("page") == slug and said:
            values[f"claim:{claim['id']}"] = [f"claims.yml `{claim['id']}`", said]
    pages["docs/" + rel] = {"lang": lang, "values": values}
print(json.dumps(pages, ensure_ascii=False))
'''


def read_tree(root: Path) -> dict[str, dict[str, Any]]:
    """Every page of the tree at `root` with its widgets' verdicts and shown values and its claims."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    result = subprocess.run([sys.executable, "-c", READ_TREE], cwd=root, env=env, capture_output=True, text=True,
                            stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise RuntimeError(f"could not read the pages of {root}: {result.stderr.strip()[-2000:]}")
    return json.loads(result.stdout)


def tree_at(ref: str, target: Path, repository: Path = ROOT) -> Path:
    """The files of commit `ref` of `repository`, extracted into `target` (the npm runtime is not needed)."""
    archive = subprocess.run(["git", "archive", "--format=tar", ref], cwd=repository, capture_output=True,
                             check=True, stdin=subprocess.DEVNULL).stdout
    with tempfile.TemporaryFile() as handle:
        handle.write(archive)
        handle.seek(0)
        with tarfile.open(fileobj=handle) as tar:
            tar.extractall(target, filter="data")
    return target


def changes(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, list[tuple]]:
    """Per page (that changed): (what, value before or None, value after or None), in the page's order."""
    found: dict[str, list[tuple]] = {}
    for page in sorted(set(before) | set(after)):
        old = before.get(page, {}).get("values", {})
        new = after.get(page, {}).get("values", {})
        value = lambda row: None if row is None else row[1]  # noqa: E731
        rows = [((new.get(key) or old[key])[0], value(old.get(key)), value(new.get(key)))
                for key in [*new, *(k for k in old if k not in new)] if value(old.get(key)) != value(new.get(key))]
        if rows:
            found[page] = rows
    return found


def markdown(found: dict[str, list[tuple]], before: dict, after: dict, base: str) -> str:
    """The changes as a job summary: one table per page, in the page's language."""
    lines = [f"## Numbers and verdicts this pull request changes (against `{base}`)", ""]
    if not found:
        return "\n".join([*lines, "No widget value, verdict or claim of any page changes.", ""])
    cell = lambda value: "—" if value is None else str(value).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    for page, rows in found.items():
        lang = (after.get(page) or before.get(page))["lang"]
        state = " (new page)" if page not in before else " (removed)" if page not in after else ""
        lines += [f"### `{page}` ({lang}){state}", "", "| | before | after |", "|---|---|---|"]
        lines += [f"| {cell(what)} | {cell(old)} | {cell(new)} |" for what, old, new in rows]
        lines.append("")
    return "\n".join(lines)


def summary(base: str, head: Path = ROOT, repository: Path = ROOT) -> str:
    """The Markdown summary of what the working tree `head` changes against commit `base`."""
    with tempfile.TemporaryDirectory(prefix="kw-summary-") as folder:
        before = read_tree(tree_at(base, Path(folder)))
    after = read_tree(head)
    return markdown(changes(before, after), before, after, base)


def main(argv: list[str] | None = None) -> int:
    """Print the summary; with GITHUB_STEP_SUMMARY set (GitHub Actions), append it there too."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m wiki.checks.summary", description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the commit or branch to compare with (origin/main)")
    args = parser.parse_args(argv)
    text = summary(args.base)
    print(text)
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
