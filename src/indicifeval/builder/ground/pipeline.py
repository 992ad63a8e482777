"""``build ground``: the Ground pipeline in a build folder, stage by stage, for any language
with a profile: a corpus (local JSONL/Parquet or a hub path) to validated Ground rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from indicifeval.builder.ground import stages as ground_stages
from indicifeval.builder.ground.beyond import check_language
from indicifeval.builder.ground.corpus import HUB_PREFIX
from indicifeval.builder.ground.mining import stop_fingerprint
from indicifeval.builder.ground.plan import CHOICES
from indicifeval.builder.ground.select import SelectionPlan, load_plan, plan_label, plan_path, scaled
from indicifeval.builder.licences import check_licence_id
from indicifeval.builder.project import BuildFolder, StageRecord
from indicifeval.builder.stages import (
    Progress,
    StageCall,
    check_stage_names,
    pipeline_order,
    require_rows,
    run_pipeline,
)
from indicifeval.core.errors import InputError
from indicifeval.languages import get_profile
from indicifeval.runs.backends import Backend
from indicifeval.runs.backends.batch import Transport
from indicifeval.runs.backends.mock_scripts import named_fake
from indicifeval.runs.backends.spec import ModelSpec

STAGES = tuple(pipeline_order(ground_stages.PIPELINE))  # shards vocab features select requests generate rows


@dataclass
class MiningOptions:
    """How the corpus is mined (each part of the identity of the stage it affects)."""

    top_k: int = 500
    min_length: int = 4
    min_df: int = 2
    max_chars: int = 1000
    shard_bytes: int = 64 << 20  # the most a JSONL shard holds; a small corpus is cut finer (corpus.shard_size)
    # None: the default (no word skipped, stop words left out), except in a folder an earlier
    # version made before these settings: it keeps its ranking (the folder's ``defaults``)
    skip_top: int | None = None  # the best-ranked words left out (after the stop words), as the authors' --from_k
    stop_words: bool | None = None  # leave the profile's stop words out of the ranking


def prompt_writer(model: ModelSpec) -> ModelSpec:
    """``model`` as the Ground prompt writer: each request brings the plan's sampling settings
    and its own system turn; the mock's ``fake[:RATE]`` is the fake prompt writer."""
    if model.backend == "mock":
        values = model.options.values()
        values["answers"] = named_fake(str(values.get("answers") or ""), "fake-prompt-writer")
        model = replace(model, options=type(model.options).from_mapping(values))
    return replace(model, settings=None, system=None)


def build_ground(out: str | Path, language: str, corpus: str, plan: str | Path | None, model: ModelSpec | None, *,
                 imports: Iterable[str | Path] = (), executor: str = "processes", workers: int | None = None,
                 ray_address: str | None = None, mining: MiningOptions | None = None, revision: str | None = None,
                 plan_scale: float = 1.0, keyword_choice: str | None = None, corpus_license: str | None = None,
                 until: str | None = None,
                 force: Iterable[str] = (), overwrite: bool = False,
                 on_stage: Callable[[str, StageRecord], None] | None = None,
                 progress: Progress | None = None, backend: Backend | None = None) -> dict[str, StageRecord]:
    """Run the Ground pipeline in ``out`` up to ``until`` (default: all); returns each stage's
    record. ``model`` writes the prompts (None: mining only, up to ``requests``): online through
    its backend (``backend`` stands in for it: tests, the Python API), or, for a batch format
    (``openai-batch``, ``gemini-batch``), through exported files: the stage stops at ``generate``
    (``BatchPending``) until the result files are given as ``imports``. ``plan_scale`` multiplies
    every quota of the plan; ``keyword_choice`` (``spread`` or ``pool``) overrides the plan's
    ``keywords.choice`` (None: the plan's, or what a folder made before the setting was made with).
    ``corpus_license`` (an SPDX id) is recorded with the rows'
    provenance, where ``build publish`` reads it (only when given: a folder made without it
    resumes as it was)."""
    from indicifeval.builder.executors import EXECUTORS, create_executor

    profile = get_profile(language)
    if not profile.is_indic:
        raise InputError(f"{language}: Ground rows are built for an Indic language profile", field="lang")
    if executor not in EXECUTORS:
        raise InputError(f"unknown executor {executor!r}; choose from {', '.join(EXECUTORS)}", field="executor")
    check_stage_names(ground_stages.PIPELINE, until, force)
    mining = mining or MiningOptions()
    if (mining.skip_top or 0) < 0 or mining.top_k < 1:
        raise InputError("--top-k must be at least 1 and --skip-top at least 0", field="skip_top")
    chosen = scaled(load_plan(plan), plan_scale)  # checked now, before any work
    plan_file = plan_path(plan)
    check_language(chosen.beyond, language, str(plan_file))
    if model is None and (until is None or STAGES.index(until) >= STAGES.index("generate")):
        raise InputError("build ground needs the model that writes the prompts: --backend and --model (--backend mock "
                         "--mock-answers fake for the offline fake writer), or --transport with --model; mining alone "
                         "(--until requests) needs none", field="backend")
    writer = prompt_writer(model) if model is not None else None
    transport = Transport(writer.backend if writer is not None and writer.batch else "online",
                          tuple(Path(p) for p in imports))
    if writer is not None:
        writer.identity()  # its options checked before any folder is made
    build = BuildFolder(out).create(language, overwrite)
    folder = build.folder
    hub = corpus.startswith(HUB_PREFIX)
    # where the corpus is does not make it another corpus: a local one is known by its content
    corpus_name = corpus if hub else Path(corpus).name
    licence = {"license": check_licence_id(corpus_license, "corpus_license")} if corpus_license else {}
    made: list[Any] = []

    def shard_executor() -> Any:  # one for both shard stages (a Ray start costs seconds)
        if not made:
            made.append(create_executor(executor, workers, ray_address))
        return made[0]

    given_stop = None if mining.stop_words is None else stop_fingerprint(language) if mining.stop_words else "off"
    ranking = {"skip_top": build.setting("skip_top", mining.skip_top, 0),
               "stop_words": build.setting("stop_words", given_stop, stop_fingerprint(language))}
    label: dict[str, Any] = {"plan": plan_label(plan)}
    if plan_scale != 1:  # recorded only when used, so a folder made without it is unchanged
        label["plan_scale"] = plan_scale
    if keyword_choice is not None and keyword_choice not in CHOICES:
        raise InputError(f"--keyword-choice must be one of {', '.join(CHOICES)}", field="keyword_choice")
    choice = build.setting("keyword_choice", keyword_choice, None)
    if choice is not None:  # recorded only when named (or kept by an older folder)
        label["keyword_choice"] = choice
    given_share = None if chosen.context_required_share == SelectionPlan().context_required_share else \
        chosen.context_required_share
    share = build.setting("context_required_share", given_share, chosen.context_required_share)
    calls = {
        "shards": StageCall(inputs={} if hub else {"corpus": corpus},
                            params={"corpus": corpus_name, "revision": revision, "shard_bytes": mining.shard_bytes}),
        "vocab": StageCall(params={"language": language, "min_length": mining.min_length, "top_k": mining.top_k,
                                   "min_df": mining.min_df, **ranking}, executor=shard_executor),
        "features": StageCall(inputs={"keywords": folder / ground_stages.KEYWORDS},
                              params={"language": language, "max_chars": mining.max_chars}, executor=shard_executor),
        # the plan by its shipped name or its file's name (never a local path), its content by hash
        "select": StageCall(inputs={"plan": plan_file}, params={"language": language, **label}),
        "requests": StageCall(params={"language": language, "seed": chosen.seed, "context_required_share": share}),
        "generate": StageCall(inputs={"requests": folder / ground_stages.REQUESTS}, model=writer, transport=transport),
        "rows": StageCall(params={"language": language,
                                  "provenance": {"corpus": corpus_name, "revision": revision,
                                                 "model": writer.model if writer else None, **licence}}, model=writer),
    }
    try:
        done = run_pipeline(build, ground_stages.PIPELINE, calls, until=until, force=force,
                            sources={} if hub else {"corpus": corpus}, on_stage=on_stage, progress=progress,
                            backend=backend)
    finally:
        for made_executor in made:
            made_executor.shutdown()
    require_rows(build, done, ("select", "rows"))
    return done


__all__ = ["STAGES", "MiningOptions", "build_ground", "prompt_writer"]
