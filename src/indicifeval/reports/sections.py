"""A report over runs whose rows ask several suites' instructions gives each suite a section of
its own (``scoring.categories.SECTIONS``: IFEval's, open-instruct's RL-training ids, IFBench's,
and the rows mixing the last two), each with every analysis over that section's rows only, so
IFEval's numbers are never pooled with IFBench's. IFEval's tables keep their names (and their
figures); another section's are prefixed with it (``ifbench_trans_languages``) and titled with it.
Runs of one suite make the report as it always was; the paper's published rows go only with
IFEval's instructions."""

from __future__ import annotations

from indicifeval.reports.analyses import Analyses
from indicifeval.reports.model import Table
from indicifeval.reports.registry import build_tables
from indicifeval.reports.rundata import RunData
from indicifeval.scoring.categories import SECTIONS

SHORT = {"ifeval": "IFEval", "open-instruct": "RL (open-instruct)", "ifbench": "IFBench", "mixed": "Mixed"}


def sections_of(runs: list[RunData]) -> list[str]:
    """The sections the runs' rows are in, in the report's order."""
    present: set[str] = set().union(*(r.sections for r in runs)) if runs else set()
    return [s for s in SECTIONS if s in present]


def prefix(section: str) -> str:
    """The start of a section's table names (none for IFEval's)."""
    return "" if section == "ifeval" else section.replace("-", "_") + "_"


def section_tables(runs: list[RunData], metric: str, *, seed: int = 0, n_boot: int = 1000,
                   include_paper: bool = True) -> tuple[dict[str, Table], Analyses, list[str]]:
    """Every analysis's table, by section when the runs hold several; with the first section's
    analyses (for the report's notes) and the notes on the sections."""
    sections = sections_of(runs)
    if len(sections) <= 1:
        only = sections[0] if sections else "ifeval"
        ctx = Analyses(runs, metric, seed=seed, n_boot=n_boot, include_paper=include_paper and only == "ifeval",
                       section=None if only == "ifeval" else only)
        notes = [] if only == "ifeval" else [f"every row asks {SHORT[only]}'s instructions: no paper rows"]
        return build_tables(ctx), ctx, notes
    tables: dict[str, Table] = {}
    first = None
    for section in sections:
        ctx = Analyses([r for r in runs if section in r.sections], metric, seed=seed, n_boot=n_boot,
                       include_paper=include_paper and section == "ifeval", section=section)
        first = first or ctx
        for name, table in build_tables(ctx).items():
            table.unit, table.section = name, SECTIONS[section]
            table.name = prefix(section) + name
            table.title = f"{SHORT[section]} · {table.title}"
            tables[table.name] = table
    assert first is not None
    listed = ", ".join(SHORT[s] for s in sections)
    notes = [f"the runs' rows ask the instructions of several suites: one section each ({listed}), a row in the "
             "section of the suite its ids are from (IFEval's ids go with either other suite; a row with both "
             "open-instruct's and IFBench's ids is 'Mixed')" + ("; the figures show IFEval's" if "ifeval" in sections
                                                           else "; no figures (they show IFEval's section)")]
    return tables, first, notes
