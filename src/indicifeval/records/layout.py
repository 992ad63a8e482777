"""The file names of the folders the tools write, in one place: a run folder (``run``), a
score folder (``score``) and a report folder (``report``) each hold a ``manifest.json`` that
names the tool, then their own files."""

from __future__ import annotations

from indicifeval.core.folders import MANIFEST

ROWS = "rows.jsonl"  # the rows as asked / scored
RESPONSES = "responses.jsonl"  # a score folder: the answers as scored
GENERATIONS = "generations.jsonl"  # a run folder: one line per generated item
SCORES = "scores.jsonl"
SUMMARY = "summary.json"


def score_file_names(mode: str, primary: str | None) -> tuple[str, str]:
    """(scores, summary) file names of ``mode`` in a folder made with ``primary``: the
    folder's own mode keeps the plain names, another mode's scores sit beside them."""
    if primary is None or mode == primary:
        return SCORES, SUMMARY
    return f"scores.{mode}.jsonl", f"summary.{mode}.json"


__all__ = ["GENERATIONS", "MANIFEST", "RESPONSES", "ROWS", "SCORES", "SUMMARY", "score_file_names"]
