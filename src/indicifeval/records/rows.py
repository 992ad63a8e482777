"""A benchmark row as it is scored and as it is stored (``rows.jsonl``)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from indicifeval.core.errors import Source
from indicifeval.records.ids import RowId

ROW_FORMAT = 1


@dataclass(frozen=True)
class Row:
    key: Any
    prompt: str
    instruction_id_list: tuple[str, ...]
    kwargs: tuple[dict, ...]  # cleaned: nulls dropped, whole floats made int
    language: str
    subset: str
    tags: tuple[str, ...] = ()
    resp_lang: str | None = None
    source: Source | None = field(default=None, compare=False)

    @property
    def id(self) -> RowId:
        return RowId.of(self.language, self.subset, self.key)

    def to_record(self) -> dict:
        """The row as it was asked, so its scores can be re-read without the original data."""
        return {"key": self.key, "language": self.language, "subset": self.subset, "prompt": self.prompt,
                "instruction_id_list": list(self.instruction_id_list), "kwargs": [dict(k) for k in self.kwargs],
                "tags": list(self.tags), "resp_lang": self.resp_lang}

    def to_json(self) -> dict:
        return {"format_version": ROW_FORMAT, **self.to_record()}

    @classmethod
    def from_json(cls, data: dict, source: Source | None = None) -> Row:
        """A row from its stored form, not validated (``dataset.parse_row`` validates)."""
        return cls(data["key"], data["prompt"], tuple(data["instruction_id_list"]),
                   tuple(dict(k or {}) for k in data["kwargs"]), data["language"], data["subset"],
                   tuple(data.get("tags") or ()), data.get("resp_lang"), source)

    @property
    def content_hash(self) -> str:
        """A fingerprint of what the row asks (prompt, instructions, kwargs): an answer made
        for another content is not this row's answer."""
        payload = json.dumps([self.prompt, list(self.instruction_id_list), [dict(k) for k in self.kwargs]],
                             sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:16]
