"""Scoring conversations: each turn's answer against the instructions the data lists for that
turn (cumulative in Multi-IF's data; nothing is decided here), by ``score_row`` on the turn's
row, so every language rule of single-turn scoring holds. A turn after an unanswered one is
scored as missing: its answer could not have been given to the conversation the data holds.

The summary is ``summarize``'s over every turn's verdict, with ``per_turn`` and
``per_language_turn``: the four IFEval figures of each turn (a conversation counts as a prompt
at each turn it has) and Multi-IF's headline, ``multi_if``: the mean of the four."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from indicifeval.checkers import ScoringMode
from indicifeval.core.errors import InputError
from indicifeval.dataset.multiturn import load_conversations
from indicifeval.dataset.turn_answers import MISSING, TurnAnswers, load_turn_answers
from indicifeval.records import Conversation, Row, RowScore
from indicifeval.scoring.api import score_rows
from indicifeval.scoring.engine import resolve_row
from indicifeval.scoring.output import RESPONSES_FORMAT, ScoreResult, describe_input
from indicifeval.scoring.summary import METRICS, summarize
from indicifeval.text.reasoning import CLOSE_TAG, OPEN_TAG, split_reasoning


def turn_pairs(conversations: list[Conversation], answers: TurnAnswers, allow_missing: bool,
               strip_reasoning: bool = True) -> tuple[list[tuple[int, Row, str | None]], int]:
    """(turn, row, answer) for every turn of every conversation, and how many have no answer
    (unanswered, recorded as missing, or after an unanswered turn)."""
    out: list[tuple[int, Row, str | None]] = []
    missing = 0
    for conv in conversations:
        broken = False
        for n in range(1, len(conv.turns) + 1):
            row = conv.turn_row(n)
            found = answers.lookup(conv, n)
            text: str | None = None if broken or found is MISSING else found
            if text is None:
                if not allow_missing:
                    src = conv.source
                    why = "an earlier turn has none" if broken else "none given"
                    raise InputError(f"no answer for {conv.language}/{conv.subset} key {conv.key!r} turn {n} ({why}; "
                                     f"use --allow-missing to score it as failing)", src.file if src else None,
                                     src.line if src else None, "response")
                missing += 1
                broken = True
            elif strip_reasoning and "think>" in text and (CLOSE_TAG in text or OPEN_TAG in text):
                text = split_reasoning(text).answer
            out.append((n, row, text))
    return out, missing


def _resolved(n: int, row: Row, mode: ScoringMode) -> None:
    """The turn's arguments resolve; an error names the turn's field (``turn_2_kwargs[0]...``)."""
    try:
        resolve_row(row, mode)
    except InputError as exc:
        field = f"turn_{n}_{exc.field}" if exc.field else None
        raise InputError(exc.message, exc.file, exc.line, field) from None


def turn_summary(scores: Iterable[RowScore]) -> tuple[dict, dict]:
    """(per_turn, per_language_turn): per turn "1", "2"... the four figures, prompts,
    instructions and ``multi_if`` (the mean of the four, Multi-IF's headline)."""
    per: dict[tuple[str, int], list[RowScore]] = {}
    for s in scores:
        per.setdefault(("", s.turn), []).append(s)
        per.setdefault((s.language, s.turn), []).append(s)
    blocks = {k: _figures(v) for k, v in per.items()}
    per_turn = {str(t): blocks[("", t)] for t in sorted(t for lang, t in blocks if not lang)}
    per_language_turn: dict[str, dict] = {}
    for lang, t in sorted(k for k in blocks if k[0]):
        per_language_turn.setdefault(lang, {})[str(t)] = blocks[(lang, t)]
    return per_turn, per_language_turn


def _figures(scores: list[RowScore]) -> dict:
    prompts, instructions = len(scores), sum(len(s.strict) for s in scores)
    out: dict[str, Any] = {
        "prompt_level_strict_acc": sum(s.prompt_strict for s in scores) / prompts,
        "inst_level_strict_acc": sum(map(sum, (s.strict for s in scores))) / instructions if instructions else None,
        "prompt_level_loose_acc": sum(s.prompt_loose for s in scores) / prompts,
        "inst_level_loose_acc": sum(map(sum, (s.loose for s in scores))) / instructions if instructions else None,
    }
    values = [out[m] for m in METRICS]
    out["multi_if"] = sum(values) / 4 if None not in values else None
    out["prompts"], out["instructions"] = prompts, instructions
    out["missing_responses"] = sum(s.response_missing for s in scores)
    return out


def score_conversations(
    data: str | Path | Iterable[dict] | Iterable[Conversation],
    answers: str | Path | TurnAnswers | Iterable[dict] | Mapping[Any, list],
    *,
    language: str | None = None,
    languages: Iterable[str] | None = None,
    scoring: ScoringMode | str = ScoringMode.FIXED,
    allow_missing: bool = False,
    strip_reasoning: bool = True,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> ScoreResult:
    """Score answers turn by turn: one ``RowScore`` per turn (``turn`` set), in conversation order.
    ``data``: Multi-IF's CSV/JSONL or our conversations JSONL, or dicts or ``Conversation``s;
    ``answers``: ``{key, turn, response}`` or ``{key, responses: [...]}`` lines (a path or dicts),
    a key -> answers mapping, or ``TurnAnswers``. Raises InputError naming file, line and field."""
    mode = ScoringMode(scoring)
    conversations = load_conversations(data, language, list(languages) if languages is not None else None)
    loaded = answers if isinstance(answers, TurnAnswers) else load_turn_answers(answers)
    triples, missing = turn_pairs(conversations, loaded, allow_missing, strip_reasoning)
    for n, row, _ in triples:
        _resolved(n, row, mode)
    if workers == 0:
        import os

        workers = os.cpu_count() or 1
    if on_total:
        on_total(len(triples))
    scores = score_rows([(row, text) for _, row, text in triples], mode, workers=workers, on_progress=on_progress)
    for (n, _, _), s in zip(triples, scores):
        s.turn = n
    summary = summarize(scores, mode)
    summary["per_turn"], summary["per_language_turn"] = turn_summary(scores)
    notes = []
    if missing:
        notes.append(f"{missing} turns had no answer (or followed an unanswered turn) and were scored as failing")
    if mode is ScoringMode.PAPER:
        notes.append("paper mode: the authors' random defaults are drawn deterministically per row (docs/scoring.md)")
    responses = [{"key": row.key, "language": row.language, "subset": row.subset, "turn": n, "response": text,
                  "format_version": RESPONSES_FORMAT} for n, row, text in triples]
    inputs = {"data": describe_input(data), "responses": describe_input(answers)}
    options = {"language": language, "languages": list(languages) if languages is not None else "all",
               "multiturn": True, "allow_missing": allow_missing, "strip_reasoning": strip_reasoning}
    return ScoreResult(scores, summary, mode, notes, None, None, inputs, options,
                       [c.to_json() for c in conversations], responses)


__all__ = ["score_conversations", "turn_pairs", "turn_summary"]
