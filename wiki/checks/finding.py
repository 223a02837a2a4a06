"""One finding of the editors' checks: where, what to do, and the other place involved."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One thing out of step: where (`file`, `line`), what to do (`message`), and the other place involved."""

    check: str
    file: str
    line: int | None
    message: str
    other: str | None = None  # "path:line" of the counterpart (the other language, the ledger entry)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        return f"{self.where}: {self.check}: {self.message}"
