"""The ``indicifeval`` command line: one command, a subcommand per job."""

from __future__ import annotations

import argparse
import sys

from indicifeval._version import __version__
from indicifeval.cli import info, lm_eval_cmd, report_cmd, run_cmd, score_cmd

SUBCOMMANDS = (run_cmd, score_cmd, report_cmd, info, lm_eval_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="indicifeval",
        description="Verifiable instruction-following evaluation for 14 Indic languages and English.",
    )
    parser.add_argument("--version", action="version", version=f"indicifeval {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
