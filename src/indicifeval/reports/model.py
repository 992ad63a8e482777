"""The report's data: estimates with confidence intervals, tables, samples.

A table says what its columns and rows are (:class:`Column`, :class:`TableRow`), so the writers,
figures and HTML page read that instead of parsing header texts or row labels."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, get_args


@dataclass(frozen=True)
class Estimate:
    """A statistic on 0–1 with its bootstrap 95% interval and the number of prompts behind it."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    p_value: float | None = None  # written to report.json (always null so far): kept for its readers

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n, "p_value": self.p_value}


SCALE_NOTE = ("estimate values, low and high are fractions (0–1; differences too); report.md, report.html and "
              "tables/*.csv show them ×100, in percent (differences in percentage points); n counts prompts; "
              "p-values are probabilities")

# What a column holds: a row label, a free text, the values of one run (a run name as header),
# the subset or instruction category of the row, one language (the header is its code), the
# average over the Indic languages, another estimate, a count of prompts, a plain number, a p-value.
ColumnKind = Literal["label", "text", "run", "subset", "category", "language", "avg", "value", "count", "number",
                     "p_value"]
COLUMN_KINDS: tuple[str, ...] = get_args(ColumnKind)
# A signed difference: "gap" is English − Indic (positive: English ahead, shown red), "gain" a
# change where positive is better (shown green).
Diff = Literal["", "gap", "gain"]
# What a row is: one run's (``name`` is the run), the paper's published numbers (``name`` is the
# model), a model family's, a thinking pair's (``name`` is the model), an instruction's (its id).
RowKind = Literal["run", "paper", "family", "pair", "instruction", "other"]
ROW_KINDS: tuple[str, ...] = get_args(RowKind)


class Column(str):
    """A column header that is still its text (CSV, Markdown and JSON write it as it is) and
    knows its kind and whether it holds signed differences."""

    kind: ColumnKind
    diff: Diff

    def __new__(cls, text: str, kind: ColumnKind = "text", diff: Diff = ""):
        if kind not in COLUMN_KINDS or diff not in get_args(Diff):
            raise ValueError(f"column {text!r}: unknown kind {kind!r} or diff {diff!r}")
        self = super().__new__(cls, text)
        self.kind, self.diff = kind, diff
        return self

    @property
    def signed(self) -> bool:
        return bool(self.diff)


class TableRow(list):
    """A table row (its cells, the label first) that knows what it is, so a published row is
    told from a run's without reading its label."""

    def __init__(self, cells=(), kind: RowKind = "other", name: str | None = None):
        if kind not in ROW_KINDS:
            raise ValueError(f"unknown row kind {kind!r}")
        super().__init__(cells)
        self.kind = kind
        self.name = name if name is not None or not self else str(self[0])  # by default: its label


def run_row(name: str, cells) -> TableRow:
    """A row of one run, labelled with its name."""
    return TableRow([name, *cells], "run", name)


@dataclass
class Table:
    name: str
    title: str
    columns: list[Column]
    rows: list[TableRow]
    note: str = ""
    subset: str | None = None  # the subset every row is about, if one (the HTML opens its samples)
    # a report of several suites: the section's title, and the analysis that made the table
    # (its name is then prefixed with the section's, but for IFEval's)
    section: str | None = None
    unit: str | None = None

    def __post_init__(self):
        # plain headers and rows (a table made by hand) get the neutral kinds
        self.columns = [c if isinstance(c, Column) else Column(c) for c in self.columns]
        self.rows = [r if isinstance(r, TableRow) else TableRow(r) for r in self.rows]

    def where(self, *kinds: str) -> list[int]:
        """The positions of the columns of these kinds, in order."""
        return [i for i, c in enumerate(self.columns) if c.kind in kinds]

    def to_json(self) -> dict:
        def cell(c):
            return c.to_json() if isinstance(c, Estimate) else c

        out = {"name": self.name, "title": self.title, "note": self.note, "columns": [str(c) for c in self.columns],
               "signed": [str(c) for c in self.columns if c.signed],
               "rows": [[cell(c) for c in row] for row in self.rows]}
        if self.section is not None:
            out["section"] = self.section
        return out


@dataclass
class RunInfo:
    name: str  # unique label used in every table
    folder: str
    model: str
    family: str
    size_b: float | None
    thinking: bool | None
    scoring: str
    backend: str | None = None
    settings: dict = field(default_factory=dict)  # generation settings, for "differs only in thinking"


@dataclass
class Report:
    metric: str
    runs: list[RunInfo]
    tables: dict[str, Table]
    # per run and row: prompt, answer, reasoning, verdicts, explanations; a ``reports.samples.Samples``
    # (read from the run folders when written) or a list of dicts
    samples: Iterable[dict]
    seed: int
    n_boot: int
    notes: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    sample_index: dict | None = None  # the page's sample files, when they were written while reading the runs

    def to_json(self) -> dict:
        """Estimates stay on 0–1 here (the Markdown, HTML and CSV show percent): ``scale`` says so."""
        return {
            "scale": "fraction", "scale_note": SCALE_NOTE,
            "metric": self.metric, "seed": self.seed, "n_boot": self.n_boot, "notes": self.notes,
            "runs": [r.__dict__ for r in self.runs],
            "tables": {k: t.to_json() for k, t in self.tables.items()},
        }
