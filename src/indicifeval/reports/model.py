"""The report's data: estimates with confidence intervals, tables, samples."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Estimate:
    """A statistic on 0–1 with its bootstrap 95% interval and the number of prompts behind it."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    p_value: float | None = None  # for comparisons

    def pct(self, digits: int = 1) -> str:
        return "–" if self.value is None else f"{100 * self.value:.{digits}f}"

    def with_ci(self, digits: int = 1) -> str:
        if self.value is None:
            return "–"
        if self.low is None or self.high is None:
            return self.pct(digits)
        return f"{100 * self.value:.{digits}f} [{100 * self.low:.{digits}f}, {100 * self.high:.{digits}f}]"

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n, "p_value": self.p_value}


Cell = Any  # str | int | float | Estimate | None
SCALE_NOTE = ("estimate values, low and high are fractions (0–1; differences too); report.md, report.html and "
              "tables/*.csv show them ×100, in percent (differences in percentage points); n counts prompts; "
              "p-values are probabilities")


@dataclass
class Table:
    name: str
    title: str
    columns: list[str]
    rows: list[list[Cell]]
    note: str = ""
    # columns holding signed differences (Δ, gains): shown with a sign, coloured around 0.
    # True: every value column of the table.
    signed: bool | frozenset[str] = False

    def is_signed(self, column: str) -> bool:
        return self.signed is True or (isinstance(self.signed, frozenset) and column in self.signed)

    def to_json(self) -> dict:
        def cell(c):
            return c.to_json() if isinstance(c, Estimate) else c

        return {"name": self.name, "title": self.title, "note": self.note, "columns": self.columns,
                "signed": [c for c in self.columns if self.is_signed(c)], "rows": [[cell(c) for c in row] for row in self.rows]}


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
    samples: list[dict]  # per run and row: prompt, answer, reasoning, verdicts, explanations
    seed: int
    n_boot: int
    notes: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """Estimates stay on 0–1 here (the Markdown, HTML and CSV show percent): ``scale`` says so."""
        return {
            "scale": "fraction", "scale_note": SCALE_NOTE,
            "metric": self.metric, "seed": self.seed, "n_boot": self.n_boot, "notes": self.notes,
            "runs": [r.__dict__ for r in self.runs],
            "tables": {k: t.to_json() for k, t in self.tables.items()},
        }
