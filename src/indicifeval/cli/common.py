"""What every subcommand shares: help that shows defaults, the --debug flag, list parsing, and a
parser that answers a mistyped flag with the command at hand's usage and the closest flag."""

from __future__ import annotations

import argparse
import re
import sys

TYPE_CHECKING = False  # not typing's: importing typing costs every command's start-up
if TYPE_CHECKING:
    from typing import NoReturn


class HelpFormatter(argparse.HelpFormatter):
    """Shows each option's default after its help, unless the default says nothing (None,
    False, empty: ``says_nothing``) or the help already names it."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        # the terminal's width as shutil.get_terminal_size finds it ($COLUMNS, then the
        # terminal, else 80), without importing shutil (and its compression modules) for --help
        if width is None:
            import os

            try:
                columns = int(os.environ.get("COLUMNS", "0"))
                if columns <= 0 and sys.__stdout__ is not None:
                    columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                columns = 80
            width = (columns or 80) - 2
        super().__init__(prog, indent_increment, max_help_position, width)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if ("%(default)" in text or "default" in text.lower() or says_nothing(action.default)
                or not action.option_strings or isinstance(action, argparse._HelpAction)):
            return text
        return f"{text} (default: %(default)s)"


def says_nothing(default: object) -> bool:
    """A default not worth printing: None, False, an unset one, or an empty text or collection
    (which would print as ``(default: )`` or ``(default: [])``). 0 is a value and is shown."""
    if default is None or default is False or default is argparse.SUPPRESS:
        return True
    return isinstance(default, (str, tuple, list, dict, set, frozenset)) and not default


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose subcommands (made with ``add_subparsers``, so of this class
    too) refuse an unknown flag themselves: ``indicifeval score --outt x`` shows ``score``'s
    usage and ``did you mean --out?``, not the top-level usage with no hint."""

    def parse_known_args(self, args=None, namespace=None):
        if self._subparsers is None:  # a leaf: an unknown flag is told before a missing one
            unknown = self._unknown_flags(sys.argv[1:] if args is None else list(args))
            if unknown:
                self.error(f"unrecognized arguments: {' '.join(unknown)}{self._suggest(unknown)}")
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self._subparsers is None:  # what a leaf did not take, nobody will
            self.error(f"unrecognized arguments: {' '.join(extras)}{self._suggest(extras)}")
        return parsed, extras

    def _flags(self) -> list[str]:
        return sorted({s for a in self._actions for s in a.option_strings if s.startswith("--")})

    def _unknown_flags(self, words: list[str]) -> list[str]:
        """The ``--flags`` among ``words`` that are neither this parser's nor a prefix of one."""
        flags = self._flags()
        unknown = []
        for word in words:
            if word == "--":
                break
            name = word.split("=", 1)[0]
            if name.startswith("--") and name not in flags and not any(f.startswith(name) for f in flags):
                unknown.append(word)
        return unknown

    def _suggest(self, extras: list[str]) -> str:
        flags = [w for w in extras if w.startswith("-") and w != "--"]
        hints = []
        for word in flags:
            flag = word.split("=", 1)[0]
            import difflib  # only for a mistyped flag

            close = difflib.get_close_matches(flag, self._flags(), n=1, cutoff=0.6)
            if close:
                hints.append(close[0] if len(flags) == 1 else f"{close[0]} for {flag}")
        return f" (did you mean {', '.join(hints)}?)" if hints else ""

    def error(self, message: str) -> NoReturn:
        choice = re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if choice:  # a mistyped subcommand or value: name the closest one
            options = [c.strip().strip("'") for c in choice.group(3).split(",")]
            import difflib

            close = difflib.get_close_matches(choice.group(2), options, n=1, cutoff=0.6)
            if close:
                message += f" (did you mean {close[0]}?)"
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


# command -> (the module under indicifeval.cli that registers it, its one-line summary), in the
# order `--help` lists them: only the module of the command being run is imported, so start-up
# does not pay for the pipelines of every other command
COMMANDS = {
    "run": ("run_cmd", "run a model on the benchmark and score it (resumable)"),
    "score": ("score_cmd", "score model responses (strict and loose, prompt and instruction level)"),
    "report": ("report_cmd", "tables, Δ, categories, thinking, confidence intervals, plots and an HTML report "
                             "over runs"),
    "leaderboard": ("leaderboard_cmd", "a static leaderboard site over runs: one row per model, intervals, Δ, "
                                       "significance marks, provenance"),
    "build": ("build_cmd", "build datasets for a language (stage by stage, resumable)"),
    "languages": ("info", "list the language profiles, or check one"),
    "instructions": ("info", "list the instruction ids with their paper category"),
    "lm-eval-path": ("lm_eval_cmd", "print the lm-evaluation-harness task folder (for lm_eval --include_path)"),
    "validate": ("validate_cmd", "check a dataset: keywords, numbers, formats and relations stated in each prompt"),
    "serve": ("serve_cmd", "serve the scorer over HTTP as a reward for RL training (NeMo Gym's verify request too)"),
    "export": ("export_cmd", "write benchmark rows as RL prompt datasets (TRL, verl, NeMo Gym)"),
    "reward-profile": ("reward_profile_cmd", "which prompts teach anything: a policy's k answers per prompt, the "
                                             "share where all score 0, all 1, or they differ (a GRPO gradient)"),
    "results": ("results_cmd", "export a run as Every Eval Ever records or .eval_results YAML, verify an export by "
                               "scoring it again, push it to a hub dataset"),
    "stats": ("stats_cmd", "dataset statistics: rows per split, verification tags (Table 7), instruction and "
                           "constraint mixes"),
}


def add_parser(sub: argparse._SubParsersAction, name: str, **kwargs) -> argparse.ArgumentParser:
    """A command's parser (its summary from ``COMMANDS``), with ``--debug``."""
    if name in COMMANDS:
        kwargs.setdefault("help", COMMANDS[name][1])
    parser = sub.add_parser(name, formatter_class=HelpFormatter, **kwargs)
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an error")
    return parser


# the optional packages and the extra that installs each (pyproject.toml); `[build]` holds the
# whole build half (review, parquet, hub and YAML), so the build's own modules name it
EXTRAS = {"jinja2": "review", "starlette": "review", "uvicorn": "review", "multipart": "review",
          "python_multipart": "review", "yaml": "build", "pyarrow": "parquet", "huggingface_hub": "build",
          "datasets": "hub", "matplotlib": "report", "ray": "ray", "transformers": "hf", "tokenizers": "hf",
          "accelerate": "hf", "sentencepiece": "hf", "vllm": "vllm", "lm_eval": "lm-eval",
          "IndicTransToolkit": "indictrans", "tensorboard": "tensorboard", "tensorboardX": "tensorboard",
          "wandb": "wandb"}
# a command whose own extra installs a package that EXTRAS gives another: `indicifeval serve` needs
# starlette and uvicorn too, and `[serve]` installs them without the review app's other packages
COMMAND_EXTRAS = {"indicifeval serve": {"starlette": "serve", "uvicorn": "serve", "httptools": "serve",
                                        "uvloop": "serve"}}


def command_name(args: argparse.Namespace) -> str:
    """``build review serve``: the subcommand at hand, as typed."""
    words = [getattr(args, k, None) for k in ("command", "build_command", "review_command", "results_command")]
    return "indicifeval " + " ".join(w for w in words if w)


def missing_extra(command: str, module: str) -> str | None:
    """``build review serve needs jinja2: pip install 'indicifeval[review]'`` for a missing
    optional package, or None for a module that is not one of ours to install."""
    top = module.split(".")[0]
    extra = COMMAND_EXTRAS.get(command, {}).get(top) or EXTRAS.get(top)
    return f"{command} needs {top}: pip install 'indicifeval[{extra}]'" if extra else None


def require_extra(command: str, modules: tuple[str, ...]) -> None:
    """Before a command starts work (or a server prints its address): every optional package it
    needs, or one line naming the first missing one and its extra."""
    import importlib.util

    from indicifeval.core.errors import InputError

    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a broken or blocked install is as good as none
            found = False
        if not found:
            raise InputError(missing_extra(command, module) or f"{command} needs {module}")


def split_list(text: str | None) -> tuple[str, ...]:
    """``"a, b,,c"`` -> ("a", "b", "c")."""
    return tuple(t.strip() for t in (text or "").split(",") if t.strip())
