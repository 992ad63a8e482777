"""A run folder: ``manifest.json``, ``rows.jsonl`` (the rows asked), ``generations.jsonl``
(appended as each item completes), and the scores of each mode it was scored in:
``scores.jsonl``/``summary.json`` for the mode the run was made with, beside them
``scores.<mode>.jsonl``/``summary.<mode>.json`` for any other; the manifest records which is
which under ``scored``.

One process at a time: ``lock()`` takes an OS-level lock that dies with its holder.
``generations.jsonl`` is a ``core.log.JsonlLog`` (crash-safe appends, torn-line repair);
every other file is replaced atomically."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from indicifeval._version import __version__
from indicifeval.core.errors import InputError
from indicifeval.core.files import StagedFiles, remove_stale_temporaries
from indicifeval.core.folders import MANIFEST, read_manifest, write_manifest
from indicifeval.core.lock import FolderLock
from indicifeval.core.log import JsonlLog
from indicifeval.dataset import Row, write_rows_jsonl
from indicifeval.records import MANIFEST_FORMAT, RunManifest
from indicifeval.records.layout import GENERATIONS, ROWS, score_file_names
from indicifeval.runs.requests import DEFAULT_MAX_ANSWER_CHARS, SamplingSettings

if TYPE_CHECKING:
    from indicifeval.scoring.output import ScoreResult



class RunMismatch(InputError):
    """The folder holds a run made with different settings."""


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def _diff(old: Any, new: Any, path: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in sorted(set(old) | set(new)):
            out += _diff(old.get(key), new.get(key), f"{path}.{key}" if path else key)
        return out
    return [] if old == new else [f"{path}: {old!r} in the folder, {new!r} now"]


def upgrade_run_manifest(data: dict[str, Any]) -> dict[str, Any]:
    """A run manifest of format 2 (``generation`` and ``backend_settings``) in today's shape:
    the model's identity as ``ModelSpec.identity()`` gives it for the same command, so a folder
    made by an earlier version resumes without generating anything again."""
    if int(data.get("format_version") or 0) >= MANIFEST_FORMAT or "model" in data:
        return data
    from indicifeval.runs.backends.spec import TEMPLATED, model_identity

    generation = dict(data.get("generation") or {})
    settings = dict(data.get("backend_settings") or {})
    chars = settings.pop("max_answer_chars", DEFAULT_MAX_ANSWER_CHARS)
    backend, described = str(generation.get("backend") or ""), data.get("backend") or {}
    sampling = {name: generation.get(name, default) for name, default in SamplingSettings().to_json().items()}
    model = {"backend": backend, "model": model_identity(str(generation.get("model") or "")), "options": settings,
             "settings": sampling,
             "system": generation.get("system_prompt"),
             "chat_template_hash": described.get("chat_template_hash") if backend in TEMPLATED else None}
    out = {k: v for k, v in data.items() if k not in ("generation", "backend_settings")}
    migration = {"from_format": data.get("format_version"), "to_format": MANIFEST_FORMAT, "at": now_iso(),
                 "indicifeval_version": __version__}
    return {**out, "model": model, "max_answer_chars": chars, "format_version": MANIFEST_FORMAT,
            "migrations": [*(data.get("migrations") or []), migration]}


class RunStore:
    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.log = JsonlLog(self.folder / GENERATIONS)

    @contextmanager
    def lock(self, purpose: str = "run") -> Iterator[FolderLock]:
        """The folder's lock; once it is held, what a killed run left behind goes."""
        with FolderLock(self.folder, purpose) as held:
            remove_stale_temporaries(self.folder)
            yield held

    # -- manifest ---------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.folder / MANIFEST

    def read_manifest(self) -> RunManifest | None:
        """The manifest, upgraded in memory if an earlier version wrote it (the upgrade is
        written, and recorded under ``migrations``, by the next run that writes the manifest)."""
        data = read_manifest(self.folder)
        return None if data is None else RunManifest.from_json(upgrade_run_manifest(data))

    def write_manifest(self, manifest: RunManifest) -> None:
        write_manifest(self.folder, manifest.to_json())

    def check_resumable(self, manifest: RunManifest) -> RunManifest | None:
        """The folder's manifest if it matches ``manifest`` on everything that changes what is
        generated; raises RunMismatch listing the differences otherwise. None for a folder
        with nothing generated yet, which any run may take over."""
        old = self.read_manifest()
        if old is None and self.has_generations():
            raise RunMismatch("the folder holds generations but no manifest.json, so its settings are unknown; "
                              "use another --out", str(self.folder))
        if old is None or not self.has_generations():
            return None
        differences = _diff(old.identity(), manifest.identity())
        if differences:
            raise RunMismatch(
                "this folder holds a run with different settings; use another --out or the same settings:\n  "
                + "\n  ".join(differences),
                str(self.manifest_path),
            )
        return old

    # -- rows -------------------------------------------------------------------------------
    def write_rows(self, rows: list[Row]) -> None:
        write_rows_jsonl(self.folder / ROWS, rows)

    # -- generations ------------------------------------------------------------------------
    @property
    def generations_path(self) -> Path:
        return self.folder / GENERATIONS

    def has_generations(self) -> bool:
        return self.log.exists()

    def repair(self) -> int:
        return self.log.repair()

    def read_generations(self) -> Iterator[dict]:
        return self.log.read()

    def latest_generations(self) -> dict[str, dict]:
        """uid -> the last generation recorded for it (a retry or regeneration supersedes)."""
        return self.log.latest("uid")

    # -- scores -----------------------------------------------------------------------------
    def write_scores(self, result: ScoreResult, manifest: RunManifest) -> list[Path]:
        """Write a ScoreResult under its mode's names and record it in ``manifest`` (which the
        caller writes); the scores and summary replace their old versions together."""
        from indicifeval.scoring.output import write_scores

        mode = str(result.scoring)
        names = score_file_names(mode, manifest.scoring)
        with StagedFiles(self.folder) as files:
            write_scores(files, result, *names)
        manifest.scored[mode] = {"scores": names[0], "summary": names[1], "scored_at": now_iso(),
                                 "indicifeval_version": result.summary.get("version")}
        return [self.folder / n for n in names]
