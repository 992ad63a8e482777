"""The report's multi-turn tables on mock runs of conversations; single-turn runs show none."""

import json

from indicifeval.cli import main
from indicifeval.reports.api import build_report
from indicifeval.runs.runner import DataOptions, run
from tests.runs.specs import spec

TURN_TABLES = {"turn_accuracy", "turn_decay", "turn_forgetting", "turn_delta"}


def _cells(table, label):
    """The values of the first row whose cells after the run name start with ``label``."""
    row = next(r for r in table.rows if r[1] == label)
    return [getattr(c, "value", c) for c in row]


def test_multiturn_report(tmp_path):
    folder = tmp_path / "mt"
    run(spec("m", "mock", {"answers": "sample"}), folder, DataOptions(source="sample-multiturn", languages="hi,en,ta"))
    rep = build_report([folder], n_boot=50, include_paper=False)
    assert TURN_TABLES <= set(rep.tables)
    for name in TURN_TABLES:  # the metadata the writers and the page read
        table = rep.tables[name]
        assert table.columns[0].kind == "label" and all(r.kind == "run" and r[0] == "m" for r in table.rows)
    acc = rep.tables["turn_accuracy"]
    assert [r[1:3] for r in acc.rows][:3] == [["hi", 1], ["hi", 2], ["hi", 3]]
    assert {r[1] for r in acc.rows} == {"hi", "ta", "en", "all"}
    scores = [json.loads(x) for x in (folder / "scores.jsonl").read_text().splitlines()]
    hi1 = [s for s in scores if s["language"] == "hi" and s["turn"] == 1]
    assert _cells(acc, "hi")[3] == sum(s["prompt_strict"] for s in hi1) / len(hi1)
    decay = _cells(rep.tables["turn_decay"], "all")
    assert decay[2] == 1.0 and decay[-1] == decay[2] - decay[4] > 0  # the sample's answers forget
    forgetting = rep.tables["turn_forgetting"]
    lost = [getattr(r[-2], "value", None) for r in forgetting.rows]
    known = [v for v in lost if v is not None]
    assert known == sorted(known, reverse=True) and known[0] > 0  # most forgotten first
    assert all(getattr(r[2], "value", None) == 1.0 for r in forgetting.rows)  # turn 1 follows its own
    delta = rep.tables["turn_delta"]
    assert [r[1] for r in delta.rows] == [1, 2, 3]
    cols = [str(c) for c in delta.columns]
    assert cols[-1] == "Avg" and "hi" in cols and "en" not in cols
    assert main(["report", str(folder), "--out", str(tmp_path / "rep"), "--no-plots", "--quiet"]) == 0
    assert (tmp_path / "rep" / "tables" / "turn_decay.csv").exists()


def test_single_turn_report_has_no_turn_tables(tmp_path):
    folder = tmp_path / "st"
    run(spec("m", "mock", {"answers": "sample"}), folder, DataOptions(source="sample", languages="hi,en"))
    rep = build_report([folder], n_boot=50, include_paper=False)
    assert not TURN_TABLES & set(rep.tables)
