"""The build folder and its manifest: which stages ran, from what, with which outcome.

A stage's identity is its inputs (paths with their sha256), its parameters and its engine
(model, revision, chat-template hash...). Running a stage again with the same identity resumes
it; with another identity it is refused, the differences listed, unless forced: then it
starts over and every stage that depends on it is marked stale."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.core.errors import InputError
from indicifeval.core.files import sha256_of
from indicifeval.core.folders import MANIFEST, claim, read_manifest, write_manifest
from indicifeval.core.lock import FolderLock

BUILD_MANIFEST_FORMAT = 1
STATUSES = ("running", "complete", "failed", "stale")


class BuildMismatch(InputError):
    """A stage was run before with another identity."""


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def input_identity(paths: Mapping[str, str | Path]) -> dict[str, dict[str, Any]]:
    """name -> {path, sha256} of each input file (a folder: the sha256 of each file in it)."""
    out: dict[str, dict[str, Any]] = {}
    for name, value in sorted(paths.items()):
        path = Path(value)
        if path.is_file():
            out[name] = {"path": str(path), "sha256": sha256_of(path)}
        elif path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            out[name] = {"path": str(path), "files": {str(p.relative_to(path)): sha256_of(p) for p in files}}
        else:
            raise InputError("input not found", str(path), field=name)
    return out


@dataclass
class StageRecord:
    name: str
    status: str = "running"
    identity: dict[str, Any] = field(default_factory=dict)  # inputs, params, engine
    started_at: str | None = None
    finished_at: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)  # files in the folder the stage wrote
    error: str | None = None
    stale_because: str | None = None

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> StageRecord:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def _diff(old: Any, new: Any, path: str) -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        return [d for key in sorted(set(old) | set(new)) for d in _diff(old.get(key), new.get(key), f"{path}.{key}")]
    return [] if old == new else [f"{path}: {old!r} before, {new!r} now"]


class BuildFolder:
    """``BuildFolder(path).create(language)`` once; then ``begin``/``finish`` each stage."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    # -- the manifest ---------------------------------------------------------------------------
    def exists(self) -> bool:
        return (read_manifest(self.folder) or {}).get("tool") == "build"

    def create(self, language: str, overwrite: bool = False) -> BuildFolder:
        old = claim(self.folder, "build", overwrite)
        if old is not None and old.get("language") != language:
            raise InputError(f"this build folder is for {old.get('language')!r}, not {language!r}", str(self.folder))
        if old is None:
            write_manifest(self.folder, {"tool": "build", "format_version": BUILD_MANIFEST_FORMAT,
                                         "indicifeval_version": __version__, "language": language,
                                         "created_at": now_iso(), "stages": {}})
        return self

    def manifest(self) -> dict[str, Any]:
        data = read_manifest(self.folder)
        if data is None or data.get("tool") != "build":
            raise InputError("not a build folder (no manifest.json made by `indicifeval build`)", str(self.folder))
        return data

    @property
    def language(self) -> str:
        return str(self.manifest()["language"])

    def stages(self) -> dict[str, StageRecord]:
        return {name: StageRecord.from_json(rec) for name, rec in self.manifest().get("stages", {}).items()}

    def _save(self, records: dict[str, StageRecord]) -> None:
        manifest = self.manifest()
        manifest["stages"] = {name: rec.to_json() for name, rec in records.items()}
        manifest["indicifeval_version"] = __version__
        write_manifest(self.folder, manifest)

    def lock(self, purpose: str) -> FolderLock:
        return FolderLock(self.folder, purpose)

    # -- a stage's life -----------------------------------------------------------------------
    def begin(self, name: str, identity: dict[str, Any], dependents: list[str], force: bool = False) -> StageRecord:
        """Start or resume stage ``name``. Returns its record (status "complete" if there is
        nothing left to do). Raises BuildMismatch if it ran with another identity, unless
        ``force``: then its outputs are removed and ``dependents`` are marked stale."""
        records = self.stages()
        old = records.get(name)
        if old is not None and old.identity != identity and old.status != "stale" and not force:
            differences = _diff(old.identity, identity, name)
            raise BuildMismatch(f"stage {name!r} was run with other inputs or settings; run it again the same way "
                                f"to resume, or pass --force to start it over (the stages after it become stale):\n  "
                                + "\n  ".join(differences), str(self.folder / MANIFEST))
        restart = old is None or old.identity != identity or old.status == "stale" or force
        if old is not None and not restart and old.status == "complete":
            return old
        if restart and old is not None:
            for output in old.outputs:
                (self.folder / output).unlink(missing_ok=True)
            for other in dependents:
                if other in records and records[other].status != "stale":
                    records[other].status, records[other].stale_because = "stale", f"{name} was run again"
        record = StageRecord(name, "running", identity, (old.started_at if old and not restart else None) or now_iso(),
                             outputs=[] if restart or old is None else old.outputs)
        records[name] = record
        self._save(records)
        return record

    def finish(self, record: StageRecord, counts: dict[str, int], outputs: list[str]) -> None:
        records = self.stages()
        record.status, record.finished_at, record.error = "complete", now_iso(), None
        record.counts = dict(counts)
        record.outputs = sorted(set(record.outputs) | set(outputs))
        records[record.name] = record
        self._save(records)

    def fail(self, record: StageRecord, error: str, outputs: list[str]) -> None:
        records = self.stages()
        record.status, record.error = "failed", error
        record.outputs = sorted(set(record.outputs) | set(outputs))
        records[record.name] = record
        self._save(records)

    def status_rows(self, order: list[str] | None = None) -> list[dict[str, Any]]:
        """One row per stage (in ``order``, then any others), for ``build status``."""
        records = self.stages()
        names = [n for n in (order or []) if n in records] + [n for n in records if n not in (order or [])]
        rows = []
        for name in names:
            rec = records[name]
            rows.append({"stage": name, "status": rec.status, "counts": rec.counts, "started_at": rec.started_at,
                         "finished_at": rec.finished_at, "note": rec.error or rec.stale_because or "",
                         "params": rec.identity.get("params", {}), "engine": rec.identity.get("engine")})
        return rows
