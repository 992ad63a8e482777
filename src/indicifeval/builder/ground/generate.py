"""The generate stage's two routes to the same log (``ground/generations.jsonl``):

* ``online``: every request through the model's backend by the resumable core
  (``runs.resumable.fill``): one record per reply as it arrives, resumed after a kill, failures
  asked again;
* ``openai-batch`` / ``gemini-batch``: the requests still missing are exported as the
  provider's batch file (the OpenAI one also runs on local GPUs with ``vllm run-batch``); the
  result files given with ``--import`` are reconciled by key into the same log, and whatever
  is still missing is exported again. Until nothing is missing the stage waits
  (``BatchPending``), and the rows stage does not run.

A reply is keyed by what was asked (``requests.request_hash``) of which model (``ModelSpec.key``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from indicifeval.builder.ground.requests import request_hash
from indicifeval.builder.stages import StageContext
from indicifeval.core.errors import InputError
from indicifeval.core.log import JsonlLog
from indicifeval.records import Generation, GenerationTask
from indicifeval.runs.backends.batch import BatchPending, export_batch, import_batch
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.requests import GenerationRequest, SamplingSettings
from indicifeval.runs.resumable import Job, cached, content_hash, fill, keyed, rehash

IMPORTS = "ground/batch/imports.jsonl"  # one line per result file imported, kept through reruns


def reply_hashes(tasks: list[GenerationTask], model: ModelSpec) -> dict[str, str]:
    """uid -> the content hash of its reply: the same request to the same model (same
    output-affecting settings) is reused, anything else asked anew."""
    return {t.uid: content_hash(model.key, request_hash(t)) for t in tasks}


def replies(ctx: StageContext, tasks: list[GenerationTask], log_name: str) -> dict[str, Generation]:
    """uid -> the reply the log holds for each task, from the stage's model."""
    if ctx.model is None:
        raise InputError(f"stage {ctx.record.name!r} needs the model (a bug: the pipeline gives it)")
    return cached(ctx.read_log(log_name).read(), reply_hashes(tasks, ctx.model))


def task_request(task: GenerationTask, backend: str) -> GenerationRequest:
    """The task as a request: its messages, the plan's sampling settings, and for an
    OpenAI-compatible server the reply's JSON schema."""
    params = dict(task.params)
    gen_kwargs: dict[str, Any] = {}
    if backend == "openai" and task.response_schema:
        gen_kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": "ground_prompt", "schema": task.response_schema,
                                                         "strict": True}}
    settings = SamplingSettings(max_tokens=int(params.get("max_tokens", 2048)),
                                temperature=float(params.get("temperature", 0.9)),
                                top_p=float(params.get("top_p", 0.95)), seed=int(params.get("seed", 0)),
                                gen_kwargs=gen_kwargs)
    return GenerationRequest(task.uid, task.messages, settings)


def generate(ctx: StageContext, tasks: list[GenerationTask], log_name: str) -> dict[str, int]:
    if ctx.model is None:
        raise InputError("the generate stage needs the model that writes the prompts (--backend, --model)")
    model = ctx.model
    log = ctx.cache(log_name)  # every reply and import, kept through any rerun
    # once: each is a JSON dump and a sha256 of the request
    hashes, earlier = keyed(model.key, {t.uid: request_hash(t) for t in tasks}, ctx.old_keys)
    if ctx.transport.kind == "online":
        jobs = [Job(task_request(t, model.backend), hashes[t.uid]) for t in tasks]
        filled = fill(log, jobs, ctx.backend, earlier=earlier, bar=lambda n: ctx.bar("replies", n))
        if filled.rehashed:
            ctx.note(f"{filled.rehashed} replies an earlier version logged kept under today's key")
        return {"requests": len(tasks), **filled.counts()}
    moved = rehash(log, hashes, earlier, cached(log.read(), hashes) if log.exists() else {})
    if moved:
        ctx.note(f"{moved} replies an earlier version logged kept under today's key")
    return _batch(ctx, model, tasks, log, hashes)


def _record_imports(ctx: StageContext, files: list, paths: list[Path]) -> None:
    """Each imported file's counts, by its content: a file imported again supersedes its own
    line (``latest("sha256")``), never another file's."""
    from indicifeval.core.files import sha256_of

    with JsonlLog(ctx.keep(IMPORTS)) as log:
        log.append_many([{"file": Path(path).name, "sha256": sha256_of(path), **this.counts(),
                          "summary": this.summary()} for this, path in zip(files, paths)])


def _batch(ctx: StageContext, model: ModelSpec, tasks: list[GenerationTask], log: JsonlLog,
           hashes: dict[str, str]) -> dict[str, int]:
    kind, imports = ctx.transport.kind, list(ctx.transport.imports)
    counts = {"requests": len(tasks), "imported": 0}
    if imports:
        result = import_batch(kind, imports, hashes)
        have = cached(log.read(), hashes) if log.exists() else {}
        fresh = [g for g in result.generations if g.uid not in have]
        with log:
            log.append_many([g.to_json() for g in fresh])
        counts["imported"] = len(fresh)
        for this in result.files:  # what each file held, told in the file's name
            ctx.note(f"import {this.summary()}")
        _record_imports(ctx, result.files, imports)
    imported = list(JsonlLog(ctx.folder / IMPORTS).latest("sha256").values()) if (ctx.folder / IMPORTS).exists() \
        else []
    if imported:  # over every file imported so far, not only this time's
        counts["files"] = len(imported)
        for name in ("replies", "failed", "malformed", "unknown"):
            counts[name] = sum(int(line.get(name, 0)) for line in imported)
    have = cached(log.read(), hashes) if log.exists() else {}
    pending = [t for t in tasks if t.uid not in have]
    counts["missing"] = len(pending)
    if pending:
        batch_dir = ctx.folder / "ground" / "batch"
        number = len(list(batch_dir.glob(f"{kind}-requests-*.jsonl"))) + 1 if batch_dir.is_dir() else 1
        name = f"ground/batch/{kind}-requests-{number:03d}.jsonl"
        export_batch(kind, pending, model.model, ctx.keep(name))  # it may be running at a provider
        how = ("vllm run-batch -i FILE -o OUT --model MODEL, or the OpenAI Batch API"
               if kind == "openai-batch" else "Gemini batch mode")
        ctx.record.counts = dict(counts)  # shown by `build status` while the stage waits
        raise BatchPending(f"{len(pending)} of {len(tasks)} replies are missing: run {Path(ctx.folder) / name} "
                           f"({how}), then run this command again with --import RESULTS.jsonl")
    return counts


__all__ = ["IMPORTS", "generate", "replies", "reply_hashes", "task_request"]
