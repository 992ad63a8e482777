"""The public scoring API: ``indicifeval.score(data, responses, ...)``."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from indicifeval.checkers import ScoringMode, get_rules
from indicifeval.dataset import (
    InputError,
    Responses,
    Row,
    load_dataset,
    load_responses,
    parse_languages,
    parse_subsets,
    select,
)
from indicifeval.scoring.engine import RowScore, resolve_row, score_row
from indicifeval.scoring.output import ScoreResult, describe_input
from indicifeval.scoring.summary import summarize
from indicifeval.text.reasoning import CLOSE_TAG, OPEN_TAG, split_reasoning

# The jobs of the scoring run in progress, for forked workers to read instead of receiving them
# pickled (the rows and answers of a benchmark are tens of MB; a fork shares them for free).
_JOBS: list[tuple[Row, str | None, list[dict]]] = []


def _score_chunk(chunk: list[tuple[Row, str | None, list[dict]]], mode: ScoringMode) -> list[RowScore]:
    return [score_row(row, response, mode, args) for row, response, args in chunk]


def _score_slice(start: int, step: int, mode: ScoringMode) -> list[RowScore]:
    return _score_chunk(_JOBS[start::step], mode)


_MANY = 200  # rows from which models are loaded up front (and workers used, when asked for)


@contextmanager
def _frozen(active: bool) -> Iterator[None]:
    """The objects alive now (inputs, models) kept out of the collector's passes while the
    rows are scored: its full passes need not walk them again and again (5-8% of the CPU
    time of a large file), and forked workers do not copy the pages it would touch. Its
    passes over the young objects come less often too (see ``_few_collections``)."""
    if not active:
        yield
        return
    gc.freeze()
    try:
        with _few_collections():
            yield
    finally:
        gc.unfreeze()


@contextmanager
def _few_collections() -> Iterator[None]:
    """The collector's youngest pass every 50,000 new containers, not every 700, while a
    large input is read or scored: reading makes tens of thousands of objects that all live
    on, scoring makes short-lived ones freed by their counts (few cycles), so the frequent
    passes find nothing to free (3-6% of the CPU time of a large file)."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], 50_000), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def score_rows(
    pairs: list[tuple[Row, str | None]],
    scoring: ScoringMode | str = ScoringMode.FIXED,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> list[RowScore]:
    """Score (row, response) pairs; ``None`` responses score as failing."""
    mode = ScoringMode(scoring)
    # Resolve every row's arguments first: a kwarg error stops the run before any work is done.
    jobs = [(row, response, resolve_row(row, mode)) for row, response in pairs]
    many = len(jobs) >= _MANY
    if many:
        for rules in {get_rules(row.language, row.subset, mode) for row, _ in pairs}:
            rules.warm_up()  # load models once here; forked workers inherit them
    if workers <= 1 or not many:
        serial = []
        with _frozen(many):
            for row, response, args in jobs:
                serial.append(score_row(row, response, mode, args))
                if on_progress:
                    on_progress(1)
        return serial
    n_chunks = min(len(jobs), workers * 8)
    # Interleaved chunks, so languages with costlier checks (English) spread over all workers.
    results: list[list[RowScore]] = [[] for _ in range(n_chunks)]
    import multiprocessing  # (here: a serial run does without it, 12 ms of start-up)
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    forked = "fork" in methods
    context = multiprocessing.get_context("fork" if forked else None)
    global _JOBS
    _JOBS = jobs if forked else []
    try:
        # frozen, the inherited objects are left alone by the collector: fewer copied pages per worker
        with _frozen(forked), ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            if forked:  # the workers have the jobs already: send each only where its slice starts
                mapped = pool.map(_score_slice, range(n_chunks), [n_chunks] * n_chunks, [mode] * n_chunks)
            else:
                chunks = [jobs[i::n_chunks] for i in range(n_chunks)]
                mapped = pool.map(_score_chunk, chunks, [mode] * n_chunks)
            for i, result in enumerate(mapped):
                results[i] = result
                if on_progress:
                    on_progress(len(result))
    finally:
        _JOBS = []
    out: list[Any] = [None] * len(pairs)
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
        text = responses.lookup(row)
        if text is None:
            if not allow_missing:
                src = row.source
                raise InputError(
                    f"no response for {row.language}/{row.subset} key {row.key!r} "
                    "(use --allow-missing to score it as failing)",
                    src.file if src else None, src.line if src else None, "response",
                )
            missing += 1
        elif strip_reasoning:
            # (both tags end in "think>": one scan of a long answer where neither is)
            if "think>" in text and (CLOSE_TAG in text or OPEN_TAG in text):
                text = split_reasoning(text).answer
        pairs.append((row, text))
    return pairs, missing


def score(
    data: str | Path | Iterable[dict],
    responses: str | Path | Responses | Iterable[dict] | Mapping[Any, str],
    *,
    language: str | None = None,
    subset: str | None = None,
    languages: str | Iterable[str] | None = None,
    subsets: str | Iterable[str] | None = None,
    tags: Iterable[str] | None = None,
    scoring: ScoringMode | str = ScoringMode.FIXED,
    allow_missing: bool = False,
    strip_reasoning: bool = True,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> ScoreResult:
    """Score model responses against benchmark rows.

    ``data``: a JSONL/JSON/Parquet path or folder (the hub's parquet layout included),
    ``"sample"``, ``"hub"``, or row dicts. ``responses``: a path (``{key, response}``, IFEval
    ``{prompt, response}`` or lm-eval ``--log_samples`` files or their folder), a loaded
    ``Responses``, a list of such dicts, or a mapping of key to text. ``language``/``subset``
    fill in rows that carry none; ``languages``/``subsets``/``tags`` select rows.
    ``on_total(n)`` is told the number of rows, ``on_progress(k)`` as they are scored. Raises
    ``InputError`` naming file, line and field on bad input.
    """
    mode = ScoringMode(scoring)
    langs = parse_languages(languages)
    subset_list = parse_subsets(subsets)
    with _few_collections():
        if isinstance(data, (str, Path)):
            rows = load_dataset(subset_list, langs, data, tags=tags, language=language, subset=subset).rows
        else:
            from indicifeval.dataset import load_rows

            rows = select(load_rows(data, language, subset), subset_list, langs, tags)
            if not rows:
                raise InputError("no rows left after choosing subsets, languages and tags")
        if not isinstance(responses, Responses):
            loaded = load_responses(responses, allow_missing=allow_missing)
        else:
            loaded = responses
    pairs, missing = pair_responses(rows, loaded, allow_missing, strip_reasoning)
    if workers == 0:
        workers = os.cpu_count() or 1
    if on_total:
        on_total(len(pairs))
    scores = score_rows(pairs, mode, workers=workers, on_progress=on_progress)
    summary = summarize(scores, mode)
    notes = []
    if missing:
        notes.append(f"{missing} rows had no response and were scored as failing")
    if mode is ScoringMode.PAPER:
        notes.append("paper mode: the authors' random defaults are drawn deterministically per row (docs/scoring.md)")
    inputs = {"data": describe_input(data), "responses": describe_input(responses)}
    options = {"language": language, "subset": subset, "languages": langs or "all", "subsets": subset_list,
               "tags": list(tags or []), "allow_missing": allow_missing, "strip_reasoning": strip_reasoning}
    return ScoreResult(scores, summary, mode, notes, [r for r, _ in pairs], [t for _, t in pairs],
                       inputs, options)


__all__ = ["ScoreResult", "pair_responses", "score", "score_rows"]
