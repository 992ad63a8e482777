"""``indicifeval build``: dataset building. ``build status DIR`` prints a build folder's stage
table; the Trans and Ground pipelines add their verbs here."""

from __future__ import annotations

import argparse
import json

from indicifeval.cli.common import HelpFormatter, add_parser


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(sub, "build", help="build datasets for a language (stage by stage, resumable)",
                   description="Build IndicIFEval-style datasets in a build folder, one stage at a time; each "
                   "stage records what it was made from and resumes when run again the same way.")
    verbs = p.add_subparsers(dest="build_command", required=True, metavar="VERB", help="what to do")
    status = verbs.add_parser("status", help="the stage table of a build folder", formatter_class=HelpFormatter,
                              description="Each stage: its status (running, complete, failed, stale), counts, "
                              "times and parameters.")
    status.add_argument("folder", help="a build folder")
    status.add_argument("--json", action="store_true", help="print the table as JSON")
    status.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an error")
    status.set_defaults(handler=show_status)


def show_status(args: argparse.Namespace) -> int:
    from rich.table import Table

    from indicifeval.build import BuildFolder
    from indicifeval.cli.output import console

    build = BuildFolder(args.folder)
    rows = build.status_rows()
    if args.json:
        print(json.dumps({"language": build.language, "stages": rows}, ensure_ascii=False, indent=2))
        return 0
    table = Table(title=f"build {args.folder} ({build.language})")
    for column in ("stage", "status", "counts", "started", "finished", "parameters", "note"):
        table.add_column(column)
    for row in rows:
        counts = ", ".join(f"{k} {v}" for k, v in row["counts"].items())
        params = ", ".join(f"{k}={v}" for k, v in row["params"].items())
        table.add_row(row["stage"], row["status"], counts, row["started_at"] or "", row["finished_at"] or "",
                      params, row["note"])
    console.print(table)
    if not rows:
        console.print("no stage has run yet")
    return 0
