"""An append-only JSON-lines log that survives crashes: the one store every item-by-item stage
writes to (benchmark generations, machine translations, LLM prompt generation).

Each record is one line, written and flushed as it arrives (a killed process loses nothing it
wrote) and fsynced every 64 records or two seconds (power loss too). A process killed, or a disk
filled, mid-write leaves at most one torn last line: opening for append drops it (``repair``),
and reading leaves it out."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from indicifeval.core.errors import InputError
from indicifeval.core.files import describe_os_error, ensure_folder
from indicifeval.core.jsonl import read_jsonl

FSYNC_EVERY_S = 2.0
FSYNC_EVERY_RECORDS = 64  # a batch of records: on disk, not only in the page cache, every so many


def _tail(fh: IO[bytes], size: int, block: int = 1 << 20) -> tuple[int, bytes]:
    """(offset, bytes) of the end of a file, back to two line breaks (or the file's start): the
    last line and the one before it, enough to tell a torn or broken end from a whole one."""
    start, data = size, b""
    while start > 0 and data.count(b"\n") < 2:
        step = min(block, start)
        start -= step
        fh.seek(start)
        data = fh.read(step) + data
    return start, data


class JsonlLog:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._fh: IO[str] | None = None
        self._last_sync = 0.0
        self.repaired = 0  # bytes of a torn last line dropped when opened
        self._unsynced = 0

    def exists(self) -> bool:
        return self.path.is_file() and self.path.stat().st_size > 0

    def repair(self) -> int:
        """Drop a torn last line left by a killed process; returns the bytes dropped. Reads only
        the file's tail (back to the line before the last), however long the log is."""
        if not self.path.exists():
            return 0
        with self.path.open("rb+") as fh:
            size = fh.seek(0, 2)
            start, data = _tail(fh, size)
            cut = len(data) if not data or data.endswith(b"\n") else data.rfind(b"\n") + 1
            # a complete-looking last line that is not JSON is torn too (killed between bytes)
            last_start = data.rfind(b"\n", 0, max(cut - 1, 0)) + 1
            if cut > last_start:
                try:
                    json.loads(data[last_start:cut])
                except ValueError:
                    cut = last_start
            if cut < len(data):
                fh.truncate(start + cut)
            return len(data) - cut

    def read(self) -> Iterator[dict]:
        """Every record, in order. A torn last line (a writer killed, or still writing) is
        left out; a broken line before it is an error naming the line."""
        if not self.path.exists():
            return
        try:
            for _, record in read_jsonl(self.path):
                yield record
        except InputError as exc:
            with self.path.open("rb") as fh:
                data = fh.read()
            last = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
            if exc.line is None or exc.line < last:
                raise

    def latest(self, key: str = "uid") -> dict[str, dict]:
        """``record[key]`` -> the last record with it (a retry or a regeneration supersedes)."""
        return {r[key]: r for r in self.read() if isinstance(r.get(key), str)}

    def open(self) -> JsonlLog:
        """Open for appending, after dropping a torn last line: appending after one would make it
        a broken line in the middle, which no later read gets past."""
        ensure_folder(self.path.parent)
        try:
            self.repaired = self.repair()
            self._fh = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise describe_os_error(exc, self.path) from None
        return self

    def append_many(self, records: list[dict]) -> None:
        """Append a batch of records and fsync once: a batch is on disk when this returns."""
        assert self._fh is not None, "open() first"
        try:
            self._fh.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._last_sync = time.monotonic()
        except OSError as exc:
            raise describe_os_error(exc, self.path) from None

    def append(self, record: dict) -> None:
        assert self._fh is not None, "open() first"
        try:
            self._fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._fh.flush()
            self._unsynced += 1
            now = time.monotonic()
            if now - self._last_sync > FSYNC_EVERY_S or self._unsynced >= FSYNC_EVERY_RECORDS:
                os.fsync(self._fh.fileno())
                self._last_sync, self._unsynced = now, 0
        except OSError as exc:
            raise describe_os_error(exc, self.path) from None

    def close(self) -> None:
        if self._fh is not None:
            try:
                self._fh.flush()
                os.fsync(self._fh.fileno())
            except OSError:
                pass  # what was flushed is in the file; the next open repairs a torn end
            finally:
                self._fh.close()
                self._fh = None

    def __enter__(self) -> JsonlLog:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()
