"""The build folder and its manifest: which stages ran, from what, with which outcome.

A stage's identity is the content of its inputs (sha256; a path only for files inside the build
folder, relative to it), its parameters and its model (every output-affecting setting). So the
same command resumes from any directory, with relative or absolute paths, on a moved or copied
folder. Run again with another identity, or forced, a stage runs again, says why in one line,
and marks the stages after it stale. Expensive results (translations, LLM replies) live in
append-only caches that no rerun deletes."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.builder.migrate import BUILD_MANIFEST_FORMAT, upgrade
from indicifeval.core.errors import InputError
from indicifeval.core.files import remove_stale_temporaries, sha256_of
from indicifeval.core.folders import claim, read_manifest, write_manifest
from indicifeval.core.lock import FolderLock
from indicifeval.records.layout import REVIEW_DB
from indicifeval.runs.backends.batch import BatchPending
from indicifeval.runs.backends.spec import ModelSpec


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def _inside(path: Path, folder: Path | None) -> str | None:
    if folder is None:
        return None
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return None


def input_identity(paths: Mapping[str, str | Path], folder: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """name -> {sha256} of each input file (a folder: the sha256 of each file in it), with the
    path relative to the build ``folder`` when the input lies inside it, and no path otherwise:
    where a file was typed from is not what it holds."""
    out: dict[str, dict[str, Any]] = {}
    root = Path(folder) if folder is not None else None
    for name, value in sorted(paths.items()):
        path = Path(value)
        inside = _inside(path, root)
        if path.is_file():
            entry: dict[str, Any] = {"sha256": sha256_of(path)}
        elif path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            entry = {"files": {p.relative_to(path).as_posix(): sha256_of(p) for p in files}}
        else:
            raise InputError("input not found", str(path), field=name)
        out[name] = {**({"path": inside} if inside is not None else {}), **entry}
    return out


def _same_identity(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Identities compare by content alone: the paths beside the hashes only say where a file
    was (folders made before identities were by content recorded them as typed)."""
    return _comparable(old) == _comparable(new)


def _comparable(identity: dict[str, Any]) -> dict[str, Any]:
    inputs = {name: {k: v for k, v in entry.items() if k != "path"} if isinstance(entry, dict) else entry
              for name, entry in (identity.get("inputs") or {}).items()}
    return {**identity, "inputs": inputs}


@dataclass
class StageRecord:
    name: str
    status: str = "running"
    identity: dict[str, Any] = field(default_factory=dict)  # inputs, params, model
    started_at: str | None = None
    finished_at: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)  # files in the folder the stage wrote
    kept: list[str] = field(default_factory=list)  # files it merges into: never removed
    error: str | None = None
    stale_because: str | None = None
    reran_because: str | None = None  # why this run of the stage started over (one line)
    notes: list[str] = field(default_factory=list)  # what the stage said (a torn line dropped, ...)
    ran: bool = False  # not stored: whether this invocation ran the stage (or found it complete)

    def to_json(self) -> dict:
        data = asdict(self)
        data.pop("ran")
        return data

    @classmethod
    def from_json(cls, data: dict) -> StageRecord:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def _changed(old: Any, new: Any, path: str = "") -> list[str]:
    """The dotted names of what differs between two identities (``inputs.source``, ``params.seed``)."""
    if isinstance(old, dict) and isinstance(new, dict):
        if path.startswith(".inputs."):
            return [] if old == new else [path.lstrip(".")]
        return [d for key in sorted(set(old) | set(new)) for d in _changed(old.get(key), new.get(key), f"{path}.{key}")]
    return [] if old == new else [path.lstrip(".")]


class BuildFolder:
    """``BuildFolder(path).create(language)`` once; then ``begin``/``finish`` each stage."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._held: FolderLock | None = None

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
        elif int(old.get("format_version") or 0) < BUILD_MANIFEST_FORMAT:
            write_manifest(self.folder, self.manifest())  # the upgrade, written once and recorded
        return self

    def manifest(self) -> dict[str, Any]:
        """The manifest, upgraded in memory when an earlier version made the folder
        (``builder.migrate``; written by the next command that builds in it)."""
        data = read_manifest(self.folder)
        if data is None or data.get("tool") != "build":
            raise InputError("not a build folder (no manifest.json made by `indicifeval build`)", str(self.folder))
        return upgrade(data)

    @property
    def language(self) -> str:
        return str(self.manifest()["language"])

    def stages(self) -> dict[str, StageRecord]:
        return {name: StageRecord.from_json(rec) for name, rec in self.manifest().get("stages", {}).items()}

    def setting(self, name: str, given: Any, default: Any) -> Any:
        """A build setting: as ``given``; else what this folder was made with where an earlier
        version made it before the setting existed (``defaults``, written by the migration), so
        the same command goes on instead of redoing and paying for what a new default changes;
        else ``default``."""
        if given is not None:
            return given
        return (self.manifest().get("defaults") or {}).get(name, default)

    def old_keys(self, model: ModelSpec) -> tuple[str | None, ...]:
        """The keys an earlier version's caches hold ``model``'s answers under (None: hashed
        without the model, which only its name identified), as the migration recorded them."""
        out: list[str | None] = []
        for migration in self.manifest().get("migrations") or []:
            for alias in migration.get("keys") or []:
                if alias.get("key") == model.key or ("key" not in alias and alias.get("model") == model.model):
                    out.append(alias.get("was"))
        return tuple(out)

    def _save(self, records: dict[str, StageRecord]) -> None:
        manifest = self.manifest()
        manifest["stages"] = {name: rec.to_json() for name, rec in records.items()}
        manifest["indicifeval_version"] = __version__
        write_manifest(self.folder, manifest)

    @contextmanager
    def lock(self, purpose: str) -> Iterator[None]:
        """The folder's lock, held by this object until the outermost ``with`` ends (a pipeline
        holds it across its stages, so no other process can slip in between two of them)."""
        if self._held is not None:
            yield
            return
        with FolderLock(self.folder, purpose) as held:
            self._held = held
            try:
                # what a killed build left; review/ is written without the lock (export, agreement)
                remove_stale_temporaries(self.folder, skip=(Path(REVIEW_DB).parts[0],))
                yield
            finally:
                self._held = None

    # -- a stage's life -----------------------------------------------------------------------
    def begin(self, name: str, identity: dict[str, Any], dependents: list[str], force: bool = False) -> StageRecord:
        """Start or resume stage ``name``. Returns its record (status "complete" if there is
        nothing left to do). A stage run before with another identity, stale or forced starts
        over: its own outputs are removed (never another stage's, never a cache), the reason is
        recorded in ``reran_because`` and ``dependents`` are marked stale."""
        records = self.stages()
        old = records.get(name)
        reason = None
        if old is not None:
            if force:
                reason = "--force"
            elif old.status == "stale":
                reason = old.stale_because or "stale"
            elif not _same_identity(old.identity, identity):
                changed = _changed(_comparable(old.identity), _comparable(identity))
                reason = "changed: " + ", ".join(changed[:4]) + (f" and {len(changed) - 4} more" if len(changed) > 4
                                                                 else "")
        if old is not None and reason is None and old.status == "complete":
            if old.identity != identity:  # an older folder's paths: record the identity by content
                old.identity = identity
                records[name] = old
                self._save(records)
            return old
        owned_elsewhere = {o for n, r in records.items() if n != name for o in r.outputs}
        if reason is not None and old is not None:
            for output in old.outputs:
                if output not in owned_elsewhere:
                    (self.folder / output).unlink(missing_ok=True)
            for other in dependents:
                if other in records and records[other].status != "stale":
                    records[other].status, records[other].stale_because = "stale", f"{name} was run again"
        restart = old is None or reason is not None
        record = StageRecord(name, "running", identity, (old.started_at if old and not restart else None) or now_iso(),
                             outputs=[] if restart or old is None else old.outputs,
                             kept=list(old.kept) if old is not None else [],
                             reran_because=reason if reason is not None else (old.reran_because if old else None))
        records[name] = record
        self._save(records)
        return record

    def finish(self, record: StageRecord, counts: dict[str, int], outputs: list[str]) -> None:
        records = self.stages()
        for other, rec in records.items():
            mine = set(outputs) | set(record.kept)
            shared = (set(rec.outputs) | set(rec.kept)) & mine if other != record.name else set()
            if shared:  # a stage that claimed another's file would delete it when it reruns
                raise RuntimeError(f"stage {record.name!r} wrote {sorted(shared)}, which stage {other!r} owns (a bug)")
        record.status, record.finished_at, record.error, record.ran = "complete", now_iso(), None, True
        record.counts = dict(counts)
        record.outputs = sorted(set(record.outputs) | set(outputs))
        records[record.name] = record
        self._save(records)

    def fail(self, record: StageRecord, error: BaseException, outputs: list[str]) -> None:
        """A stage that raised: ``pending`` when it waits for a batch file's results (its error
        says what to run), else ``failed`` with the exception's class and message."""
        records = self.stages()
        waiting = isinstance(error, BatchPending)
        record.status = "pending" if waiting else "failed"
        record.error = str(error) if waiting else f"{error.__class__.__name__}: {error}"
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
                         "finished_at": rec.finished_at,
                         "note": rec.error or rec.stale_because or (f"reran: {rec.reran_because}" if rec.reran_because
                                                                    else ""),
                         "params": rec.identity.get("params", {}), "model": rec.identity.get("model"),
                         # what a stage warned of (a plan the corpus could not fill): never silent
                         "warnings": [n for n in rec.notes if n.startswith("warning:")]})
        return rows
