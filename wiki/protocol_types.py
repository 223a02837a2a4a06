"""TypeScript declarations of the live calculators' protocol (`widgets/protocol.py`) for the page's scripts.

`types/protocol.d.ts` is generated from the TypedDicts of `widgets.protocol` and its message unions, so that
`tsc` (tests/test_lint.py) holds calculators.js and calculator-worker.js to the data Python sends and
reads; nothing is described a second time by hand. `python -m wiki.protocol_types` (`build.py types`)
writes it; a test fails, naming that command, when the file is not what the protocol gives.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, get_args, get_origin

from widgets import protocol

OUTPUT = Path(__file__).resolve().parent.parent / "types" / "protocol.d.ts"
HEADER = """\
// Generated from widgets/protocol.py by `python3 build.py types` (wiki/protocol_types.py): do not edit.
// The data that crosses between the page, its worker and Python; ambient, for tsc only (not shipped).
export {};

declare global {
"""
PRIMITIVES = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null", object: "unknown"}


def _is_typed_dict(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, dict) and hasattr(value, "__required_keys__")


def ts_type(hint: Any) -> str:
    """The TypeScript type of a Python type hint of the protocol."""
    origin, args = get_origin(hint), get_args(hint)
    if hint in PRIMITIVES:
        return PRIMITIVES[hint]
    if _is_typed_dict(hint):
        return hint.__name__
    if origin is NotRequired:
        return ts_type(args[0])
    if origin is Literal:
        return " | ".join(f'"{arg}"' if isinstance(arg, str) else str(arg).lower() for arg in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(dict.fromkeys(ts_type(arg) for arg in args))  # int | float: number, once
    if origin is list:
        inner = ts_type(args[0])
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if origin is dict:
        return f"Record<{ts_type(args[0])}, {ts_type(args[1])}>"
    raise TypeError(f"widgets/protocol.py: no TypeScript type for {hint!r}")


def _doc(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    lines = inspect.cleandoc(text).split("\n")
    return [f"{indent}/**", *(f"{indent} * {line}".rstrip() for line in lines), f"{indent} */"]


@functools.cache
def _bases() -> dict[str, list[str]]:
    """Each TypedDict's TypedDict bases, as protocol.py writes them (Python 3.11 keeps no trace of them)."""
    tree = ast.parse(inspect.getsource(protocol))
    return {node.name: [base.id for base in node.bases if isinstance(base, ast.Name) and base.id != "TypedDict"]
            for node in tree.body if isinstance(node, ast.ClassDef)}


def _interface(cls: type) -> list[str]:
    hints = typing.get_type_hints(cls, vars(protocol), include_extras=True)
    bases = [getattr(protocol, name) for name in _bases().get(cls.__name__, [])]
    inherited = {key for base in bases for key in base.__annotations__}
    extends = f" extends {', '.join(base.__name__ for base in bases)}" if bases else ""
    lines = [*_doc(cls.__doc__, "  "), f"  interface {cls.__name__}{extends} {{"]
    for key, hint in hints.items():
        if key in inherited:
            continue
        name = key if key.isidentifier() else f'"{key}"'
        optional = "?" if key in cls.__optional_keys__ or get_origin(hint) is NotRequired else ""
        lines.append(f"    {name}{optional}: {ts_type(hint)};")
    return [*lines, "  }"]


def declarations() -> str:
    """`types/protocol.d.ts`: every TypedDict of `widgets.protocol` and every union of them, in its order."""
    body: list[str] = []
    for name, value in vars(protocol).items():
        if _is_typed_dict(value) and value.__module__ == protocol.__name__:
            body += [*_interface(value), ""]
        elif isinstance(value, types.UnionType) and all(_is_typed_dict(arg) for arg in get_args(value)):
            body += [f"  type {name} = {ts_type(value)};", ""]
    return HEADER + "\n".join(body).rstrip() + "\n}\n"


def main() -> int:
    """Write `types/protocol.d.ts`."""
    OUTPUT.write_text(declarations(), encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(OUTPUT.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
