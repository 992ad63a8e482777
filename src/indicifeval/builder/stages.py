"""Stages as a small registry: ``@stage(name, pipeline=..., after=(...), uses=...)`` registers a
function that does the work of one stage in a build folder. ``run_stage`` gives it its context,
records its identity and outcome, and holds the folder's lock while it runs; ``run_pipeline``
runs a pipeline's stages in their registered order.

A stage owns the files it names with ``ctx.output`` (they are removed when it starts over, and
no other stage may claim them); ``ctx.cache`` names an append-only, content-addressed log of
paid-for results (translations, LLM replies) that no rerun removes; ``ctx.read_log`` reads
another stage's log without claiming it.

A stage that calls a model declares ``uses="model"`` and reaches it as ``ctx.model`` (a
``ModelSpec``: what its answers are keyed by) and ``ctx.backend()`` (opened on first use, once
per pipeline); a stage that only reads those answers is given the spec too. The spec's identity
is recorded as the stage's ``model``, so another model makes the stage run again."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from indicifeval.builder.executors import Executor
from indicifeval.builder.project import BuildFolder, StageRecord, input_identity
from indicifeval.core.errors import InputError
from indicifeval.core.json_types import JsonObject, JsonValue
from indicifeval.core.log import JsonlLog
from indicifeval.runs.backends import Backend
from indicifeval.runs.backends.batch import Transport
from indicifeval.runs.backends.spec import ModelSpec

USES = ("model", "executor")  # what a stage may call: a model (translator, LLM) or a shard executor


Progress = Callable[[str, int], AbstractContextManager[Callable[[int], None]]]


class BackendHolder:
    """The backend a pipeline's stages share: opened when the first stage asks something, with
    ``ready`` standing in for it (tests, the Python API)."""

    def __init__(self, ready: Backend | None = None):
        self._backend = ready

    def get(self, model: ModelSpec) -> Backend:
        if self._backend is None:
            self._backend = model.open()
        return self._backend


@dataclass
class StageContext:
    """What a stage function gets: the folder, its parameters, its inputs (as given this time),
    the model or executor it declared it uses, and ways to name its files."""

    build: BuildFolder
    record: StageRecord
    params: JsonObject
    inputs: dict[str, Path]
    model: ModelSpec | None = None  # the model whose answers this stage asks for or reads
    executor: Callable[[], Executor] | None = None  # uses="executor": the shared executor, made when asked
    transport: Transport = field(default_factory=Transport)  # uses="model": online, or a batch file
    sources: dict[str, Path] = field(default_factory=dict)  # where things are this time (not identity)
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # (label, total) -> a context manager yielding advance(n): the caller's progress bar
    progress: Progress | None = None
    backends: BackendHolder | None = None  # uses="model": opens the backend once per pipeline
    old_keys: tuple[str | None, ...] = ()  # the model's keys in an earlier version's caches

    def backend(self) -> Backend:
        """The model's backend, opened on first use (a model loaded, a session made)."""
        if self.backends is None or self.model is None:
            raise InputError(f"stage {self.record.name!r} has no model to call (a bug: it must say uses='model')")
        return self.backends.get(self.model)

    def text(self, name: str, default: str | None = None) -> str:
        """The parameter ``name``, a string (its default when absent, if one is given)."""
        value = self.params.get(name, default)
        if not isinstance(value, str):
            raise self._bad(name, "a string", value)
        return value

    def integer(self, name: str, default: int | None = None) -> int:
        value = self.params.get(name, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._bad(name, "an integer", value)
        return value

    def number(self, name: str, default: float | None = None) -> float:
        value = self.params.get(name, default)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise self._bad(name, "a number", value)
        return float(value)

    def _bad(self, name: str, what: str, value: JsonValue) -> InputError:
        return InputError(f"stage {self.record.name!r}: parameter {name!r} must be {what}, got {value!r}",
                          str(self.build.folder / "manifest.json"), field=f"stages.{self.record.name}.params.{name}")

    def bar(self, label: str, total: int) -> AbstractContextManager[Callable[[int], None]]:
        """A progress bar for ``total`` steps of this stage (a no-op without a caller's)."""
        if self.progress is None:
            return nullcontext(lambda n=1: None)
        return self.progress(f"{self.record.name}: {label}", total)

    @property
    def folder(self) -> Path:
        return self.build.folder

    def output(self, name: str) -> Path:
        """The path of an output file of this stage (relative to the build folder): owned by
        this stage, removed when it starts over."""
        if name not in self.written:
            self.written.append(name)
        return self.folder / name

    def keep(self, name: str) -> Path:
        """A file this stage writes by merging into what is there (a phrase table people edit):
        owned by this stage, never removed when it starts over."""
        if name not in self.kept:
            self.kept.append(name)
        return self.folder / name

    def cache(self, name: str) -> JsonlLog:
        """An append-only log of paid-for results that outlives every rerun; a torn last line
        (a kill or a full disk mid-append) is dropped now, and said so."""
        log = JsonlLog(self.folder / name)
        dropped = log.repair()
        if dropped:
            self.note(f"{name}: dropped a torn last line ({dropped} bytes) left by an interrupted write")
        return log

    def read_log(self, name: str) -> JsonlLog:
        """Another stage's log, to read (never claimed, never removed by this stage)."""
        return JsonlLog(self.folder / name)

    def note(self, message: str) -> None:
        self.notes.append(message)


StageFn = Callable[[StageContext], dict[str, int]]


@dataclass(frozen=True)
class Stage:
    name: str
    pipeline: str
    fn: StageFn
    after: tuple[str, ...] = ()
    help: str = ""
    uses: str | None = None  # "model" | "executor" | None


STAGES: dict[str, Stage] = {}


def stage(name: str, *, pipeline: str, after: tuple[str, ...] = (), help: str = "",
          uses: str | None = None) -> Callable[[StageFn], StageFn]:
    def register(fn: StageFn) -> StageFn:
        key = f"{pipeline}:{name}"
        if key in STAGES:
            raise RuntimeError(f"stage {key} registered twice")
        if uses is not None and uses not in USES:
            raise RuntimeError(f"stage {key}: uses must be one of {USES}, got {uses!r}")
        for dep in after:
            if f"{pipeline}:{dep}" not in STAGES:
                raise RuntimeError(f"stage {key} comes after {dep!r}, which is not registered before it")
        STAGES[key] = Stage(name, pipeline, fn, tuple(after), help or (fn.__doc__ or "").strip().split("\n")[0],
                            uses)
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


def run_stage(build: BuildFolder, pipeline: str, name: str, call: StageCall | None = None, *,
              sources: Mapping[str, str | Path] | None = None, force: bool = False,
              progress: Progress | None = None, backends: BackendHolder | None = None) -> StageRecord:
    """Run (or resume) one stage; returns its record. Stages it comes after must be complete."""
    key = f"{pipeline}:{name}"
    if key not in STAGES:
        known = ", ".join(pipeline_order(pipeline)) or "none"
        raise InputError(f"no stage {name!r} in the {pipeline} pipeline (stages: {known})")
    spec = STAGES[key]
    call = call or StageCall()
    with build.lock(f"build {pipeline} {name}"):
        records = build.stages()
        for dep in spec.after:
            if records.get(dep) is None or records[dep].status != "complete":
                state = records[dep].status if dep in records else "not run"
                raise InputError(f"stage {name!r} needs {dep!r} first ({dep} is {state})", str(build.folder))
        paths = {k: Path(v) for k, v in call.inputs.items()}
        identity = {"inputs": input_identity(paths, build.folder), "params": dict(call.params),
                    "model": None if call.model is None else call.model.identity()}
        record = build.begin(name, identity, dependents(pipeline, name), force)
        if record.status == "complete":
            return record
        ctx = StageContext(build, record, dict(call.params), paths, model=call.model,
                           executor=call.executor if spec.uses == "executor" else None, transport=call.transport,
                           sources={k: Path(v) for k, v in (sources or {}).items()}, progress=progress,
                           backends=(backends or BackendHolder()) if spec.uses == "model" else None,
                           old_keys=build.old_keys(call.model) if call.model is not None else ())
        try:
            counts = spec.fn(ctx)
        except BaseException as exc:
            record.notes, record.kept = ctx.notes, sorted(set(record.kept) | set(ctx.kept))
            build.fail(record, exc, ctx.written)
            raise
        record.notes, record.kept = ctx.notes, sorted(set(record.kept) | set(ctx.kept))
        build.finish(record, counts or {}, ctx.written)
        return record


@dataclass
class StageCall:
    """How a pipeline calls one of its stages this time: what it reads, its parameters, the model
    whose answers it asks for or reads (with how they travel), or the executor."""

    inputs: Mapping[str, str | Path] = field(default_factory=dict)
    params: JsonObject = field(default_factory=dict)
    model: ModelSpec | None = None
    transport: Transport = field(default_factory=Transport)
    executor: Callable[[], Executor] | None = None


def check_stage_names(pipeline: str, until: str | None, force: Iterable[str]) -> set[str]:
    """``--until`` and ``--force`` checked against the pipeline's stages; returns the forced."""
    names = pipeline_order(pipeline)
    if until is not None and until not in names:
        raise InputError(f"unknown stage {until!r}; the stages are {', '.join(names)}", field="until")
    forced = set(force)
    if forced - set(names):
        raise InputError(f"unknown stage {', '.join(sorted(forced - set(names)))}; the stages are "
                         f"{', '.join(names)}", field="force")
    return forced


def run_pipeline(build: BuildFolder, pipeline: str, calls: Mapping[str, StageCall], *, until: str | None = None,
                 force: Iterable[str] = (), sources: Mapping[str, str | Path] | None = None,
                 on_stage: Callable[[str, StageRecord], None] | None = None,
                 progress: Progress | None = None, backend: Backend | None = None) -> dict[str, StageRecord]:
    """Every stage of ``pipeline`` in order, up to ``until``; returns each stage's record. The
    stages that call a model share one backend (``backend``, or the model's, opened on first use)."""
    forced = check_stage_names(pipeline, until, force)
    done: dict[str, StageRecord] = {}
    backends = BackendHolder(backend)
    with build.lock(f"build {pipeline}"):  # across all its stages
        for name in pipeline_order(pipeline):
            record = run_stage(build, pipeline, name, calls.get(name), sources=sources, force=name in forced,
                               progress=progress, backends=backends)
            done[name] = record
            if on_stage:
                on_stage(name, record)
            if name == until:
                break
    return done


def require_rows(build: BuildFolder, done: Mapping[str, StageRecord], stages: Iterable[str]) -> None:
    """A pipeline that ends with no row (or no context to write one from) is an error, with the
    reason: what was rejected, and why."""
    for name in stages:
        record = done.get(name)
        if record is None or record.status != "complete":
            continue
        for what in ("rows", "contexts"):
            if record.counts.get(what) == 0:
                why = ", ".join(f"{k.removeprefix('rejected: ')} {v}" for k, v in record.counts.items()
                                if k.startswith("rejected: ") and v) or "nothing was made"
                raise InputError(f"stage {name!r} ended with 0 {what} ({why})",
                                 str(build.folder / record.outputs[0]) if record.outputs else str(build.folder))
