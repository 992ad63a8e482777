"""The Ground pipeline's stages, registered with the build layer (``builder.stages``):

    shards -> vocab -> features -> select -> requests -> generate -> rows

Shard-level stages (vocab, features) map a pure function over the shards with the chosen
executor; each finished shard's part is written at once (atomically: by the worker itself where
it sees the build folder, else by the driver) and a rerun skips the shards whose part is there,
so a kill loses at most the shards in flight. Item-level generation
goes through the resumable core (online) or a provider batch file (export, import, re-export
what is missing). Files, under ``ground/`` in the build folder: ``shards.json``,
``vocab/part-*.json``, ``vocab.json``, ``keywords.jsonl`` (editable), ``features/part-*.jsonl``,
``contexts.jsonl``, ``select-rejected.jsonl``, ``select-fill.json``, ``requests.jsonl``, ``generations.jsonl``,
``batch/``, ``rows.jsonl``, ``rejected.jsonl``, ``validation.jsonl``."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from indicifeval.builder.candidates import write_candidates
from indicifeval.builder.ground.corpus import HUB_PREFIX, Shard, list_shards
from indicifeval.builder.ground.generate import replies as logged_replies
from indicifeval.builder.ground.mining import (
    FeatureTask,
    VocabPart,
    VocabTask,
    map_features,
    map_vocab,
    rank_keywords,
    stop_keys,
    vocab_json,
    write_features,
    write_vocab,
)
from indicifeval.builder.ground.requests import context_required_ids, make_request
from indicifeval.builder.ground.rows import build_row, taken_for_another
from indicifeval.builder.ground.select import load_plan, scaled, select_contexts
from indicifeval.builder.stages import StageContext, stage
from indicifeval.core.errors import InputError
from indicifeval.core.files import atomic_writer, sha256_of, write_text
from indicifeval.core.jsonl import read_jsonl, write_jsonl
from indicifeval.dataset.validation import validate_rows
from indicifeval.languages import get_profile
from indicifeval.records import AUTO_OK, GenerationTask, MinedContext, layout
from indicifeval.records.layout import ground_part

PIPELINE = "ground"
# its files, named in records.layout beside Trans's: short names here
SHARDS, VOCAB, KEYWORDS = layout.GROUND_SHARDS, layout.GROUND_VOCAB, layout.GROUND_KEYWORDS
KEYWORDS_MADE, KEYWORDS_RANKED = layout.GROUND_KEYWORDS_MADE, layout.GROUND_KEYWORDS_RANKED
CONTEXTS, SELECT_REJECTED = layout.GROUND_CONTEXTS, layout.GROUND_SELECT_REJECTED
SELECT_FILL = layout.GROUND_SELECT_FILL
REQUESTS, GENERATIONS = layout.GROUND_REQUESTS, layout.GROUND_GENERATIONS
ROWS, REJECTED, VALIDATION = layout.GROUND_ROWS, layout.GROUND_REJECTED, layout.GROUND_VALIDATION
DRAWN_ALONE = "drawn-alone"  # each context's need for the context drawn alone, not as the plan's share


def _write_json(path, data) -> None:
    with atomic_writer(path) as fh:
        fh.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def _write_text(path, part: dict) -> None:
    with atomic_writer(path) as fh:
        fh.write(part["jsonl"])


def _lines(path) -> Iterator[dict]:
    for _, record in read_jsonl(path):
        yield record


def _revision(ctx: StageContext) -> str | None:
    value = ctx.params.get("revision")
    return value if value is None else ctx.text("revision")


def _corpus(ctx: StageContext) -> str:
    """The corpus as given this time (a local one may have moved, or been typed from elsewhere)."""
    local = ctx.sources.get("corpus")
    return str(local) if local is not None else ctx.text("corpus", str(ctx.build.folder / SHARDS))


def _shards(ctx: StageContext) -> list[Shard]:
    """The shards, their local paths resolved against the corpus as given now (they are stored
    relative to it, so a moved corpus or build folder, or another working directory, still reads)."""
    stored = [Shard.from_json(s) for s in json.loads((ctx.folder / SHARDS).read_text(encoding="utf-8"))["shards"]]
    root = ctx.sources.get("corpus")
    if root is None:
        return stored
    # absolute, so that a worker started elsewhere (a Ray node's own working directory) finds them
    return [replace(s, path=os.path.abspath(root if s.path in ("", ".") else root / s.path))
            if not s.path.startswith(HUB_PREFIX) and not Path(s.path).is_absolute() else s for s in stored]


def _map_shards(ctx: StageContext, kind: str, fns: tuple, tasks: list, write) -> int:
    """Run the shards whose part is missing; each part written as it is done. Workers that see
    this file system (serial, processes, a Ray on this machine) write their parts themselves
    (``fns[0]``, streaming); others send the part back (``fns[1]``) and ``write`` stores it."""
    names = [ground_part(kind, t.shard.id) for t in tasks]
    for name in names:
        ctx.output(name)  # recorded, so a forced rerun removes every part
    todo = [i for i, name in enumerate(names) if not (ctx.folder / name).is_file()]
    if todo:
        assert ctx.executor is not None, "a shard stage declares uses='executor'"
        executor = ctx.executor()  # shared by the shard stages; the pipeline shuts it down
        direct = getattr(executor, "shares_files", False)
        jobs = [replace(tasks[i], out=os.path.abspath(ctx.folder / names[i])) if direct else tasks[i] for i in todo]
        with ctx.bar("shards", len(todo)) as advance:
            def done(j: int, result) -> None:
                if not direct:
                    write(ctx.folder / names[todo[j]], result)
                advance(1)

            executor.map(fns[0] if direct else fns[1], jobs, on_done=done, keep=False)
    return len(todo)


@stage("shards", pipeline=PIPELINE, help="the corpus as shards, one task each")
def shards_stage(ctx: StageContext) -> dict[str, int]:
    corpus = _corpus(ctx)
    shards = list_shards(corpus, _revision(ctx), ctx.integer("shard_bytes"))
    if not corpus.startswith(HUB_PREFIX):  # stored relative to the corpus (a file: "")
        root = Path(corpus)
        shards = [replace(s, path="" if root.is_file() else Path(s.path).relative_to(root).as_posix())
                  for s in shards]
    _write_json(ctx.output(SHARDS), {"corpus": ctx.params["corpus"], "revision": _revision(ctx),
                                     "shards": [s.to_json() for s in shards]})
    return {"shards": len(shards)}


@stage("vocab", pipeline=PIPELINE, after=("shards",), uses="executor", help="word counts per shard, merged and ranked")
def vocab_stage(ctx: StageContext) -> dict[str, int]:
    language, min_length = ctx.text("language"), ctx.integer("min_length")
    tasks = [VocabTask(s, language, min_length) for s in _shards(ctx)]
    ran = _map_shards(ctx, "vocab", (write_vocab, map_vocab), tasks,
                      lambda path, part: write_text(path, vocab_json(part)))
    total = VocabPart()
    for task in tasks:
        path = ctx.folder / ground_part("vocab", task.shard.id)
        total.add(VocabPart.from_json(json.loads(path.read_text(encoding="utf-8"))))
    if total.docs == 0:
        why = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(_skip_counts(total).items())) or "it is empty"
        raise InputError(f"the corpus has no usable document ({why}): each line must be a JSON object with a "
                         f"non-empty 'text'", _corpus(ctx))
    for kind, n in sorted(_skip_counts(total).items()):
        ctx.note(f"skipped {n} corpus line(s): {_SKIPPED.get(kind, kind)} (the first at "
                 f"{total.skipped.get('first_' + kind, '?')})")
    _check_script(total, language, _corpus(ctx))
    left_out: Counter[str] = Counter()
    stop = stop_keys(language) if ctx.text("stop_words") != "off" else frozenset()
    keywords = rank_keywords(total, ctx.integer("top_k"), from_k=ctx.integer("skip_top"),
                             min_df=ctx.integer("min_df"), stop=stop, left_out=left_out)
    _write_json(ctx.output(VOCAB), {"docs": total.docs, "words": len(total.tf), "skipped": total.skipped,
                                    "left_out": dict(sorted(left_out.items()))})
    _write_keywords(ctx, keywords)
    return {"shards": len(tasks), "shards_run": ran, "documents": total.docs, "words": len(total.tf),
            "keywords": len(keywords), "stop_words_left_out": left_out["stop_words"],
            "skipped_top": left_out["skipped_top"], **{f"skipped_{k}": v for k, v in _skip_counts(total).items()}}


_SKIPPED = {"invalid_utf8": "invalid UTF-8", "malformed": "not JSON (or nested too deeply)",
            "not_an_object": "not a JSON object", "no_text": "no text", "lone_surrogate": "a lone surrogate escape",
            "bad_doc_id": "a doc_id that is not a string or number"}


def _skip_counts(total: VocabPart) -> dict[str, int]:
    return {k: v for k, v in total.skipped.items() if not k.startswith("first_") and isinstance(v, int)}


def _check_script(total: VocabPart, language: str, corpus: str) -> None:
    """A corpus mostly in another script is refused here, before any request is made from it."""
    script = get_profile(language).script
    documents = sum(total.scripts.values())
    if not documents:
        return  # parts written before scripts were counted
    share = total.scripts.get(script, 0) / documents
    if share < 0.5:
        other, n = max(((k, v) for k, v in total.scripts.items() if k != script), key=lambda kv: (kv[1], kv[0]))
        raise InputError(f"only {share:.0%} of the corpus's {documents} documents are in the {script} script of "
                         f"{language}; {n / documents:.0%} are in {other}: is this the {language} corpus?", corpus)


def _write_keywords(ctx: StageContext, keywords: list[dict]) -> None:
    """The ranked keywords into keywords.jsonl, unless a person edited the list since this stage
    last wrote it: then their list stays and the fresh ranking goes beside it."""
    path, made = ctx.keep(KEYWORDS), ctx.keep(KEYWORDS_MADE)
    if path.is_file() and made.is_file() and sha256_of(path) != made.read_text(encoding="utf-8").strip():
        write_jsonl(ctx.output(KEYWORDS_RANKED), keywords)
        ctx.note(f"{KEYWORDS} was edited by hand: kept as it is; the fresh ranking is in {KEYWORDS_RANKED}")
        return
    write_jsonl(path, keywords)
    write_text(made, sha256_of(path) + "\n")


def keyword_list(ctx: StageContext) -> tuple[str, ...]:
    """The candidate keywords, as the (possibly hand-edited) keywords.jsonl says."""
    words = []
    for source, record in read_jsonl(ctx.folder / KEYWORDS):
        word = record.get("word")
        if not isinstance(word, str) or not word.strip():
            raise source.error("a keyword line needs a non-empty 'word'", "word")
        words.append(word.strip())
    return tuple(dict.fromkeys(words))


@stage("features", pipeline=PIPELINE, after=("vocab",), uses="executor", help="one feature record per document")
def features_stage(ctx: StageContext) -> dict[str, int]:
    keywords = keyword_list(ctx)
    tasks = [FeatureTask(s, ctx.text("language"), keywords, ctx.integer("max_chars")) for s in _shards(ctx)]
    ran = _map_shards(ctx, "features", (write_features, map_features), tasks, _write_text)
    return {"shards": len(tasks), "shards_run": ran, "keywords": len(keywords)}


def _feature_records(ctx: StageContext) -> Iterator[dict]:
    for shard in _shards(ctx):
        yield from _lines(ctx.folder / ground_part("features", shard.id))


@stage("select", pipeline=PIPELINE, after=("features",), help="contexts per the plan, each re-checked")
def select_stage(ctx: StageContext) -> dict[str, int]:
    plan = scaled(load_plan(ctx.inputs.get("plan")), ctx.number("plan_scale", 1))
    if "keyword_choice" in ctx.params:  # named on the command line, or kept by a folder made before the setting
        plan.keywords = replace(plan.keywords, choice=ctx.text("keyword_choice"))
    rejected: list[dict] = []
    duplicates: list[str] = []
    fill: dict = {}
    contexts = select_contexts(_feature_records(ctx), plan, ctx.text("language"), keyword_list(ctx), rejected,
                               duplicates, fill)
    if duplicates:
        ctx.note(f"{len(duplicates)} documents left out: their doc_id was used before (first: {duplicates[0]!r:.60})")
    write_jsonl(ctx.output(CONTEXTS), (c.to_json() for c in contexts))
    write_jsonl(ctx.output(SELECT_REJECTED), rejected)
    _write_json(ctx.output(SELECT_FILL), fill)
    for kind in fill["shortfall"]:
        entry = fill["kinds"][kind]
        values = "; ".join(f"{v}: {e['filled']} of {e['asked']}" for v, e in entry["values"].items()
                           if e["filled"] < e["asked"])
        ctx.note(f"warning: shortfall: the corpus filled {entry['filled']} of the {entry['asked']} {kind} contexts "
                 f"the plan asks for ({values}); the rows' mix is not the plan's")
    kinds = Counter(c.features["kind"] for c in contexts)
    pool = {"keyword_words": fill["pool_words"]} if fill["words"] else {}
    return {"contexts": len(contexts), "contexts_asked": sum(e["asked"] for e in fill["kinds"].values()),
            "recheck_failed": len(rejected), "duplicate_doc_ids": len(duplicates), **dict(sorted(kinds.items())),
            **pool, **{f"short: {k}": v for k, v in sorted(fill["shortfall"].items())}}


def _contexts(ctx: StageContext) -> list[MinedContext]:
    return [MinedContext.from_json(r) for r in _lines(ctx.folder / CONTEXTS)]


def _requests(ctx: StageContext) -> list[GenerationTask]:
    return [GenerationTask.from_json(r) for r in _lines(ctx.folder / REQUESTS)]


@stage("requests", pipeline=PIPELINE, after=("select",), help="one generation request per context")
def requests_stage(ctx: StageContext) -> dict[str, int]:
    contexts, seed = _contexts(ctx), ctx.integer("seed")
    if ctx.params["context_required_share"] == DRAWN_ALONE:  # how an earlier version drew it, kept by a folder it made
        tasks = [make_request(c, seed) for c in contexts]
    else:  # exactly the plan's share
        needs = context_required_ids(seed, [c.id for c in contexts], ctx.number("context_required_share"))
        tasks = [make_request(c, seed, c.id in needs) for c in contexts]
    write_jsonl(ctx.output(REQUESTS), (t.to_json() for t in tasks))
    styles = Counter("context" if t.context_required else "no_context" for t in tasks)
    return {"requests": len(tasks), **dict(sorted(styles.items()))}


@stage("generate", pipeline=PIPELINE, after=("requests",), uses="model", help="the LLM's replies (online or batch)")
def generate_stage(ctx: StageContext) -> dict[str, int]:
    from indicifeval.builder.ground.generate import generate

    return generate(ctx, _requests(ctx), GENERATIONS)


@stage("rows", pipeline=PIPELINE, after=("generate",), help="replies checked and made Ground rows")
def rows_stage(ctx: StageContext) -> dict[str, int]:
    contexts = {c.id: c for c in _contexts(ctx)}
    tasks = _requests(ctx)
    replies = logged_replies(ctx, tasks, GENERATIONS)
    given = ctx.params.get("provenance")
    provenance = dict(given) if isinstance(given, dict) else {}
    rows, rejected = [], []
    reasons: Counter[str] = Counter()
    for key, task in enumerate(tasks, start=1):
        generation = replies.get(task.uid)
        row, why = build_row(task, contexts[task.context_id], generation, key, provenance)
        if row is not None:
            rows.append(row)
        elif why is not None:
            reasons[why[0]] += 1
            rejected.append({"uid": task.uid, "kind": why[0], "detail": why[1], "style": task.style,
                             "instruction_id": task.instruction_id,
                             "reply": (generation.output[:2000] if generation else None)})
    write_candidates(ctx.output(ROWS), rows)
    write_jsonl(ctx.output(REJECTED), rejected)
    stop = taken_for_another(rejected, len(rows), ctx.text("language"))
    if stop is not None:
        raise InputError(stop, str(ctx.folder / REJECTED))
    if rows:
        from indicifeval.dataset import load_rows

        findings = validate_rows(load_rows(ctx.folder / ROWS))
        write_jsonl(ctx.output(VALIDATION), (f.to_json() for f in findings))
        if any(f.is_error for f in findings):
            raise InputError("the validator found errors in rows the rows stage accepted (a bug: please report it)",
                             str(ctx.folder / VALIDATION))
    else:
        write_jsonl(ctx.output(VALIDATION), [])
    counts = {"requests": len(contexts), "rows": len(rows), AUTO_OK: len(rows), "rejected": len(rejected)}
    counts.update({f"rejected: {k}": v for k, v in sorted(reasons.items())})
    return counts


__all__ = ["CONTEXTS", "GENERATIONS", "KEYWORDS", "PIPELINE", "REQUESTS", "ROWS", "SHARDS", "VOCAB",
           "features_stage", "generate_stage", "requests_stage", "rows_stage", "select_stage", "shards_stage",
           "vocab_stage"]
