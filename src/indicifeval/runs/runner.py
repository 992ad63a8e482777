"""``run``: generate answers for benchmark rows with a backend, resumably, then score them."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.checkers import ScoringMode
from indicifeval.dataset import InputError, Row, load_dataset, load_rows
from indicifeval.runs.backends import Backend, create_backend
from indicifeval.runs.requests import GenerationConfig, GenerationRequest, GenerationResult, uid_of
from indicifeval.runs.store import ROWS, RunMismatch, RunStore, now_iso, result_record
from indicifeval.text.reasoning import split_reasoning
from indicifeval.scoring.api import ScoreResult, score_rows
from indicifeval.scoring.summary import summarize


@dataclass
class DataOptions:
    source: str = "hub"
    subsets: tuple[str, ...] = ("trans", "ground")
    languages: str | list[str] | None = "all"
    tags: tuple[str, ...] = ()
    limit: int | None = None
    revision: str | None = None


@dataclass
class RunOutcome:
    folder: Path
    generated: int
    resumed: int
    result: ScoreResult
    notes: list[str] = field(default_factory=list)


def _manifest(config: GenerationConfig, data_info: dict, scoring: str, backend_options: dict) -> dict:
    return {
        "indicifeval_version": __version__,
        "generation": config.to_json(),
        "data": {k: data_info.get(k) for k in ("source", "repo", "revision", "subsets", "languages", "tags", "limit")},
        "backend_options": backend_options,
        "scoring": scoring,
    }


def run(
    config: GenerationConfig,
    out: str | Path,
    data: DataOptions | None = None,
    *,
    scoring: ScoringMode | str = ScoringMode.FIXED,
    backend_options: dict[str, Any] | None = None,
    backend: Backend | None = None,
    on_total: Callable[[int, int], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Generate every missing item of the run folder ``out``, then score the whole run.

    Running the same call again resumes: finished items are not generated again. A folder
    made with other generation or data settings is refused (RunMismatch).
    ``backend_options`` go to the backend (base_url, concurrency, dtype…) and to the manifest,
    so they must hold no secrets (API keys are read from the environment by the backend).
    """
    data = data or DataOptions()
    backend_options = dict(backend_options or {})
    mode = ScoringMode(scoring)
    dataset = load_dataset(data.subsets, data.languages, data.source, revision=data.revision,
                           tags=data.tags, limit=data.limit)
    store = RunStore(out)
    manifest = _manifest(config, dataset.info, mode.value, backend_options)
    old = store.check_resumable(manifest)
    store.repair()
    rows_by_uid = {uid_of(r.language, r.subset, r.key): r for r in dataset.rows}
    done = {g["uid"] for g in store.read_generations() if g.get("uid") in rows_by_uid}
    pending = [uid for uid in rows_by_uid if uid not in done]
    manifest["started_at"] = (old or {}).get("started_at") or now_iso()
    manifest["status"] = "generating"
    manifest["items"] = len(rows_by_uid)
    manifest["backend"] = (old or {}).get("backend")
    store.write_manifest(manifest)
    store.write_rows(dataset.rows)
    if on_total:
        on_total(len(rows_by_uid), len(done))

    notes: list[str] = []
    if pending:
        if backend is None:
            backend = create_backend(config.backend, config, **backend_options)
        described = backend.describe()
        previous = manifest.get("backend") or {}
        if previous.get("chat_template_hash") and described.get("chat_template_hash") and \
                previous["chat_template_hash"] != described["chat_template_hash"]:
            raise RunMismatch(f"the model's chat template changed (hash {previous['chat_template_hash']} in the "
                              f"folder, {described['chat_template_hash']} now)", str(store.manifest_path))
        manifest["backend"] = described
        store.write_manifest(manifest)
        _generate(backend, config, store, [rows_by_uid[u] for u in pending], on_progress)
    result = score_folder(store.folder, mode)
    manifest["status"] = "complete"
    manifest["finished_at"] = now_iso()
    store.write_manifest(manifest)
    result.write(store.folder)
    notes += result.notes
    return RunOutcome(store.folder, len(pending), len(done), result, notes)


def _generate(backend: Backend, config: GenerationConfig, store: RunStore, rows: list[Row], on_progress) -> None:
    requests = [GenerationRequest(uid_of(r.language, r.subset, r.key), config.messages(r.prompt)) for r in rows]
    by_uid = {req.uid: row for req, row in zip(requests, rows)}
    lock = threading.Lock()

    def on_result(result: GenerationResult) -> None:
        row = by_uid[result.uid]
        answer = split_reasoning(result.output, result.reasoning)
        with lock:
            store.append(result_record(result, answer, row))
        if on_progress:
            on_progress(1)

    store.open_for_append()
    try:
        backend.generate(requests, on_result)
    finally:
        store.close()


def score_folder(folder: str | Path, scoring: ScoringMode | str = ScoringMode.FIXED) -> ScoreResult:
    """Score a run folder's answers (rows.jsonl + generations.jsonl) without generating."""
    store = RunStore(folder)
    if not (store.folder / ROWS).exists():
        raise InputError("not a run folder (no rows.jsonl)", str(store.folder))
    mode = ScoringMode(scoring)
    rows = load_rows(store.folder / ROWS)
    store.repair()
    generations = {g["uid"]: g for g in store.read_generations()}
    pairs, missing = [], 0
    for row in rows:
        g = generations.get(uid_of(row.language, row.subset, row.key))
        missing += g is None
        pairs.append((row, None if g is None else g.get("answer") or ""))
    scores = score_rows(pairs, mode)
    summary = summarize(scores, mode.value)
    summary["run"] = _run_stats(rows, generations, store.read_manifest() or {})
    notes = []
    if missing:
        notes.append(f"{missing} items have no generation yet (scored as failing); run again to finish them")
    stats = summary["run"]
    if stats["truncated"]:
        notes.append(f"{sum(stats['truncated'].values())} answers hit the token limit (finish_reason 'length')")
    if stats["reasoning_unterminated"]:
        notes.append(f"{stats['reasoning_unterminated']} answers are empty: the reasoning never ended")
    return ScoreResult(scores, summary, mode.value, notes)


def _run_stats(rows: list[Row], generations: dict[str, dict], manifest: dict) -> dict:
    truncated: Counter[str] = Counter()
    generated: Counter[str] = Counter()
    unterminated = 0
    usage: Counter[str] = Counter()
    for g in generations.values():
        generated[g["language"]] += 1
        truncated[g["language"]] += bool(g.get("truncated"))
        unterminated += bool(g.get("reasoning_unterminated"))
        for k, v in (g.get("usage") or {}).items():
            if isinstance(v, (int, float)):
                usage[k] += v
    return {
        "model": (manifest.get("generation") or {}).get("model"),
        "backend": (manifest.get("generation") or {}).get("backend"),
        "thinking": (manifest.get("generation") or {}).get("thinking"),
        "items": len(rows),
        "generated": dict(sorted(generated.items())),
        "truncated": {k: v for k, v in sorted(truncated.items()) if v},
        "reasoning_unterminated": unterminated,
        "usage": dict(usage),
        "data": manifest.get("data"),
    }


__all__ = ["DataOptions", "RunOutcome", "run", "score_folder"]
