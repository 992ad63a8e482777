"""``indicifeval score``: score a responses file against benchmark rows."""

from __future__ import annotations

import argparse


from indicifeval.checkers import SUBSETS, ScoringMode
from indicifeval.dataset import InputError, load_responses, load_rows
from indicifeval.languages import UnknownLanguageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="score model responses (strict and loose, prompt and instruction level)",
        description="Score model responses against IndicIFEval rows and write scores.jsonl and summary.json.",
    )
    p.add_argument("--data", help="rows: JSONL, JSON array, Parquet (file or folder), or 'sample'")
    p.add_argument("--run", help="re-score a run folder (from `indicifeval run`) instead; no generation")
    p.add_argument("--responses", help="responses: {key, response} JSONL, IFEval {prompt, response}, lm-eval "
                   "--log_samples, or 'sample' (the default with --data sample)")
    p.add_argument("--language", help="language of rows that carry no 'language' field")
    p.add_argument("--subset", choices=SUBSETS, help="subset of rows that carry no 'subset' field (default trans)")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed",
                   help="fixed: corrected semantics (default); paper: the authors' published scorer")
    p.add_argument("--out", help="output directory for scores.jsonl and summary.json (with --run: default the "
                   "run folder, as scores.<mode>.jsonl when the mode differs from the run's)")
    p.add_argument("--allow-missing", action="store_true", help="score rows without a response as failing")
    p.add_argument("--keep-reasoning", action="store_true",
                   help="score responses as they are; by default a <think>…</think> block is cut off first")
    p.add_argument("--workers", type=int, default=1, help="processes to score with (0 = one per core)")
    p.add_argument("--quiet", action="store_true", help="no table, no progress bar")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console, err_console, print_error, progress_bar, summary_tables
    from indicifeval.scoring.api import score

    if args.run:
        return rescore_run(args)
    if not args.data or not args.out:
        print_error("--data and --out are required (or --run FOLDER)")
        return 2
    responses = args.responses or ("sample" if args.data == "sample" else None)
    if responses is None:
        print_error("--responses is required (except with --data sample)")
        return 2
    try:
        rows = load_rows(args.data, language=args.language, subset=args.subset)
        loaded = load_responses(responses)
        with progress_bar(len(rows), "scoring", enabled=not args.quiet) as advance:
            result = score(rows, loaded, scoring=args.scoring, allow_missing=args.allow_missing,
                           strip_reasoning=not args.keep_reasoning,
                           workers=args.workers, on_progress=advance)
    except (InputError, UnknownLanguageError) as exc:
        print_error(exc)
        return 1
    out = result.write(args.out)
    if not args.quiet:
        for table in summary_tables(result.summary):
            console.print(table)
        for note in result.notes:
            err_console.print(f"note: {note}", soft_wrap=True)
        console.print(f"wrote {out / 'scores.jsonl'} and {out / 'summary.json'}", soft_wrap=True)
    return 0


def rescore_run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console, err_console, print_error, summary_tables
    from indicifeval.runs.runner import score_folder
    from indicifeval.runs.store import RunStore

    try:
        result = score_folder(args.run, args.scoring)
        manifest = RunStore(args.run).read_manifest() or {}
    except InputError as exc:
        print_error(exc)
        return 1
    if args.out:
        out = result.write(args.out)
        written = [out / "scores.jsonl", out / "summary.json"]
    elif manifest.get("scoring", "fixed") == args.scoring:
        out = result.write(args.run)
        written = [out / "scores.jsonl", out / "summary.json"]
    else:
        written = result.write_named(args.run, args.scoring)
    if not args.quiet:
        for table in summary_tables(result.summary):
            console.print(table)
        for note in result.notes:
            err_console.print(f"note: {note}", soft_wrap=True)
        console.print("wrote " + " and ".join(str(p) for p in written), soft_wrap=True)
    return 0
