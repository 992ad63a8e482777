"""What every subcommand shares: help that shows defaults, the --debug flag, list parsing."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.HelpFormatter):
    """Shows each option's default after its help, unless the default says nothing (None,
    False) or the help already names it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("%(default)" in text or "default" in text.lower() or default in (None, False, argparse.SUPPRESS)
                or not action.option_strings or isinstance(action, argparse._HelpAction)):
            return text
        return f"{text} (default: %(default)s)"


def add_parser(sub: argparse._SubParsersAction, name: str, **kwargs) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, formatter_class=HelpFormatter, **kwargs)
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an error")
    return parser


def split_list(text: str | None) -> tuple[str, ...]:
    """``"a, b,,c"`` -> ("a", "b", "c")."""
    return tuple(t.strip() for t in (text or "").split(",") if t.strip())
