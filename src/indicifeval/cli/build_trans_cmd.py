"""``indicifeval build trans``: the Trans split of a language, translated stage by stage."""

from __future__ import annotations

import argparse

from indicifeval.cli.build_common import add_stage_flags, finish_build, forced_stages, stage_reporter
from indicifeval.cli.common import HelpFormatter
from indicifeval.cli.option_flags import add_model_flags, model_spec


def _translator_classes() -> dict:
    """Every backend can translate: the chat backends with a system turn, the translators."""
    from indicifeval.runs.backends import BACKENDS, options_class

    return {name: options_class(name) for name in BACKENDS}


def register(verbs: argparse._SubParsersAction) -> None:
    from indicifeval.builder.trans.pipeline import STAGES
    from indicifeval.builder.trans.translator import DEFAULT_PROMPT

    t = verbs.add_parser("trans", formatter_class=HelpFormatter, help="build the Trans split of a language",
                         description="Translate the English Trans rows into a language, stage by stage ("
                         + " -> ".join(STAGES) + "), resumably: run the same command again to go on. "
                         "The phrase table (trans/pretranslations.jsonl) may be edited between stages "
                         "(--until pretranslate, edit, run again).")
    t.add_argument("folder", help="the build folder (one per language)")
    t.add_argument("--lang", required=True, help="the target language (a profile code, e.g. hi)")
    t.add_argument("--source", default="hub", help="the English rows: 'hub' (the en split), 'beyond' (the "
                   "bundled English prompts for the numbers/units/romanised instructions), 'ifbench:PATH' (IFBench's "
                   "test file), 'open-instruct:PATH' (open-instruct's RL-training rows, or NeMo Gym's), a local copy "
                   "of the hub's layout, or a JSONL/JSON/Parquet file")
    t.add_argument("--protect", choices=("inline", "placeholder"), help="how the words a constraint is about "
                   "reach the engine: inline (the paper's method: the translated keyword written into the English "
                   "prompt, found and checked after translation) or placeholder (an opaque {{N}} put back "
                   "afterwards). Default: inline; a folder made before this option keeps placeholder")
    t.add_argument("--units", choices=("whole", "lines"), help="what is sent in one request: whole prompts (as the "
                   "authors translate; a prompt_to_repeat piece is still its own unit) or lines. Default: whole; a "
                   "folder made before this option keeps lines")
    t.add_argument("--instructions", choices=("release", "source"), help="instruction lists: as the release has "
                   "them (the English-case rows' language:response_language dropped, the reason in each row's "
                   "provenance) or as the English source has them. Default: release; a folder made before this "
                   "option keeps source")
    add_model_flags(t, _translator_classes(), what="the translator", identity="stage", max_tokens=2048,
                    alias=True, system_help=f"chat backends: a prompt named in prompts.json or the text itself, "
                    f"{{language}} standing for the target language (default: {DEFAULT_PROMPT}); mock: "
                    f"--mock-answers fake[:RATE] is a deterministic fake translator damaging RATE of its placeholders")
    add_stage_flags(t, STAGES)
    t.set_defaults(handler=build_trans, data_argument="--source")


def build_trans(args: argparse.Namespace) -> int:
    from indicifeval.builder.trans.pipeline import TransSettings
    from indicifeval.builder.trans.pipeline import build_trans as run_pipeline
    from indicifeval.cli.output import progress_bar
    from indicifeval.records import AUTO_OK, NEEDS_REVIEW

    spec = model_spec(args, _translator_classes(), language=args.lang) if args.backend is not None else None
    forced = forced_stages(args)
    settings = TransSettings(args.units, args.protect, args.instructions)
    done = run_pipeline(args.folder, args.lang, args.source, spec, settings=settings, until=args.until, force=forced,
                        overwrite=args.overwrite, on_stage=stage_reporter(args),
                        progress=lambda label, total: progress_bar(total, label, not args.quiet, 2))
    from indicifeval.builder.trans.pipeline import STAGES

    return finish_build(args, done, STAGES, ("rows", AUTO_OK, NEEDS_REVIEW),
                        {"validate": "trans/rows.jsonl", "assemble": "trans/candidates.jsonl"})


