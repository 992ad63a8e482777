"""``build multiturn``: a language's conversations in a build folder of their own, stage by stage
and resumably, from its Trans rows: a Trans build folder (its ``trans/rows.jsonl``, each row's
status kept), or Trans rows as ``load_dataset`` reads them (``hub``, ``sample``, a file)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from indicifeval.builder.candidates import write_candidates
from indicifeval.builder.multiturn import stages as multiturn_stages
from indicifeval.builder.project import BuildFolder, StageRecord
from indicifeval.builder.stages import (
    Progress,
    StageCall,
    check_stage_names,
    pipeline_order,
    require_rows,
    run_pipeline,
)
from indicifeval.builder.trans.pipeline import TransSettings, trans_calls
from indicifeval.builder.trans.translator import translator
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_dataset
from indicifeval.languages import get_profile
from indicifeval.records import Candidate, layout
from indicifeval.runs.backends import Backend
from indicifeval.runs.backends.spec import ModelSpec

STAGES = tuple(pipeline_order(multiturn_stages.PIPELINE))
TRANS_COPY = "multiturn/trans-rows.jsonl"


def _turn1_file(build: BuildFolder, language: str, trans: str | Path) -> Path:
    """Turn 1's rows as a candidates file: a Trans build folder's rows as they are; other Trans
    rows (hub, sample, a file) read once into the build folder, each ``auto-ok``."""
    folder = Path(str(trans))
    if folder.is_dir() and (folder / layout.TRANS_ROWS).is_file():
        return folder / layout.TRANS_ROWS
    if folder.is_dir() and (folder / "manifest.json").is_file():
        raise InputError("this Trans build folder has no trans/rows.jsonl yet: run `build trans` to the end first",
                         str(folder))
    rows = load_dataset("trans", language, trans).rows
    out = build.folder / TRANS_COPY
    write_candidates(out, (Candidate(r, provenance={"from": "trans rows"}) for r in rows))
    return out


def build_multiturn(out: str | Path, language: str, trans: str | Path, model: ModelSpec | None, *,
                    seed: int = 0, turns: int = 3, settings: TransSettings | None = None,
                    until: str | None = None, force: Iterable[str] = (), overwrite: bool = False,
                    on_stage: Callable[[str, StageRecord], None] | None = None, progress: Progress | None = None,
                    backend: Backend | None = None) -> dict[str, StageRecord]:
    """Run the multi-turn pipeline in ``out`` for ``language`` up to ``until`` (default: all),
    restarting the stages in ``force``; returns each stage's record. ``trans``: turn 1's rows;
    ``model`` translates the follow-ups (None only to draft and plan); ``seed`` draws them;
    ``settings`` as ``build trans`` takes them."""
    profile = get_profile(language)
    if not profile.is_indic and profile.code != "en":
        raise InputError(f"{language}: conversations are built for an Indic language profile (or en)", field="lang")
    check_stage_names(multiturn_stages.PIPELINE, until, force)
    if model is None and until not in ("draft", "plan"):
        raise InputError("build multiturn needs the translator: --backend and --model (--backend mock "
                         "--mock-answers fake for the offline fake translator); --until draft or plan needs none",
                         field="backend")
    spec = translator(model, language) if model is not None else None
    if spec is not None:
        spec.identity()
    build = BuildFolder(out).create(language, overwrite)
    calls = trans_calls(build, language, build.folder / multiturn_stages.FOLLOW_UPS, spec,
                        (settings or TransSettings()).resolve(build))
    calls["draft"] = StageCall(inputs={"trans": _turn1_file(build, language, trans)},
                               params={"language": language, "seed": seed, "turns": turns})
    calls["conversations"] = StageCall(inputs={"follow-ups": build.folder / multiturn_stages.trans_stages.ROWS},
                                       params={"language": language})
    done = run_pipeline(build, multiturn_stages.PIPELINE, calls, until=until, force=force, on_stage=on_stage,
                        progress=progress, backend=backend)
    require_rows(build, done, ("assemble", "validate", "conversations"))
    return done


__all__ = ["STAGES", "TRANS_COPY", "build_multiturn"]
