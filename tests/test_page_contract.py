"""The page's DOM contract (docs-dev/page-contract.md) is the whole contract and a true one: every `data-*`
attribute a page script uses is listed, every listed one is used, and each file the table names as its
writer or reader mentions it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

CONTRACT = ROOT / "docs-dev" / "page-contract.md"
SERVED = ROOT / "overrides" / "assets" / "javascripts"
MODULES = ROOT / "scripts" / "calculators"  # bundled into the served calculators.js (wiki/page_bundle.py)
SCRIPTS = [*sorted(MODULES.glob("*.js")), *sorted(p for p in SERVED.glob("*.js") if p.name != "calculators.js"),
           ROOT / "wiki" / "sw.js"]
ATTRIBUTE = re.compile(r"data-[a-z][a-z0-9-]*")  # ending in "-" (`data-text-<state>`): a family
DATASET = re.compile(r"dataset\.([a-zA-Z]+)")
FAMILY_IN_CODE = re.compile(r"dataset\[`([a-z]+)\$\{")  # status.dataset[`text${...}`]: the data-text-* family


def kebab(name: str) -> str:
    return "data-" + re.sub(r"[A-Z]", lambda m: "-" + m[0].lower(), name)


def camel(attribute: str) -> str:
    head, *rest = attribute.removeprefix("data-").split("-")
    return head + "".join(part.title() for part in rest)


def used_in(text: str) -> set[str]:
    """The attributes `text` names: `data-x-y`, `dataset.xY`, and the family `data-x-*` of `dataset[`x${...}`]`."""
    found = {name + "*" if name.endswith("-") else name for name in ATTRIBUTE.findall(text)}
    found |= {kebab(name) for name in DATASET.findall(text)}
    return found | {f"data-{prefix}-*" for prefix in FAMILY_IN_CODE.findall(text)}


def rows() -> list[dict[str, str]]:
    """Every row of the contract's tables, by column."""
    found = []
    header: list[str] = []
    for line in CONTRACT.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if not header:
            header = cells
        elif not set(line) <= set("|-: "):
            found.append(dict(zip(header, cells, strict=True)))
    return found


def files(cell: str) -> list[Path]:
    """The files a cell names: a path, or a script's name (a live calculators' module, or a served script)."""
    return [ROOT / name if "/" in name else MODULES / name if (MODULES / name).exists() else SERVED / name
            for name in re.findall(r"`([\w./-]+\.(?:js|py|html))`", cell)]


def mentions(path: Path, attribute: str) -> bool:
    text = path.read_text(encoding="utf-8")
    if attribute.endswith("-*"):
        prefix = attribute[:-1]
        name = camel(prefix[:-1])
        return prefix in text or f"dataset[`{name}" in text or re.search(rf"dataset\.{name}[A-Z]", text) is not None
    return attribute in text or re.search(rf"dataset\.{camel(attribute)}\b", text) is not None


DOCUMENTED = {row["attribute"].strip("`"): row for row in rows()}


def test_every_attribute_a_script_uses_is_in_the_contract() -> None:
    used = set().union(*(used_in(path.read_text(encoding="utf-8")) for path in SCRIPTS))
    families = [name[:-1] for name in DOCUMENTED if name.endswith("-*")]
    missing = {name for name in used if name not in DOCUMENTED and not any(name.startswith(f) for f in families)}
    assert not missing, f"add these to docs-dev/page-contract.md: {sorted(missing)}"


@pytest.mark.parametrize("attribute", sorted(DOCUMENTED))
def test_each_listed_attribute_is_used_and_where_the_table_says(attribute: str) -> None:
    row = DOCUMENTED[attribute]
    assert any(mentions(path, attribute) for path in SCRIPTS), f"no page script uses {attribute}"
    for column in ("written by", "read by"):
        for path in files(row[column]):
            assert path.is_file(), f"{attribute}: {column} names {path.relative_to(ROOT)}, which does not exist"
            assert mentions(path, attribute), f"{attribute}: {path.relative_to(ROOT)} ({column}) does not mention it"
