"""``indicifeval stats``: the paper's dataset tables from any dataset, or two side by side."""

from __future__ import annotations

import argparse

from indicifeval.checkers import SUBSETS
from indicifeval.cli.common import add_parser

GROUPS = ("category", "prefix")  # dataset.stats.GROUPS, without importing it for --help

DATA_HELP = ("a JSONL, JSON array or Parquet file, a folder such as a local copy of the hub's parquet layout, a "
             "release folder (build finalize's rows.jsonl + release.json, or build publish's hub/), a build folder "
             "(its rows and build statuses, against its English source), 'sample', a suite's sample "
             "('sample-beyond', 'sample-open-instruct', 'sample-ifbench') or 'hub'")


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "stats",
        description="Describe IndicIFEval-style rows: rows per language and subset; the paper's Table 7 (Trans "
        "rows correct, and keyword corrections counted from a build's review log, else 'not recorded') and Table 6 "
        "(Ground prompts generated and kept: from a build's records, else estimated from the gaps in the keys); the "
        "verification tags per language (correct, incorrect, gold/silver translation and prompt, the parallel subset "
        "and its instructions); per subset the instruction ids, instructions per the paper's categories (Table 3: "
        "English, Keyword, Format, Length, Language; --group prefix: IFEval's id prefixes), instructions per row, "
        "each integer "
        "kwarg's values, the relations given, resp_lang, verification and topic/style tags (Ground: how many styles "
        "need the context), build statuses, and prompt lengths. With --source, which Trans rows keep their English "
        "row's instruction list; with --against, every table of two datasets side by side with the difference "
        "(B − A), and their Trans instruction lists key by key.",
    )
    p.add_argument("data", help=f"rows (A): {DATA_HELP}")
    p.add_argument("--against", metavar="DATA2", help="a second dataset (B), read the same way, to compare with")
    p.add_argument("--language", help="language of rows that carry none (in DATA a row that says another is an "
                   "error; in DATA2 it only fills in)")
    p.add_argument("--subset", choices=SUBSETS, help="subset of rows that carry none, the same way (otherwise trans)")
    p.add_argument("--source", metavar="EN", help="the English rows the Trans rows were translated from (same keys): "
                   "which rows keep the source's instruction list, and which ids the others dropped or added "
                   "(a build folder's own source unless given)")
    p.add_argument("--group", choices=GROUPS, default="category", help="group instruction counts by the paper's "
                   "categories (Table 3; default) or by IFEval's id prefixes (change_case, keywords, ...)")
    p.add_argument("--json", metavar="OUT", help="write the statistics as JSON, nothing rounded")
    p.add_argument("--markdown", metavar="OUT", help="write the tables as a Markdown block for a dataset card")
    p.add_argument("--quiet", action="store_true", help="no tables, only the last line")
    p.set_defaults(handler=run, data_argument=None)  # DATA, --source or --against: any may be hub


def rich_table(table):
    """A ``dataset.stats.StatsTable`` drawn with rich: keys left, numbers right, the note below."""
    from rich.markup import escape
    from rich.table import Table

    from indicifeval.dataset.stats.tables import fmt

    out = Table(title=escape(table.title), caption=escape(table.note) if table.note else None,
                caption_justify="left")
    for name in table.key_columns:
        out.add_column(escape(name), overflow="fold")
    for name in table.value_columns:
        out.add_column(escape(name), justify="right", no_wrap=True)
    if table.detail:
        out.add_column(escape(table.detail_column), overflow="fold")
    for i, (keys, values) in enumerate(table.rows):
        extra = [escape(table.detail[i])] if table.detail else []
        out.add_row(*(escape(k) for k in keys), *(fmt(v) for v in values), *extra)
    return out


def _split_line(stats) -> str:
    parts = [f"{lang}/{subset} {rows}" for lang, subs in stats.splits.items() for subset, (rows, _) in subs.items()]
    return f"{stats.rows} rows, {stats.instructions} instructions ({', '.join(parts)})"


def _records(data):
    """A build folder's records for Tables 6 and 7 (the generated Ground prompts, the review
    log's keyword corrections); None for anything else."""
    from indicifeval.dataset.validation.loading import build_folder_files

    if build_folder_files(data) is None:
        return None
    from indicifeval.builder.release.records import build_records

    return build_records(data)


def run(args: argparse.Namespace) -> int:
    import json

    from indicifeval.cli.output import console
    from indicifeval.core.files import write_text
    from indicifeval.dataset.stats import Comparison, DatasetStats, compare, load_stats, markdown, stats_tables

    a = load_stats(args.data, args.language, args.subset, args.source, records=_records(args.data))
    result: Comparison | DatasetStats
    if args.against is not None:
        b = load_stats(args.against, args.language, args.subset, args.source, fill_only=True,
                       records=_records(args.against))
        result = compare(a, b, args.group)
        tables = result.all_tables()
        lists = result.lists
        last = f"A {a.name}: {_split_line(a)}; B {b.name}: {_split_line(b)}"
        if a.trans_lists or b.trans_lists:
            last += (f"; Trans instruction lists: {lists.matched} keys in both, {lists.same} the same, "
                     f"{lists.differ} different")
    else:
        result = a
        tables = [t for t in stats_tables(a, args.group) if not t.compared_only]
        last = f"{a.name}: {_split_line(a)}"
        if not a.tagged:
            last += "; no verification tags" + (" (build statuses shown)" if a.has_statuses else "")
    written = []
    if args.json:
        written.append(write_text(args.json, json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n"))
    if args.markdown:
        text = result.to_markdown() if isinstance(result, Comparison) else markdown(
            stats_tables(a, args.group), f"Dataset statistics: {a.name}")
        written.append(write_text(args.markdown, text))
    if not args.quiet:
        for table in tables:
            if table.rows or table.note:
                console.print(rich_table(table))
    if written:
        last += "; wrote " + ", ".join(map(str, written))
    console.print(last, soft_wrap=True)
    return 0
