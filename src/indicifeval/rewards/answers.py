"""Several answers per prompt, as a GRPO-style trainer samples them (k per prompt), matched to
the rows of a dataset. Read from any mix of:

- a JSON-lines file (or JSON array, Parquet, or a folder of them) whose lines are
  ``{key, language?, subset?, response}`` (several lines per key: several samples) or
  ``{key, language?, subset?, responses: [k answers]}``;
- ``sample`` (or a suite's sample): the bundled sample's responses, one per row;
- a run folder written by ``indicifeval run`` (``generations.jsonl``), which holds one answer
  per row: each folder given is one sample.

An answer is matched to its row by (language, subset, key), or by key alone where the data
has one row with it. Anything that would make the match a guess is an error naming the file,
the line and the field: a key no row of the data has (answers to another dataset), a key
several rows share without a language and subset, a null or non-text answer, a run folder's
answer made for another content of its row."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from indicifeval.core.errors import InputError, Source
from indicifeval.core.log import JsonlLog
from indicifeval.dataset.readers import read_records
from indicifeval.dataset.rows import SAMPLES, check_key, found_fields, sample_path
from indicifeval.records import Generation, Row, RowId
from indicifeval.records.layout import GENERATIONS, ROWS


@dataclass
class AnswerSets:
    """The answers to each row (by its id), in the order read, each with where it came from;
    ``failed``: run-folder items with no usable answer (a failed generation), not counted as
    samples."""

    answers: dict[RowId, list[tuple[Source, str]]] = field(default_factory=dict)
    failed: int = 0

    def add(self, row: Row, text: str, source: Source) -> None:
        self.answers.setdefault(row.id, []).append((source, text))

    def __len__(self) -> int:
        return sum(len(v) for v in self.answers.values())


class _Index:
    """The data's rows by id and by key (as text)."""

    def __init__(self, rows: Iterable[Row]):
        self.by_id: dict[RowId, Row] = {}
        self.by_key: dict[str, list[Row]] = defaultdict(list)
        for row in rows:
            self.by_id[row.id] = row
            self.by_key[str(row.key)].append(row)

    def find(self, record: dict, source: Source) -> Row:
        if "key" not in record:
            raise source.error(f"an answer needs the 'key' of its row; {found_fields(record)}", "key")
        key = check_key(record["key"], source)
        named = {}
        for name in ("language", "subset"):
            value = record.get(name)
            if value is not None and not isinstance(value, str):
                raise source.error(f"{name} must be a string, got {type(value).__name__}", name)
            named[name] = value
        rows = [r for r in self.by_key.get(str(key), ())
                if named["language"] in (None, r.language) and named["subset"] in (None, r.subset)]
        if len(rows) == 1:
            return rows[0]
        what = "/".join(str(v) for v in (named["language"], named["subset"]) if v)
        what = f"{what} key {key!r}" if what else f"the key {key!r}"
        if not rows:
            raise source.error(f"no row of the data has {what} (answers to another dataset?)", "key")
        raise source.error(f"{len(rows)} rows of the data have {what}: give its language and subset", "key")


def _texts(record: dict, source: Source) -> list[str]:
    if "responses" in record:
        values = record["responses"]
        if not isinstance(values, list) or not values:
            raise source.error("responses must be a non-empty list of answers (the k samples)", "responses")
        for n, value in enumerate(values):
            if not isinstance(value, str):
                got = "null" if value is None else type(value).__name__
                raise source.error(f"answer {n + 1} of responses is {got}, not text", "responses")
        return values
    if "response" not in record:
        raise source.error(f"missing field ('response', or 'responses': a list of k answers); "
                           f"{found_fields(record)}", "response")
    value = record["response"]
    if not isinstance(value, str):
        got = "null" if value is None else type(value).__name__
        raise source.error(f"the response is {got}, not text", "response")
    return [value]


def is_run_folder(path: Path) -> bool:
    return path.is_dir() and (path / ROWS).is_file() and (path / GENERATIONS).is_file()


def _run_folder(folder: Path, index: _Index, out: AnswerSets) -> None:
    """One sample per row: the latest generation of each item the run made."""
    log = folder / GENERATIONS
    source = Source(str(log), None)  # the latest line per item: errors name the item
    for uid, record in JsonlLog(log).latest("uid").items():
        row_id = _uid(uid)
        row = index.by_id.get(row_id) if row_id is not None else None
        if row is None:
            raise source.error(f"the run answered {uid}, which is no row of the data (a run over another "
                               f"dataset?)", "uid")
        generation = Generation.from_json(record)
        if generation.error is not None:
            out.failed += 1
            continue
        if not generation.usable_for(row.content_hash):
            raise source.error(f"the answer to {uid} was made for another content of the row than the data's "
                               f"(the run asked another version of this dataset)", "content_hash")
        out.add(row, generation.answer or "", source)


def _uid(text: str) -> RowId | None:
    try:
        return RowId.parse(text)
    except ValueError:
        return None


def read_samples(paths: Sequence[str | Path], rows: Iterable[Row]) -> AnswerSets:
    """The answers in ``paths`` (files, folders of files, run folders), matched to ``rows``."""
    if not paths:
        raise InputError("no answers given (--answers FILE)", field="answers")
    index = _Index(rows)
    out = AnswerSets()
    files = [f for p in paths for f in (sample_path("responses", str(p)) if str(p) in SAMPLES else [Path(p)])]
    for path in files:
        if is_run_folder(path):
            _run_folder(path, index, out)
            continue
        for source, record in read_records(path):
            row = index.find(record, source)
            for text in _texts(record, source):
                out.add(row, text, source)
    return out


__all__ = ["AnswerSets", "is_run_folder", "read_samples"]
