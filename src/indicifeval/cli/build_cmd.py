"""``indicifeval build``: dataset building. ``build status DIR`` prints a build folder's stage
table; the Trans and Ground pipelines add their verbs here."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from indicifeval.cli.common import HelpFormatter, add_parser


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(sub, "build",
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
    _register_trans(verbs)
    from indicifeval.cli import build_ground_cmd, build_review_cmd

    build_ground_cmd.register(verbs)
    build_review_cmd.register(verbs)


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


def _engine_classes() -> dict:
    from indicifeval.builder.trans.engines import ENGINES, options_class

    return {name: options_class(name) for name in ENGINES}


def _register_trans(verbs: argparse._SubParsersAction) -> None:
    from indicifeval.builder.trans.engines import DEFAULT_PROMPT, ENGINES
    from indicifeval.builder.trans.pipeline import STAGES
    from indicifeval.cli.option_flags import add_option_flags

    t = verbs.add_parser("trans", formatter_class=HelpFormatter, help="build the Trans split of a language",
                         description="Translate the English Trans rows into a language, stage by stage ("
                         + " -> ".join(STAGES) + "), resumably: run the same command again to go on. "
                         "The phrase table (trans/pretranslations.jsonl) may be edited between stages "
                         "(--until pretranslate, edit, run again).")
    t.add_argument("folder", help="the build folder (one per language)")
    t.add_argument("--lang", required=True, help="the target language (a profile code, e.g. hi)")
    t.add_argument("--source", default="hub", help="the English rows: 'hub' (the en split), 'beyond' (the "
                   "bundled English prompts for the numbers/units/romanised instructions), a local copy of the "
                   "hub's layout, or a JSONL/JSON/Parquet file")
    t.add_argument("--backend", "--engine", dest="engine", required=True, choices=ENGINES, help="the translator "
                   "(--engine is the same flag, the name it had before; mock: --mock-answers "
                   "fake[:RATE] for a deterministic fake translation, with RATE of placeholders damaged)")
    t.add_argument("--model", required=True, help="the engine's model (a server's model name, a path or hub id; "
                   "sarvam: sarvam-translate:v1)")
    t.add_argument("--system-prompt", help=f"chat engines: a prompt named in prompts.json or the text itself, "
                   f"{{language}} standing for the target language (default: {DEFAULT_PROMPT})")
    t.add_argument("--max-tokens", type=int, default=2048, help="the longest translation of one unit")
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
    add_stage_flags(t, STAGES)
    add_option_flags(t.add_argument_group("engine options (each applies to the engines it names)"),
                     _engine_classes(), identity="stage")
    t.set_defaults(handler=build_trans, data_argument="--source")


def build_trans(args: argparse.Namespace) -> int:
    from indicifeval.builder.trans.pipeline import EngineSpec, TransSettings
    from indicifeval.builder.trans.pipeline import build_trans as run_pipeline
    from indicifeval.cli.option_flags import option_values
    from indicifeval.cli.output import console, progress_bar
    from indicifeval.records import AUTO_OK, NEEDS_REVIEW
    from indicifeval.runs.requests import SamplingSettings

    options = option_values(args, args.engine, _engine_classes(), noun="engine")
    spec = EngineSpec(args.engine, args.model, options, args.system_prompt,
                      SamplingSettings(max_tokens=args.max_tokens))
    forced = forced_stages(args)
    settings = TransSettings(args.units, args.protect, args.instructions)
    done = run_pipeline(args.folder, args.lang, args.source, spec, settings=settings, until=args.until, force=forced,
                        overwrite=args.overwrite, on_stage=stage_reporter(args),
                        progress=lambda label, total: progress_bar(total, label, not args.quiet, 2))
    if not args.quiet:
        show_status(argparse.Namespace(folder=args.folder, json=False))
    last, record = list(done.items())[-1]
    counts = ", ".join(f"{v} {k}" for k, v in record.counts.items() if k in ("rows", AUTO_OK, NEEDS_REVIEW))
    where = {"validate": "trans/rows.jsonl", "assemble": "trans/candidates.jsonl"}.get(last)
    console.print(f"{args.lang}: {last} {record.status}" + (f", {counts}" if counts else "")
                  + (f"; wrote {Path(args.folder) / where}" if where else ""), soft_wrap=True)
    from indicifeval.builder.trans.pipeline import STAGES
    from indicifeval.cli.next_steps import after_build

    console.print(after_build(args.folder, last, args.until, STAGES, record.counts.get(NEEDS_REVIEW, 0)),
                  soft_wrap=True, markup=False)
    return 0


def _short(value) -> str:
    """A parameter as a table cell: an engine as engine:model, anything else as text."""
    if isinstance(value, dict) and "engine" in value:
        return f"{value['engine']}:{value.get('model')}"
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
        if row.get("engine"):
            params = ", ".join(p for p in (params, f"engine={_short(row['engine'])}") if p)
        lines = [escape(counts)] if counts else []
        if params:
            lines.append(f"[dim]{escape(params)}[/dim]")
        if row["note"]:
            lines.append(f"[italic]{escape(row['note'])}[/italic]")
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
