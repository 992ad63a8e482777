"""``build ground``: the Ground pipeline in a build folder, stage by stage, for any language
with a profile: a corpus (local JSONL/Parquet or a hub path) to validated Ground rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.builder.ground import stages as ground_stages
from indicifeval.builder.ground.beyond import check_language
from indicifeval.builder.ground.corpus import HUB_PREFIX
from indicifeval.builder.ground.generate import TRANSPORTS, GenerateSpec
from indicifeval.builder.ground.mining import stop_fingerprint
from indicifeval.builder.ground.select import SelectionPlan as Plan
from indicifeval.builder.ground.select import load_plan, plan_label, plan_path, scaled
from indicifeval.builder.licences import check_licence_id
from indicifeval.builder.project import BuildFolder, StageRecord
from indicifeval.builder.stages import (
    StageCall,
    check_stage_names,
    pipeline_order,
    require_rows,
    run_pipeline,
)
from indicifeval.core.errors import InputError
from indicifeval.languages import get_profile
from indicifeval.runs.backends import Backend
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.backends.mock_scripts import is_script, resolve_script
from indicifeval.runs.backends.spec import ModelSpec, model_identity

STAGES = tuple(pipeline_order(ground_stages.PIPELINE))  # shards vocab features select requests generate rows


@dataclass
class MiningOptions:
    """How the corpus is mined (each part of the identity of the stage it affects)."""

    top_k: int = 500
    min_length: int = 4
    min_df: int = 2
    max_chars: int = 1000
    shard_bytes: int = 64 << 20  # the most a JSONL shard holds; a small corpus is cut finer (corpus.shard_size)
    # None: the default (no word skipped, stop words left out), except in a folder whose vocab
    # stage ran before these settings: it keeps its ranking (BuildFolder.made_without)
    skip_top: int | None = None  # the best-ranked words left out (after the stop words), as the authors' --from_k
    stop_words: bool | None = None  # leave the profile's stop words out of the ranking


@dataclass
class Generator:
    """The LLM that writes the prompts: a backend for ``online``, a model name for batch files."""

    engine: str = "mock"
    model: str = "fake"
    options: dict[str, Any] = field(default_factory=dict)
    transport: str = "online"
    imports: list[str] = field(default_factory=list)
    backend: Backend | None = None  # a ready backend (tests, the Python API)

    def make_backend(self) -> Callable[[], Backend]:
        def make() -> Backend:
            if self.backend is not None:
                return self.backend
            answers = str(self.options.get("answers", ""))
            if self.engine == "mock" and answers.startswith("fake"):
                name = answers if is_script(answers) else "fake-prompt-writer:" + answers.partition(":")[2]
                return MockBackend(self.model, script=resolve_script(name))
            return ModelSpec(self.engine, self.model, self.options).create()

        return make

    def identity(self) -> dict[str, Any]:
        """Who writes the replies, with every setting that changes them (not speed settings):
        part of each reply's content hash, so another model is asked anew."""
        if self.transport != "online":
            return {"transport": self.transport, "model": self.model}
        if self.backend is not None:  # a ready backend (tests, the Python API): its name and the model
            return {"backend": self.backend.name, "model": model_identity(self.model), "options": {}}
        return ModelSpec(self.engine, self.model, self.options).identity()

    def spec(self, legacy_ok: bool = False) -> GenerateSpec:
        return GenerateSpec(self.transport, self.model, self.make_backend() if self.transport == "online" else None,
                            self.engine, list(self.imports), self.identity(), legacy_ok)


def build_ground(out: str | Path, language: str, corpus: str, plan: str | Path | None, generator: Generator, *,
                 executor: str = "processes", workers: int | None = None, ray_address: str | None = None,
                 mining: MiningOptions | None = None, revision: str | None = None, plan_scale: float = 1.0,
                 corpus_license: str | None = None, until: str | None = None,
                 force: Iterable[str] = (), overwrite: bool = False,
                 on_stage: Callable[[str, StageRecord], None] | None = None,
                 progress: Callable[[str, int], Any] | None = None) -> dict[str, StageRecord]:
    """Run the Ground pipeline in ``out`` up to ``until`` (default: all); returns each stage's
    record. A batch transport stops at ``generate`` (``BatchPending``) until its results are
    imported. ``plan_scale`` multiplies every quota of the plan. ``corpus_license`` (an SPDX
    id) is recorded with the rows' provenance, where ``build publish`` reads it (only when
    given: a folder made without it resumes as it was)."""
    from indicifeval.builder.executors import EXECUTORS, create_executor

    profile = get_profile(language)
    if not profile.is_indic:
        raise InputError(f"{language}: Ground rows are built for an Indic language profile", field="lang")
    if executor not in EXECUTORS:
        raise InputError(f"unknown executor {executor!r}; choose from {', '.join(EXECUTORS)}", field="executor")
    if generator.transport not in TRANSPORTS:
        raise InputError(f"unknown transport {generator.transport!r}; choose from {', '.join(TRANSPORTS)}",
                         field="transport")
    check_stage_names(ground_stages.PIPELINE, until, force)
    mining = mining or MiningOptions()
    if (mining.skip_top or 0) < 0 or mining.top_k < 1:
        raise InputError("--top-k must be at least 1 and --skip-top at least 0", field="skip_top")
    chosen = scaled(load_plan(plan), plan_scale)  # checked now, before any work
    plan_file = plan_path(plan)
    check_language(chosen.beyond, language, str(plan_file))
    model = generator.identity()  # and the backend's options
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

    ranking: dict[str, Any] = {}
    if not (build.made_without("vocab", "stop_words") and mining.skip_top is None and mining.stop_words is None):
        ranking = {"skip_top": mining.skip_top or 0,
                   "stop_words": stop_fingerprint(language) if mining.stop_words is not False else "off"}
    label: dict[str, Any] = {} if build.made_without("select", "plan") else {"plan": plan_label(plan)}
    if plan_scale != 1:  # recorded only when used, so a folder made without it is unchanged
        label["plan_scale"] = plan_scale
    share = {} if build.made_without("requests", "context_required_share") and \
        chosen.context_required_share == Plan().context_required_share else \
        {"context_required_share": chosen.context_required_share}
    before = build.stages().get("generate")  # an older version recorded the model's name alone
    legacy_ok = before is not None and before.identity.get("params", {}).get("model") == generator.model
    calls = {
        "shards": StageCall(inputs={} if hub else {"corpus": corpus},
                            params={"corpus": corpus_name, "revision": revision, "shard_bytes": mining.shard_bytes}),
        "vocab": StageCall(params={"language": language, "min_length": mining.min_length, "top_k": mining.top_k,
                                   "min_df": mining.min_df, **ranking}, executor=shard_executor),
        "features": StageCall(inputs={"keywords": folder / ground_stages.KEYWORDS},
                              params={"language": language, "max_chars": mining.max_chars}, executor=shard_executor),
        # the plan by its shipped name or its file's name (never a local path), its content by hash
        "select": StageCall(inputs={"plan": plan_file}, params={"language": language, **label}),
        "requests": StageCall(params={"language": language, "seed": chosen.seed, **share}),
        "generate": StageCall(inputs={"requests": folder / ground_stages.REQUESTS},
                              params={"model": model}, model=generator.spec(legacy_ok)),
        "rows": StageCall(params={"language": language, "model": model,
                                  "provenance": {"corpus": corpus_name, "revision": revision,
                                                 "model": generator.model, **licence}}),
    }
    try:
        done = run_pipeline(build, ground_stages.PIPELINE, calls, until=until, force=force,
                            sources={} if hub else {"corpus": corpus}, on_stage=on_stage, progress=progress)
    finally:
        for made_executor in made:
            made_executor.shutdown()
    require_rows(build, done, ("select", "rows"))
    return done


__all__ = ["STAGES", "Generator", "MiningOptions", "build_ground"]
