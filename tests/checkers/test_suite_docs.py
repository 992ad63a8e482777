"""docs/scoring.md's tables of where each open-instruct and IFBench id is defined are the
registry's own (`indicifeval instructions --suite S --where --markdown`): they cannot drift."""

from pathlib import Path

import pytest

from indicifeval.cli import main

DOCS = Path(__file__).parents[2] / "docs" / "scoring.md"


@pytest.mark.parametrize("suite", ["open-instruct", "ifbench"])
def test_the_docs_table_is_the_registrys(suite, capsys):
    assert main(["instructions", "--suite", suite, "--where", "--markdown"]) == 0
    table = capsys.readouterr().out
    assert table.count("\n") >= 30 and table in DOCS.read_text(encoding="utf-8")
