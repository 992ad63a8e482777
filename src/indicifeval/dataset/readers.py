"""Read records from JSON lines (plain or gzip), a JSON array or Parquet, remembering where
each came from. JSON text goes through the one reader in ``core.jsonl``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from indicifeval.core.errors import InputError, Source, first_line
from indicifeval.core.jsonl import PARQUET_MAGIC, read_jsonl, sniff
from indicifeval.core.safe_text import sanitize_value

DATA_SUFFIXES = (".jsonl", ".json", ".ndjson", ".parquet", ".jsonl.gz", ".json.gz", ".ndjson.gz")


def is_data_file(path: Path) -> bool:
    return path.is_file() and path.name.lower().endswith(DATA_SUFFIXES) and not path.name.startswith(".")


def read_records(path: str | Path) -> Iterator[tuple[Source, dict]]:
    """(source, record) of every record in a file or a folder of files; text made safe to
    write (``core.safe_text``)."""
    yield from _read(Path(path))


def _read(path: Path) -> Iterator[tuple[Source, dict]]:
    if not path.exists():
        raise InputError("file not found", str(path))
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if is_data_file(p))
        if not files:
            raise InputError("folder holds no .jsonl, .json or .parquet files", str(path))
        for f in files:
            yield from _read(f)
        return
    head = sniff(path)
    if path.suffix.lower() == ".parquet" or head.startswith(PARQUET_MAGIC):
        yield from _read_parquet(path, head)
        return
    yield from read_jsonl(path)


def _read_parquet(path: Path, head: bytes) -> Iterator[tuple[Source, dict]]:
    if not head.startswith(PARQUET_MAGIC):
        looks = " (it looks like JSON text: name it .jsonl)" if head.lstrip()[:1] in (b"{", b"[") else ""
        raise InputError(f"not a Parquet file: it does not start with the PAR1 signature{looks}", str(path))
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading Parquet needs pyarrow: pip install 'indicifeval[parquet]'", str(path)) from None
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise InputError(f"unreadable Parquet file ({first_line(exc)})", str(path)) from None
    for i, record in enumerate(table.to_pylist(), start=1):
        yield Source(str(path), i), sanitize_value(record)  # Arrow strings are UTF-8, but cheap to be sure
