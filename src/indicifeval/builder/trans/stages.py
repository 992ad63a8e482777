"""The Trans pipeline's stages, registered with the build layer (``build.stages``):

    plan -> pretranslate -> translate -> assemble -> validate

Every engine call goes through the resumable core (``runs.resumable``): one record per call in
an append-only log, resumed after a kill, a failed call asked again, a changed text asked
anew. Files, in the build folder: ``trans/source.jsonl`` (the English rows), ``trans/plans.jsonl``,
``trans/phrases-mt.jsonl`` and ``trans/pretranslations.jsonl`` (the phrase table, editable),
``trans/mt.jsonl`` (every translation call), ``trans/candidates.jsonl``, then
``trans/validation.jsonl`` and ``trans/rows.jsonl`` (the rows with their final status)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from indicifeval.builder.stages import StageContext, stage
from indicifeval.builder.trans.assemble import AUTO_OK, NEEDS_REVIEW, assemble, unit_uid
from indicifeval.builder.trans.engines import Engine
from indicifeval.builder.trans.phrases import collect, lookup, merge, phrase_uid, read_table, write_table
from indicifeval.builder.trans.plan import PLAN_FORMAT, TransPlan, make_plan
from indicifeval.core.files import atomic_writer
from indicifeval.core.jsonl import read_jsonl
from indicifeval.dataset import load_rows, write_rows_jsonl
from indicifeval.dataset.validation import validate_rows
from indicifeval.languages import get_profile
from indicifeval.records import Generation, layout
from indicifeval.runs.resumable import Job, execute
from indicifeval.runs.resumable import plan as plan_jobs

PIPELINE = "trans"
SOURCE, PLANS = layout.TRANS_SOURCE, layout.TRANS_PLANS
PHRASE_LOG, PHRASES = layout.TRANS_PHRASE_LOG, layout.TRANS_PHRASES
MT_LOG, CANDIDATES = layout.TRANS_MT_LOG, layout.TRANS_CANDIDATES
VALIDATION, ROWS = layout.TRANS_VALIDATION, layout.TRANS_ROWS
EngineFactory = Callable[[], Engine]


def _write_jsonl(path, records) -> None:
    with atomic_writer(path) as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")


def _read_plans(ctx: StageContext) -> list[TransPlan]:
    return [TransPlan.from_json(r) for _, r in read_jsonl(ctx.folder / PLANS)]


def _source_rows(ctx: StageContext):
    return load_rows(ctx.folder / SOURCE)


def content_hash(text: str, engine_key: str) -> str:
    return hashlib.sha256(f"{engine_key}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _run_jobs(ctx: StageContext, log_name: str, texts: dict[str, str]) -> dict[str, int]:
    """Translate ``uid -> text`` through the engine into ``log_name``, resumably."""
    engine_key = json.dumps(ctx.record.identity["engine"], sort_keys=True)
    log = ctx.log(log_name)
    latest = log.latest() if log.exists() else {}
    pending = [uid for uid in texts if not _done(latest.get(uid), content_hash(texts[uid], engine_key))]
    if pending:
        engine: Engine = ctx.engine()  # made only when there is something to ask
        jobs = [Job(engine.request(uid, texts[uid]), content_hash(texts[uid], engine_key)) for uid in pending]
        todo = plan_jobs(jobs, latest)
        with ctx.bar("translations", len(todo.todo)) as advance:
            execute(engine.backend, todo.todo, log, on_progress=advance)
    latest = log.latest()
    failed = sum(1 for uid in texts if (latest.get(uid) or {}).get("error"))
    return {"items": len(texts), "asked": len(pending), "failed": failed}


def _done(record: dict | None, wanted: str) -> bool:
    return record is not None and Generation.from_json(record).usable_for(wanted)


@stage("plan", pipeline=PIPELINE, help="a translation plan per English row")
def plan_stage(ctx: StageContext) -> dict[str, int]:
    rows = [r for r in load_rows(ctx.inputs["source"], language="en", subset="trans") if r.language == "en"]
    write_rows_jsonl(ctx.output(SOURCE), rows)
    plans = [make_plan(row) for row in rows]
    _write_jsonl(ctx.output(PLANS), (p.to_json() for p in plans))
    return {"rows": len(rows), "spans": sum(len(p.spans) for p in plans),
            "units": sum(len(p.units) for p in plans), "problems": sum(bool(p.problems) for p in plans)}


@stage("pretranslate", pipeline=PIPELINE, after=("plan",), help="the phrase table, translated phrase by phrase")
def pretranslate_stage(ctx: StageContext) -> dict[str, int]:
    profile = get_profile(ctx.params["language"])
    fresh = collect(_source_rows(ctx), profile)
    texts = {phrase_uid(item.phrase): item.phrase for item in fresh.values() if item.role == "translate"}
    counts = _run_jobs(ctx, PHRASE_LOG, texts)
    said = {}
    for uid, record in ctx.log(PHRASE_LOG).latest().items():
        generation = Generation.from_json(record)
        if generation.error is None and not generation.truncated and uid in texts:
            said[texts[uid]] = (generation.answer or "").strip()
    old = read_table(ctx.folder / PHRASES)
    table = merge(fresh, old, said, ctx.record.identity["engine"]["engine"])
    write_table(ctx.output(PHRASES), table)
    missing = sum(1 for item in table.values() if not item.translation)
    return {**counts, "phrases": len(table), "untranslated": missing}


@stage("translate", pipeline=PIPELINE, after=("plan",), help="every unit of every prompt, placeholders in")
def translate_stage(ctx: StageContext) -> dict[str, int]:
    texts = {unit_uid(p.key, i): u.text for p in _read_plans(ctx) for i, u in enumerate(p.units) if u.translate}
    counts = _run_jobs(ctx, MT_LOG, texts)
    latest = ctx.log(MT_LOG).latest()
    counts["truncated"] = sum(1 for uid in texts if (latest.get(uid) or {}).get("truncated"))
    return counts


@stage("assemble", pipeline=PIPELINE, after=("pretranslate", "translate"), help="candidate rows with a status")
def assemble_stage(ctx: StageContext) -> dict[str, int]:
    profile = get_profile(ctx.params["language"])
    phrases = lookup(read_table(ctx.folder / PHRASES))
    generations = ctx.log(MT_LOG).latest()
    rows = {r.key: r for r in _source_rows(ctx)}
    provenance = {"engine": ctx.params["engine"], "plan_format": PLAN_FORMAT,
                  "pretranslations_sha256": ctx.record.identity["inputs"]["pretranslations"]["sha256"],
                  "source_sha256": ctx.build.stages()["plan"].identity["inputs"]["source"]["sha256"]}
    candidates = [assemble(p, rows[p.key], generations, phrases, profile, provenance) for p in _read_plans(ctx)]
    _write_jsonl(ctx.output(CANDIDATES), candidates)
    ok = sum(1 for c in candidates if c["status"] == AUTO_OK)
    return {"rows": len(candidates), AUTO_OK: ok, NEEDS_REVIEW: len(candidates) - ok}


@stage("validate", pipeline=PIPELINE, after=("assemble",), help="the validator on the candidates; final rows")
def validate_stage(ctx: StageContext) -> dict[str, int]:
    """``indicifeval validate`` on the candidates, against the English source: a row with an
    error becomes ``needs-review`` with the error among its reasons; warnings are kept beside
    the row (they do not change its status). The rows file is what review starts from."""
    candidates = [record for _, record in read_jsonl(ctx.folder / CANDIDATES)]
    rows = load_rows(ctx.folder / CANDIDATES)
    findings = validate_rows(rows, _source_rows(ctx))
    with atomic_writer(ctx.output(VALIDATION)) as fh:
        for f in findings:
            fh.write(json.dumps(f.to_json(), ensure_ascii=False) + "\n")
    by_key: dict[str, list] = {}
    for f in findings:
        by_key.setdefault(str(f.row.key) if f.row else "", []).append(f)
    for record in candidates:
        found = by_key.get(str(record["key"]), [])
        errors = [f"validate {f.check}: {f.message}" for f in found if f.is_error]
        record["warnings"] = [f"validate {f.check}: {f.message}" for f in found if not f.is_error]
        if errors:
            record["status"] = NEEDS_REVIEW
            record["reasons"] = list(record.get("reasons") or []) + errors
    _write_jsonl(ctx.output(ROWS), candidates)
    ok = sum(1 for c in candidates if c["status"] == AUTO_OK)
    return {"rows": len(candidates), AUTO_OK: ok, NEEDS_REVIEW: len(candidates) - ok,
            "errors": sum(f.is_error for f in findings), "warnings": sum(not f.is_error for f in findings)}


__all__ = ["CANDIDATES", "MT_LOG", "PHRASES", "PIPELINE", "PLANS", "ROWS", "SOURCE", "VALIDATION",
           "assemble_stage", "plan_stage", "pretranslate_stage", "translate_stage", "validate_stage"]
