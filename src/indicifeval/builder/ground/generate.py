"""The generate stage's two routes to the same log (``ground/generations.jsonl``):

* ``online``: every request through a runs backend (OpenAI-compatible server, vLLM, hf,
  mock) by the resumable core: one record per reply as it arrives, resumed after a kill,
  failures asked again;
* ``openai-batch`` / ``gemini-batch``: the requests still missing are exported as the
  provider's batch file (the OpenAI one also runs on local GPUs with ``vllm run-batch``); the
  result files given with ``--import`` are reconciled by key into the same log, and whatever
  is still missing is exported again. Until nothing is missing the stage waits
  (``BatchPending``), and the rows stage does not run."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from indicifeval.builder.ground.requests import request_hash
from indicifeval.builder.stages import StageContext
from indicifeval.core.errors import IndicIFEvalError
from indicifeval.core.log import JsonlLog
from indicifeval.records import GenerationTask
from indicifeval.runs.backends import Backend, OnResult
from indicifeval.runs.requests import GenerationRequest, GenerationResult, SamplingSettings
from indicifeval.runs.resumable import Job, cached, execute, first_per_key

TRANSPORTS = ("online", "openai-batch", "gemini-batch")


class BatchPending(IndicIFEvalError):
    """Some replies are not in yet: a batch file waits to be run and imported."""


@dataclass
class GenerateSpec:
    """How the generate stage reaches a model (not part of the stage's identity: where the
    replies come from does not change what was asked)."""

    transport: str = "online"
    model: str = ""
    backend: Callable[[], Backend] | None = None  # online: made when there is something to ask
    backend_name: str = "mock"
    imports: list[str] = field(default_factory=list)  # batch: result files to import
    identity: dict[str, Any] = field(default_factory=dict)  # the model's, part of every reply's content hash
    legacy_ok: bool = False  # replies logged before hashes named the model are this model's


def _model_key(model: dict[str, Any]) -> str:
    return json.dumps(model, sort_keys=True, ensure_ascii=False)


def _reply_hash(task: GenerationTask, model_key: str) -> str:
    return hashlib.sha256(f"{model_key}\n{request_hash(task)}".encode()).hexdigest()[:16]


def reply_hash(task: GenerationTask, model: dict[str, Any]) -> str:
    """What was asked and of which model: a reply is reused only for the same request to the same
    model with the same output-affecting settings."""
    return _reply_hash(task, _model_key(model))


def reply_hashes(tasks: list[GenerationTask], model: dict[str, Any]) -> dict[str, str]:
    key = _model_key(model)
    return {t.uid: _reply_hash(t, key) for t in tasks}


def _migrate(tasks: list[GenerationTask], spec: GenerateSpec, log: JsonlLog) -> int:
    """Replies logged by an older version (hashed without the model) that this model made are
    logged again under their new hash: reused, never asked again."""
    if not spec.legacy_ok or not log.exists():
        return 0
    hashes = reply_hashes(tasks, spec.identity)
    have = cached(log.read(), hashes)
    old = cached(log.read(), {t.uid: request_hash(t) for t in tasks if t.uid not in have})
    if old:
        with log:
            log.append_many([replace(g, content_hash=hashes[uid]).to_json() for uid, g in old.items()])
    return len(old)


def _request(task: GenerationTask, backend_name: str) -> GenerationRequest:
    params = dict(task.params)
    gen_kwargs: dict[str, Any] = {}
    if backend_name == "openai" and task.response_schema:
        gen_kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": "ground_prompt", "schema": task.response_schema,
                                                         "strict": True}}
    settings = SamplingSettings(max_tokens=int(params.get("max_tokens", 2048)),
                                temperature=float(params.get("temperature", 0.9)),
                                top_p=float(params.get("top_p", 0.95)), seed=int(params.get("seed", 0)),
                                gen_kwargs=gen_kwargs)
    return GenerationRequest(task.uid, task.messages, settings)


def _missing(tasks: list[GenerationTask], log: JsonlLog, hashes: dict[str, str]) -> list[GenerationTask]:
    """The tasks whose reply the cache does not hold (for this exact request to this model)."""
    have = cached(log.read(), hashes)
    return [t for t in tasks if t.uid not in have]


class _Tally:
    """The backend, noting the content hash of each answer that came back without an error once
    ``execute`` has journalled it: what is still missing is then known without reading the
    whole log back (a fifth of the stage's own time at 64 in flight). Such an answer is exactly
    what the cache would find (its record has no error, and its job's hash)."""

    def __init__(self, backend: Backend, hashes: dict[str, str]):
        self.backend, self.name = backend, backend.name
        self.hashes = hashes  # uid -> content hash
        self.answered: set[str] = set()

    def describe(self) -> dict[str, Any]:
        return self.backend.describe()

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        def noted(result: GenerationResult) -> None:
            on_result(result)  # journalled first: counted only once it is in the log
            if result.error is None:
                self.answered.add(self.hashes[result.uid])

        self.backend.generate(requests, noted)


def generate(ctx: StageContext, tasks: list[GenerationTask], log_name: str) -> dict[str, int]:
    spec: GenerateSpec = ctx.model or GenerateSpec()
    log = ctx.cache(log_name)  # every reply and import, kept through any rerun
    if _migrate(tasks, spec, log):
        ctx.note("replies logged by an earlier version kept under their new content hash")
    if spec.transport == "online":
        hashes = reply_hashes(tasks, spec.identity)  # once: each is a JSON dump and a sha256 of the request
        pending = _missing(tasks, log, hashes)
        asked = 0
        if pending:
            if spec.backend is None:
                raise IndicIFEvalError("the online transport needs a backend (--backend)")
            distinct = first_per_key(pending, lambda t: hashes[t.uid])
            jobs = [Job(_request(t, spec.backend_name), hashes[t.uid]) for t in distinct]
            asked = len(jobs)
            tally = _Tally(spec.backend(), hashes)
            with ctx.bar("replies", len(jobs)) as advance:
                execute(tally, jobs, log, on_progress=advance)
            pending = [t for t in pending if hashes[t.uid] not in tally.answered]
        failed = len(pending)
        return {"requests": len(tasks), "asked": asked, "reused": len(tasks) - asked, "failed": failed}
    return _batch(ctx, spec, tasks, log)


IMPORTS = "ground/batch/imports.jsonl"  # one line per result file imported, kept through reruns


def _record_imports(ctx: StageContext, files: list, paths: list[str]) -> None:
    """Each imported file's counts, by its content: a file imported again supersedes its own
    line (``latest("sha256")``), never another file's."""
    from indicifeval.core.files import sha256_of

    with JsonlLog(ctx.keep(IMPORTS)) as log:
        log.append_many([{"file": Path(path).name, "sha256": sha256_of(path), **this.counts(),
                          "summary": this.summary()} for this, path in zip(files, paths)])


def _batch(ctx: StageContext, spec: GenerateSpec, tasks: list[GenerationTask], log: JsonlLog) -> dict[str, int]:
    from indicifeval.builder.ground.batch import export_batch, import_batch

    hashes = reply_hashes(tasks, spec.identity)
    counts = {"requests": len(tasks), "imported": 0}
    if spec.imports:
        result = import_batch(spec.transport, spec.imports, hashes)
        have = cached(log.read(), hashes)
        fresh = [g for g in result.generations if g.uid not in have]
        with log:
            log.append_many([g.to_json() for g in fresh])
        counts["imported"] = len(fresh)
        for this in result.files:  # what each file held, told in the file's name
            ctx.note(f"import {this.summary()}")
        _record_imports(ctx, result.files, list(spec.imports))
    imported = list(JsonlLog(ctx.folder / IMPORTS).latest("sha256").values()) if (ctx.folder / IMPORTS).exists() \
        else []
    if imported:  # over every file imported so far, not only this time's
        counts["files"] = len(imported)
        for name in ("replies", "failed", "malformed", "unknown"):
            counts[name] = sum(int(line.get(name, 0)) for line in imported)
    pending = _missing(tasks, log, hashes)
    counts["missing"] = len(pending)
    if pending:
        batch_dir = ctx.folder / "ground" / "batch"
        number = len(list(batch_dir.glob(f"{spec.transport}-requests-*.jsonl"))) + 1 if batch_dir.is_dir() else 1
        name = f"ground/batch/{spec.transport}-requests-{number:03d}.jsonl"
        export_batch(spec.transport, pending, spec.model, ctx.keep(name))  # it may be running at a provider
        how = ("vllm run-batch -i FILE -o OUT --model MODEL, or the OpenAI Batch API"
               if spec.transport == "openai-batch" else "Gemini batch mode")
        ctx.record.counts = dict(counts)  # shown by `build status` while the stage waits
        raise BatchPending(f"{len(pending)} of {len(tasks)} replies are missing: run {Path(ctx.folder) / name} "
                           f"({how}), then run this command again with --import RESULTS.jsonl")
    return counts


__all__ = ["TRANSPORTS", "BatchPending", "GenerateSpec", "generate", "reply_hash", "reply_hashes"]
