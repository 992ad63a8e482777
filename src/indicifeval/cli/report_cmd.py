"""``indicifeval report``: the paper's analyses over runs, as Markdown, CSV, plots and HTML."""

from __future__ import annotations

import argparse
from pathlib import Path

from indicifeval.cli.common import add_parser
from indicifeval.core.modes import ScoringMode


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "report",
        description="Analyse one or more run folders (from `indicifeval run`) or score folders (from "
        "`indicifeval score`) and write report.md, report.json, tables/*.csv, plots/ and report.html (with "
        "samples/ beside it: each run's prompts and answers, loaded by the page when that run is shown).",
    )
    p.add_argument("runs", nargs="+", help="run or score folders")
    p.add_argument("--metric", default="prompt_loose",
                   choices=["prompt_loose", "prompt_strict", "inst_loose", "inst_strict"],
                   help="the headline metric (prompt_loose is the paper's)")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode],
                   help="which scores of each run to read (default: the mode each run was made with)")
    p.add_argument("--mixed-scoring", action="store_true",
                   help="allow runs scored in different modes in one report")
    p.add_argument("--out", default="report", help="output folder")
    p.add_argument("--overwrite", action="store_true", help="write into a non-empty --out that `report` did not make")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (reports are reproducible)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (0: no intervals)")
    p.add_argument("--families", help="JSON file mapping model name -> {family, size_b}, overriding the guess")
    p.add_argument("--no-paper", action="store_true", help="leave out the paper's published numbers")
    p.add_argument("--no-plots", action="store_true", help="tables only (no matplotlib needed)")
    p.add_argument("--no-html", action="store_true", help="no report.html (nor its samples/)")
    p.add_argument("--quiet", action="store_true", help="no progress, no summary line")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.next_steps import not_a_run
    from indicifeval.cli.output import console, err_console, progress_bar
    from indicifeval.core.errors import InputError
    from indicifeval.reports.api import report, steps_needed

    for folder in args.runs:  # a build, release or dataset folder: say what it is for, before any work
        what = not_a_run(folder)
        if what is not None:
            raise InputError(what, folder)

    mode = None if args.scoring is None else ScoringMode(args.scoring)
    total = steps_needed(len(args.runs), not args.no_plots, not args.no_html)
    with progress_bar(total, "report", enabled=not args.quiet, min_total=1) as bar:
        def step(description: str) -> None:
            bar(1)

        rep = report(args.runs, args.out, args.metric, seed=args.seed, n_boot=args.bootstrap,
                     family_map=args.families, include_paper=not args.no_paper, plots=not args.no_plots,
                     html=not args.no_html, scoring=mode, mixed_scoring=args.mixed_scoring,
                     overwrite=args.overwrite, step=step)
    if not args.quiet:
        for note in rep.notes:
            err_console.print(f"note: {note}", soft_wrap=True, markup=False)
        html = f"; open {Path(args.out) / 'report.html'} in a browser" if not args.no_html else ""
        console.print(f"wrote {len(rep.files)} files to {args.out} ({len(rep.tables)} tables){html}", soft_wrap=True)
    return 0
