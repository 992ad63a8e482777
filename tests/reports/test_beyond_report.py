"""The report shows the instructions beyond the paper: their two categories in the category
table and each id in the per-instruction table (scored from the bundled sample-beyond)."""

from __future__ import annotations

import csv

from indicifeval.checkers import REGISTRY
from indicifeval.cli import main


def test_categories_and_instructions_reach_the_report(tmp_path):
    scores, report = tmp_path / "scores", tmp_path / "report"
    assert main(["score", "--data", "sample-beyond", "--out", str(scores), "--quiet"]) == 0
    assert main(["report", str(scores), "--out", str(report), "--no-plots", "--bootstrap", "20", "--quiet"]) == 0
    with (report / "tables" / "per_instruction.csv").open(encoding="utf-8") as f:
        per_instruction = {row["instruction"]: row["category"] for row in csv.DictReader(f)}
    beyond = {iid: spec.category for iid, spec in REGISTRY.items() if spec.suite == "beyond"}
    assert len(beyond) == 8 and beyond.items() <= per_instruction.items()
    with (report / "tables" / "delta_category.csv").open(encoding="utf-8") as f:
        categories = {row["category"] for row in csv.DictReader(f)}
    assert "Numerals and units" in categories  # (English vs Indic: Script has no English side)
    html = (report / "report.html").read_text(encoding="utf-8")
    assert "Numerals and units" in html and ">Script<" in html and "language:romanized" in html
