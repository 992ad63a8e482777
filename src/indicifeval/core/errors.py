"""One family of errors a user can act on. The CLI prints any of them as one line (exit 1);
everything else is a bug and is reported as such."""

from __future__ import annotations

from typing import NamedTuple


class IndicIFEvalError(Exception):
    """An error whose message is meant for the user, as it is."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return self.message


class InputError(IndicIFEvalError, ValueError):
    """Bad input, located: file, line (1-based; the row number for Parquet and JSON arrays)
    and field, as far as they are known."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None, field: str | None = None):
        self.file = file
        self.line = line
        self.field = field
        super().__init__(message)

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(str(self.file))
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field:
            where.append(f"field {self.field!r}")
        return (": ".join([", ".join(where), self.message])) if where else self.message


def first_line(exc: BaseException, limit: int = 300) -> str:
    """An exception's message, one line (libraries write several), for a one-line error."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return (lines[0][:limit] if lines else "") or exc.__class__.__name__


class OutputError(IndicIFEvalError):
    """An output cannot be written (disk full, not a folder, a folder that is not ours)."""


class BusyError(IndicIFEvalError):
    """Another process holds the folder."""


class Source(NamedTuple):
    """Where a record came from: a file and its line (or row) number. (A named tuple, not a
    dataclass: every command imports this module, and dataclasses costs start-up time.)"""

    file: str
    line: int | None

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(message, self.file, self.line, field)
