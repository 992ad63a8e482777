"""The analysis registry: ``@analysis`` registers one analysis of the report as a unit — how its
table is computed, what it shows and how to read it, a short title and its figures with their
captions — so adding an analysis is one module, with no edit to the writers, the figures or the
HTML page: they iterate the registry, in registration order (the report's order), and read the
tables' metadata (:class:`~indicifeval.reports.model.Column`, ``TableRow``), never a table's name."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from indicifeval.reports.model import Report, Table

if TYPE_CHECKING:
    from indicifeval.reports.analyses import Analyses

Compute = Callable[["Analyses"], "Table | None"]
# A figure's drawing: (report, its analysis's table or None) -> a matplotlib Figure or None; a
# per-run figure yields (run name, Figure) pairs instead, one file each.
Draw = Callable[[Report, "Table | None"], Any]


@dataclass(frozen=True)
class Figure:
    stem: str  # the file name without extension; a per-run figure's files are <stem>_<run slug>
    caption: str
    draw: Draw
    per_run: bool = False

    def run_of(self, file_stem: str, runs: Iterable[str]) -> str | None:
        """The run a per-run figure's file shows (None when it is not one of this figure's)."""
        prefix = self.stem + "_"
        if not self.per_run or not file_stem.startswith(prefix):
            return None
        rest = file_stem[len(prefix):]
        return next((r for r in runs if slug(r) == rest), rest.replace("-", " "))

    def names(self, file_stem: str) -> bool:
        return file_stem == self.stem or (self.per_run and file_stem.startswith(self.stem + "_"))


@dataclass
class Analysis:
    name: str  # the table's name: tables/<name>.csv, report.json's key, the HTML section's id
    short_title: str  # for the page's contents
    what: str  # what the table shows
    how: str  # how it is computed, how to read it
    compute: Compute  # the table, or None when the runs do not allow it (no rows: left out)
    always: bool = False  # shown even without rows
    figures: list[Figure] = field(default_factory=list)
    after: str | None = None  # a section's own analysis (``reports.sections``): shown after this one

    @property
    def module(self) -> str:
        return self.compute.__module__

    def table_in(self, report: Report) -> Table | None:
        return report.tables.get(self.name)

    def figure(self, stem: str, caption: str, per_run: bool = False) -> Callable[[Draw], Draw]:
        """Register a figure of this analysis (drawn, and shown, in registration order)."""

        def register(draw: Draw) -> Draw:
            if any(f.stem == stem for unit in ANALYSES.values() for f in unit.figures):
                raise RuntimeError(f"figure {stem} registered twice")
            self.figures.append(Figure(stem, caption, draw, per_run))
            return draw

        return register


ANALYSES: dict[str, Analysis] = {}
# the analyses only a report of several suites shows, in each suite's section (no figures)
SECTION_ANALYSES: dict[str, Analysis] = {}


def analysis(name: str, *, short_title: str, what: str, how: str, always: bool = False, after: str | None = None
             ) -> Callable[[Compute], Analysis]:
    """Register the decorated function as the computation of analysis ``name``; the decorator
    returns the :class:`Analysis`, whose ``.figure(...)`` registers its figures. With ``after``,
    an analysis of a section only, shown after that analysis's table."""

    def register(compute: Compute) -> Analysis:
        if name in ANALYSES or name in SECTION_ANALYSES:
            raise RuntimeError(f"analysis {name} registered twice")
        unit = Analysis(name, short_title, what, how, compute, always, after=after)
        (ANALYSES if after is None else SECTION_ANALYSES)[name] = unit
        return unit

    return register


def registered() -> dict[str, Analysis]:
    """Every analysis registered so far, in registration order: the built-in ones are those
    ``reports.units`` registers when imported (``reports.api`` imports it, as a plugin's caller
    would import the plugin)."""
    return ANALYSES


def registered_figures() -> list[tuple[Analysis, Figure]]:
    """Every figure with its analysis, in the report's order."""
    return [(unit, fig) for unit in registered().values() for fig in unit.figures]


def analysis_of(table: Table) -> Analysis | None:
    name = table.unit or table.name
    return registered().get(name) or SECTION_ANALYSES.get(name)


def _in_order(sections: bool) -> list[Analysis]:
    out = []
    for unit in registered().values():
        out.append(unit)
        if sections:
            out += [u for u in SECTION_ANALYSES.values() if u.after == unit.name]
    return out


def build_tables(ctx: Analyses) -> dict[str, Table]:
    """Every registered analysis's table over the runs of ``ctx``, in the report's order (with
    the sections' own analyses when ``ctx`` counts one section's rows)."""
    tables = {}
    for unit in _in_order(ctx.section is not None):
        table = unit.compute(ctx)
        if table is None or not (table.rows or unit.always):
            continue
        if table.name != unit.name:
            raise RuntimeError(f"analysis {unit.name} made a table named {table.name}")
        tables[unit.name] = table
    return tables


def slug(name: str) -> str:
    """A run name as part of a file name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "run"
