"""Input errors that say where: file, line (1-based; row number for Parquet/JSON arrays), field."""

from __future__ import annotations

from dataclasses import dataclass


class InputError(ValueError):
    def __init__(self, message: str, file: str | None = None, line: int | None = None, field: str | None = None):
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(str(self.file))
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field:
            where.append(f"field {self.field!r}")
        return (": ".join([", ".join(where), self.message])) if where else self.message


@dataclass(frozen=True)
class Source:
    file: str
    line: int

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(message, self.file, self.line, field)
