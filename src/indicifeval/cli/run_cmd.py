"""``indicifeval run``: generate answers with a model and score them, resumably."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import add_parser, split_list
from indicifeval.cli.option_flags import add_model_flags, model_spec
from indicifeval.core.modes import ScoringMode
from indicifeval.runs.backends.options import OPTIONS
from indicifeval.runs.requests import DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_TOKENS


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "run",
        description="Generate answers with a model (vLLM, transformers, an OpenAI-compatible server, or mock), "
        "write them to a run folder as they complete, then score them. Run the same command again to resume.",
    )
    p.add_argument("--out", required=True, help="run folder (created, or resumed if it exists)")
    p.add_argument("--overwrite", action="store_true", help="use a non-empty --out that `run` did not make")
    data = p.add_argument_group("data")
    data.add_argument("--data", default="hub", help="'hub' (ai4bharat/IndicIFEval), a local folder in the hub's "
                      "parquet layout, a JSONL/JSON/Parquet file, 'sample' or a suite's sample: 'sample-beyond', "
                      "'sample-open-instruct', 'sample-ifbench'; or conversations (Multi-IF's CSV/JSONL or ours, "
                      "found by their turn fields; 'sample-multiturn': 2 per language from the sample), each turn "
                      "asked with the conversation so far and scored per turn")
    data.add_argument("--revision", help="hub revision (commit) to pin; recorded in the manifest")
    data.add_argument("--subsets", default="trans,ground", help="trans, ground or both")
    data.add_argument("--languages", default="all", help="'all' (14 Indic + en where present) or e.g. hi,bn")
    data.add_argument("--tags", default="", help="keep rows with all these tags (not:TAG: without it), e.g. "
                      "correct,parallel or not:beyond (default: all rows)")
    data.add_argument("--limit", type=int, help="first N rows of each language and subset (default: all)")
    p.add_argument("--max-answer-chars", type=int, default=DEFAULT_MAX_ANSWER_CHARS,
                   help="answers longer than this are cut before they are stored (the cut is recorded)")
    add_model_flags(p, OPTIONS, what="where the model runs", identity="run", max_tokens=DEFAULT_MAX_TOKENS,
                    system_help="an optional system turn before the prompt")
    p.add_argument("--samples", type=int, default=1, metavar="N",
                   help="answers per prompt, sample s with seed --seed + s (default 1); metrics are then the mean over "
                   "samples with two-level bootstrap intervals, plus 'all k followed' and 'any of k'")
    p.add_argument("--allow-greedy-samples", action="store_true",
                   help="allow --samples above 1 with --temperature 0 (greedy samples are identical but for a "
                   "server's nondeterminism)")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed",
                   help="fixed: corrected semantics; paper: the authors' published scorer")
    p.add_argument("--quiet", action="store_true", help="no table, no progress bar")
    p.set_defaults(handler=run, data_argument="--data")


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import report_result, run_progress, turn_table
    from indicifeval.runs.runner import DataOptions
    from indicifeval.runs.runner import run as run_model

    spec = model_spec(args, OPTIONS)
    data = DataOptions(source=args.data, subsets=split_list(args.subsets), languages=args.languages,
                       tags=split_list(args.tags), limit=args.limit, revision=args.revision)
    with run_progress(enabled=not args.quiet) as (on_total, on_progress):
        outcome = run_model(spec, args.out, data, scoring=ScoringMode(args.scoring), on_total=on_total,
                            on_progress=on_progress, max_answer_chars=args.max_answer_chars, overwrite=args.overwrite,
                            samples=args.samples, allow_greedy_samples=args.allow_greedy_samples,
                            command=getattr(args, "command_line", None))
    from indicifeval.cli.next_steps import after_scores

    report_result(outcome.result.summary, outcome.notes,
                  f"{outcome.generated} generated, {outcome.resumed} already done; run folder {outcome.folder}"
                  + after_scores(outcome.folder), quiet=args.quiet,
                  extra=[turn_table(outcome.result.summary)] if "per_turn" in outcome.result.summary else None)
    return 0
