"""Two datasets side by side (say our ne build and the release): every table with both values
and the difference (B − A), and the Trans instruction lists compared key by key, so that
"every Trans row has the release's instruction list" can be read off, or which keys do not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from indicifeval.dataset.stats.model import STATS_FORMAT, DatasetStats
from indicifeval.dataset.stats.tables import Number, StatsTable, markdown, stats_tables

SHOW_DIFFERING = 20
Cell = tuple[Number, Number, Number]  # A, B, B − A


@dataclass(frozen=True)
class PairedTable:
    """One table of both datasets: per row of keys, (A, B, B − A) for each column compared."""

    name: str
    title: str
    key_columns: tuple[str, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], tuple[Cell, ...]], ...]
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "key_columns": list(self.key_columns),
                "rows": [{"keys": list(keys), **{c: {"a": x, "b": y, "difference": d}
                                                 for c, (x, y, d) in zip(self.columns, cells)}}
                         for keys, cells in self.rows]}

    def table(self) -> StatsTable:
        """For display: A, B and B − A of each column side by side when there are one or two
        columns; else a row per column."""
        if len(self.columns) <= 2:
            names = tuple(f"{c} {side}" if len(self.columns) > 1 else side
                          for c in self.columns for side in ("A", "B", "B − A"))
            rows = tuple((keys, tuple(v for cell in cells for v in cell)) for keys, cells in self.rows)
            return StatsTable(self.name, self.title, self.key_columns, names, rows, self.note)
        long = tuple(((*keys, c), cell) for keys, cells in self.rows for c, cell in zip(self.columns, cells))
        return StatsTable(self.name, self.title, (*self.key_columns, "column"), ("A", "B", "B − A"), long, self.note)


@dataclass(frozen=True)
class ListComparison:
    """Trans rows of A and B with the same (language, subset, key)."""

    matched: int
    same: int
    only_a: int
    only_b: int
    differing: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]  # (row id, A's ids, B's ids)

    @property
    def differ(self) -> int:
        return len(self.differing)

    def to_json(self) -> dict[str, Any]:
        return {"matched": self.matched, "same": self.same, "differ": self.differ, "only_a": self.only_a,
                "only_b": self.only_b,
                "differing": [{"row": r, "a": list(a), "b": list(b)} for r, a, b in self.differing]}

    def tables(self) -> list[StatsTable]:
        counts = StatsTable("instruction-lists", "Trans instruction lists, key by key", ("",), ("rows",), (
            (("keys in both",), (self.matched,)), (("same instruction list",), (self.same,)),
            (("different list",), (self.differ,)), (("only in A",), (self.only_a,)), (("only in B",), (self.only_b,))),
            "matching instruction lists for every Trans row in both" if self.matched and not self.differ else "")
        if not self.differing:
            return [counts]
        rows, detail = [], []
        for row, a, b in self.differing[:SHOW_DIFFERING]:
            mine, theirs = set(a), set(b)
            how = [f"A only: {', '.join(sorted(mine - theirs))}" if mine - theirs else "",
                   f"B only: {', '.join(sorted(theirs - mine))}" if theirs - mine else ""]
            rows.append(((row,), (len(a), len(b))))
            detail.append("; ".join(h for h in how if h) or "the same ids, in another order or number")
        more = f"the first {SHOW_DIFFERING} of {self.differ}" if self.differ > SHOW_DIFFERING else ""
        return [counts, StatsTable("instruction-lists-differing", "Keys whose instruction lists differ", ("row",),
                              ("A instructions", "B instructions"), tuple(rows), more, "how", tuple(detail))]


def compare_lists(a: DatasetStats, b: DatasetStats) -> ListComparison:
    keys_b = b.trans_lists
    matched = [k for k in a.trans_lists if k in keys_b]
    differing = tuple((k, a.trans_lists[k], keys_b[k]) for k in matched if a.trans_lists[k] != keys_b[k])
    return ListComparison(len(matched), len(matched) - len(differing), len(a.trans_lists) - len(matched),
                          len(keys_b) - len(matched), differing)


def _diff(x: Number, y: Number) -> Number:
    return None if x is None or y is None else y - x


def side_by_side(a: StatsTable | None, b: StatsTable | None) -> PairedTable:
    """``a`` and ``b`` (the same table of two datasets; either may be missing) paired by keys: a
    row one lacks counts 0 there when its table says so, a table one lacks is "–"."""
    base = a if a is not None else b
    assert base is not None
    columns = base.compare_columns or base.value_columns
    index = [base.value_columns.index(c) for c in columns]
    found: dict[tuple[str, ...], list[tuple[Number, ...] | None]] = {}
    for side, table in enumerate((a, b)):
        for keys, values in table.rows if table is not None else ():
            found.setdefault(keys, [None, None])[side] = values
    rows = []
    for keys, (va, vb) in found.items():
        blank_a: Number = 0 if base.absent_is_zero and a is not None else None
        blank_b: Number = 0 if base.absent_is_zero and b is not None else None
        cells = []
        for i in index:
            x = va[i] if va is not None else blank_a
            y = vb[i] if vb is not None else blank_b
            if isinstance(x, float) or isinstance(y, float):  # a share absent on one side: 0.0, not 0
                x, y = (float(x) if x is not None else None), (float(y) if y is not None else None)
            cells.append((x, y, _diff(x, y)))
        rows.append((keys, tuple(cells)))
    notes = [f"A: {a.note}" if a is not None and a.note else "", f"B: {b.note}" if b is not None and b.note else ""]
    return PairedTable(base.name, base.title, base.key_columns, columns, tuple(rows), "; ".join(n for n in notes if n))


@dataclass(frozen=True)
class Comparison:
    """``a`` and ``b`` side by side; ``to_json``, ``to_markdown``."""

    a: DatasetStats
    b: DatasetStats
    tables: tuple[PairedTable, ...]
    lists: ListComparison

    def to_json(self) -> dict[str, Any]:
        return {"format_version": STATS_FORMAT, "a": self.a.body(), "b": self.b.body(),
                "tables": [t.to_json() for t in self.tables], "instruction_lists": self.lists.to_json()}

    def all_tables(self) -> list[StatsTable]:
        """What is shown: each paired table, then the Trans instruction lists key by key (when
        either has Trans rows)."""
        lists = self.lists.tables() if self.a.trans_lists or self.b.trans_lists else []
        return [*(t.table() for t in self.tables), *lists]

    def to_markdown(self, heading: int = 2) -> str:
        return markdown(self.all_tables(), f"Dataset statistics: A = {self.a.name}, B = {self.b.name}", heading)


def compare(a: DatasetStats, b: DatasetStats, group: str = "category") -> Comparison:
    """Every table of ``a`` and ``b`` side by side (instructions grouped by ``group``, as
    ``stats_tables``), and their Trans instruction lists key by key."""
    ta = {t.name: t for t in stats_tables(a, group)}
    tb = {t.name: t for t in stats_tables(b, group)}
    names = list(ta) + [n for n in tb if n not in ta]
    return Comparison(a, b, tuple(side_by_side(ta.get(n), tb.get(n)) for n in names), compare_lists(a, b))


__all__ = ["Comparison", "ListComparison", "PairedTable", "compare", "compare_lists", "side_by_side"]
