"""``indicifeval validate``: does every prompt carry what its instructions need?

The findings are printed; the file of them is written only into a build folder (the tool's own,
beside its pipelines' findings) or where ``--findings`` says: never beside the data, where a
data folder's readers would take it for rows (and a read-only folder cannot take it at all)."""

from __future__ import annotations

import argparse
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from indicifeval.checkers import SUBSETS
from indicifeval.cli.common import add_parser, split_list


def register(sub: argparse._SubParsersAction) -> None:
    from indicifeval.dataset.validation import CHECKS

    p = add_parser(
        sub, "validate",
        description="Validate IndicIFEval-style rows: for every instruction of every row, that the prompt carries "
        "what the checker needs (lexical kwargs, letters, numbers, format examples, the response language), that "
        "relations are given, and no placeholders are left; with --source, that a Trans split agrees with its English "
        "source. Prints a table per check and the first findings, writes every finding (JSON lines) into a build "
        "folder's validation.jsonl or to --findings, and exits 1 if there are errors (warnings do not fail). "
        "Checks: " + ", ".join(c.name for c in CHECKS) + ".",
    )
    p.add_argument("data", help="rows: a JSONL, JSON array or Parquet file, a folder such as a local copy of the "
                   "hub's parquet layout, a build folder (its rows, against its English source), 'sample', "
                   "'sample-beyond', 'sample-open-instruct', 'sample-ifbench' or 'hub'")
    p.add_argument("--language", help="language of rows that carry none (a row that says another is an error)")
    p.add_argument("--subset", choices=SUBSETS, help="subset of rows that carry none (otherwise trans)")
    p.add_argument("--source", help="the English rows the Trans rows were translated from (JSONL, same keys): "
                   "compares keys, instruction ids, kwargs and the words kept verbatim")
    p.add_argument("--findings", metavar="FILE",
                   help="write every finding here, one JSON object per line; never over a file validate did not "
                   "write (default: a build folder's own validation.jsonl; for other data, none: nothing is "
                   "written beside the data)")
    p.add_argument("--out", dest="findings", help=argparse.SUPPRESS)  # its name before --findings
    p.add_argument("--overwrite", action="store_true", help="write --findings even over a file validate did not "
                   "write")
    p.add_argument("--skip", default="", help="checks to leave out, e.g. relation_missing")
    p.add_argument("--show", type=int, default=20, help="how many findings to list (errors first)")
    p.add_argument("--quiet", action="store_true", help="no tables, only the last line")
    p.set_defaults(handler=run, data_argument=None)  # DATA or --source: either may be hub


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console
    from indicifeval.dataset.validation import validate_into

    build = build_folder(args.data)
    out = findings_file(args.findings, args.overwrite, build)  # before any work: a bad --findings costs nothing
    with _holding(build, out):
        report = validate_into(out, args.data, args.language, args.subset, args.source, skip=split_list(args.skip),
                               keep=max(args.show, 0))
    if not args.quiet:
        for table in tables(report, args.show, out):
            console.print(table)
    errors, warnings = report.error_count, report.warning_count
    if out is not None:
        nxt = f"; wrote {out}" + (" (every finding, with its row and evidence)" if errors + warnings else "")
    elif errors + warnings > max(args.show, 0):
        nxt = "; --findings FILE writes every finding (JSON lines)"
    else:
        nxt = ""
    console.print(f"{report.rows} rows, {report.instructions} instructions: {errors} errors, {warnings} warnings"
                  + nxt, soft_wrap=True)
    return 1 if errors else 0


def build_folder(data: str) -> Path | None:
    """``data`` if it is a build folder (``indicifeval build``), else None."""
    from indicifeval.core.folders import read_manifest, tool_of

    path = Path(data)
    return path if path.is_dir() and tool_of(read_manifest(path)) == "build" else None


def _holding(build: Path | None, out: Path | None) -> AbstractContextManager:
    """A build folder's lock while validate writes into it: a build is not writing it meanwhile,
    and a resuming build never takes the findings' temporary for a killed writer's."""
    from indicifeval.builder import BuildFolder

    if build is None or out is None or build.resolve() not in out.resolve().parents:
        return nullcontext()
    return BuildFolder(build).lock("validate")


def _written_by_validate(path: Path) -> bool:
    """Empty (a validation without findings), or a findings file: its first line one of ours."""
    from indicifeval.dataset.readers import is_findings_file

    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 16)
        if not first.strip():
            return not path.read_bytes().strip()
    except OSError:
        return False
    return is_findings_file(path)


def findings_file(given: str | None, overwrite: bool, build: Path | None) -> Path | None:
    """Where the findings go: ``--findings``, else a build folder's own file, else nowhere; a
    file that validate did not write is refused (``--overwrite`` to replace it), and so is a
    folder."""
    from indicifeval.core.errors import OutputError
    from indicifeval.records.layout import BUILD_VALIDATION

    if given is None and build is None:
        return None
    path = Path(given) if given is not None else build / BUILD_VALIDATION  # type: ignore[operator]
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; --findings names the findings file (JSON lines)")
    if path.exists() and not overwrite and not _written_by_validate(path):
        raise OutputError(f"{path}: exists and is not a findings file that validate wrote; name another "
                          f"--findings, or add --overwrite to replace it")
    return path


def tables(report, show: int, written: Path | None = None) -> list:
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
        where = f"all in {written}" if written is not None else "all with --findings FILE"
        first = Table(title=f"First findings ({min(show, len(ordered))} of {total}; {where})")
        for col in ("row", "instruction", "check", "severity", "message", "evidence"):
            first.add_column(col, overflow="fold")
        for f in ordered[:show]:
            where = f"{f.instruction_index + 1}: {f.instruction_id}" if f.instruction_index is not None else ""
            evidence = (f.evidence or "")[:120]
            first.add_row(escape(str(f.row or "")), escape(where), f.check,
                          "[red]error" if f.is_error else "[yellow]warning", escape(f.message), escape(evidence))
        out.append(first)
    return out
