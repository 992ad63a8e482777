"""The scorer as a reward: an item (an answer and the instructions it was asked to follow, or
the key of a benchmark row) becomes a verdict with a reward, by the same checkers as
``indicifeval score``, in the same record (``records.RowScore``, its ``reward`` set). An item
that cannot be scored (unknown instruction, bad kwargs, unknown language) is an ``InputError``
naming the item and the field; an answer never is: whatever its content, it gets a verdict (the
checkers never raise, and run in time linear in the answer)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from indicifeval.checkers import REGISTRY, ScoringMode
from indicifeval.core.errors import InputError, Source
from indicifeval.dataset.rows import check_key, parse_row
from indicifeval.records import Row, RowScore
from indicifeval.rewards.judging import DEFAULT_WEIGHT, Judge, JudgeItem, JudgeScore, judged_reward
from indicifeval.scoring.engine import resolve_row, score_row
from indicifeval.scoring.implicit import implicit_failures, parse_implicit
from indicifeval.text.reasoning import split_reasoning

REWARDS = ("all", "fraction", "loose-fraction")  # prompt-level strict, instruction-level strict, loose
# An instruction id no checker knows: a malformed request (error, the default), or, as NeMo Gym
# treats one, an instruction not followed (zero), said so in its explanation.
UNKNOWN_IDS = ("error", "zero")


class Prepared(NamedTuple):
    """An item made ready to score: its row (the instructions a checker knows), their resolved
    arguments, and where the ids no checker knows stood (``unknown_ids="zero"`` only)."""

    row: Row
    args: list[dict]
    unknown: tuple[tuple[int, str], ...] = ()


_ANY_ID = "punctuation:no_comma"  # a known id, to check the rest of a request of unknown ids only


def _not_followed(iid: str) -> str:
    return f"no checker for {iid!r}: not followed (serve --unknown-ids zero)"


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
    reasoning (``<think>…</think>``) is stripped first as ``run`` strips it, the implicit
    constraints (``scoring.implicit``: every one by default; ``None`` or ``"none"`` gives the
    plain IFEval reward), and optionally a dataset whose rows items may name by key. Parsed rows
    are remembered (an RL batch asks the same prompt for many answers)."""

    def __init__(self, scoring: ScoringMode | str = ScoringMode.FIXED, reward: str = "all",
                 strip_reasoning: bool = True, data: str | Path | Iterable[Row] | None = None,
                 max_answer_chars: int | None = None, unknown_ids: str = "error",
                 implicit: str | Sequence[str] | None = "all", judge: Judge | None = None,
                 judge_weight: float = DEFAULT_WEIGHT):
        self.mode = ScoringMode(scoring)
        self.judge, self.judge_weight = judge, judge_weight
        self.reward = _choice(reward, REWARDS, "reward")
        self.unknown_ids = _choice(unknown_ids, UNKNOWN_IDS, "unknown_ids")
        self.implicit = parse_implicit(implicit)
        self.strip_reasoning = strip_reasoning
        self.max_answer_chars = max_answer_chars
        self._by_key: dict[Any, list[Row]] = {}
        self._rows: dict[str, Prepared] = {}
        if data is not None:
            self._index(data)

    def _index(self, data: str | Path | Iterable[Row]) -> None:
        from indicifeval.dataset import load_rows

        rows = load_rows(data) if isinstance(data, (str, Path)) else list(data)
        for row in rows:
            self._by_key.setdefault(row.key, []).append(row)

    def row(self, item: dict, where: Source) -> Prepared:
        """The item's row and its resolved checker arguments (errors name ``where``), with the
        item's own ``prompt`` (the implicit constraints and the judge read it; the parsed row is
        remembered by its instructions alone)."""
        found = self._prepared(item, where)
        prompt = item.get("prompt")
        if isinstance(prompt, str) and prompt != found.row.prompt:
            found = found._replace(row=replace(found.row, prompt=prompt))
        return found

    def _prepared(self, item: dict, where: Source) -> Prepared:
        if not isinstance(item, dict):
            raise where.error(f"an item is a JSON object, got {type(item).__name__}")
        if "instruction_id_list" not in item:
            return self._keyed(item, where)
        named: tuple[str, ...] = ("language", "subset", "instruction_id_list", "kwargs", "resp_lang")
        named += ("key",) if self.mode is ScoringMode.PAPER else ()  # the paper's drawn kwargs depend on it
        memo = json.dumps([item.get(k) for k in named], sort_keys=True, ensure_ascii=False, default=str)
        found = self._rows.get(memo)
        if found is None:
            record = {"key": item.get("key", where.line or 0), "prompt": item.get("prompt") or "",
                      **{k: item[k] for k in ("language", "subset", "instruction_id_list", "kwargs", "resp_lang")
                         if k in item}}
            if record.get("kwargs") is None:  # no kwargs: none for any instruction (the ids are checked next)
                ids = record["instruction_id_list"]
                record["kwargs"] = [{} for _ in ids] if isinstance(ids, list) else []
            if isinstance(record.get("kwargs"), str):
                record["kwargs"] = _json_field(record["kwargs"], where, "kwargs")
            record, unknown = self._known_only(record)
            if unknown and not record["instruction_id_list"]:  # nothing a checker knows: the rest still checked
                row = replace(parse_row({**record, "instruction_id_list": [_ANY_ID], "kwargs": [{}]}, where),
                              instruction_id_list=(), kwargs=())
                found = Prepared(row, [], unknown)
            else:
                row = parse_row(record, where)
                found = Prepared(row, resolve_row(row, self.mode), unknown)
            if len(self._rows) < 100_000:
                self._rows[memo] = found
        return found

    def _known_only(self, record: dict) -> tuple[dict, tuple[tuple[int, str], ...]]:
        """With ``unknown_ids="zero"``: the record without the ids no checker knows, and where
        they stood."""
        ids, kwargs = record.get("instruction_id_list"), record.get("kwargs")
        if self.unknown_ids != "zero" or not isinstance(ids, list) or not isinstance(kwargs, list) or \
                len(ids) != len(kwargs):
            return record, ()
        unknown = tuple((n, iid) for n, iid in enumerate(ids) if isinstance(iid, str) and iid not in REGISTRY)
        if not unknown:
            return record, ()
        gone = {n for n, _ in unknown}
        return {**record, "instruction_id_list": [i for n, i in enumerate(ids) if n not in gone],
                "kwargs": [k for n, k in enumerate(kwargs) if n not in gone]}, unknown

    def _keyed(self, item: dict, where: Source) -> Prepared:
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
            self._rows[memo] = Prepared(rows[0], resolve_row(rows[0], self.mode))
        return self._rows[memo]

    def verdict(self, prepared: Prepared, response: Any, where: Source | None = None, key: Any = None) -> RowScore:
        """The answer's verdicts and reward (under the item's own ``key`` where it gave one)."""
        row, args = prepared.row, prepared.args
        text = answer_text(response)
        if text is not None and self.max_answer_chars is not None and len(text) > self.max_answer_chars:
            raise (where or Source("answer", None)).error(
                f"the answer is {len(text):,} characters, over the limit of {self.max_answer_chars:,}", "response")
        if text is not None and self.strip_reasoning:
            text = split_reasoning(text).answer
        score = score_row(row, text, self.mode, args)
        for n, iid in prepared.unknown:  # back in their places, not followed
            score.instruction_id_list.insert(n, iid)
            score.strict.insert(n, False)
            score.loose.insert(n, False)
            score.explanations.insert(n, _not_followed(iid))
        if prepared.unknown:
            score.prompt_strict = score.prompt_loose = False
        score.reward = reward_of(score.strict, score.loose, self.reward)
        if self.implicit:
            score.implicit = implicit_failures(row, args, text, checks=self.implicit)
            if score.implicit:
                score.reward = 0.0
        if key is not None:
            score.key = key
        return score

    def judged(self, verdicts: Sequence[RowScore], prompts: Sequence[str], answers: Sequence[Any]) -> None:
        """With a judge: the rewarded verdicts' rewards moved by its scores, asked in one batch
        (in place; each verdict says the judge's score or why there is none)."""
        if self.judge is None:
            return
        todo = [n for n, v in enumerate(verdicts) if v.reward and not v.implicit]
        items = [JudgeItem(prompts[n], self._answer(answers[n]), verdicts[n].language) for n in todo]
        try:
            scores = self.judge(items) if items else []
        except Exception as exc:  # a judge must never stop training
            scores = [JudgeScore(None, f"no judge score ({type(exc).__name__}): the verifiable reward")] * len(items)
        for n, score in zip(todo, scores):
            verdicts[n].reward = judged_reward(verdicts[n].reward or 0.0, score, self.judge_weight)
            verdicts[n].judge = score.note

    def _answer(self, response: Any) -> str:
        text = answer_text(response) or ""
        return split_reasoning(text).answer if self.strip_reasoning else text

    def score(self, items: Iterable[dict], where: str = "item",
              before_each: Callable[[], None] | None = None) -> list[RowScore]:
        """Verdicts for items (each its ``response``, and its ``prompt`` and ``key`` where given),
        the judge asked once for the batch; ``before_each`` may stop it (a deadline)."""
        items = list(items)
        out, prompts = [], []
        for index, item in enumerate(items):
            if before_each is not None:
                before_each()
            source = Source(where, index + 1)
            prepared = self.row(item, source)  # (an item that is no object is an error here)
            out.append(self.verdict(prepared, item.get("response"), source, item.get("key")))
            prompts.append(prepared.row.prompt)
        self.judged(out, prompts, [item.get("response") for item in items])
        return out


def _json_field(text: str, where: Source, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise where.error(f"{name} is a string but not JSON ({exc.msg})", name) from None


def score_batch(items: Iterable[dict], *, scoring: ScoringMode | str = ScoringMode.FIXED, reward: str = "all",
                strip_reasoning: bool = True, data: str | Path | None = None, unknown_ids: str = "error",
                implicit: str | Sequence[str] | None = "all", judge: Judge | None = None,
                judge_weight: float = DEFAULT_WEIGHT) -> list[RowScore]:
    """Verdicts for items ``{language, instruction_id_list, kwargs, response}`` (or ``{key,
    response}`` with ``data``; a ``prompt`` for the implicit constraints and the judge), in order."""
    return RewardScorer(scoring, reward, strip_reasoning, data, unknown_ids=unknown_ids, implicit=implicit,
                        judge=judge, judge_weight=judge_weight).score(items)


def legacy_think(think: str | None, strip_reasoning: bool) -> bool:
    """``strip_reasoning``, or what the setting's first spelling said (``think: strip|keep``, as
    verl configs and serve command lines written for indicifeval 0.1 still say)."""
    if think is None:
        return strip_reasoning
    return _choice(think, ("strip", "keep"), "think") == "strip"


__all__ = ["REWARDS", "UNKNOWN_IDS", "Prepared", "RewardScorer", "answer_text", "legacy_think", "reward_of",
           "score_batch"]
