"""``indicifeval build multiturn``: a language's three-turn conversations, made from its Trans rows
as Multi-IF made its own from IFEval's, the follow-ups translated through the Trans stages."""

from __future__ import annotations

import argparse

from indicifeval.cli.build_common import add_stage_flags, finish_build, forced_stages, stage_reporter
from indicifeval.cli.build_trans_cmd import _translator_classes
from indicifeval.cli.common import HelpFormatter
from indicifeval.cli.option_flags import add_model_flags, model_spec


def register(verbs: argparse._SubParsersAction) -> None:
    from indicifeval.builder.multiturn.pipeline import STAGES

    m = verbs.add_parser("multiturn", formatter_class=HelpFormatter, help="build a language's multi-turn conversations",
                         description="Conversations from a language's Trans rows: turn 1 a Trans prompt, each later "
                         "turn one more instruction (drawn with --draw-seed; an earlier one it conflicts with "
                         "dropped), "
                         "its follow-up translated and validated as Trans rows are; stage by stage ("
                         + " -> ".join(STAGES) + "), resumably: run the same command again to go on.")
    m.add_argument("folder", help="the build folder of the conversations (one per language)")
    m.add_argument("--lang", required=True, help="the language (a profile code, e.g. hi)")
    m.add_argument("--trans", required=True, help="turn 1's rows: a Trans build folder of the language (its "
                   "trans/rows.jsonl, statuses kept), or Trans rows: 'hub', 'sample', a local copy of the hub's "
                   "layout, or a JSONL/JSON/Parquet file")
    m.add_argument("--draw-seed", type=int, default=0,
                   help="draws each conversation's follow-up instructions and kwargs")
    m.add_argument("--turns", type=int, default=3, help="turns per conversation (Multi-IF has 3)")
    m.add_argument("--protect", choices=("inline", "placeholder"), help="as `build trans --protect`")
    m.add_argument("--units", choices=("whole", "lines"), help="as `build trans --units`")
    add_model_flags(m, _translator_classes(), what="the translator", identity="stage", max_tokens=2048,
                    alias=True, system_help="as `build trans`; mock: --mock-answers fake[:RATE] is the fake translator")
    add_stage_flags(m, STAGES)
    m.set_defaults(handler=build_multiturn, data_argument="--trans")


def build_multiturn(args: argparse.Namespace) -> int:
    from indicifeval.builder.multiturn.pipeline import STAGES
    from indicifeval.builder.multiturn.pipeline import build_multiturn as run_pipeline
    from indicifeval.builder.trans.pipeline import TransSettings
    from indicifeval.cli.output import progress_bar
    from indicifeval.records import AUTO_OK, NEEDS_REVIEW

    spec = model_spec(args, _translator_classes(), language=args.lang) if args.backend is not None else None
    done = run_pipeline(args.folder, args.lang, args.trans, spec, seed=args.draw_seed, turns=args.turns,
                        settings=TransSettings(args.units, args.protect, None), until=args.until,
                        force=forced_stages(args), overwrite=args.overwrite, on_stage=stage_reporter(args),
                        progress=lambda label, total: progress_bar(total, label, not args.quiet, 2))
    return finish_build(args, done, STAGES, ("rows", AUTO_OK, NEEDS_REVIEW),
                        {"conversations": "multiturn/conversations.jsonl", "validate": "trans/rows.jsonl"})
