"""``build trans``: the Trans pipeline in a build folder, stage by stage, for any language with
a profile. The English source is the hub's ``en`` split, a local copy of it, or a JSONL file."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from indicifeval.builder.project import BuildFolder, StageRecord
from indicifeval.builder.stages import (
    StageCall,
    check_stage_names,
    pipeline_order,
    require_rows,
    run_pipeline,
)
from indicifeval.builder.trans import beyond
from indicifeval.builder.trans import stages as trans_stages
from indicifeval.builder.trans.engines import (
    CHAT_ENGINES,
    Engine,
    create_engine,
    options_class,
    resolve_engine,
    system_prompt,
)
from indicifeval.builder.trans.plan import UNITS
from indicifeval.builder.trans.protect import PROTECT
from indicifeval.builder.trans.source import INSTRUCTION_LISTS
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_dataset, write_rows_jsonl
from indicifeval.languages import get_profile
from indicifeval.runs.backends import Backend, BackendOptions
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.backends.mock_scripts import is_script, resolve_script
from indicifeval.runs.backends.spec import chat_template_hash, model_identity
from indicifeval.runs.requests import SamplingSettings

STAGES = tuple(pipeline_order(trans_stages.PIPELINE))  # plan, pretranslate, translate, assemble, validate
SOURCE_COPY = "trans/english.jsonl"


@dataclass(frozen=True)
class TransSettings:
    """How the release's rows are made; None: the default (``DEFAULTS``), except in a folder
    made before these were settings, which keeps what it was made with
    (``stages.LEGACY_SETTINGS``) so the same command goes on instead of translating again."""

    units: str | None = None  # whole | lines (trans.plan)
    protect: str | None = None  # inline | placeholder (trans.protect)
    instructions: str | None = None  # release | source (trans.source)

    DEFAULTS = {"units": "whole", "protect": "inline", "instructions": "release"}
    CHOICES = {"units": UNITS, "protect": PROTECT, "instructions": INSTRUCTION_LISTS}
    STAGE = {"units": "plan", "protect": "translate", "instructions": "plan"}  # the stage that records it

    def resolve(self, build: BuildFolder) -> dict[str, str]:
        """name -> value for the stage parameters; a setting left out of the dict is the
        folder's legacy value (not recorded, so its stage's identity is unchanged)."""
        out = {}
        for name, default in self.DEFAULTS.items():
            given = getattr(self, name)
            if given is not None:
                if given not in self.CHOICES[name]:
                    raise InputError(f"{name} must be one of {', '.join(self.CHOICES[name])}, got {given!r}",
                                     field=name)
                out[name] = given
            elif not build.made_without(self.STAGE[name], name):
                out[name] = default
        return out


@dataclass
class EngineSpec:
    """Which engine translates, and how: its identity is recorded with each stage that calls it."""

    name: str
    model: str
    options: dict[str, Any] = field(default_factory=dict)
    prompt: str | None = None  # a chat engine's system prompt: a name in prompts.json, or the text
    settings: SamplingSettings = field(default_factory=lambda: SamplingSettings(max_tokens=2048))
    backend: Backend | None = None  # a ready backend (tests, the Python API)

    def resolved_options(self, language: str) -> BackendOptions:
        values = dict(self.options)
        if self.name not in CHAT_ENGINES:
            values["target_language"] = language
        if self.name == "mock" and str(values.get("answers", "")).startswith("fake"):
            values = {}  # the fake translator is made below; MockOptions knows only real answer files
        return options_class(self.name).from_mapping(values)

    def identity(self, language: str) -> dict[str, Any]:
        options = self.resolved_options(language)
        template = chat_template_hash(self.name, self.model) if self.name in CHAT_ENGINES else None
        return {"engine": self.name, "model": model_identity(self.model), "options": options.output_settings(),
                **({"chat_template_hash": template} if template is not None else {}),
                "fake": self.options.get("answers") if self.name == "mock" else None,
                "system_prompt": system_prompt(self.prompt, language) if self.name in CHAT_ENGINES else None,
                "settings": self.settings.to_json()}

    def factory(self, language: str) -> Callable[[], Engine]:
        def make() -> Engine:
            backend = self.backend
            answers = str(self.options.get("answers", ""))
            if backend is None and self.name == "mock" and answers.startswith("fake"):
                name = answers if is_script(answers) else "fake-translator:" + answers.partition(":")[2]
                backend = MockBackend(self.model, script=resolve_script(name, language))
            return create_engine(self.name, self.model, language, self.resolved_options(language),
                                 prompt=self.prompt, settings=self.settings, backend=backend)

        return make


def _source_file(build: BuildFolder, source: str | Path) -> Path:
    """The English rows as a file: a JSONL/JSON/Parquet file as it is; the hub or a local copy
    of its layout read once into the build folder (so later runs see the same input)."""
    path = Path(str(source))
    if str(source) == "beyond":  # the English prompts for the instructions beyond the paper
        return Path(str(resources.files("indicifeval.builder.trans").joinpath(beyond.SOURCE)))
    if str(source) != "hub" and path.is_file():
        return path
    dataset = load_dataset("trans", "en", source)
    out = build.folder / SOURCE_COPY
    write_rows_jsonl(out, dataset.rows)
    return out


def build_trans(out: str | Path, language: str, source: str | Path, engine: EngineSpec, *,
                settings: TransSettings = TransSettings(), until: str | None = None, force: Iterable[str] = (),
                overwrite: bool = False, on_stage: Callable[[str, StageRecord], None] | None = None,
                progress: Callable[[str, int], Any] | None = None) -> dict[str, StageRecord]:
    """Run the Trans pipeline in ``out`` for ``language`` up to ``until`` (default: all),
    restarting the stages in ``force``; returns each stage's record. ``settings``: whole
    prompts or lines, keywords inline or as placeholders, the release's instruction lists or
    the source's."""
    profile = get_profile(language)
    if not profile.is_indic and profile.code != "en":
        raise InputError(f"{language}: a Trans split is built for an Indic language profile", field="lang")
    check_stage_names(trans_stages.PIPELINE, until, force)
    if engine.backend is None and resolve_engine(engine.name, engine.model) != engine.name:
        engine = replace(engine, name=resolve_engine(engine.name, engine.model))
    identity = engine.identity(language)  # options checked before any folder is made
    build = BuildFolder(out).create(language, overwrite)
    model = engine.factory(language)
    chosen = settings.resolve(build)
    plan_params = {k: v for k, v in chosen.items() if k in ("units", "instructions")}
    protect = {k: v for k, v in chosen.items() if k == "protect"}
    phrases = build.folder / trans_stages.PHRASES
    calls = {
        "plan": StageCall(inputs={"source": _source_file(build, source)}, params={"language": language,
                                                                                   **plan_params}),
        "pretranslate": StageCall(params={"language": language}, model=model, model_identity=identity),
        # inline: the phrase table's words are part of what is asked, so an edit asks again
        "translate": StageCall(inputs={"pretranslations": phrases} if chosen.get("protect") == "inline" else {},
                               params={"language": language, **protect}, model=model, model_identity=identity),
        "assemble": StageCall(inputs={"pretranslations": phrases},
                              params={"language": language, "engine": identity, **protect}),
        "validate": StageCall(inputs={"candidates": build.folder / trans_stages.CANDIDATES},
                              params={"language": language, "engine": identity}),
    }
    done = run_pipeline(build, trans_stages.PIPELINE, calls, until=until, force=force, on_stage=on_stage,
                        progress=progress)
    require_rows(build, done, ("assemble", "validate"))
    return done


__all__ = ["STAGES", "EngineSpec", "TransSettings", "build_trans"]
