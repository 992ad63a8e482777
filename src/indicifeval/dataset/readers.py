"""Read records from JSON lines (plain or gzip), a JSON array or Parquet, remembering where
each came from. JSON text goes through the one reader in ``core.jsonl``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from indicifeval.core.errors import InputError, Source, first_line
from indicifeval.core.jsonl import PARQUET_MAGIC, read_jsonl, sniff
from indicifeval.core.safe_text import sanitize_value

DATA_SUFFIXES = (".jsonl", ".json", ".ndjson", ".parquet", ".jsonl.gz", ".json.gz", ".ndjson.gz")
# the fields of every line `indicifeval validate` writes (dataset.validation.findings.Finding)
FINDING_FIELDS = frozenset({"format_version", "check", "severity", "message"})
_noted: set[str] = set()  # findings files already said to be skipped, once per process


def is_data_file(path: Path) -> bool:
    return path.is_file() and path.name.lower().endswith(DATA_SUFFIXES) and not path.name.startswith(".")


def is_findings_file(path: Path) -> bool:
    """Whether ``path`` holds ``indicifeval validate``'s findings, not rows or responses: its
    first line is a finding (the fields of one, and no prompt or response). Why: an older
    validate wrote ``DATA.validation.jsonl`` beside the data, inside the data's folder."""
    if not path.name.lower().endswith((".jsonl", ".ndjson")):
        return False
    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 20)
        record = json.loads(first.removeprefix(b"\xef\xbb\xbf"))
    except (OSError, ValueError, RecursionError):
        return False
    return (isinstance(record, dict) and FINDING_FIELDS <= record.keys() and "prompt" not in record
            and "response" not in record)


def skip_findings(files: Iterable[Path], folder: Path) -> list[Path]:
    """``files`` of a data folder without the findings files among them, each skipped with a
    one-line note on stderr (once per process): never read as data, never silently left out."""
    kept = []
    for f in files:
        if not is_findings_file(f):
            kept.append(f)
            continue
        if str(f) not in _noted:
            _noted.add(str(f))
            print(f"note: {f}: skipped, it holds the findings of indicifeval validate, not data (an older validate "
                  f"wrote them beside the data); move it out of {folder} to silence this", file=sys.stderr)
    return kept


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
        files = skip_findings(files, path)
        if not files:
            raise InputError("folder holds only the findings of indicifeval validate, no data", str(path))
        for f in files:
            yield from _read(f)
        return
    if is_findings_file(path):
        raise InputError("holds the findings of indicifeval validate (check, severity, message), not data: give "
                         "the rows or responses it was made from", str(path), 1)
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
