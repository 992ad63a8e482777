"""Read records from JSONL, a JSON array or Parquet, remembering where each came from."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from indicifeval.dataset.errors import InputError, Source


def read_records(path: str | Path) -> Iterator[tuple[Source, dict]]:
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", str(path))
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix in (".jsonl", ".json", ".parquet"))
        if not files:
            raise InputError("directory holds no .jsonl, .json or .parquet files", str(path))
        for f in files:
            yield from read_records(f)
        return
    if path.suffix == ".parquet":
        yield from _read_parquet(path)
        return
    with path.open("r", encoding="utf-8") as fh:
        head = fh.read(1)
        while head and head.isspace():
            head = fh.read(1)
        fh.seek(0)
        if head == "[":
            yield from _read_json_array(path, fh.read())
            return
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"malformed JSON ({exc.msg} at column {exc.colno})", str(path), lineno) from None
            if not isinstance(record, dict):
                raise InputError(f"expected a JSON object, got {type(record).__name__}", str(path), lineno)
            yield Source(str(path), lineno), record


def _read_json_array(path: Path, text: str) -> Iterator[tuple[Source, dict]]:
    try:
        records = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON ({exc.msg})", str(path), exc.lineno) from None
    for i, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise InputError(f"expected a JSON object, got {type(record).__name__}", str(path), i)
        yield Source(str(path), i), record


def _read_parquet(path: Path) -> Iterator[tuple[Source, dict]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading Parquet needs pyarrow: pip install 'indicifeval[parquet]'", str(path)) from None
    table = pq.read_table(path)
    for i, record in enumerate(table.to_pylist(), start=1):
        yield Source(str(path), i), record
