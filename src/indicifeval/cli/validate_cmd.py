"""``indicifeval validate``: does every prompt carry what its instructions need?"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from indicifeval.checkers import SUBSETS
from indicifeval.cli.common import add_parser, split_list

SUFFIX = ".validation.jsonl"


def register(sub: argparse._SubParsersAction) -> None:
    from indicifeval.dataset.validation import CHECKS

    p = add_parser(
        sub, "validate",
        description="Validate IndicIFEval-style rows: for every instruction of every row, that the prompt carries "
        "what the checker needs (lexical kwargs, letters, numbers, format examples, the response language), that "
        "relations are given, and no placeholders are left; with --source, that a Trans split agrees with its English "
        "source. Prints a table per check, writes every finding to --out (JSON lines) and exits 1 if there are "
        "errors (warnings do not fail). Checks: " + ", ".join(c.name for c in CHECKS) + ".",
    )
    p.add_argument("data", help="rows: a JSONL, JSON array or Parquet file, a folder such as a local copy of the "
                   "hub's parquet layout, a build folder (its rows, against its English source), 'sample', "
                   "'sample-beyond' or 'hub'")
    p.add_argument("--language", help="language of rows that carry none (a row that says another is an error)")
    p.add_argument("--subset", choices=SUBSETS, help="subset of rows that carry none (otherwise trans)")
    p.add_argument("--source", help="the English rows the Trans rows were translated from (JSONL, same keys): "
                   "compares keys, instruction ids, kwargs and the words kept verbatim")
    p.add_argument("--out", help="the findings, one JSON object per line (default: next to the data, DATA"
                   + SUFFIX + " for DATA.jsonl or a folder DATA; never over a file validate did not write)")
    p.add_argument("--overwrite", action="store_true", help="write --out even over a file validate did not write")
    p.add_argument("--skip", default="", help="checks to leave out, e.g. relation_missing")
    p.add_argument("--show", type=int, default=20, help="how many findings to list (errors first)")
    p.add_argument("--quiet", action="store_true", help="no tables, only the last line")
    p.set_defaults(handler=run, data_argument=None)  # DATA or --source: either may be hub


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console
    from indicifeval.dataset.validation import validate_into

    out = findings_file(args.data, args.out, args.overwrite)  # before any work: a bad --out costs nothing
    report = validate_into(out, args.data, args.language, args.subset, args.source, skip=split_list(args.skip),
                           keep=max(args.show, 0))
    if not args.quiet:
        for table in tables(report, args.show):
            console.print(table)
    errors, warnings = report.error_count, report.warning_count
    nxt = f"; wrote {out}" + (" (every finding, with its row and evidence)" if errors + warnings else "")
    console.print(f"{report.rows} rows, {report.instructions} instructions: {errors} errors, {warnings} warnings"
                  + nxt, soft_wrap=True)
    return 1 if errors else 0


def default_findings_file(data: str) -> Path:
    """Next to the data: ``rows.jsonl`` -> ``rows.validation.jsonl``, a folder ``build/hi`` ->
    ``build/hi.validation.jsonl`` (outside it: a build or hub folder is not ours to write in),
    ``sample`` -> ``sample.validation.jsonl`` here."""
    path = Path(data.rstrip("/\\") or data)
    name = path.name
    for suffix in (".gz", ".jsonl", ".json", ".parquet"):
        name = name.removesuffix(suffix) if name != suffix else name
    return path.with_name(name + SUFFIX)


def _written_by_validate(path: Path) -> bool:
    """Empty (a validation without findings), or a findings file: its first line one of ours."""
    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 16)
    except OSError:
        return False
    if not first.strip():
        return path.stat().st_size == 0 or not path.read_bytes().strip()
    try:
        line = json.loads(first)
    except ValueError:
        return False
    return isinstance(line, dict) and {"format_version", "check", "severity", "message"} <= set(line)


def findings_file(data: str, out: str | None, overwrite: bool) -> Path:
    """Where the findings go: ``--out`` or next to the data; a file that validate did not
    write is refused (``--overwrite`` to replace it), and so is a folder."""
    from indicifeval.core.errors import OutputError

    path = Path(out) if out else default_findings_file(data)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; --out names the findings file (JSON lines)")
    if path.exists() and not overwrite and not _written_by_validate(path):
        raise OutputError(f"{path}: exists and is not a findings file that validate wrote; name another "
                          f"--out, or add --overwrite to replace it")
    return path


def tables(report, show: int) -> list:
    """The per-check counts, then the first ``show`` findings: errors before warnings, each
    check's together, in the table's order."""
    from rich.markup import escape
    from rich.table import Table

    from indicifeval.dataset.validation import CHECKS

    what = {c.name: c.what for c in CHECKS}
    source = f" against {report.source}" if report.source else ""
    per_check = Table(title=f"Validation of {report.data}{source}: {report.rows} rows, {report.instructions} "
                            f"instructions")
    per_check.add_column("check", no_wrap=True)
    per_check.add_column("errors", justify="right")
    per_check.add_column("warnings", justify="right")
    per_check.add_column("what it checks")
    total_e = total_w = 0
    for name, (e, w) in report.counts().items():
        total_e, total_w = total_e + e, total_w + w
        per_check.add_row(name, f"[red]{e}[/red]" if e else "0", f"[yellow]{w}[/yellow]" if w else "0",
                          escape(what.get(name, "")))
    per_check.add_row("[bold]total", f"[bold]{total_e}", f"[bold]{total_w}", "")
    out = [per_check]
    order = {name: i for i, name in enumerate(what)}  # errors first, then each check's in table order
    ordered = sorted(report.findings, key=lambda f: (not f.is_error, order.get(f.check, len(order))))
    if ordered and show > 0:
        total = report.error_count + report.warning_count
        first = Table(title=f"First findings ({min(show, len(ordered))} of {total}; all in the JSONL file)")
        for col in ("row", "instruction", "check", "severity", "message", "evidence"):
            first.add_column(col, overflow="fold")
        for f in ordered[:show]:
            where = f"{f.instruction_index + 1}: {f.instruction_id}" if f.instruction_index is not None else ""
            evidence = (f.evidence or "")[:120]
            first.add_row(escape(str(f.row or "")), escape(where), f.check,
                          "[red]error" if f.is_error else "[yellow]warning", escape(f.message), escape(evidence))
        out.append(first)
    return out
