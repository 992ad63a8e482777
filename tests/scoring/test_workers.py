"""Parallel scoring gives exactly the serial verdicts, in the same order, in both modes."""

import pytest

from indicifeval.dataset import load_rows
from indicifeval.dataset.responses import load_responses
from indicifeval.scoring.api import pair_responses, score_rows


@pytest.mark.parametrize("mode", ["fixed", "paper"])
def test_two_workers_equal_one(mode):
    rows = load_rows("sample")
    pairs, _ = pair_responses(rows, load_responses("sample"), allow_missing=False)
    assert len(pairs) >= 200  # below that, score_rows stays serial
    serial = score_rows(pairs, mode, workers=1)
    parallel = score_rows(pairs, mode, workers=2)
    assert [s.__dict__ for s in parallel] == [s.__dict__ for s in serial]
