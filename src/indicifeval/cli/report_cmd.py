"""``indicifeval report``: the paper's analyses over runs, as Markdown, CSV, plots and HTML."""

from __future__ import annotations

import argparse



def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="tables, Δ, categories, thinking, confidence intervals, plots and an HTML report over runs",
        description="Analyse one or more run folders (from `indicifeval run`, or score folders from "
        "`indicifeval score`) and write report.md, report.json, tables/*.csv, plots/ and report.html.",
    )
    p.add_argument("runs", nargs="+", help="run folders")
    p.add_argument("--metric", default="prompt_loose", choices=["prompt_loose", "prompt_strict", "inst_loose", "inst_strict"],
                   help="default prompt_loose, the paper's headline")
    p.add_argument("--out", default="report", help="output folder (default ./report)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (reports are reproducible)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (0: no intervals)")
    p.add_argument("--families", help="JSON file mapping model name -> {family, size_b}, overriding the guess")
    p.add_argument("--no-paper", action="store_true", help="leave out the paper's published numbers")
    p.add_argument("--no-plots", action="store_true", help="tables only (no matplotlib needed)")
    p.add_argument("--no-html", action="store_true")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console, err_console, print_error
    from indicifeval.dataset import InputError
    from indicifeval.reports.api import report

    try:
        rep = report(args.runs, args.out, args.metric, seed=args.seed, n_boot=args.bootstrap,
                     family_map=args.families, include_paper=not args.no_paper, plots=not args.no_plots,
                     html=not args.no_html)
    except (InputError, ValueError) as exc:
        print_error(exc)
        return 1
    except ImportError as exc:
        print_error(f"{exc}; pip install 'indicifeval[report]' (or use --no-plots)")
        return 1
    if not args.quiet:
        for note in rep.notes:
            err_console.print(f"note: {note}", soft_wrap=True)
        console.print(f"wrote {len(rep.files)} files to {args.out} ({len(rep.tables)} tables)", soft_wrap=True)
    return 0
