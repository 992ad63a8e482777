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


MULTITURN = "multiturn"  # the subset of a conversation's per-turn rows
CONVERSATION_FORMAT = 1


@dataclass(frozen=True)
class Turn:
    """One user turn of a conversation: its prompt and the instructions its answer must follow
    (cumulative, as the data lists them: nothing is decided at scoring time)."""

    prompt: str
    instruction_id_list: tuple[str, ...]
    kwargs: tuple[dict, ...]  # cleaned, as Row's

    def to_json(self) -> dict:
        return {"prompt": self.prompt, "instruction_id_list": list(self.instruction_id_list),
                "kwargs": [dict(k) for k in self.kwargs]}


@dataclass(frozen=True)
class Conversation:
    """A multi-turn row (Multi-IF's shape): turns 1..n, each answered with the conversation so far.
    ``turn_row(n)`` is turn n as a Row of subset ``multiturn``, scored as any row is."""

    key: Any
    language: str
    turns: tuple[Turn, ...]
    subset: str = MULTITURN
    tags: tuple[str, ...] = ()
    source: Source | None = field(default=None, compare=False)

    @property
    def id(self) -> RowId:
        return RowId.of(self.language, self.subset, self.key)

    def turn_row(self, n: int) -> Row:
        """Turn ``n`` (1-based) as a row: the conversation's key, language, subset and tags."""
        if not 1 <= n <= len(self.turns):
            raise IndexError(f"conversation {self.key!r} has {len(self.turns)} turns, not a turn {n}")
        turn = self.turns[n - 1]
        return Row(self.key, turn.prompt, turn.instruction_id_list, turn.kwargs, self.language, self.subset,
                   self.tags, None, self.source)

    def rows(self) -> list[Row]:
        return [self.turn_row(n) for n in range(1, len(self.turns) + 1)]

    def to_json(self) -> dict:
        """Our own line (``turns`` a list); Multi-IF's line is ``dataset.multiturn.multi_if_record``."""
        return {"format_version": CONVERSATION_FORMAT, "key": self.key, "language": self.language,
                "subset": self.subset, "tags": list(self.tags), "turns": [t.to_json() for t in self.turns]}

    @classmethod
    def from_json(cls, data: dict, source: Source | None = None) -> Conversation:
        """A conversation from our own line, not validated (``dataset.multiturn`` validates)."""
        turns = tuple(Turn(t["prompt"], tuple(t["instruction_id_list"]), tuple(dict(k or {}) for k in t["kwargs"]))
                      for t in data["turns"])
        return cls(data["key"], data["language"], turns, data.get("subset") or MULTITURN,
                   tuple(data.get("tags") or ()), source)
