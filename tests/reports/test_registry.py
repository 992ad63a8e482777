"""The analyses as registered units: each says what it shows and how to read it, and captions
its figures; a new analysis reaches every output with no edit to the writers; nothing outside
an analysis's own module names its table; the tables carry their metadata."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path

import pytest

import indicifeval.reports
from indicifeval.reports import api, registry
from indicifeval.reports.api import build_report
from indicifeval.reports.model import Column, Estimate, Table, run_row
from indicifeval.reports.registry import analysis, registered
from tests.reports.test_analyses import _write_run

REPORTS = Path(indicifeval.reports.__file__).parent
# string constants equal to a table name that mean something else there
NOT_TABLES = {("loading.py", "thinking"), ("html.py", "thinking")}  # a run's thinking flag (manifest, runs table)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    return [_write_run(root / "a", "org/Model-7B-Instruct", False, {"en": 10, "hi": 5, "ta": 8, "ground": 3}),
            _write_run(root / "b", "org/Model-7B-Instruct", True, {"en": 10, "hi": 8, "ta": 9, "ground": 5})]


def test_every_analysis_explains_itself():
    units = registered()
    assert list(units) == ["trans_languages", "ground_languages", "delta_language", "delta_category", "delta_family",
                           "keywords", "cross_lingual", "thinking", "per_instruction", "comparison",
                           "repeated_samples", "turn_accuracy", "turn_decay", "turn_forgetting", "turn_delta"]
    for name, unit in units.items():
        assert unit.short_title.strip() and len(unit.short_title) < 30, name
        assert len(unit.what) > 40 and len(unit.how) > 40, name
        for figure in unit.figures:
            assert len(figure.caption) > 20 and figure.caption.endswith("."), (name, figure.stem)
    stems = [f.stem for _, f in registry.registered_figures()]
    assert len(stems) == len(set(stems))
    assert "indic_average" in stems and "delta_category" in stems


def test_registering_twice_is_refused():
    name = next(iter(registered()))
    with pytest.raises(RuntimeError, match="registered twice"):
        analysis(name, short_title="x", what="x", how="x")(lambda ctx: None)
    with pytest.raises(RuntimeError, match="registered twice"):
        registered()[name].figure(registry.registered_figures()[0][1].stem, "x.")(lambda report, table: None)


def test_tables_carry_their_metadata(runs):
    rep = build_report(runs, n_boot=20)
    # two runs, a thinking pair: every analysis has rows but the repeated samples one (no run has several)
    # and the conversations' (no run has turns)
    assert set(rep.tables) == set(registered()) - {"repeated_samples", "turn_accuracy", "turn_decay",
                                                   "turn_forgetting", "turn_delta"}
    for table in rep.tables.values():
        assert all(isinstance(c, Column) for c in table.columns)
        for i, column in enumerate(table.columns):
            values = [r[i] for r in table.rows if isinstance(r[i], Estimate)]
            if values:
                assert column.kind in ("language", "avg", "value", "run"), (table.name, column)
        assert table.columns[0].kind == "label", table.name
        assert {r.kind for r in table.rows} <= {"run", "paper", "family", "pair", "instruction"}, table.name
        for row in table.rows:
            assert row.name, (table.name, row)
            if row.kind == "run":
                assert row.name in {r.name for r in rep.runs} and row[0] == row.name
    trans = rep.tables["trans_languages"]
    assert {r.kind for r in trans.rows} == {"run", "paper"}
    assert [str(c) for c in trans.columns if c.kind == "language"][-1] == "en"  # the Indic languages, then English
    delta = rep.tables["delta_language"]
    assert [c.diff for c in delta.columns if c.signed] == ["gap"] * len(delta.where("language", "avg"))
    assert delta.to_json()["signed"] == [str(c) for c in delta.columns[1:]]  # the differences, not the run column


# -- a new analysis reaches every output --------------------------------------------------------
@pytest.fixture
def extra():
    """A tiny analysis with a figure, registered for one test only."""
    saved = dict(registered())

    @analysis("prompt_counts", short_title="Prompt counts", what="How many prompts of each subset a run has scores "
              "for, to see at a glance what the other tables stand on.", how="The scored rows of each subset counted "
              "per run (Trans on the parallel rows the other tables use: 3 languages × 10); plain counts, no interval.")
    def prompt_counts(ctx):
        table = Table("prompt_counts", "Prompts per run and subset", [Column("run", "label"),
                      Column("subset", "subset"), Column("prompts", "count")], [])
        for run in ctx.runs:
            for subset in ctx.subsets:
                if ctx.rows(run, subset):
                    table.rows.append(run_row(run.info.name, [subset, len(ctx.rows(run, subset))]))
        return table

    @prompt_counts.figure("prompt_counts", "Prompts per run and subset, a test's figure.")
    def _bars(report, table):
        if table is None or not table.rows:
            return None
        from indicifeval.reports import plots

        fig = plots.new_figure(6.0, 3.0)
        ax = fig.add_subplot()
        ax.bar(range(len(table.rows)), [r[2] for r in table.rows])
        ax.set_title("Prompts per run and subset", loc="left")
        return fig

    yield prompt_counts
    registry.ANALYSES.clear()
    registry.ANALYSES.update(saved)


def test_a_new_analysis_reaches_every_output(runs, tmp_path, extra):
    plots = importlib.util.find_spec("matplotlib") is not None
    steps: list[str] = []
    out = tmp_path / "report"
    rep = api.report(runs, out, n_boot=20, plots=plots, step=steps.append)
    assert list(rep.tables)[-1] == "prompt_counts"  # registration order is the report's order
    assert len(steps) == api.steps_needed(len(runs), plots, True)
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "### Prompts per run and subset" in md and "| Model-7B-Instruct (no thinking) | trans | 30 |" in md
    assert (out / "tables" / "prompt_counts.csv").read_text(encoding="utf-8").splitlines()[:2] == [
        "run,subset,prompts", "Model-7B-Instruct (no thinking),trans,30"]
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["tables"]["prompt_counts"]["rows"][1] == ["Model-7B-Instruct (no thinking)", "ground", 6]
    page = (out / "report.html").read_text(encoding="utf-8").replace("&#x27;", "'")
    assert 'id="table-prompt_counts"' in page and '<a href="#t-prompt_counts">Prompt counts</a>' in page
    assert page.count(extra.what) == 2  # in "How to read" and above the table
    if plots:
        assert (out / "plots" / "prompt_counts.png").exists() and (out / "plots" / "prompt_counts.svg").exists()
        assert 'id="fig-prompt_counts"' in page and "Prompts per run and subset, a test's figure." in page


# -- no table named outside its unit ------------------------------------------------------------
def _strings(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_code_outside_its_unit_names_a_table():
    owner = {name: Path(sys.modules[unit.module].__file__) for name, unit in registered().items()}
    found = []
    for path in sorted(REPORTS.rglob("*.py")):
        for line, text in _strings(path):
            if text in owner and owner[text] != path and (path.name, text) not in NOT_TABLES:
                found.append(f"{path.relative_to(REPORTS)}:{line} names table {text!r}")
            if text.startswith("paper:") and path.name != "languages.py":
                found.append(f"{path.relative_to(REPORTS)}:{line} reads the paper rows' label")
            if text == "en":
                found.append(f"{path.relative_to(REPORTS)}:{line} names English (the composition says which it is)")
    assert found == []


def test_every_module_stays_small():
    sizes = {str(p.relative_to(REPORTS)): len(p.read_text(encoding="utf-8").splitlines())
             for p in REPORTS.rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n >= 400} == {}
