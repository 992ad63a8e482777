"""One scale everywhere: a cell reads the same number in tables/*.csv, report.md and
report.html (percent, differences in points), with the unit in the CSV header; counts and
p-values are not scaled; report.json keeps fractions and says so."""

from __future__ import annotations

import csv
import json
from html.parser import HTMLParser

import pytest

from indicifeval.reports import api
from tests.reports.test_analyses import _write_run

RUN = "Model-7B-Instruct (no thinking)"


class _Cells(HTMLParser):
    """Table id -> rows -> cells as (shown value, interval text) from the report's HTML."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[list[str]]]] = {}
        self.table = None
        self.cell: list[str] | None = None
        self.part = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id", "").startswith("table-"):
            self.table = self.tables.setdefault(a["id"][len("table-"):], [])
        elif self.table is not None and tag == "tr":
            self.table.append([])
        elif self.table is not None and tag in ("td", "th"):
            self.cell, self.part = ["", ""], 0
        elif self.cell is not None and tag == "small":
            self.part = 1

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.cell is not None:
            self.table[-1].append([c.strip() for c in self.cell])
            self.cell = None
        elif tag == "small":
            self.part = 0

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[self.part] += data


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    runs = [_write_run(root / "a", "org/Model-7B-Instruct", False, {"en": 10, "hi": 5, "ta": 8, "ground": 3}),
            _write_run(root / "b", "org/Model-7B-Instruct", True, {"en": 10, "hi": 8, "ta": 9, "ground": 5})]
    out = tmp_path_factory.mktemp("report")
    api.report(runs, out, n_boot=200, plots=False)
    parser = _Cells()
    parser.feed((out / "report.html").read_text(encoding="utf-8"))
    return out, parser.tables


def _csv(out, table: str, run: str) -> dict[str, str]:
    with (out / "tables" / f"{table}.csv").open(encoding="utf-8", newline="") as fh:
        return next(r for r in csv.DictReader(fh) if r[next(iter(r))] == run)


def _markdown(out, title: str, run: str) -> dict[str, str]:
    text = (out / "report.md").read_text(encoding="utf-8")
    lines = text.split(f"### {title}\n", 1)[1].splitlines()
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines if line.startswith("|")]
    return dict(zip(rows[0], next(r for r in rows if r[0] == run)))


def _html(tables, table: str, run: str) -> dict[str, list[str]]:
    rows = tables[table]
    return dict(zip([c[0] for c in rows[0]], next(r for r in rows[1:] if r[0][0] == run)))


def _number(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


@pytest.mark.parametrize(("table", "run", "column", "unit", "fraction"), [
    ("trans_languages", RUN, "hi", "%", 0.5),
    ("trans_languages", RUN, "Avg", "%", 0.65),
    ("delta_language", RUN, "Avg", "pp", 0.35),  # a difference: percentage points
    ("thinking", "org/Model-7B-Instruct", "gain", "pp", 0.2),
])
def test_same_number_in_csv_markdown_and_html(written, table, run, column, unit, fraction):
    out, tables = written
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    title = data["tables"][table]["title"]
    row = _csv(out, table, run)
    value = float(row[f"{column} ({unit})"])
    assert value == pytest.approx(100 * fraction)
    md = _markdown(out, title, run)[column]
    shown, interval = _html(tables, table, run)[column]
    assert f"{value:.1f}" == f"{_number(md):.1f}" == f"{_number(shown):.1f}", (row, md, shown)
    low, high = float(row[f"{column} low ({unit})"]), float(row[f"{column} high ({unit})"])
    assert low <= value <= high and (unit == "pp" or 0 <= low <= high <= 100)
    if interval:  # the HTML prints the interval small under the value: the CSV's, rounded
        lo, hi = (_number(t) for t in interval.split("…"))
        assert (f"{lo:.1f}", f"{hi:.1f}") == (f"{low:.1f}", f"{high:.1f}")
    n = row[f"{column} n"]
    assert n.isdigit() and int(n) > 0  # a count, not scaled, not a float
    # report.json: the raw fraction, and the scale named at the top
    json_row = next(r for r in data["tables"][table]["rows"] if r[0] == run)
    assert json_row[data["tables"][table]["columns"].index(column)]["value"] == pytest.approx(fraction)


def test_counts_and_p_values_are_not_scaled(written):
    out, tables = written
    row = _csv(out, "thinking", "org/Model-7B-Instruct")
    p = 2 * 0.5**4  # exact McNemar: 4 prompts pass only with thinking
    assert float(row["p (McNemar)"]) == pytest.approx(p) and float(row["size (B)"]) == 7.0
    md = _markdown(out, json.loads((out / "report.json").read_text())["tables"]["thinking"]["title"],
                   "org/Model-7B-Instruct")
    html_p = _html(tables, "thinking", "org/Model-7B-Instruct")["p (McNemar)"][0]
    assert _number(md["p (McNemar)"]) == _number(html_p) == pytest.approx(p)
    with (out / "tables" / "cross_lingual.csv").open(encoding="utf-8", newline="") as fh:
        xrow = next(csv.DictReader(fh))
    assert xrow["prompts"] == "8" and float(xrow["asked in Indic (%)"]) == pytest.approx(100.0)


def test_every_output_names_its_scale(written):
    out, _ = written
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["scale"] == "fraction" and "0–1" in data["scale_note"]
    assert "numbers are percentages" in (out / "report.md").read_text(encoding="utf-8")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "numbers are percentages" in page
    header = (out / "tables" / "trans_languages.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[:5] == ["run", "as (%)", "as low (%)", "as high (%)", "as n"]
    estimate_columns = [c for c in header[1:] if not c.endswith(" n")]
    assert estimate_columns and all(c.endswith(" (%)") for c in estimate_columns)
