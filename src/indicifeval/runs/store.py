"""A run folder: ``manifest.json``, ``rows.jsonl`` (the rows asked), ``generations.jsonl``
(appended as each item completes), then ``scores.jsonl`` and ``summary.json``.

Crash safety: every generation is one line, written and flushed as it arrives. A process
killed mid-write leaves at most one torn last line, which the next open detects and drops.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from indicifeval.dataset import InputError, Row

MANIFEST = "manifest.json"
ROWS = "rows.jsonl"
GENERATIONS = "generations.jsonl"
# Manifest fields that change what is generated; a run only resumes if all of them agree.
IDENTITY_FIELDS = ("generation", "data")
_FSYNC_EVERY_S = 2.0


class RunMismatch(InputError):
    """The folder holds a run made with different settings."""


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def _diff(old: Any, new: Any, path: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in sorted(set(old) | set(new)):
            out += _diff(old.get(key), new.get(key), f"{path}.{key}" if path else key)
        return out
    return [] if old == new else [f"{path}: {old!r} in the folder, {new!r} now"]


def row_to_record(row: Row) -> dict:
    """A row as it was asked, so a run can be re-scored without the original data."""
    return {"key": row.key, "language": row.language, "subset": row.subset, "prompt": row.prompt,
            "instruction_id_list": list(row.instruction_id_list), "kwargs": [dict(k) for k in row.kwargs],
            "tags": list(row.tags), "resp_lang": row.resp_lang}


class RunStore:
    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._fh = None
        self._last_sync = 0.0

    # -- manifest ---------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.folder / MANIFEST

    def read_manifest(self) -> dict | None:
        if not self.manifest_path.exists():
            return None
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise InputError(f"unreadable manifest ({exc.msg})", str(self.manifest_path), exc.lineno) from None

    def write_manifest(self, manifest: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.manifest_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        tmp.replace(self.manifest_path)

    def check_resumable(self, manifest: dict) -> dict | None:
        """The folder's manifest if it matches ``manifest`` on what is generated; raises
        RunMismatch listing the differences otherwise; None for a new folder."""
        old = self.read_manifest()
        if old is None:
            return None
        differences = []
        for name in IDENTITY_FIELDS:
            differences += _diff(old.get(name), manifest.get(name), name)
        if differences:
            raise RunMismatch(
                "this folder holds a run with different settings; use another --out or the same settings:\n  "
                + "\n  ".join(differences),
                str(self.manifest_path),
            )
        return old

    # -- rows -------------------------------------------------------------------------------
    def write_rows(self, rows: list[Row]) -> None:
        path = self.folder / ROWS
        tmp = path.with_suffix(".jsonl.tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row_to_record(row), ensure_ascii=False) + "\n")
        tmp.replace(path)

    # -- generations ------------------------------------------------------------------------
    @property
    def generations_path(self) -> Path:
        return self.folder / GENERATIONS

    def repair(self) -> int:
        """Drop a torn last line left by a killed process; returns the bytes dropped."""
        path = self.generations_path
        if not path.exists():
            return 0
        with path.open("rb+") as fh:
            data = fh.read()
            if not data or data.endswith(b"\n"):
                cut = len(data)
            else:
                cut = data.rfind(b"\n") + 1
            # a complete-looking last line that is not JSON is torn too (killed between bytes)
            last_start = data.rfind(b"\n", 0, max(cut - 1, 0)) + 1
            if cut > last_start:
                try:
                    json.loads(data[last_start:cut])
                except ValueError:
                    cut = last_start
            if cut < len(data):
                fh.truncate(cut)
            return len(data) - cut

    def read_generations(self) -> Iterator[dict]:
        path = self.generations_path
        if not path.exists():
            return
        with path.open("r", encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(f"malformed generation ({exc.msg})", str(path), lineno) from None

    def open_for_append(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._fh = self.generations_path.open("a", encoding="utf-8")

    def append(self, record: dict) -> None:
        assert self._fh is not None, "open_for_append first"
        self._fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._fh.flush()  # in the OS after every line: a killed process loses nothing written
        now = time.monotonic()
        if now - self._last_sync > _FSYNC_EVERY_S:  # on disk every few seconds: power loss too
            os.fsync(self._fh.fileno())
            self._last_sync = now

    def close(self) -> None:
        if self._fh is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()
            self._fh = None


def result_record(result, answer, row: Row) -> dict:
    """One generations.jsonl line."""
    return {
        "uid": result.uid,
        "key": row.key,
        "language": row.language,
        "subset": row.subset,
        "output": result.output,
        "answer": answer.answer,
        "reasoning": answer.reasoning,
        "reasoning_unterminated": answer.unterminated,
        "finish_reason": result.finish_reason,
        "truncated": result.finish_reason == "length",
        "usage": result.usage,
        "latency_s": None if result.latency_s is None else round(result.latency_s, 4),
        "attempts": result.attempts,
    }


