"""A run folder: ``manifest.json``, ``rows.jsonl`` (the rows asked), ``generations.jsonl``
(appended as each item completes), and the scores of each mode it was scored in:
``scores.jsonl``/``summary.json`` for the mode the run was made with, beside them
``scores.<mode>.jsonl``/``summary.<mode>.json`` for any other; the manifest records which is
which under ``scored``.

One process at a time: ``lock()`` takes an OS-level lock that dies with its holder.
Crash safety: every generation is one line, written and flushed as it arrives. A process
killed mid-write leaves at most one torn last line, which the next open detects and drops.
Every other file is replaced atomically."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.core.files import StagedFiles, describe_os_error, write_text
from indicifeval.core.folders import MANIFEST, read_manifest, write_manifest
from indicifeval.core.jsonl import read_jsonl
from indicifeval.core.lock import FolderLock
from indicifeval.dataset import Row

ROWS = "rows.jsonl"
GENERATIONS = "generations.jsonl"
FORMAT_VERSION = 2
# Manifest fields that change what is generated; a run only resumes if all of them agree.
IDENTITY_FIELDS = ("generation", "data", "backend_settings")
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


def score_file_names(mode: str, primary: str | None) -> tuple[str, str]:
    """(scores, summary) file names of ``mode`` in a run folder made with ``primary``."""
    if primary is None or mode == primary:
        return "scores.jsonl", "summary.json"
    return f"scores.{mode}.jsonl", f"summary.{mode}.json"


class RunStore:
    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._fh: Any = None
        self._last_sync = 0.0

    def lock(self, purpose: str = "run") -> FolderLock:
        return FolderLock(self.folder, purpose)

    # -- manifest ---------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.folder / MANIFEST

    def read_manifest(self) -> dict | None:
        return read_manifest(self.folder)

    def write_manifest(self, manifest: dict) -> None:
        write_manifest(self.folder, manifest)

    def check_resumable(self, manifest: dict) -> dict | None:
        """The folder's manifest if it matches ``manifest`` on everything that changes what is
        generated; raises RunMismatch listing the differences otherwise. None for a folder
        with nothing generated yet, which any run may take over."""
        old = self.read_manifest()
        if old is None and self.has_generations():
            raise RunMismatch("the folder holds generations but no manifest.json, so its settings are unknown; "
                              "use another --out", str(self.folder))
        if old is None or not self.has_generations():
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
        text = "".join(json.dumps(row.to_record(), ensure_ascii=False) + "\n" for row in rows)
        write_text(self.folder / ROWS, text)

    # -- generations ------------------------------------------------------------------------
    @property
    def generations_path(self) -> Path:
        return self.folder / GENERATIONS

    def has_generations(self) -> bool:
        path = self.generations_path
        return path.is_file() and path.stat().st_size > 0

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
        """Every generation line, in order. A torn last line (a writer killed, or still
        writing) is left out; a broken line before it is an error."""
        path = self.generations_path
        if not path.exists():
            return
        try:
            for _, record in read_jsonl(path):
                yield record
        except InputError as exc:
            with path.open("rb") as fh:
                data = fh.read()
            last = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
            if exc.line is None or exc.line < last:
                raise

    def latest_generations(self) -> dict[str, dict]:
        """uid -> the last generation recorded for it (a retry or regeneration supersedes)."""
        return {g["uid"]: g for g in self.read_generations() if isinstance(g.get("uid"), str)}

    def open_for_append(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._fh = self.generations_path.open("a", encoding="utf-8")

    def append(self, record: dict) -> None:
        assert self._fh is not None, "open_for_append first"
        try:
            self._fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._fh.flush()  # in the OS after every line: a killed process loses nothing written
            now = time.monotonic()
            if now - self._last_sync > _FSYNC_EVERY_S:  # on disk every few seconds: power loss too
                os.fsync(self._fh.fileno())
                self._last_sync = now
        except OSError as exc:
            raise describe_os_error(exc, self.generations_path) from None

    def close(self) -> None:
        if self._fh is not None:
            try:
                self._fh.flush()
                os.fsync(self._fh.fileno())
            except OSError:
                pass  # what was flushed before is in the file; the next open repairs a torn end
            finally:
                self._fh.close()
                self._fh = None

    # -- scores -----------------------------------------------------------------------------
    def write_scores(self, result: Any, manifest: dict) -> list[Path]:
        """Write a ScoreResult under its mode's names and record it in ``manifest`` (which the
        caller writes); the scores and summary replace their old versions together."""
        from indicifeval.scoring.output import write_scores

        names = score_file_names(result.scoring, manifest.get("scoring"))
        with StagedFiles(self.folder) as files:
            write_scores(files, result, *names)
        scored = manifest.setdefault("scored", {})
        scored[result.scoring] = {"scores": names[0], "summary": names[1], "scored_at": now_iso(),
                                  "indicifeval_version": result.summary.get("version")}
        return [self.folder / n for n in names]


def result_record(result: Any, answer: Any, row: Row, capped_from: int | None = None) -> dict:
    """One generations.jsonl line."""
    return {
        "uid": result.uid,
        "key": row.key,
        "language": row.language,
        "subset": row.subset,
        "content_hash": row.content_hash,
        "output": result.output,
        "answer": None if result.error else answer.answer,
        "reasoning": answer.reasoning,
        "reasoning_unterminated": answer.unterminated,
        "finish_reason": result.finish_reason,
        "truncated": result.finish_reason == "length",
        "capped_from_chars": capped_from,
        "error": result.error,
        "usage": result.usage,
        "latency_s": None if result.latency_s is None else round(result.latency_s, 4),
        "attempts": result.attempts,
    }
