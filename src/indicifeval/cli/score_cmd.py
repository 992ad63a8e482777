"""``indicifeval score``: score a responses file against benchmark rows."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import add_parser, split_list
from indicifeval.core.modes import ScoringMode
from indicifeval.languages.data_files import subset_names
from indicifeval.records.layout import SCORES, SUMMARY


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "score",
        description="Score model responses against IndicIFEval rows; writes scores.jsonl, summary.json, the rows "
        "and answers scored and a manifest of the inputs to --out.",
    )
    p.add_argument("--data", help="rows: JSONL, JSON array or Parquet (a file, or a folder such as a local copy of "
                   "the hub's parquet layout), 'hub', 'sample', or a suite's sample (fixed mode only): "
                   "'sample-beyond' (numbers/units/romanised), 'sample-open-instruct' (open-instruct's RL-training "
                   "ids), 'sample-ifbench' (IFBench's)")
    p.add_argument("--run", help="re-score a run folder (from `indicifeval run`) instead; no generation")
    p.add_argument("--responses", help="responses: {key, response} JSONL, IFEval {prompt, response}, lm-eval "
                   "--log_samples files (or their output folder), or 'sample' (the default with --data sample or a "
                   "suite's sample)")
    p.add_argument("--language", help="language of rows that carry none (a row that says another is an error)")
    p.add_argument("--subset", choices=subset_names(), help="subset of rows that carry none (otherwise trans)")
    p.add_argument("--languages", default="all", help="keep only these languages, e.g. hi,bn")
    p.add_argument("--subsets", default="trans,ground", help="keep only these subsets")
    p.add_argument("--tags", default="",
                   help="keep rows with all these tags (not:TAG: without it), e.g. correct,parallel or "
                        "not:beyond (default: all rows)")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed",
                   help="fixed: corrected semantics; paper: the authors' published scorer")
    p.add_argument("--out", help="output folder (with --run: default the run folder, where each mode's scores are "
                   "kept side by side)")
    p.add_argument("--overwrite", action="store_true", help="write into a non-empty --out that `score` did not make")
    p.add_argument("--allow-missing", action="store_true",
                   help="score rows without a response (or with a null one) as failing")
    p.add_argument("--keep-reasoning", action="store_true",
                   help="score responses as they are (otherwise a <think>…</think> block is cut off first)")
    p.add_argument("--multiturn", action="store_true",
                   help="--data holds conversations (Multi-IF's CSV/JSONL: turn_N_prompt...; or ours: turns); "
                   "found by itself from the turn fields. --responses then holds {key, turn, response} or "
                   "{key, responses: [...]} lines, and a score line is written per turn")
    p.add_argument("--workers", type=int, default=1, help="processes to score with (0 = one per core)")
    p.add_argument("--quiet", action="store_true", help="no table, no progress bar")
    p.set_defaults(handler=run, data_argument="--data")


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import print_error, progress_bar, report_result
    from indicifeval.core.folders import claim
    from indicifeval.dataset.rows import SAMPLES
    from indicifeval.scoring.api import score

    if args.run:
        return rescore_run(args)
    if not args.data or not args.out:
        print_error("--data and --out are required (or --run FOLDER)")
        return 2
    responses = args.responses or (args.data if args.data in SAMPLES else None)
    if responses is None:
        print_error("--responses is required (except with --data sample)")
        return 2
    claim(args.out, "score", args.overwrite)  # before any work: a bad --out costs nothing
    from indicifeval.dataset.multiturn import is_multiturn_data

    if args.multiturn or is_multiturn_data(args.data):
        return score_multiturn(args, responses)
    with progress_bar(None, "scoring", enabled=not args.quiet) as advance:
        result = score(args.data, responses, language=args.language, subset=args.subset,
                       languages=args.languages, subsets=args.subsets, tags=split_list(args.tags),
                       scoring=ScoringMode(args.scoring), allow_missing=args.allow_missing,
                       strip_reasoning=not args.keep_reasoning, workers=args.workers, on_progress=advance,
                       on_total=advance.total)
    out = result.write(args.out, overwrite=args.overwrite)
    from indicifeval.cli.next_steps import after_scores

    report_result(result.summary, result.notes, f"wrote {out / SCORES} and {out / SUMMARY}{after_scores(out)}",
                  quiet=args.quiet)
    return 0


def rescore_run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import report_result
    from indicifeval.core.folders import claim
    from indicifeval.runs.folder_scores import rescore, score_folder

    mode = ScoringMode(args.scoring)
    if args.out:  # a copy elsewhere, as a score folder
        claim(args.out, "score", args.overwrite)
        result = score_folder(args.run, mode)
        out = result.write(args.out, overwrite=args.overwrite)
        written = [out / SCORES, out / SUMMARY]
    else:
        result, written = rescore(args.run, mode)
    report_result(result.summary, result.notes, "wrote " + " and ".join(str(p) for p in written), quiet=args.quiet)
    return 0


def score_multiturn(args: argparse.Namespace, responses: str) -> int:
    from indicifeval.cli.output import progress_bar, report_result, turn_table
    from indicifeval.dataset import parse_languages
    from indicifeval.scoring.multiturn import score_conversations

    with progress_bar(None, "scoring", enabled=not args.quiet) as advance:
        result = score_conversations(args.data, responses, language=args.language,
                                     languages=parse_languages(args.languages) or None,
                                     scoring=ScoringMode(args.scoring), allow_missing=args.allow_missing,
                                     strip_reasoning=not args.keep_reasoning, workers=args.workers,
                                     on_progress=advance, on_total=advance.total)
    out = result.write(args.out, overwrite=args.overwrite)
    report_result(result.summary, result.notes, f"wrote {out / SCORES} (a line per turn) and {out / SUMMARY}",
                  quiet=args.quiet, extra=[turn_table(result.summary)])
    return 0
