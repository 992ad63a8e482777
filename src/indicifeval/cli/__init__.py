"""The ``indicifeval`` command line: one command, a subcommand per job, one error path."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from indicifeval._version import __version__
from indicifeval.cli.common import COMMANDS, HelpFormatter, Parser


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser: every command fully (``only`` None); or only that command, importing only
    its module (its parser is all that parsing it, its errors and its ``--help`` use); or, for
    a name of no command (``--help``, a mistyped command), every command by name and summary."""
    parser = Parser(
        prog="indicifeval",
        description="Verifiable instruction-following evaluation for 14 Indic languages and English.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"indicifeval {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an error")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = COMMANDS[only][0] if only in COMMANDS else None
    for name, (module, summary) in COMMANDS.items():
        if name in sub.choices:  # registered with another command of its module
            continue
        if only is None or module == chosen:
            importlib.import_module(f"indicifeval.cli.{module}").register(sub)
        elif chosen is None:
            sub.add_parser(name, help=summary, add_help=False)
    return parser


def _command_in(argv: Sequence[str]) -> str:
    """The command named on the line: the first word that is not an option (the top-level
    options take no value); "" when there is none."""
    return next((a for a in argv if not a.startswith("-")), "")


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code. Errors a user can act on are one line on
    stderr (exit 1); an unexpected one says it is a bug. ``--debug`` shows the traceback."""
    argv = sys.argv[1:] if argv is None else argv
    command = _command_in(argv)
    if not command and "--version" in argv:  # answered before any parser is built: the cheapest command
        print(f"indicifeval {__version__}")
        return 0
    parser = build_parser(command)
    args = parser.parse_args(argv)
    args.command_line = ["indicifeval", *argv]  # as typed: `run` records it (secrets and paths removed)
    with _data_argument(args):
        return _handle(args)


@contextmanager
def _data_argument(args: argparse.Namespace) -> Iterator[None]:
    """A command that reads data names how it takes it (``--data``, ``--source``, ``DATA``), so
    that an error about the data names a flag this command has."""
    if not hasattr(args, "data_argument"):  # a command that reads no data: nothing to import
        yield
        return
    from indicifeval.dataset.hub import DATA_ARGUMENT

    token = DATA_ARGUMENT.set(args.data_argument)
    try:
        yield
    finally:
        DATA_ARGUMENT.reset(token)


def _handle(args: argparse.Namespace) -> int:
    from indicifeval.core.errors import IndicIFEvalError
    from indicifeval.core.files import describe_os_error

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
        from indicifeval.cli.common import command_name, missing_extra
        from indicifeval.cli.output import print_error

        extra = missing_extra(command_name(args), exc.name or "") if isinstance(exc, ModuleNotFoundError) else None
        if isinstance(exc, IndicIFEvalError):
            print_error(exc)
        elif extra is not None:  # an optional package that is not installed: name its extra
            print_error(extra)
        elif isinstance(exc, OSError):
            print_error(describe_os_error(exc, exc.filename or "output"))
        else:
            print_error(f"unexpected {exc.__class__.__name__}: {exc} (a bug in indicifeval {__version__}: rerun with "
                        f"--debug for the traceback and please report it)")
        return 1


__all__ = ["build_parser", "main"]
