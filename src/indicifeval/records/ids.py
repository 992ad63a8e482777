"""The one identity of a benchmark row: (language, subset, key), printed ``hi/trans/7``.

Keys are compared as text: files disagree on whether a key is 7 or "7", and a split holding
both is refused when it is read (``dataset.rows.check_unique``)."""

from __future__ import annotations

from typing import Any, NamedTuple


class RowId(NamedTuple):
    language: str
    subset: str
    key: str  # the key as text

    @classmethod
    def of(cls, language: str, subset: str, key: Any) -> RowId:
        return cls(str(language), str(subset), str(key))

    @classmethod
    def parse(cls, text: str) -> RowId:
        """``"hi/trans/7"`` -> RowId; keys may hold "/" (language and subset never do)."""
        language, subset, key = text.split("/", 2)
        return cls(language, subset, key)

    def __str__(self) -> str:
        return f"{self.language}/{self.subset}/{self.key}"
