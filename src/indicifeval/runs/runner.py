"""``run``: generate answers for benchmark rows with a backend, resumably, then score them.

An item is done when its latest generation succeeded and was made for the row's current
content (prompt, instructions, kwargs); a changed row or a failed item is generated again.
A folder made with other settings (generation, data, output-affecting backend options) is
refused before anything is loaded or written."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.checkers import ScoringMode
from indicifeval.core.folders import claim
from indicifeval.core.secrets import redact_url
from indicifeval.dataset import Row, load_dataset
from indicifeval.runs.backends import Backend, BackendError, create_backend, output_settings
from indicifeval.runs.folder_scores import score_folder, usable
from indicifeval.runs.requests import GenerationConfig, GenerationRequest, GenerationResult, uid_of
from indicifeval.runs.store import FORMAT_VERSION, RunMismatch, RunStore, now_iso, result_record
from indicifeval.scoring.api import ScoreResult
from indicifeval.text.reasoning import split_reasoning
from indicifeval.text.safety import sanitize

DEFAULT_MAX_ANSWER_CHARS = 1_000_000  # far beyond any budget; a runaway server answer is cut here


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
    failed: int = 0


def _recorded_options(options: dict[str, Any]) -> dict[str, Any]:
    return {k: (redact_url(v) if k == "base_url" and isinstance(v, str) else v) for k, v in options.items()}


def _manifest(config: GenerationConfig, data_info: dict, scoring: str, backend_options: dict,
              max_answer_chars: int) -> dict:
    settings = output_settings(config.backend, backend_options)
    settings["max_answer_chars"] = max_answer_chars
    return {
        "tool": "run",
        "format_version": FORMAT_VERSION,
        "indicifeval_version": __version__,
        "generation": config.to_json(),
        "data": {k: data_info.get(k) for k in ("source", "repo", "revision", "subsets", "languages", "tags", "limit")},
        "backend_settings": settings,
        "backend_options": _recorded_options(backend_options),
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
    max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS,
    overwrite: bool = False,
) -> RunOutcome:
    """Generate every missing item of the run folder ``out``, then score the whole run.

    Running the same call again resumes: finished items are not generated again. A folder
    made with other settings is refused (RunMismatch); a folder another process is using is
    refused at once (BusyError). ``backend_options`` go to the backend (base_url,
    concurrency, dtype…); credentials in a URL are masked wherever they are recorded, and API
    keys are read from the environment by the backend.
    """
    data = data or DataOptions()
    backend_options = dict(backend_options or {})
    mode = ScoringMode(scoring)
    if max_answer_chars < 1:
        raise ValueError("max_answer_chars must be at least 1")
    store = RunStore(out)
    claim(store.folder, "run", overwrite)
    created = not store.folder.exists()
    with store.lock("run"):
        try:
            return _run_locked(config, store, data, mode, backend_options, backend, on_total, on_progress,
                               max_answer_chars)
        except BackendError:
            if created and not store.has_generations():  # nothing made: leave no folder behind
                shutil.rmtree(store.folder, ignore_errors=True)
            raise


def _run_locked(config: GenerationConfig, store: RunStore, data: DataOptions, mode: ScoringMode,
                backend_options: dict, backend: Backend | None, on_total, on_progress,
                max_answer_chars: int) -> RunOutcome:
    dataset = load_dataset(data.subsets, data.languages, data.source, revision=data.revision,
                           tags=data.tags, limit=data.limit)
    manifest = _manifest(config, dataset.info, mode.value, backend_options, max_answer_chars)
    old = store.check_resumable(manifest)
    store.repair()
    rows_by_uid = {uid_of(r.language, r.subset, r.key): r for r in dataset.rows}
    latest = store.latest_generations() if old is not None else {}
    done = {u for u, row in rows_by_uid.items() if usable(latest.get(u), row)}
    changed = [u for u in rows_by_uid if u in latest and u not in done and not latest[u].get("error")]
    failed_before = [u for u in rows_by_uid if u not in done and (latest.get(u) or {}).get("error")]
    pending = [u for u in rows_by_uid if u not in done]
    notes: list[str] = []
    if changed:
        notes.append(f"{len(changed)} items changed since they were generated (prompt, instructions or kwargs); "
                     f"generated them again")
    if failed_before:
        notes.append(f"retried {len(failed_before)} items that failed before")
    old = old or {}
    manifest["scoring"] = old.get("scoring") or mode.value  # the mode scores.jsonl holds
    manifest["scored"] = old.get("scored") or {}
    manifest["started_at"] = old.get("started_at") or now_iso()
    manifest["status"] = "generating"
    manifest["items"] = len(rows_by_uid)
    manifest["backend"] = old.get("backend")
    store.write_manifest(manifest)
    store.write_rows(dataset.rows)
    if on_total:
        on_total(len(rows_by_uid), len(done))

    if pending:
        if backend is None:
            backend = create_backend(config.backend, config, **backend_options)
        described = backend.describe()
        previous = manifest.get("backend") or {}
        if previous.get("chat_template_hash") and described.get("chat_template_hash") and \
                previous["chat_template_hash"] != described["chat_template_hash"]:
            raise RunMismatch(f"the model's chat template changed (hash {previous['chat_template_hash']} in the "
                              f"folder, {described['chat_template_hash']} now)", str(store.manifest_path))
        manifest["backend"] = _recorded_options(described)
        store.write_manifest(manifest)
        _generate(backend, config, store, [rows_by_uid[u] for u in pending], on_progress, max_answer_chars)

    # every mode scored before is scored again: new generations make old scores stale
    modes = [mode.value] + [m for m in manifest["scored"] if m != mode.value]
    result = None
    for m in modes:
        scored = score_folder(store.folder, m)
        store.write_scores(scored, manifest)
        result = result or scored
    assert result is not None
    failed = result.summary["run"]["failed"]
    manifest["status"] = "complete" if failed == 0 and result.summary["missing_responses"] == 0 else "incomplete"
    manifest["finished_at"] = now_iso()
    store.write_manifest(manifest)
    if mode.value != manifest["scoring"]:
        notes.append(f"this run was made with {manifest['scoring']} scoring: its scores.jsonl stay {manifest['scoring']}; "
                     f"the {mode.value} scores are in scores.{mode.value}.jsonl")
    notes += result.notes
    return RunOutcome(store.folder, len(pending), len(done), result, notes, failed)


def _generate(backend: Backend, config: GenerationConfig, store: RunStore, rows: list[Row], on_progress,
              max_answer_chars: int) -> None:
    requests = [GenerationRequest(uid_of(r.language, r.subset, r.key), config.messages(r.prompt)) for r in rows]
    by_uid = {req.uid: row for req, row in zip(requests, rows)}
    lock = threading.Lock()

    def on_result(result: GenerationResult) -> None:
        row = by_uid[result.uid]
        result.output = sanitize(result.output or "")
        result.reasoning = sanitize(result.reasoning) if result.reasoning else result.reasoning
        capped = None
        if len(result.output) > max_answer_chars:
            capped, result.output = len(result.output), result.output[:max_answer_chars]
        answer = split_reasoning(result.output, result.reasoning)
        with lock:
            store.append(result_record(result, answer, row, capped))
        if on_progress:
            on_progress(1)

    store.open_for_append()
    try:
        backend.generate(requests, on_result)
    finally:
        store.close()


__all__ = ["DEFAULT_MAX_ANSWER_CHARS", "DataOptions", "RunOutcome", "run", "score_folder"]
