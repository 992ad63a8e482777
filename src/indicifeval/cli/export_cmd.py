"""``indicifeval export``: benchmark rows as RL prompt datasets (TRL, verl, NeMo Gym, OpenRLHF)."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import add_parser
from indicifeval.core.modes import ScoringMode


def register(sub: argparse._SubParsersAction) -> None:
    from indicifeval.rewards.export import FORMATS

    p = add_parser(
        sub, "export",
        description="Write rows as the prompt datasets RL frameworks read, each with what indicifeval's reward "
        "needs: trl (train.parquet/test.parquet, read by datasets.load_dataset(OUT), for rewards.trl), verl "
        "(parquet in verl's schema, for rewards.verl_compute_score), nemo-gym (JSONL of instruction-following "
        "examples, for indicifeval serve's /verify), openrlhf (JSONL of input and label, for rewards.openrlhf). "
        "Every row is checked to be scorable first; see docs/rewards.md.",
    )
    p.add_argument("data", help="rows: 'hub', 'sample', a suite's sample ('sample-beyond', 'sample-open-instruct', "
                   "'sample-ifbench'), a file, a folder in the hub's layout, or a release folder")
    p.add_argument("--format", required=True, choices=FORMATS, help="the framework's format")
    p.add_argument("--out", required=True, help="the folder to write (its files are replaced together)")
    p.add_argument("--exclude", action="append", default=[], metavar="DATA",
                   help="rows to leave out (same language, subset and key, or the same prompt), e.g. the benchmark "
                   "you evaluate on; may be given more than once")
    p.add_argument("--holdout", type=float, default=0.0, help="the share of rows in a test split (by a seeded hash)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the held-out split")
    p.add_argument("--languages", default="all", help="languages to export, e.g. hi,ta")
    p.add_argument("--subsets", default="trans,ground", help="subsets to export")
    p.add_argument("--tags", default="", help="keep rows with all of these tags (not:TAG: without it)")
    p.add_argument("--keep", action="append", nargs=2, default=[], metavar=("CLASS", "PROFILE"),
                   help="keep only the rows that PROFILE (from `indicifeval reward-profile`) puts in CLASS: mixed "
                   "(the prompts that give a GRPO gradient), zero, one or flat; may be given more than once to keep "
                   "several classes; rows the profile does not hold are left out")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed",
                   help="the checker set the reward will use: paper leaves out rows it cannot score")
    p.set_defaults(handler=run, data_argument="DATA")


def run(args: argparse.Namespace) -> int:
    from indicifeval.checkers import REGISTRY
    from indicifeval.cli.common import split_list
    from indicifeval.core.errors import InputError
    from indicifeval.dataset import load_dataset
    from indicifeval.rewards.export import export_rows
    from indicifeval.scoring.engine import resolve_row

    mode = ScoringMode(args.scoring)
    dataset = load_dataset(args.subsets, args.languages, args.data, tags=split_list(args.tags) or None)
    rows = dataset.rows
    if mode is ScoringMode.PAPER:
        rows = [r for r in rows if not any(REGISTRY[i].fixed_only for i in r.instruction_id_list)]
        if not rows:
            raise InputError("no rows left: paper scoring cannot score the instructions beyond the paper, and every "
                             "row asks for one (export them with --scoring fixed)", args.data)
    for row in rows:  # every exported row can be scored by the reward: a bad kwarg is said now, not mid-training
        resolve_row(row, mode)
    kept = ""
    if args.keep:
        from indicifeval.rewards.export import keep_classes

        rows, kept_counts = keep_classes(rows, args.keep)
        classes = "/".join(dict.fromkeys(cls for cls, _ in args.keep))
        others = (f"{kept_counts['other']} of other classes and {kept_counts['unprofiled']} not in the profile "
                  f"left out")
        if not rows:
            raise InputError(f"no rows left to export: the profile puts none of them in {classes} ({others})",
                             field="keep")
        kept = f"; kept the {kept_counts['kept']} {classes} ones, {others}"
    exclude = [r for data in args.exclude for r in load_dataset(("trans", "ground"), "all", data).rows]
    counts = export_rows(rows, args.format, args.out, exclude=exclude, holdout=args.holdout, seed=args.seed)
    left = f", {counts['excluded']} left out as in --exclude" if args.exclude else ""
    test = f" and {counts['test']} test" if counts["test"] else ""
    print(f"wrote {counts['train']} train{test} rows as {args.format} in {args.out}{left}{kept}")
    return 0
