"""``indicifeval leaderboard``: a static site ranking models over run folders."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import add_parser
from indicifeval.core.modes import ScoringMode


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "leaderboard",
        description="A static leaderboard over run folders (from `indicifeval run`) or score folders: index.html "
        "(its data embedded: it opens from file:// and from any static host) and leaderboard.json. One row per "
        "model identity (runs of one model that answer different prompts merge; runs that answer the same prompt "
        "twice are refused); accuracy per subset, language, strict and loose, prompt- or instruction-level, with "
        "95% bootstrap intervals, the Indic average, Δ = English − Indic, marks where neighbours are not "
        "significantly different, and each model's provenance on click. See docs/leaderboard.md.",
    )
    p.add_argument("runs", nargs="+", help="run or score folders")
    p.add_argument("--out", required=True, help="output folder (index.html, leaderboard.json)")
    p.add_argument("--overwrite", action="store_true",
                   help="write into a non-empty --out that `leaderboard` did not make")
    p.add_argument("--paper-rows", action="store_true",
                   help="add the paper's published models (Tables 1-2, prompt-level loose) as reference rows, "
                        "marked 'reported, not re-run'")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode],
                   help="which scores of each run to read (default: the mode each run was made with)")
    p.add_argument("--mixed-scoring", action="store_true", help="allow runs scored in different modes")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (the site is reproducible)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (0: no intervals, no marks)")
    p.add_argument("--quiet", action="store_true", help="no summary line")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from indicifeval.cli.next_steps import not_a_run
    from indicifeval.cli.output import console
    from indicifeval.core.errors import InputError
    from indicifeval.reports.leaderboard_page import PAGE, write_leaderboard

    for folder in args.runs:
        what = not_a_run(folder)
        if what is not None:
            raise InputError(what, folder)
    data, files = write_leaderboard(args.runs, args.out, seed=args.seed, n_boot=args.bootstrap,
                                    paper_rows=args.paper_rows, scoring=args.scoring,
                                    mixed_scoring=args.mixed_scoring, overwrite=args.overwrite)
    if not args.quiet:
        models = sum(1 for m in data["models"] if m["kind"] == "run")
        console.print(f"wrote {len(files)} files to {args.out} ({models} models from {len(args.runs)} runs); open "
                      f"{Path(args.out) / PAGE} in a browser", soft_wrap=True)
    return 0
