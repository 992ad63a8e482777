"""The build report names each finding's own build: a Trans build and a Ground build of one
language, each with its validator's file, are told apart (a finding once read the name of the
last validation file instead)."""

from __future__ import annotations

import json
from pathlib import Path

from indicifeval.builder import BuildFolder
from indicifeval.builder.status import finding_rows, open_builds
from indicifeval.records.layout import GROUND_VALIDATION, TRANS_VALIDATION
from indicifeval.reports.build_report import render_build_report


def _build(folder: Path, validation: str, findings: list[dict]) -> Path:
    BuildFolder(folder).create("hi")
    path = folder / validation
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(f) + "\n" for f in findings), encoding="utf-8")
    return folder


def test_findings_are_attributed_to_their_build(tmp_path: Path):
    trans = _build(tmp_path / "hi", TRANS_VALIDATION,
                   [{"subset": "trans", "check": "numbers", "severity": "warning"}] * 2)
    ground = _build(tmp_path / "hi-ground", GROUND_VALIDATION,
                    [{"subset": "ground", "check": "relation", "severity": "error"}])
    assert finding_rows(open_builds([trans, ground]), ["hi", "hi-ground"]) == [
        ("hi", "hi", "trans", "numbers", "warning", 2), ("hi-ground", "hi", "ground", "relation", "error", 1)]
    page = render_build_report([trans, ground])
    findings = page[page.index('id="t-findings"'):page.index('id="t-review"')]
    rows = [r for r in findings.split("<tr")[1:] if "<td" in r]
    assert len(rows) == 2
    assert 'data-v="hi"' in rows[0] and "numbers" in rows[0] and 'data-v="hi-ground"' not in rows[0]
    assert 'data-v="hi-ground"' in rows[1] and "relation" in rows[1]
    assert "validation.jsonl" not in findings
