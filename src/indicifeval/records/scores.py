"""One row's verdicts: a ``scores.jsonl`` line (``score`` and ``run`` folders alike), and a
reward's verdict (``rewards.score_batch``, ``indicifeval serve``'s ``/score``), which carries
the reward beside them. One record, one writer (``score_line``), one reader (``read_scores``),
so every tool writes and reads the same line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError, Source
from indicifeval.core.jsonl import read_jsonl
from indicifeval.records.ids import RowId

SCORE_FORMAT = 1

# the fields a reader needs, with their types (None: any JSON value); the others have defaults
_REQUIRED: dict[str, type | None] = {"key": None, "language": str, "subset": str, "instruction_id_list": list,
                                     "strict": list, "loose": list, "prompt_strict": bool, "prompt_loose": bool}


@dataclass
class RowScore:
    key: Any
    language: str
    subset: str
    instruction_id_list: list[str]
    strict: list[bool]
    loose: list[bool]
    prompt_strict: bool
    prompt_loose: bool
    explanations: list[str]
    response_missing: bool
    scoring: str
    version: str
    reward: float | None = None  # a reward's verdict only: scores.jsonl lines carry none
    # the implicit constraints the answer failed ("implicit:<name>: <why>"), where they were asked
    implicit: list[str] | None = None
    judge: str | None = None  # the judge's score or why there is none, where a judge was asked
    sample: int = 0  # which of a run's repeated samples of the row (0: the first, or the only one)
    turn: int = 0  # a conversation's turn (1, 2, 3...); 0: a single-turn row

    @property
    def id(self) -> RowId:
        return RowId.of(self.language, self.subset, self.key)

    def to_json(self) -> dict:
        # built by hand: dataclasses.asdict deep-copies every list, ten times slower
        out = {"key": self.key, "language": self.language, "subset": self.subset,
               "instruction_id_list": self.instruction_id_list, "strict": self.strict, "loose": self.loose,
               "prompt_strict": self.prompt_strict, "prompt_loose": self.prompt_loose,
               "explanations": self.explanations, "response_missing": self.response_missing,
               "scoring": self.scoring, "version": self.version}
        if self.reward is not None:
            out["reward"] = self.reward
        if self.implicit is not None:
            out["implicit"] = self.implicit
        if self.judge is not None:
            out["judge"] = self.judge
        if self.sample:
            out["sample"] = self.sample
        if self.turn:
            out["turn"] = self.turn
        out["format_version"] = SCORE_FORMAT
        return out

    @classmethod
    def from_json(cls, data: dict, source: Source | None = None) -> RowScore:
        """The record of a line; a missing or mistyped field is an InputError naming it (and the
        file and line, given ``source``). Lines written before ``scoring`` and ``version`` were
        recorded read as fixed mode, version unknown."""
        for name, kind in _REQUIRED.items():
            if name not in data:
                raise _error(source, "a scores line needs this field (score the folder again?)", name)
            if kind is not None and not isinstance(data[name], kind):
                raise _error(source, f"must be a {kind.__name__}, got {type(data[name]).__name__}", name)
        reward, implicit = data.get("reward"), data.get("implicit")
        if implicit is not None and not (isinstance(implicit, list) and all(isinstance(i, str) for i in implicit)):
            raise _error(source, "must be a list of strings", "implicit")
        return cls(data["key"], data["language"], data["subset"], data["instruction_id_list"], data["strict"],
                   data["loose"], data["prompt_strict"], data["prompt_loose"], data.get("explanations") or [],
                   bool(data.get("response_missing")), str(data.get("scoring") or "fixed"),
                   str(data.get("version") or ""), None if reward is None else float(reward), implicit,
                   data.get("judge") if isinstance(data.get("judge"), str) else None,
                   _sample(data.get("sample")), _sample(data.get("turn")))


def _sample(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _error(source: Source | None, message: str, field: str) -> InputError:
    return source.error(message, field) if source is not None else InputError(message, field=field)


_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps' work, without its per-call set-up


def score_line(score: RowScore) -> str:
    """The JSON line of a verdict, as every scores file holds it."""
    return _encode(score.to_json()) + "\n"


def read_scores(path: str | Path) -> Iterator[RowScore]:
    """The verdicts of a scores file, line by line (any version this package wrote)."""
    for source, record in read_jsonl(path):
        yield RowScore.from_json(record, source)


__all__ = ["SCORE_FORMAT", "RowScore", "read_scores", "score_line"]
