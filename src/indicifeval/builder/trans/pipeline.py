"""``build trans``: the Trans pipeline in a build folder, stage by stage, for any language with
a profile. The English source is the hub's ``en`` split, a local copy of it, or a JSONL file."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from indicifeval.builder.project import BuildFolder, StageRecord
from indicifeval.builder.stages import (
    Progress,
    StageCall,
    check_stage_names,
    pipeline_order,
    require_rows,
    run_pipeline,
)
from indicifeval.builder.trans import beyond
from indicifeval.builder.trans import stages as trans_stages
from indicifeval.builder.trans.plan import UNITS
from indicifeval.builder.trans.protect import PROTECT
from indicifeval.builder.trans.source import INSTRUCTION_LISTS
from indicifeval.builder.trans.translator import translator
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_dataset, write_rows_jsonl
from indicifeval.dataset.foreign import SUITE_SOURCES, read_suite_rows
from indicifeval.languages import get_profile
from indicifeval.runs.backends import Backend
from indicifeval.runs.backends.spec import ModelSpec

STAGES = tuple(pipeline_order(trans_stages.PIPELINE))  # plan, pretranslate, translate, assemble, validate
SOURCE_COPY = "trans/english.jsonl"


@dataclass(frozen=True)
class TransSettings:
    """How the release's rows are made; None: the default (``DEFAULTS``), or in a folder an
    earlier version made before these were settings, what it was made with (the folder's
    ``defaults``), so the same command goes on instead of translating again."""

    units: str | None = None  # whole | lines (trans.plan)
    protect: str | None = None  # inline | placeholder (trans.protect)
    instructions: str | None = None  # release | source (trans.source)

    DEFAULTS = {"units": "whole", "protect": "inline", "instructions": "release"}
    CHOICES = {"units": UNITS, "protect": PROTECT, "instructions": INSTRUCTION_LISTS}

    def resolve(self, build: BuildFolder) -> dict[str, str]:
        """name -> value for the stage parameters."""
        out = {}
        for name, default in self.DEFAULTS.items():
            given = getattr(self, name)
            if given is not None and given not in self.CHOICES[name]:
                raise InputError(f"{name} must be one of {', '.join(self.CHOICES[name])}, got {given!r}", field=name)
            out[name] = build.setting(name, given, default)
        return out


def _source_file(build: BuildFolder, source: str | Path) -> Path:
    """The English rows as a file: a JSONL/JSON/Parquet file as it is; another suite's file
    (``ifbench:PATH``, ``open-instruct:PATH``: IFBench's test file, open-instruct's RL-training
    rows or NeMo Gym's) or the hub (or a local copy of its layout) read once into the build
    folder as rows, so later runs see the same input."""
    path = Path(str(source))
    if str(source) == "beyond":  # the English prompts for the instructions beyond the paper
        return Path(str(resources.files("indicifeval.builder.trans").joinpath(beyond.SOURCE)))
    suite, sep, given = str(source).partition(":")
    if sep and suite in SUITE_SOURCES:
        out = build.folder / SOURCE_COPY
        write_rows_jsonl(out, read_suite_rows(given, suite))
        return out
    if str(source) != "hub" and path.is_file():
        return path
    dataset = load_dataset("trans", "en", source)
    out = build.folder / SOURCE_COPY
    write_rows_jsonl(out, dataset.rows)
    return out



def trans_calls(build: BuildFolder, language: str, source: Path, spec: ModelSpec | None,
                chosen: dict[str, str]) -> dict[str, StageCall]:
    """How each Trans stage is called: the English rows in ``source`` translated into ``language``
    by ``spec`` with the settings ``chosen`` (``TransSettings.resolve``); ``build multiturn`` calls
    its follow-ups' stages so too."""
    plan_params = {k: chosen[k] for k in ("units", "instructions")}
    protect = {"protect": chosen["protect"]}
    phrases = build.folder / trans_stages.PHRASES
    return {
        "plan": StageCall(inputs={"source": source}, params={"language": language, **plan_params}),
        "pretranslate": StageCall(params={"language": language}, model=spec),
        # inline: the phrase table's words are part of what is asked, so an edit asks again
        "translate": StageCall(inputs={"pretranslations": phrases} if chosen["protect"] == "inline" else {},
                               params={"language": language, **protect}, model=spec),
        "assemble": StageCall(inputs={"pretranslations": phrases}, params={"language": language, **protect},
                              model=spec),
        "validate": StageCall(inputs={"candidates": build.folder / trans_stages.CANDIDATES},
                              params={"language": language}, model=spec),
    }


def build_trans(out: str | Path, language: str, source: str | Path, model: ModelSpec | None, *,
                settings: TransSettings = TransSettings(), until: str | None = None, force: Iterable[str] = (),
                overwrite: bool = False, on_stage: Callable[[str, StageRecord], None] | None = None,
                progress: Progress | None = None, backend: Backend | None = None) -> dict[str, StageRecord]:
    """Run the Trans pipeline in ``out`` for ``language`` up to ``until`` (default: all),
    restarting the stages in ``force``; returns each stage's record. ``model`` translates (bound
    to the language here; None only to plan; ``backend`` stands in for its own: tests, the Python API).
    ``settings``: whole prompts or lines, keywords inline or as placeholders, the release's
    instruction lists or the source's."""
    profile = get_profile(language)
    if not profile.is_indic and profile.code != "en":
        raise InputError(f"{language}: a Trans split is built for an Indic language profile", field="lang")
    check_stage_names(trans_stages.PIPELINE, until, force)
    if model is None and until != "plan":
        raise InputError("build trans needs the translator: --backend and --model (--backend mock --mock-answers fake "
                         "for the offline fake translator); planning alone (--until plan) needs none", field="backend")
    spec = translator(model, language) if model is not None else None
    if spec is not None:
        spec.identity()  # options checked before any folder is made
    build = BuildFolder(out).create(language, overwrite)
    calls = trans_calls(build, language, _source_file(build, source), spec, settings.resolve(build))
    done = run_pipeline(build, trans_stages.PIPELINE, calls, until=until, force=force, on_stage=on_stage,
                        progress=progress, backend=backend)
    require_rows(build, done, ("assemble", "validate"))
    return done


__all__ = ["STAGES", "TransSettings", "build_trans", "trans_calls"]
