"""The ``indicifeval`` command line: one command, a subcommand per job, one error path."""

from __future__ import annotations

import argparse
import sys

from indicifeval._version import __version__
from indicifeval.cli import build_cmd, info, lm_eval_cmd, report_cmd, run_cmd, score_cmd, stats_cmd, validate_cmd
from indicifeval.cli.common import HelpFormatter

SUBCOMMANDS = (run_cmd, score_cmd, report_cmd, build_cmd, info, lm_eval_cmd, validate_cmd, stats_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="indicifeval",
        description="Verifiable instruction-following evaluation for 14 Indic languages and English.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"indicifeval {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an error")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code. Errors a user can act on are one line on
    stderr (exit 1); an unexpected one says it is a bug. ``--debug`` shows the traceback."""
    from indicifeval.core.errors import IndicIFEvalError
    from indicifeval.core.files import describe_os_error

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `indicifeval ... | head`
        return 0
    except Exception as exc:
        if args.debug:
            raise
        from indicifeval.cli.output import print_error

        if isinstance(exc, IndicIFEvalError):
            print_error(exc)
        elif isinstance(exc, OSError):
            print_error(describe_os_error(exc, exc.filename or "output"))
        else:
            print_error(f"unexpected {exc.__class__.__name__}: {exc} (a bug in indicifeval {__version__}: rerun with "
                        f"--debug for the traceback and please report it)")
        return 1


__all__ = ["build_parser", "main"]
