"""The public scoring API: ``indicifeval.score(data, responses, ...)``."""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from indicifeval.checkers import ScoringMode, get_rules
from indicifeval.dataset import InputError, Responses, Row, load_responses, load_rows
from indicifeval.scoring.engine import RowScore, resolve_row, score_row
from indicifeval.scoring.summary import summarize
from indicifeval.text.reasoning import CLOSE_TAG, OPEN_TAG, split_reasoning


@dataclass
class ScoreResult:
    scores: list[RowScore]
    summary: dict
    scoring: str
    notes: list[str] = field(default_factory=list)

    def write(self, out_dir: str | Path) -> Path:
        """``scores.jsonl`` and ``summary.json`` in ``out_dir``."""
        out = Path(out_dir)
        self._write(out / "scores.jsonl", out / "summary.json")
        return out

    def write_named(self, out_dir: str | Path, tag: str) -> list[Path]:
        """``scores.<tag>.jsonl`` and ``summary.<tag>.json``, beside another mode's files."""
        out = Path(out_dir)
        paths = [out / f"scores.{tag}.jsonl", out / f"summary.{tag}.json"]
        self._write(*paths)
        return paths

    def _write(self, scores_path: Path, summary_path: Path) -> None:
        scores_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = scores_path.with_name(scores_path.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for s in self.scores:
                fh.write(json.dumps(s.to_json(), ensure_ascii=False) + "\n")
        tmp.replace(scores_path)
        summary_path.write_text(json.dumps(self.summary, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _score_chunk(chunk: list[tuple[Row, str | None, list[dict]]], mode: str) -> list[RowScore]:
    return [score_row(row, response, mode, args) for row, response, args in chunk]


def score_rows(
    pairs: list[tuple[Row, str | None]],
    scoring: ScoringMode | str = ScoringMode.FIXED,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> list[RowScore]:
    """Score (row, response) pairs; ``None`` responses score as failing."""
    mode = ScoringMode(scoring).value
    # Resolve every row's arguments first: a kwarg error stops the run before any work is done.
    jobs = [(row, response, resolve_row(row, ScoringMode(mode))) for row, response in pairs]
    if workers <= 1 or len(jobs) < 200:
        out = []
        for row, response, args in jobs:
            out.append(score_row(row, response, mode, args))
            if on_progress:
                on_progress(1)
        return out
    for rules in {get_rules(row.language, row.subset, mode) for row, _ in pairs}:
        rules.warm_up()  # load models once here; forked workers inherit them
    n_chunks = min(len(jobs), workers * 8)
    # Interleaved chunks, so languages with costlier checks (English) spread over all workers.
    chunks = [jobs[i::n_chunks] for i in range(n_chunks)]
    results: list[list[RowScore]] = [[] for _ in range(n_chunks)]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for i, result in enumerate(pool.map(_score_chunk, chunks, [mode] * n_chunks)):
            results[i] = result
            if on_progress:
                on_progress(len(result))
    out = [None] * len(pairs)
    for i, result in enumerate(results):
        out[i::n_chunks] = result
    return out


def pair_responses(
    rows: list[Row], responses: Responses, allow_missing: bool, strip_reasoning: bool = True
) -> tuple[list[tuple[Row, str | None]], int]:
    """(row, response) for every row; a ``<think>…</think>`` block is cut off the response
    unless ``strip_reasoning`` is False (reasoning is never what the instructions ask for)."""
    pairs, missing = [], 0
    for row in rows:
        try:
            text = responses.lookup(row)
        except InputError as exc:
            src = row.source
            raise InputError(exc.message, src.file if src else None, src.line if src else None, "key") from None
        if text is None:
            if not allow_missing:
                src = row.source
                raise InputError(
                    f"no response for {row.language}/{row.subset} key {row.key!r} (use --allow-missing to score it as failing)",
                    src.file if src else None, src.line if src else None, "response",
                )
            missing += 1
        elif strip_reasoning:
            text = split_reasoning(text).answer if (CLOSE_TAG in text or OPEN_TAG in text) else text
        pairs.append((row, text))
    return pairs, missing


def score(
    data: str | Path | Iterable[dict],
    responses: str | Path | Responses,
    *,
    language: str | None = None,
    subset: str | None = None,
    scoring: ScoringMode | str = ScoringMode.FIXED,
    allow_missing: bool = False,
    strip_reasoning: bool = True,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> ScoreResult:
    """Score model responses against benchmark rows.

    ``data``: a JSONL/JSON/Parquet path, ``"sample"``, or row dicts. ``responses``: a path
    (``{key, response}``, IFEval ``{prompt, response}`` or lm-eval ``--log_samples``) or a
    loaded ``Responses``. Raises ``InputError`` naming file, line and field on bad input.
    """
    mode = ScoringMode(scoring)
    rows = load_rows(data, language=language, subset=subset)
    if not isinstance(responses, Responses):
        responses = load_responses(responses)
    pairs, missing = pair_responses(rows, responses, allow_missing, strip_reasoning)
    if workers == 0:
        workers = os.cpu_count() or 1
    scores = score_rows(pairs, mode, workers=workers, on_progress=on_progress)
    summary = summarize(scores, mode.value)
    notes = []
    if missing:
        notes.append(f"{missing} rows had no response and were scored as failing")
    if mode is ScoringMode.PAPER:
        notes.append("paper mode: the authors' random defaults are drawn deterministically per row (docs/scoring.md)")
    return ScoreResult(scores, summary, mode.value, notes)


__all__ = ["ScoreResult", "pair_responses", "score", "score_rows"]
