"""Built rows with the machine's suggestion (``records.Candidate``): the one reader and the one
writer of ``candidates.jsonl`` and the pipelines' ``rows.jsonl``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from indicifeval.core.errors import Source
from indicifeval.core.jsonl import read_jsonl, write_jsonl
from indicifeval.dataset import hub_record, parse_row
from indicifeval.records import Candidate
from indicifeval.records.build import CANDIDATE_STATUSES


def candidate_record(candidate: Candidate) -> dict:
    """A candidate as stored: the row in the hub's schema, then its status, reasons, warnings
    and provenance."""
    return candidate.to_json(hub_record(candidate.row))


def write_candidates(path: str | Path, candidates: Iterable[Candidate]) -> Path:
    return write_jsonl(path, (candidate_record(c) for c in candidates))


def read_candidates(path: str | Path, language: str | None = None, subset: str | None = None) -> list[Candidate]:
    """Each line's row parsed and checked as any dataset row is (file, line and field named; a
    row of another ``language``/``subset`` than given is refused), and its status one of the
    machine's."""
    return [parse_candidate(record, source, language, subset) for source, record in read_jsonl(path)]


def parse_candidate(record: dict, source: Source, language: str | None = None,
                    subset: str | None = None) -> Candidate:
    """One stored candidate (a line of a rows file, or a row the review database keeps), checked
    as ``read_candidates`` checks each line; errors name ``source`` and the field."""
    row = parse_row(record, source, language, subset)
    status = record.get("status")
    if status not in CANDIDATE_STATUSES:
        raise source.error(f"status must be {' or '.join(CANDIDATE_STATUSES)}, got {status!r:.40}", "status")
    try:
        return replace(Candidate.from_json(record), row=row)
    except (KeyError, TypeError, ValueError) as exc:
        raise source.error(f"not a built row ({exc.__class__.__name__}: {exc})") from None


__all__ = ["candidate_record", "parse_candidate", "read_candidates", "write_candidates"]
