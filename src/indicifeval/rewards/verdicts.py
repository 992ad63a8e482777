"""The scorer as a reward: an item (an answer and the instructions it was asked to follow, or
the key of a benchmark row) becomes a verdict with a reward, by the same checkers as
``indicifeval score``, in the same record (``records.RowScore``, its ``reward`` set). An item
that cannot be scored (unknown instruction, bad kwargs, unknown language) is an ``InputError``
naming the item and the field; an answer never is: whatever its content, it gets a verdict (the
checkers never raise, and run in time linear in the answer)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from indicifeval.checkers import ScoringMode
from indicifeval.core.errors import InputError, Source
from indicifeval.dataset.rows import check_key, parse_row
from indicifeval.records import Row, RowScore
from indicifeval.scoring.engine import resolve_row, score_row
from indicifeval.text.reasoning import split_reasoning

REWARDS = ("all", "fraction", "loose-fraction")  # prompt-level strict, instruction-level strict, loose


def reward_of(strict: Sequence[bool], loose: Sequence[bool], kind: str) -> float:
    if kind == "all":
        return 1.0 if all(strict) else 0.0
    values = strict if kind == "fraction" else loose
    return sum(values) / len(values) if values else 0.0


def answer_text(response: Any) -> str | None:
    """The answer in a completion as trainers and servers hand it over: a string; a chat
    completion (a list of messages: the last assistant message's content, a string or a list
    of text parts); a message dict. None (or anything else) is a missing answer."""
    if isinstance(response, str):
        return response
    if isinstance(response, dict):
        return _content(response.get("content"))
    if isinstance(response, (list, tuple)):
        messages = [m for m in response if isinstance(m, dict)]
        mine = [m for m in messages if m.get("role", "assistant") == "assistant"] or messages
        return _content(mine[-1].get("content")) if mine else None
    return None


def _content(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # [{"type": "text", "text": ...}, ...]
        parts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "".join(parts) if parts else None
    return None


def _choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise InputError(f"{name} must be one of {', '.join(allowed)}, got {value!r}", field=name)
    return value


class RewardScorer:
    """Items to verdicts under one set of settings: the scoring mode, the reward, whether
    reasoning (``<think>…</think>``) is stripped first as ``run`` strips it, and optionally a
    dataset whose rows items may name by key. Parsed rows are remembered (an RL batch asks the
    same prompt for many answers)."""

    def __init__(self, scoring: ScoringMode | str = ScoringMode.FIXED, reward: str = "all",
                 strip_reasoning: bool = True, data: str | Path | Iterable[Row] | None = None,
                 max_answer_chars: int | None = None):
        self.mode = ScoringMode(scoring)
        self.reward = _choice(reward, REWARDS, "reward")
        self.strip_reasoning = strip_reasoning
        self.max_answer_chars = max_answer_chars
        self._by_key: dict[Any, list[Row]] = {}
        self._rows: dict[str, tuple[Row, list[dict]]] = {}
        if data is not None:
            self._index(data)

    def _index(self, data: str | Path | Iterable[Row]) -> None:
        from indicifeval.dataset import load_rows

        rows = load_rows(data) if isinstance(data, (str, Path)) else list(data)
        for row in rows:
            self._by_key.setdefault(row.key, []).append(row)

    def row(self, item: dict, where: Source) -> tuple[Row, list[dict]]:
        """The item's row and its resolved checker arguments (errors name ``where``)."""
        if not isinstance(item, dict):
            raise where.error(f"an item is a JSON object, got {type(item).__name__}")
        if "instruction_id_list" not in item:
            return self._keyed(item, where)
        named: tuple[str, ...] = ("language", "subset", "instruction_id_list", "kwargs")
        named += ("key",) if self.mode is ScoringMode.PAPER else ()  # the paper's drawn kwargs depend on it
        memo = json.dumps([item.get(k) for k in named], sort_keys=True, ensure_ascii=False, default=str)
        found = self._rows.get(memo)
        if found is None:
            record = {"key": item.get("key", where.line or 0), "prompt": item.get("prompt") or "",
                      **{k: item[k] for k in ("language", "subset", "instruction_id_list", "kwargs") if k in item}}
            if record.get("kwargs") is None:  # no kwargs: none for any instruction (the ids are checked next)
                ids = record["instruction_id_list"]
                record["kwargs"] = [{} for _ in ids] if isinstance(ids, list) else []
            if isinstance(record.get("kwargs"), str):
                record["kwargs"] = _json_field(record["kwargs"], where, "kwargs")
            row = parse_row(record, where)
            found = (row, resolve_row(row, self.mode))
            if len(self._rows) < 100_000:
                self._rows[memo] = found
        return found

    def _keyed(self, item: dict, where: Source) -> tuple[Row, list[dict]]:
        if "key" not in item:
            raise where.error("an item needs instruction_id_list (with kwargs and language) or the key of a row of "
                              "the dataset loaded with --data", "instruction_id_list")
        if not self._by_key:
            raise where.error("this item names a row by key, but no dataset was loaded (--data)", "key")
        check_key(item["key"], where)
        rows = [r for r in self._by_key.get(item["key"], []) if all(
            item.get(f) in (None, getattr(r, f)) for f in ("language", "subset"))]
        if len(rows) != 1:
            what = "no row has" if not rows else f"{len(rows)} rows have"
            raise where.error(f"{what} the key {item['key']!r}" + (" (give its language and subset)" if rows else ""),
                              "key")
        memo = f"\x00{rows[0].id}"
        if memo not in self._rows:
            self._rows[memo] = (rows[0], resolve_row(rows[0], self.mode))
        return self._rows[memo]

    def verdict(self, row: Row, args: list[dict], response: Any, where: Source | None = None,
                key: Any = None) -> RowScore:
        """The answer's verdicts and reward (under the item's own ``key`` where it gave one)."""
        text = answer_text(response)
        if text is not None and self.max_answer_chars is not None and len(text) > self.max_answer_chars:
            raise (where or Source("answer", None)).error(
                f"the answer is {len(text):,} characters, over the limit of {self.max_answer_chars:,}", "response")
        if text is not None and self.strip_reasoning:
            text = split_reasoning(text).answer
        score = score_row(row, text, self.mode, args)
        score.reward = reward_of(score.strict, score.loose, self.reward)
        if key is not None:
            score.key = key
        return score

    def score(self, items: Iterable[dict], where: str = "item") -> list[RowScore]:
        out = []
        for index, item in enumerate(items):
            source = Source(where, index + 1)
            row, args = self.row(item, source)
            out.append(self.verdict(row, args, item.get("response"), source, item.get("key")))
        return out


def _json_field(text: str, where: Source, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise where.error(f"{name} is a string but not JSON ({exc.msg})", name) from None


def score_batch(items: Iterable[dict], *, scoring: ScoringMode | str = ScoringMode.FIXED, reward: str = "all",
                strip_reasoning: bool = True, data: str | Path | None = None) -> list[RowScore]:
    """Verdicts for items ``{language, instruction_id_list, kwargs, response}`` (or ``{key,
    response}`` with ``data``), in order."""
    return RewardScorer(scoring, reward, strip_reasoning, data).score(items)


def legacy_think(think: str | None, strip_reasoning: bool) -> bool:
    """``strip_reasoning``, or what the setting's first spelling said (``think: strip|keep``, as
    verl configs and serve command lines written for indicifeval 0.1 still say)."""
    if think is None:
        return strip_reasoning
    return _choice(think, ("strip", "keep"), "think") == "strip"


__all__ = ["REWARDS", "RewardScorer", "answer_text", "legacy_think", "reward_of", "score_batch"]
