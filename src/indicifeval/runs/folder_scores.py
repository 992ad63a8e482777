"""Scoring a run folder from what it holds: ``rows.jsonl`` and the latest generation of each
item, taken only if it was made for the row's current content."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from indicifeval.checkers import ScoringMode
from indicifeval.core.errors import InputError
from indicifeval.dataset import Row, load_rows
from indicifeval.dataset.multiturn import is_multiturn_data, load_conversations
from indicifeval.dataset.turn_answers import TurnAnswers
from indicifeval.records import Generation, RunManifest, model_facts
from indicifeval.records.layout import ROWS
from indicifeval.runs.conversations import all_turn_uids, turn_answers
from indicifeval.runs.sampling import sample_uid
from indicifeval.runs.store import RunStore, now_iso
from indicifeval.scoring.api import score_rows
from indicifeval.scoring.multiturn import score_conversations
from indicifeval.scoring.output import ScoreResult
from indicifeval.scoring.samples import summarize_samples
from indicifeval.scoring.summary import summarize


def usable(generation: dict | None, row: Row) -> bool:
    """A generation answers ``row`` if it did not fail and was made for the row's content."""
    return generation is not None and Generation.from_json(generation).usable_for(row.content_hash)


def score_folder(folder: str | Path, scoring: ScoringMode | str = ScoringMode.FIXED) -> ScoreResult:
    """Score a run folder's answers (rows.jsonl + generations.jsonl) without generating; ``scoring``
    may be a mode's name as a manifest holds it."""
    store = RunStore(folder)
    if not (store.folder / ROWS).exists():
        raise InputError("not a run folder (no rows.jsonl)", str(store.folder))
    mode = ScoringMode(scoring)
    generations = store.latest_generations()
    manifest = store.read_manifest()
    if is_multiturn_data(store.folder / ROWS):
        return _score_turns(store, mode, generations, manifest.to_json() if manifest else {})
    rows = load_rows(store.folder / ROWS)
    k = max(1, manifest.samples if manifest else 1)
    pairs: list[tuple[Row, str | None]] = []
    uids: list[str] = []
    missing = failed = stale = 0
    for s in range(k):  # sample by sample, as the run asks them; one sample: the rows in order
        for row in rows:
            uid = sample_uid(str(row.id), s)
            uids.append(uid)
            g = generations.get(uid)
            if usable(g, row):
                pairs.append((row, (g or {}).get("answer") or ""))
                continue
            pairs.append((row, None))
            if g is None:
                missing += 1
            elif g.get("error"):
                failed += 1
            else:
                stale += 1
    scores = score_rows(pairs, mode)
    for i, score in enumerate(scores):
        score.sample = i // len(rows)
    summary = summarize(scores, mode)
    if k > 1:
        summary["samples"] = summarize_samples(scores, k)
    summary["run"] = _run_stats(uids, generations, manifest.to_json() if manifest else {}, failed, stale)
    if k > 1:
        summary["run"]["samples"] = k
    notes = []
    if missing:
        notes.append(f"{missing} items have no generation yet (scored as failing); run again to finish them")
    if failed:
        reasons = Counter(str(generations[uid].get("error")) for uid, (_, t) in zip(uids, pairs)
                          if t is None and (generations.get(uid) or {}).get("error"))
        top = "; ".join(f"{n} × {why}" for why, n in reasons.most_common(3))
        notes.append(f"{failed} items failed (scored as failing; run again to retry them): {top}")
    if stale:
        notes.append(f"{stale} answers were made for an earlier version of their row (scored as failing); run again "
                     f"to generate them anew")
    stats = summary["run"]
    if stats["truncated"]:
        notes.append(f"{sum(stats['truncated'].values())} answers hit the token limit (finish_reason 'length')")
    if stats["capped"]:
        notes.append(f"{stats['capped']} answers were longer than the answer-size cap and were cut (see "
                     f"capped_from_chars in generations.jsonl)")
    if stats["reasoning_unterminated"]:
        notes.append(f"{stats['reasoning_unterminated']} answers are empty: the reasoning never ended")
    rows_scored = [r for r, _ in pairs]
    return ScoreResult(scores, summary, mode, notes, rows_scored, [t for _, t in pairs])


def _score_turns(store: RunStore, mode: ScoringMode, generations: dict[str, dict], manifest: dict) -> ScoreResult:
    """A run of conversations: a score line per turn (``scoring.multiturn``); a turn counts only
    when its answer was made for the conversation as it went (``runs.turns``)."""
    conversations = load_conversations(store.folder / ROWS)
    answers, stops = turn_answers(conversations, generations)
    found = TurnAnswers(by_language=dict(answers))
    result = score_conversations(conversations, found, scoring=mode, allow_missing=True, strip_reasoning=False)
    uids = all_turn_uids(conversations)
    failed = stops.get("failed", 0)
    result.summary["run"] = _run_stats(uids, generations, manifest, failed, stops.get("stale", 0))
    result.summary["run"]["conversations"] = len(conversations)
    notes = [n for n in result.notes if "had no answer" not in n]
    unanswered = len(uids) - len(answers)
    if unanswered:
        notes.insert(0, f"{unanswered} turns have no usable answer yet (scored as failing; a turn after an "
                        f"unanswered one is never asked): {stops.get('missing', 0)} conversations stop at a turn not "
                        f"asked yet, {failed} at a failed one, {stops.get('stale', 0)} at one asked for another "
                        f"history; run again to finish them")
    result.notes[:] = notes
    return result


def _run_stats(uids: list[str], generations: dict[str, dict], manifest: dict, failed: int, stale: int) -> dict:
    truncated: Counter[str] = Counter()
    generated: Counter[str] = Counter()
    unterminated = capped = 0
    usage: dict[str, float] = {}
    wanted = set(uids)
    for uid, g in generations.items():
        if uid not in wanted or g.get("error"):
            continue
        generated[g["language"]] += 1
        truncated[g["language"]] += bool(g.get("truncated"))
        unterminated += bool(g.get("reasoning_unterminated"))
        capped += g.get("capped_from_chars") is not None
        for k, v in (g.get("usage") or {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                usage[k] = usage.get(k, 0) + v
    facts = model_facts(manifest)
    return {
        "model": facts["model"],
        "backend": facts["backend"],
        "thinking": facts["thinking"],
        "items": len(uids),
        "generated": dict(sorted(generated.items())),
        "failed": failed,
        "stale": stale,
        "truncated": {k: v for k, v in sorted(truncated.items()) if v},
        "capped": capped,
        "reasoning_unterminated": unterminated,
        "usage": dict(usage),
        "data": manifest.get("data"),
    }


def rescore(folder: str | Path, scoring: ScoringMode | str) -> tuple[ScoreResult, list[Path]]:
    """``score --run``: score the folder in ``scoring`` and keep it beside the other modes."""
    store = RunStore(folder)
    if not (store.folder / ROWS).exists():
        raise InputError("not a run folder (no rows.jsonl)", str(store.folder))
    with store.lock("score"):
        store.repair()
        result = score_folder(store.folder, scoring)
        manifest = store.read_manifest() or RunManifest(model={}, scoring=str(result.scoring))
        written = store.write_scores(result, manifest)
        manifest.rescored_at = now_iso()
        store.write_manifest(manifest)
    return result, written


__all__ = ["rescore", "score_folder", "usable"]
