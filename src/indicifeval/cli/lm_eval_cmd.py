"""``indicifeval lm-eval-path``: the lm-evaluation-harness task folder, for ``--include_path``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from indicifeval.cli.common import add_parser


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "lm-eval-path",
        description="Print the folder of IndicIFEval's lm-eval tasks: indicifeval_<subset>_<xx> for every language "
                    "and subset of the benchmark (languages added by profile included) and the groups "
                    "indicifeval_trans, indicifeval_ground, indicifeval. "
                    "Usage: lm_eval --include_path \"$(indicifeval lm-eval-path)\" --tasks ...",
    )
    p.add_argument("--data", metavar="DIR", help="a local copy of the dataset in the hub's layout "
                   "(<config>/<split>-00000-of-00001.parquet): write tasks that read it and print their folder; "
                   "rows of IFBench's ids get tasks indicifbench_<xx> (group indicifbench), of open-instruct's "
                   "RL-training ids indicifeval_rl_<xx> (group indicifeval_rl)")
    p.add_argument("--dest", metavar="DIR", help="where to write the tasks "
                   "(default: a folder under ~/.cache/indicifeval/lm_eval_tasks/)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from indicifeval.core.errors import InputError
    from indicifeval.languages import composition
    from indicifeval.lmeval.task_folder import (
        cache_folder,
        local_data_files,
        local_sections,
        packaged_folder,
        packaged_tasks_cover,
        write_task_folder,
    )

    if args.data is None:
        if packaged_tasks_cover() and not args.dest:
            print(packaged_folder().resolve())
            return 0
        dest = Path(args.dest).expanduser().resolve() if args.dest else cache_folder(None)
        write_task_folder(dest, None)  # languages added by profile: their tasks beside the shipped ones
        print(dest)
        return 0
    data = Path(args.data).expanduser().resolve()
    if not data.is_dir():
        raise InputError("no such folder", args.data)
    files = local_data_files(data)
    if not files:
        configs = [f"{composition().config_of(s)}/<xx>-*.parquet" for s in composition().subsets]
        raise InputError(f"no {' or '.join(configs)} files", str(data))
    dest = Path(args.dest).expanduser().resolve() if args.dest else cache_folder(data)
    sections = local_sections(files)
    write_task_folder(dest, files, sections=sections)
    n_tasks = sum(len(sections.get(key) or ("ifeval",)) for key in files)
    print(f"{n_tasks} tasks reading {data}", file=sys.stderr)
    print(dest)
    return 0
