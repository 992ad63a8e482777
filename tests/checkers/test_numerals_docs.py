"""The examples docs/scoring.md gives for the instructions beyond the paper are the verdicts
and explanations the scorer gives."""

from pathlib import Path

import pytest

from indicifeval.checkers import REGISTRY, TextView, get_rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"


def _examples() -> list[tuple[str, str, str, str]]:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("Examples (a pass, then a failure", 1)[1].split("\n\n", 2)[1]
    out, iid = [], None
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        iid = cells[0].strip("`") or iid
        out.append((iid, cells[1], cells[2], cells[3]))
    return out


@pytest.mark.parametrize("iid,language,answer,verdict", _examples())
def test_documented_example(iid, language, answer, verdict):
    rules = get_rules(language, "trans", "fixed")
    ok, why = REGISTRY[iid].fn(TextView(answer, rules), {}, rules)
    expected_ok = verdict.startswith("followed: ")
    assert ok is expected_ok and why == verdict.removeprefix("followed: "), why
