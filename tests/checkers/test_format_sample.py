"""The bundled sample-ifbench rows of the format:* ids (<lang>.ifbench.format.*.jsonl): one a
language and id where the id is defined, each with an answer that follows it, strict."""

from __future__ import annotations

from indicifeval.dataset import load_responses, load_rows
from indicifeval.scoring.engine import score_row


def test_every_format_sample_answer_follows_its_instruction():
    rows = [r for r in load_rows("sample-ifbench") if str(r.key).startswith("format-")]
    responses = load_responses("sample-ifbench")
    assert len(rows) == 14 + 13 * 14  # title_case is English's only
    failed = []
    for row in rows:
        s = score_row(row, responses.lookup(row), "fixed")
        if not s.prompt_strict:
            failed.append((row.language, row.key, s.explanations))
    assert not failed, failed
