"""A score folder: what ``indicifeval score`` writes, complete and consistent every time.

``manifest.json`` (the tool, inputs with sha256, options, time, the files), ``rows.jsonl``
(the rows as scored), ``responses.jsonl`` (the answers as scored), ``scores.jsonl`` and
``summary.json``. All five are staged and renamed together; files an earlier score wrote
and this one did not are removed. ``report`` reads such a folder like a run folder."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from indicifeval._version import __version__
from indicifeval.core.files import StagedFiles, sha256_of
from indicifeval.core.folders import claim, prepare, remove_stale
from indicifeval.core.modes import ScoringMode
from indicifeval.records import Row, RowScore, score_line
from indicifeval.records.layout import MANIFEST, RESPONSES, ROWS, SCORES, SUMMARY

FORMAT_VERSION = 1  # of the score folder's manifest
RESPONSES_FORMAT = 1


@dataclass
class ScoreResult:
    """What ``score`` and ``score_folder`` return: the verdicts, their summary and what was
    scored. It lives beside the writers of a score folder, which are all it needs."""

    scores: list[RowScore]
    summary: dict
    scoring: ScoringMode
    notes: list[str] = field(default_factory=list)
    rows: list[Row] | None = None  # the rows scored, in order
    responses: list[str | None] | None = None  # the answer each row was scored on
    inputs: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    # what rows.jsonl and responses.jsonl hold instead, where the rows are not Rows (conversations)
    row_records: list[dict] | None = None
    response_records: list[dict] | None = None

    def write(self, out_dir: str | Path, overwrite: bool = False) -> Path:
        """A complete score folder in ``out_dir``. Refuses a non-empty folder that ``score``
        did not make unless ``overwrite``."""
        return write_score_folder(self, out_dir, overwrite)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def describe_input(value: Any) -> Any:
    """A path with its size and sha256 (each file of a folder), or what an in-memory input was."""
    if isinstance(value, (str, Path)):
        path = Path(value)
        if path.is_file():
            return {"path": str(path), "bytes": path.stat().st_size, "sha256": sha256_of(path)}
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            return {"path": str(path), "files": [{"path": str(p.relative_to(path)), "sha256": sha256_of(p)}
                                                 for p in files[:2000]]}
        return {"name": str(value)}  # "sample", "hub"
    return {"name": f"<in memory: {type(value).__name__}>"}


_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps' work, without its per-call set-up


def dumps_line(record: dict) -> str:
    return _encode(record) + "\n"


def response_line(key: Any, language: str, subset: str, text: str | None) -> str:
    """``dumps_line`` of the answer's record, its one long string escaped on its own (the
    same bytes: tests/scoring check both on every kind of text)."""
    return (f'{{"key": {_encode(key)}, "language": {_encode(language)}, "subset": {_encode(subset)}, '
            f'"response": {_encode(text)}, "format_version": {RESPONSES_FORMAT}}}\n')


_CONTROLS = bytes(range(32))


def write_response_line(fh: IO[bytes], key: Any, language: str, subset: str, text: str | None) -> None:
    """``response_line`` in UTF-8, written to a binary file: a long answer is escaped as bytes
    (three ``replace`` and one ``translate``: a third of json's escaping and encoding), and by
    json where it holds a control character other than a line break."""
    if text is not None:
        data = text.encode()  # (a lone surrogate raises here, as a text file's write would)
        data = data.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n")
        if len(data.translate(None, _CONTROLS)) == len(data):
            fh.write(f'{{"key": {_encode(key)}, "language": {_encode(language)}, "subset": {_encode(subset)}, '
                     '"response": "'.encode())
            fh.write(data)
            fh.write(f'", "format_version": {RESPONSES_FORMAT}}}\n'.encode())
            return
    fh.write(response_line(key, language, subset, text).encode())


def write_score_folder(result: ScoreResult, out: str | Path, overwrite: bool = False) -> Path:
    old = claim(out, "score", overwrite)
    folder = prepare(out)
    manifest: dict[str, Any] = {
        "tool": "score",
        "format_version": FORMAT_VERSION,
        "indicifeval_version": __version__,
        "created_at": now_iso(),
        "scoring": str(result.scoring),
        "inputs": result.inputs,
        "options": result.options,
        "files": [MANIFEST, ROWS, RESPONSES, SCORES, SUMMARY],
    }
    with StagedFiles(folder) as files:
        if result.rows is not None:
            with files.open(ROWS) as fh:
                for row in result.rows:
                    fh.write(dumps_line(row.to_json()))
        if result.responses is not None and result.rows is not None:
            with files.open(RESPONSES, "wb") as fh:
                for row, text in zip(result.rows, result.responses):
                    write_response_line(fh, row.key, row.language, row.subset, text)
        for name, records in ((ROWS, result.row_records), (RESPONSES, result.response_records)):
            if records is not None:
                with files.open(name) as fh:
                    for record in records:
                        fh.write(dumps_line(record))
        write_scores(files, result)
        manifest["files"] = sorted({*files.names, MANIFEST})
        files.write_text(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
    previous = (old or {}).get("files") or []
    remove_stale(folder, [str(f) for f in previous], manifest["files"])
    return folder


def write_scores(files: StagedFiles, result: ScoreResult, scores_name: str = SCORES,
                 summary_name: str = SUMMARY) -> None:
    """Stage a result's scores and summary (the part a run folder shares with a score folder)."""
    with files.open(scores_name) as fh:
        for s in result.scores:
            fh.write(score_line(s))
    files.write_text(summary_name, json.dumps(result.summary, ensure_ascii=False, indent=2) + "\n")
