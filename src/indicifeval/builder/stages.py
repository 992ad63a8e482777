"""Stages as a small registry: ``@stage(name, pipeline=..., after=(...))`` registers a function
that does the work of one stage in a build folder. ``run_stage`` gives it its context, records
its identity and outcome, and holds the folder's lock while it runs."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.builder.project import BuildFolder, StageRecord, input_identity
from indicifeval.core.errors import InputError
from indicifeval.core.log import JsonlLog


@dataclass
class StageContext:
    """What a stage function gets: the folder, its parameters, the engine it may call, and
    ways to name its outputs (which are recorded, so a forced rerun removes them)."""

    build: BuildFolder
    record: StageRecord
    params: dict[str, Any]
    inputs: dict[str, Path]
    engine: Any = None
    written: list[str] = field(default_factory=list)
    # (label, total) -> a context manager yielding advance(n): the caller's progress bar
    progress: Callable[[str, int], Any] | None = None

    def bar(self, label: str, total: int) -> Any:
        """A progress bar for ``total`` steps of this stage (a no-op without a caller's)."""
        if self.progress is None:
            return nullcontext(lambda n=1: None)
        return self.progress(f"{self.record.name}: {label}", total)

    @property
    def folder(self) -> Path:
        return self.build.folder

    def output(self, name: str) -> Path:
        """The path of an output file of this stage (relative to the build folder)."""
        if name not in self.written:
            self.written.append(name)
        return self.folder / name

    def log(self, name: str) -> JsonlLog:
        """An item-by-item output of this stage: appended, resumable."""
        return JsonlLog(self.output(name))


StageFn = Callable[[StageContext], dict[str, int]]


@dataclass(frozen=True)
class Stage:
    name: str
    pipeline: str
    fn: StageFn
    after: tuple[str, ...] = ()
    help: str = ""


STAGES: dict[str, Stage] = {}


def stage(name: str, *, pipeline: str, after: tuple[str, ...] = (), help: str = "") -> Callable[[StageFn], StageFn]:
    def register(fn: StageFn) -> StageFn:
        key = f"{pipeline}:{name}"
        if key in STAGES:
            raise RuntimeError(f"stage {key} registered twice")
        for dep in after:
            if f"{pipeline}:{dep}" not in STAGES:
                raise RuntimeError(f"stage {key} comes after {dep!r}, which is not registered before it")
        STAGES[key] = Stage(name, pipeline, fn, tuple(after), help or (fn.__doc__ or "").strip().split("\n")[0])
        return fn

    return register


def pipeline_order(pipeline: str) -> list[str]:
    return [s.name for s in STAGES.values() if s.pipeline == pipeline]


def dependents(pipeline: str, name: str) -> list[str]:
    """The stages of ``pipeline`` that come after ``name``, directly or through others."""
    out: list[str] = []
    frontier = {name}
    for s in STAGES.values():
        if s.pipeline == pipeline and frontier & set(s.after):
            out.append(s.name)
            frontier.add(s.name)
    return out


def run_stage(build: BuildFolder, pipeline: str, name: str, *, inputs: dict[str, str | Path] | None = None,
              params: dict[str, Any] | None = None, engine: Any = None, engine_identity: dict | None = None,
              force: bool = False, progress: Callable[[str, int], Any] | None = None) -> StageRecord:
    """Run (or resume) one stage; returns its record. Stages it comes after must be complete."""
    key = f"{pipeline}:{name}"
    if key not in STAGES:
        known = ", ".join(pipeline_order(pipeline)) or "none"
        raise InputError(f"no stage {name!r} in the {pipeline} pipeline (stages: {known})")
    spec = STAGES[key]
    with build.lock(f"build {pipeline} {name}"):
        records = build.stages()
        for dep in spec.after:
            if records.get(dep) is None or records[dep].status != "complete":
                state = records[dep].status if dep in records else "not run"
                raise InputError(f"stage {name!r} needs {dep!r} first ({dep} is {state})", str(build.folder))
        paths = {k: Path(v) for k, v in (inputs or {}).items()}
        identity = {"inputs": input_identity(paths), "params": dict(params or {}), "engine": engine_identity}
        record = build.begin(name, identity, dependents(pipeline, name), force)
        if record.status == "complete":
            return record
        ctx = StageContext(build, record, dict(params or {}), paths, engine, progress=progress)
        try:
            counts = spec.fn(ctx)
        except BaseException as exc:
            build.fail(record, f"{exc.__class__.__name__}: {exc}", ctx.written)
            raise
        build.finish(record, counts or {}, ctx.written)
        return record
