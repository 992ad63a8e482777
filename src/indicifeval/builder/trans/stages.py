"""The Trans pipeline's stages, registered with the build layer (``builder.stages``):

    plan -> pretranslate -> translate -> assemble -> validate

Every engine call goes through the resumable core (``runs.resumable``): one record per call in
an append-only log, resumed after a kill, a failed call asked again, a changed text asked
anew. Files, in the build folder: ``trans/source.jsonl`` (the English rows), ``trans/plans.jsonl``,
``trans/phrases-mt.jsonl`` and ``trans/pretranslations.jsonl`` (the phrase table, editable),
``trans/mt.jsonl`` (every translation call), ``trans/candidates.jsonl``, then
``trans/validation.jsonl`` and ``trans/rows.jsonl`` (the rows with their final status)."""

from __future__ import annotations

from collections import Counter

from indicifeval.builder.candidates import read_candidates, write_candidates
from indicifeval.builder.stages import StageContext, stage
from indicifeval.builder.trans.assemble import assemble, engine_texts
from indicifeval.builder.trans.phrases import collect, lookup, merge, phrase_uid, read_table, write_table
from indicifeval.builder.trans.plan import PLAN_FORMAT, TransPlan, make_plan
from indicifeval.builder.trans.source import prepare
from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import read_jsonl, write_jsonl
from indicifeval.dataset import load_rows, write_rows_jsonl
from indicifeval.dataset.validation import validate_rows
from indicifeval.languages import get_profile
from indicifeval.records import AUTO_OK, NEEDS_REVIEW, Generation, layout
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.resumable import Job, cached, content_hash, fill, keyed

PIPELINE = "trans"
SOURCE, PLANS = layout.TRANS_SOURCE, layout.TRANS_PLANS
PHRASE_LOG, PHRASES = layout.TRANS_PHRASE_LOG, layout.TRANS_PHRASES
MT_LOG, CANDIDATES = layout.TRANS_MT_LOG, layout.TRANS_CANDIDATES
VALIDATION, ROWS = layout.TRANS_VALIDATION, layout.TRANS_ROWS


def _read_plans(ctx: StageContext) -> list[TransPlan]:
    return [TransPlan.from_json(r) for _, r in read_jsonl(ctx.folder / PLANS)]


def _source_rows(ctx: StageContext):
    return load_rows(ctx.folder / SOURCE)


def _model(ctx: StageContext) -> ModelSpec:
    if ctx.model is None:
        raise InputError(f"stage {ctx.record.name!r} needs the translator (a bug: the pipeline gives it)")
    return ctx.model


def translations(ctx: StageContext, log_name: str, texts: dict[str, str]) -> dict[str, Generation]:
    """uid -> the translation the cache holds for ``texts`` as the stage's model would make them."""
    key = _model(ctx).key
    return cached(ctx.read_log(log_name).read(), {uid: content_hash(key, text) for uid, text in texts.items()})


def _translate(ctx: StageContext, log_name: str, texts: dict[str, str]) -> tuple[dict[str, int], dict[str, Generation]]:
    """Translate ``uid -> text`` into the cache ``log_name``, asking only what the cache does not
    hold for this text and model; (counts, uid -> translation)."""
    model = _model(ctx)
    hashes, earlier = keyed(model.key, texts, ctx.old_keys)
    jobs = [Job(model.request(uid, text), hashes[uid]) for uid, text in texts.items()]
    filled = fill(ctx.cache(log_name), jobs, ctx.backend, earlier=earlier, bar=lambda n: ctx.bar("translations", n))
    if filled.rehashed:
        ctx.note(f"{log_name}: {filled.rehashed} translations an earlier version made kept under today's key")
    return {"items": len(texts), **filled.counts()}, filled.answers


@stage("plan", pipeline=PIPELINE, help="a translation plan per English row")
def plan_stage(ctx: StageContext) -> dict[str, int]:
    """The English rows as the build uses them (``trans.source``: the release's instruction
    lists unless ``instructions`` is ``source``), written to ``trans/source.jsonl``, and a
    plan per row."""
    given = [r for r in load_rows(ctx.inputs["source"], language="en", subset="trans") if r.language == "en"]
    rows, dropped = prepare(given, ctx.text("instructions"))
    write_rows_jsonl(ctx.output(SOURCE), rows)
    plans = [make_plan(row, ctx.text("units"), dropped.get(str(row.key))) for row in rows]
    write_jsonl(ctx.output(PLANS), (p.to_json() for p in plans))
    return {"rows": len(rows), "spans": sum(len(p.spans) for p in plans),
            "units": sum(len(p.units) for p in plans), "problems": sum(bool(p.problems) for p in plans),
            "instructions dropped": sum(len(d) for d in dropped.values())}


@stage("pretranslate", pipeline=PIPELINE, after=("plan",), uses="model",
       help="the phrase table, translated phrase by phrase")
def pretranslate_stage(ctx: StageContext) -> dict[str, int]:
    profile = get_profile(ctx.text("language"))
    fresh = collect(_source_rows(ctx), profile)
    texts = {phrase_uid(item.phrase): item.phrase for item in fresh.values() if item.role == "translate"}
    counts, done = _translate(ctx, PHRASE_LOG, texts)
    said = {}
    for uid, generation in done.items():
        if not generation.truncated:
            said[texts[uid]] = (generation.answer or "").strip()
    old = read_table(ctx.folder / PHRASES)
    table = merge(fresh, old, said, _model(ctx).backend)
    write_table(ctx.keep(PHRASES), table)  # merged into: a person's edits outlive every rerun
    missing = sum(1 for item in table.values() if not item.translation)
    return {**counts, "phrases": len(table), "untranslated": missing}


def _engine_texts(ctx: StageContext, plans: list[TransPlan]) -> dict[str, str]:
    """uid -> what the engine is asked, for every unit: with the phrase table's words written
    in (``inline``) or placeholders (``placeholder``)."""
    profile = get_profile(ctx.text("language"))
    phrases = lookup(read_table(ctx.folder / PHRASES)) if (ctx.folder / PHRASES).is_file() else {}
    protect = ctx.text("protect")
    return {uid: text for p in plans for uid, text in engine_texts(p, phrases, profile, protect).items()}


@stage("translate", pipeline=PIPELINE, after=("plan", "pretranslate"), uses="model",
       help="every unit of every prompt, the constraint words written in or as placeholders")
def translate_stage(ctx: StageContext) -> dict[str, int]:
    texts = _engine_texts(ctx, _read_plans(ctx))
    counts, done = _translate(ctx, MT_LOG, texts)
    counts["truncated"] = sum(1 for g in done.values() if g.truncated)
    return counts


@stage("assemble", pipeline=PIPELINE, after=("pretranslate", "translate"), help="candidate rows with a status")
def assemble_stage(ctx: StageContext) -> dict[str, int]:
    profile = get_profile(ctx.text("language"))
    phrases = lookup(read_table(ctx.folder / PHRASES))
    plans = _read_plans(ctx)
    generations = translations(ctx, MT_LOG, _engine_texts(ctx, plans))
    rows = {r.key: r for r in _source_rows(ctx)}
    # a folder an earlier version made keeps the provenance its rows were made with
    made_by = ctx.build.setting("trans_provenance", None, {"model": _model(ctx).identity()})
    provenance = {**made_by, "plan_format": PLAN_FORMAT,
                  "pretranslations_sha256": ctx.record.identity["inputs"]["pretranslations"]["sha256"],
                  "source_sha256": ctx.build.stages()["plan"].identity["inputs"]["source"]["sha256"]}
    protect = ctx.text("protect")
    candidates = [assemble(p, rows[p.key], generations, phrases, profile, provenance, protect) for p in plans]
    write_candidates(ctx.output(CANDIDATES), candidates)
    ok = sum(1 for c in candidates if c.status == AUTO_OK)
    return {"rows": len(candidates), AUTO_OK: ok, NEEDS_REVIEW: len(candidates) - ok}


@stage("validate", pipeline=PIPELINE, after=("assemble",), help="the validator on the candidates; final rows")
def validate_stage(ctx: StageContext) -> dict[str, int]:
    """``indicifeval validate`` on the candidates, against the English source: a row with an
    error becomes ``needs-review`` with the error among its reasons; warnings are kept beside
    the row (they do not change its status). The rows file is what review starts from."""
    candidates = read_candidates(ctx.folder / CANDIDATES)
    findings = validate_rows([c.row for c in candidates], _source_rows(ctx))
    write_jsonl(ctx.output(VALIDATION), (f.to_json() for f in findings))
    by_key: dict[str, list] = {}
    for f in findings:
        by_key.setdefault(str(f.row.key) if f.row else "", []).append(f)
    final = []
    for candidate in candidates:
        found = by_key.get(str(candidate.row.key), [])
        final.append(candidate.with_findings([f"validate {f.check}: {f.message}" for f in found if f.is_error],
                                             [f"validate {f.check}: {f.message}" for f in found if not f.is_error]))
    write_candidates(ctx.output(ROWS), final)
    _language_check(ctx, [c.row for c in candidates], findings)
    ok = sum(1 for c in final if c.status == AUTO_OK)
    return {"rows": len(final), AUTO_OK: ok, NEEDS_REVIEW: len(final) - ok,
            "errors": sum(f.is_error for f in findings), "warnings": sum(not f.is_error for f in findings)}


# the build stops when this share of its rows, and at least this many, are refused as not in the language
STOP_SHARE, STOP_MIN = 0.9, 10


def _language_check(ctx: StageContext, rows: list, findings: list) -> None:
    """Stop, saying why, when (nearly) every prompt is refused as not in the row's language (mostly
    in another script: the engine did not translate into it); note it when nearly every prompt
    reads as another language of the script (an engine code of that language, or a profile
    identification cannot tell from it)."""
    from indicifeval.languages import language_name
    from indicifeval.text.langid import dominant_script, identify_language

    language = ctx.text("language")
    by_key = {str(r.key): r for r in rows}
    refused = {str(f.row.key) for f in findings if f.check == "prompt_language" and f.is_error and f.row}
    read_as = {str(f.row.key) for f in findings if f.check == "prompt_language" and not f.is_error and f.row}
    profile = get_profile(language)
    for keys, stop in ((refused, True), (read_as, False)):
        if len(keys) < STOP_MIN or len(keys) < STOP_SHARE * len(rows):
            continue
        found = Counter((dominant_script if stop else identify_language)(by_key[k].prompt) for k in keys if k in by_key)
        other = found.most_common(1)[0][0] if found else None
        if stop:
            raise InputError(f"{len(keys)} of the {len(rows)} prompts are mostly in the {other} script, not "
                             f"{profile.script}: the engine did not translate into {profile.name} ({language}); "
                             f"check its code in the profile's \"codes\" (`indicifeval languages --check {language}`) "
                             f"and the engine's languages", str(ctx.folder / VALIDATION))
        ctx.note(f"{len(keys)} of the {len(rows)} prompts read as {language_name(other or '?')}, not {profile.name}: "
                 f"an engine given {other}'s code translates into {other}, and a profile without function_words and "
                 f"\"cld2\" codes of its own cannot be told from {other} (`indicifeval languages --check {language}`); "
                 f"the fake translator's letters are no language")


__all__ = ["CANDIDATES", "MT_LOG", "PHRASES", "PIPELINE", "PLANS", "ROWS", "SOURCE", "VALIDATION",
           "assemble_stage", "plan_stage", "pretranslate_stage", "translate_stage", "validate_stage"]
