"""``run``: generate answers for benchmark rows with a backend, resumably, then score them.

An item is done when its latest generation succeeded and was made for the row's current
content (prompt, instructions, kwargs); a changed row or a failed item is generated again
(``runs.resumable``). A folder made with other settings (generation, data, output-affecting
backend options) is refused before anything is loaded or written."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from indicifeval._version import __version__
from indicifeval.checkers import ScoringMode
from indicifeval.core.errors import InputError
from indicifeval.core.folders import claim
from indicifeval.dataset import load_dataset
from indicifeval.records import RunManifest
from indicifeval.records.layout import ROWS
from indicifeval.runs import provenance
from indicifeval.runs.backends import Backend, BackendError
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.folder_scores import score_folder
from indicifeval.runs.requests import DEFAULT_MAX_ANSWER_CHARS, SamplingSettings
from indicifeval.runs.resumable import Job, fill
from indicifeval.runs.sampling import check_samples, sample_settings, sample_uid
from indicifeval.runs.store import RunMismatch, RunStore, now_iso
from indicifeval.scoring.api import ScoreResult


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


def _manifest(spec: ModelSpec, data_info: dict, scoring: str, max_answer_chars: int) -> RunManifest:
    return RunManifest(
        model=spec.identity(),
        data={**{k: data_info.get(k) for k in ("source", "repo", "revision", "subsets", "languages", "tags", "limit")},
              **({"multiturn": True} if data_info.get("multiturn") else {})},
        max_answer_chars=max_answer_chars, backend_options=spec.options.to_json(), scoring=scoring,
        indicifeval_version=__version__,
    )


def run(
    spec: ModelSpec,
    out: str | Path,
    data: DataOptions | None = None,
    *,
    scoring: ScoringMode | str = ScoringMode.FIXED,
    backend: Backend | None = None,
    on_total: Callable[[int, int], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS,
    overwrite: bool = False,
    samples: int = 1,
    allow_greedy_samples: bool = False,
    command: Sequence[str] | None = None,
) -> RunOutcome:
    """Generate every missing item of the run folder ``out``, then score the whole run.

    Running the same call again resumes: finished items are not generated again. A folder
    made with other settings is refused (RunMismatch); a folder another process is using is
    refused at once (BusyError). ``spec`` names the model, its backend's options, the sampling
    settings and the system turn; credentials in a URL are masked wherever they are recorded,
    and API keys are read from the environment by the backend. ``backend`` stands in for
    ``spec.open()`` (a ready one: tests, the Python API).

    ``samples``: answers asked per row, sample ``s`` with the seed ``settings.seed + s``
    (``runs.sampling``); more than one greedy sample is refused unless ``allow_greedy_samples``.
    A folder may be resumed with more samples (only the new ones are asked). ``command``: the
    command line, recorded in the manifest's provenance with secrets and local paths removed.
    """
    data = data or DataOptions()
    if spec.settings is None:  # a run's own defaults: greedy, the paper's budget
        spec = replace(spec, settings=SamplingSettings())
    mode = ScoringMode(scoring)
    assert spec.settings is not None
    check_samples(samples, spec.settings, allow_greedy_samples)
    if max_answer_chars < 1:
        raise ValueError("max_answer_chars must be at least 1")
    store = RunStore(out)
    claim(store.folder, "run", overwrite)
    created = not store.folder.exists()
    with store.lock("run"):
        try:
            return _run_locked(spec, store, data, mode, backend, on_total, on_progress, max_answer_chars, samples,
                               command)
        except BackendError:
            if created and not store.has_generations():  # nothing made: leave no folder behind
                shutil.rmtree(store.folder, ignore_errors=True)
            raise


def _jobs(spec: ModelSpec, rows: list, samples: int) -> list[Job]:
    """Every sample of every row, sample by sample (a killed run leaves whole samples behind)."""
    assert spec.settings is not None
    jobs = []
    for s in range(samples):
        settings = sample_settings(spec.settings, s)
        extra = {"sample": s, "seed": settings.seed} if samples > 1 else {}
        jobs += [Job(spec.request(sample_uid(str(r.id), s), r.prompt, settings), r.content_hash,
                     {"key": r.key, "language": r.language, "subset": r.subset, **extra}) for r in rows]
    return jobs


def _run_locked(spec: ModelSpec, store: RunStore, data: DataOptions, mode: ScoringMode, backend: Backend | None,
                on_total, on_progress, max_answer_chars: int, samples: int = 1,
                command: Sequence[str] | None = None) -> RunOutcome:
    from indicifeval.runs import conversations as mt

    multiturn = mt.is_conversation_source(data.source)
    if multiturn:
        if samples > 1:
            raise InputError(f"--samples {samples} with conversations (multi-turn data) is not supported: run each "
                             f"sample as a run of its own (--seed)", field="samples")
        convs, info = mt.load_conversation_data(data.source, data.languages, data.tags, data.limit)
        hashes, uids = mt.turn_content_hashes(convs), mt.all_turn_uids(convs)
    else:
        dataset = load_dataset(data.subsets, data.languages, data.source, revision=data.revision,
                               tags=data.tags, limit=data.limit)
        info, hashes = dataset.info, [r.content_hash for r in dataset.rows]
        jobs = _jobs(spec, dataset.rows, samples)
        uids = [j.uid for j in jobs]
    manifest = _manifest(spec, info, mode.value, max_answer_chars)
    old = store.check_resumable(manifest)
    store.repair()
    manifest.samples = samples
    if old is not None:
        manifest.scoring, manifest.scored = old.scoring, old.scored  # scores.jsonl keeps its mode
        manifest.started_at, manifest.backend = old.started_at, old.backend
        manifest.migrations = old.migrations
    manifest.started_at = manifest.started_at or now_iso()
    manifest.provenance = provenance.carried(
        old.provenance if old is not None else None,
        provenance.build(spec, info, hashes, scoring=manifest.scoring, samples=samples,
                         max_answer_chars=max_answer_chars, command=command, started_at=now_iso()))
    manifest.status, manifest.items = "generating", len(uids)
    store.write_manifest(manifest)
    if multiturn:
        from indicifeval.dataset.multiturn import write_conversations_jsonl

        write_conversations_jsonl(convs, store.folder / ROWS)
    else:
        store.write_rows(dataset.rows)

    def opened() -> Backend:
        """The backend, made when something is to be generated; its chat template must be the one
        the folder's answers were made with."""
        made = backend or spec.open()
        described = made.describe()
        previous = manifest.backend or {}
        before, now = previous.get("chat_template_hash"), described.get("chat_template_hash")
        if before and now and before != now:
            raise RunMismatch(f"the model's chat template changed (hash {before} in the folder, {now} now)",
                              str(store.manifest_path))
        manifest.backend = described
        if now:
            manifest.provenance["chat_template_hash"] = now
        store.write_manifest(manifest)
        return made

    if multiturn:
        filled = mt.fill_turns(store.log, spec, convs, opened, max_answer_chars=max_answer_chars,
                               on_total=on_total, on_progress=on_progress)
    else:
        filled = fill(store.log, jobs, opened, shared=False, max_answer_chars=max_answer_chars,
                      on_progress=on_progress,
                      on_start=(lambda asking, reused: on_total(len(jobs), reused)) if on_total else None)
    notes: list[str] = []
    if filled.changed:
        notes.append(f"{len(filled.changed)} items changed since they were generated (prompt, instructions or "
                     f"kwargs); generated them again")
    if filled.retried:
        notes.append(f"retried {len(filled.retried)} items that failed before")

    # every mode scored before is scored again: new generations make old scores stale
    result = None
    for m in [mode.value] + [m for m in manifest.scored if m != mode.value]:
        scored = score_folder(store.folder, m)
        store.write_scores(scored, manifest)
        result = result or scored
    assert result is not None
    failed = result.summary["run"]["failed"]
    manifest.status = "complete" if failed == 0 and result.summary["missing_responses"] == 0 else "incomplete"
    manifest.finished_at = now_iso()
    manifest.provenance["answers"] = {**manifest.provenance.get("answers", {}),
                                      **provenance.answer_counts(store.latest_generations(), uids)}
    store.write_manifest(manifest)
    if mode.value != manifest.scoring:
        notes.append(f"this run was made with {manifest.scoring} scoring: its scores.jsonl stay {manifest.scoring}; "
                     f"the {mode.value} scores are in scores.{mode.value}.jsonl")
    notes += result.notes
    return RunOutcome(store.folder, filled.asked, filled.reused, result, notes, failed)


__all__ = ["DEFAULT_MAX_ANSWER_CHARS", "DataOptions", "RunOutcome", "run", "score_folder"]
