"""Terminal output: the summary tables, and progress that is a bar on a terminal and a log line
every few seconds in a pipe or a log file (so a long stage there is not silent)."""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

from indicifeval.scoring.summary import METRICS

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

_SHORT = {
    "prompt_level_strict_acc": "prompt strict",
    "inst_level_strict_acc": "inst strict",
    "prompt_level_loose_acc": "prompt loose",
    "inst_level_loose_acc": "inst loose",
}

# On a terminal, tables fit its width (the stage table is laid out to read at 80 columns); into a
# pipe or a file nothing is cut to "…": rich would assume 80 columns there (or COLUMNS, which
# GNU readline exports to the children of any process that loaded it).
LOG_EVERY_S = 5.0  # progress in a pipe: a line this often (INDICIFEVAL_PROGRESS_EVERY overrides it)


@cache
def _consoles() -> tuple[Console, Console]:
    """stdout's and stderr's consoles, made on first use: a quiet command never imports rich."""
    from rich.console import Console

    return Console(highlight=False, width=None if sys.stdout.isatty() else 400), Console(stderr=True, highlight=False)


def __getattr__(name: str) -> Any:
    """``console`` and ``err_console``, made on first use."""
    if name == "console":
        return _consoles()[0]
    if name == "err_console":
        return _consoles()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def log_every() -> float:
    try:
        return max(0.0, float(os.environ.get("INDICIFEVAL_PROGRESS_EVERY", LOG_EVERY_S)))
    except ValueError:
        return LOG_EVERY_S


def print_error(message: object) -> None:
    """One red ``error:`` line on stderr, never wrapped, the message shown literally."""
    from rich.markup import escape

    _consoles()[1].print(f"[red]error:[/red] {escape(str(message))}", markup=True, soft_wrap=True)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def summary_tables(summary: dict) -> list[Table]:
    from rich.table import Table

    langs = Table(title=f"IndicIFEval scores ({summary['scoring']} scoring, indicifeval {summary['version']})")
    langs.add_column("language/subset", no_wrap=True, min_width=15)
    for m in METRICS:
        langs.add_column(_SHORT[m], justify="right")
    langs.add_column("prompts", justify="right")
    langs.add_column("instr.", justify="right")
    for name, block in summary["per_language_subset"].items():
        langs.add_row(name, *(_pct(block[m]) for m in METRICS), str(block["prompts"]), str(block["instructions"]))
    for subset, block in (summary.get("indic") or {}).get("average", {}).items():
        if block.get("languages", 0) > 1:
            langs.add_row(f"[italic]Indic avg/{subset}", *(f"[italic]{_pct(block[m])}" for m in METRICS),
                          f"{block['languages']} lang.", "")
    o = summary["overall"]
    langs.add_row("[bold]overall", *(f"[bold]{_pct(o[m])}" for m in METRICS), str(o["prompts"]), str(o["instructions"]))

    cats = Table(title="By category (instruction level, paper Table 3)")
    cats.add_column("category", no_wrap=True)
    cats.add_column("inst strict", justify="right")
    cats.add_column("inst loose", justify="right")
    cats.add_column("instr.", justify="right")
    for name, block in summary["per_category"].items():
        cats.add_row(name, _pct(block["inst_level_strict_acc"]), _pct(block["inst_level_loose_acc"]),
                     str(block["instructions"]))
    return [langs, cats]


def turn_table(summary: dict) -> Table:
    """Per turn: the four figures and Multi-IF's headline (their mean), overall then by language."""
    from rich.table import Table

    table = Table(title="By turn (a conversation counts once per turn it has; multi-if: the mean of the four)")
    table.add_column("language/turn", no_wrap=True)
    for m in METRICS:
        table.add_column(_SHORT[m], justify="right")
    table.add_column("multi-if", justify="right")
    table.add_column("prompts", justify="right")
    blocks = [(f"[bold]all/{t}", b) for t, b in summary.get("per_turn", {}).items()]
    blocks += [(f"{lang}/{t}", b) for lang, turns in summary.get("per_language_turn", {}).items()
               for t, b in turns.items()]
    for name, b in blocks:
        table.add_row(name, *(_pct(b[m]) for m in METRICS), _pct(b["multi_if"]), str(b["prompts"]))
    return table


class _Bar:
    """``advance(n)`` and ``total(n)`` for a bar that may not know its length at first."""

    def __init__(self, progress=None, task=None, min_total: int = 0):
        self._progress, self._task, self._min = progress, task, min_total

    def __call__(self, n: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, n)

    def total(self, n: int) -> None:
        if self._progress is None:
            return
        if n < self._min:  # too short to be worth a bar
            self._progress.update(self._task, visible=False)
            self._progress = None
        else:
            self._progress.update(self._task, total=n)


class _LogLines(_Bar):
    """Progress without a terminal: ``description: done/total (rate/s, elapsed)`` on stderr at
    most every ``every`` seconds, so a stage shorter than that prints nothing."""

    def __init__(self, description: str, total: int | None, every: float):
        super().__init__()
        self._description, self._total, self._every = description, total, every
        self._done = self._base = 0  # _base: done before this process started (a resumed run)
        self._start = self._last = time.monotonic()

    def __call__(self, n: int = 1) -> None:
        self._done += n
        now = time.monotonic()
        if now - self._last >= self._every:
            self._last = now
            self.line(now)

    def total(self, n: int) -> None:
        self._total = n

    def resume(self, total: int, done: int) -> None:
        self._total, self._done, self._base = total, done, done

    def line(self, now: float) -> None:
        elapsed = now - self._start
        rate = f", {(self._done - self._base) / elapsed:.1f}/s" if elapsed > 0 else ""
        of = f"/{self._total}" if self._total is not None else ""
        _consoles()[1].print(f"{self._description}: {self._done}{of}{rate}, {elapsed:.0f} s", soft_wrap=True,
                          markup=False, highlight=False)


@contextmanager
def progress_bar(total: int | None, description: str, enabled: bool = True, min_total: int = 500):
    """Yields a ``_Bar``: call it to advance, ``.total(n)`` once the length is known. Draws a bar
    only on an interactive terminal, and only for at least ``min_total`` steps; elsewhere writes
    a log line every few seconds."""
    if not enabled:
        yield _Bar()
        return
    if not sys.stderr.isatty():
        yield _LogLines(description, total, log_every())
        return
    if total is not None and total < min_total:
        yield _Bar()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=_consoles()[1], transient=True,
    ) as progress:
        task = progress.add_task(description, total=total)
        yield _Bar(progress, task, min_total)


def report_result(summary: dict, notes, last_line: str, quiet: bool = False, extra: list | None = None) -> None:
    """The summary tables (and ``extra`` ones), the notes and a last line: the end of ``score`` and ``run``."""
    if quiet:
        return
    console, err_console = _consoles()
    for table in [*summary_tables(summary), *(extra or [])]:
        console.print(table)
    for note in notes:
        err_console.print(f"note: {note}", soft_wrap=True, markup=False)
    console.print(last_line, soft_wrap=True)


@contextmanager
def run_progress(enabled: bool = True):
    """Yields (on_total(total, done), on_progress(n)) for a generation run: a bar with rate
    and ETA on an interactive terminal, a log line every few seconds otherwise."""
    if not enabled:
        yield (lambda total, done: None), (lambda n=1: None)
        return
    if not sys.stderr.isatty():
        lines = _LogLines("generating", None, log_every())
        yield lines.resume, lines
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("generating"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
        TimeRemainingColumn(), console=_consoles()[1], transient=True,
    ) as progress:
        task = progress.add_task("generate", total=None, rate="")

        def on_total(total: int, done: int) -> None:
            progress.update(task, total=total, completed=done)

        def on_progress(n: int = 1) -> None:
            progress.advance(task, n)
            speed = progress.tasks[0].speed
            progress.update(task, rate=f"{speed:.1f}/s" if speed else "")

        yield on_total, on_progress
