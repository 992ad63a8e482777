"""``indicifeval stats`` knows every suite's ids: the instructions counted per suite and category
(the report's labels: "IFBench Format", "RL Copy"), with nothing said on stderr about them."""

from __future__ import annotations

import json
from pathlib import Path

from indicifeval.checkers import REGISTRY
from indicifeval.cli import main
from indicifeval.dataset import load_rows
from indicifeval.dataset.stats import dataset_stats


def test_stats_group_every_suite(tmp_path: Path, capsys):
    out = tmp_path / "s.json"
    assert main(["stats", "sample-ifbench", "--json", str(out), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    suites = json.loads(out.read_text(encoding="utf-8"))["subsets"]["trans"]["suites"]
    assert list(suites) == ["ifbench"]
    ifbench = {iid for iid, spec in REGISTRY.items() if spec.suite == "ifbench"}
    assert sum(c["ids"] for c in suites["ifbench"].values()) == len(ifbench) == 58
    assert all(label.startswith("IFBench ") for label in suites["ifbench"])
    assert main(["stats", "sample-ifbench"]) == 0
    captured = capsys.readouterr()
    assert "instructions per suite and category" in captured.out and "IFBench Format" in captured.out
    assert captured.err == ""


def test_rows_of_several_suites_are_counted_apart():
    rows = [r for name in ("sample", "sample-open-instruct", "sample-ifbench") for r in load_rows(name)
            if r.language == "hi"]
    trans = dataset_stats(rows).subsets["trans"]
    assert list(trans.suites)[:1] == ["ifeval"] and list(trans.suites)[-2:] == ["open-instruct", "ifbench"]
    for suite, categories in trans.suites.items():
        for label, (ids, n) in categories.items():
            members = [iid for iid, spec in REGISTRY.items() if spec.suite == suite and spec.category_label == label]
            assert ids == sum(1 for i in members if trans.instruction_ids.get(i)), (suite, label)
            assert n == sum(trans.instruction_ids.get(i, 0) for i in members), (suite, label)
    assert all(label.startswith("RL ") for label in trans.suites["open-instruct"])
    assert sum(n for cats in trans.suites.values() for _, n in cats.values()) == trans.instructions
