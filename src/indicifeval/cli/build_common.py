"""What the build verbs share: the stage flags (how far, what to redo, how much to say), the
lines said after each stage, and the stage table of ``build status``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_stage_flags(parser: argparse.ArgumentParser, stages: tuple[str, ...]) -> None:
    """The flags every pipeline verb has: how far to go, what to redo, how much to say."""
    parser.add_argument("--until", choices=stages, help="stop after this stage (default: run them all)")
    parser.add_argument("--force", action="append", default=[], metavar="STAGE",
                        help="run this stage again from its recorded inputs (the stages after it become stale; "
                        "translations and LLM replies already made are reused, never asked again); may be repeated")
    parser.add_argument("--overwrite", action="store_true", help="use a non-empty folder that `build` did not make")
    parser.add_argument("--quiet", action="store_true", help="no stage table")
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an error")


def stage_reporter(args: argparse.Namespace):
    """What a pipeline verb says after each stage: its counts (unless --quiet), and always, in one
    line each, why it ran again and what it noticed (a torn line dropped, ...)."""
    from indicifeval.cli.output import err_console

    def report(name, record) -> None:
        if not args.quiet:
            counts = ", ".join(f"{k} {v}" for k, v in record.counts.items())
            err_console.print(f"{name}: {record.status} ({counts})", soft_wrap=True, markup=False)
        if record.ran and record.reran_because:
            err_console.print(f"{name}: ran again ({record.reran_because})", soft_wrap=True, markup=False)
        for note in record.notes if record.ran else ():
            err_console.print(f"{name}: {note}", soft_wrap=True, markup=False)

    return report


def forced_stages(args: argparse.Namespace) -> list[str]:
    return [s.strip() for item in args.force for s in item.split(",") if s.strip()]


def _short(value) -> str:
    """A parameter as a table cell: a model's identity as backend:model, anything else as text."""
    if isinstance(value, dict) and "backend" in value and "model" in value:
        return f"{value['backend']}:{value.get('model')}"
    return str(value)


def _when(stamp: str | None) -> str:
    """``2026-12-02T03:58:45+0000`` as ``12-02 03:58``: the full time is in ``--json``."""
    return f"{stamp[5:10]} {stamp[11:16]}" if stamp and len(stamp) >= 16 else (stamp or "")


def status_table(folder: str | Path, rows: list[dict], language: str):
    """The stage table, readable at 80 columns: a stage's counts, parameters and note share one
    cell, one line each, so the table wraps inside that cell instead of into columns of one
    character."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"build {escape(str(folder))} ({language})", box=box.SIMPLE_HEAD, title_justify="left",
                  show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("stage", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("finished", no_wrap=True)
    table.add_column("counts · parameters · note", overflow="fold")
    colour = {"complete": "green", "failed": "red", "stale": "yellow", "pending": "cyan", "running": "yellow"}
    for row in rows:
        counts = ", ".join(f"{k} {v}" for k, v in row["counts"].items())
        params = ", ".join(f"{k}={_short(v)}" for k, v in row["params"].items())
        if row.get("model"):
            params = ", ".join(p for p in (params, f"model={_short(row['model'])}") if p)
        lines = [escape(counts)] if counts else []
        if params:
            lines.append(f"[dim]{escape(params)}[/dim]")
        if row["note"]:
            lines.append(f"[italic]{escape(row['note'])}[/italic]")
        lines += [f"[yellow]{escape(w)}[/yellow]" for w in row.get("warnings", ())]
        status = row["status"]
        table.add_row(row["stage"], f"[{colour.get(status, 'white')}]{status}", _when(row["finished_at"]),
                      "\n".join(lines))
    return table


def show_status(args: argparse.Namespace) -> int:
    from indicifeval.builder import BuildFolder
    from indicifeval.cli.output import console

    build = BuildFolder(args.folder)
    rows = build.status_rows()
    if args.json:
        print(json.dumps({"language": build.language, "stages": rows}, ensure_ascii=False, indent=2))
        return 0
    console.print(status_table(args.folder, rows, build.language))
    if not rows:
        console.print("no stage has run yet")
    return 0


def finish_build(args: argparse.Namespace, done: dict, stages: tuple[str, ...], counted: tuple[str, ...],
                 wrote: dict[str, str], review: bool = True) -> int:
    """After a build command: its status table (unless quiet), the last stage's line (its counts,
    the file it wrote) and what to do next (``review``: with the rows its validator left to a
    reviewer)."""
    from indicifeval.cli.next_steps import after_build
    from indicifeval.cli.output import console
    from indicifeval.records import NEEDS_REVIEW

    if not args.quiet:
        show_status(argparse.Namespace(folder=args.folder, json=False))
    last, record = list(done.items())[-1]
    counts = ", ".join(f"{v} {k}" for k, v in record.counts.items() if k in counted)
    where = f"; wrote {Path(args.folder) / wrote[last]}" if last in wrote else ""
    console.print(f"{args.lang}: {last} {record.status}" + (f", {counts}" if counts else "") + where, soft_wrap=True)
    waiting = record.counts.get(NEEDS_REVIEW, 0) if review else 0
    console.print(after_build(args.folder, last, args.until, stages, waiting), soft_wrap=True, markup=False)
    return 0
