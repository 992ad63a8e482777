"""Generation through a provider's batch mode instead of online requests: export the tasks as
the provider's request file, run it there (the OpenAI Batch API, ``vllm run-batch`` on one's own
GPUs, Gemini batch mode), import the results.

Results come back in any order, with error lines, truncated answers and junk. They are
reconciled by key into the same ``Generation`` records the online route logs, so later stages
treat both alike: a failed item is a generation with ``error`` set (re-exported), a line that
cannot be read is reported with its file and line and never stops the import. Only text is
carried; the answer's JSON is parsed by the rows stage (``answers.parse_json_answer``)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from indicifeval.core.errors import IndicIFEvalError, InputError
from indicifeval.core.files import atomic_writer
from indicifeval.core.jsonl import GZIP_MAGIC, json_error
from indicifeval.records import Generation, GenerationTask
from indicifeval.runs.backends import batch_gemini, batch_openai
from indicifeval.runs.backends.options import BATCH_FORMATS
from indicifeval.runs.requests import GenerationRequest, GenerationResult
from indicifeval.runs.resumable import DEFAULT_MAX_ANSWER_CHARS, Job, record_of

TRANSPORTS = BATCH_FORMATS


class BatchPending(IndicIFEvalError):
    """Some replies are not in yet: a batch file waits to be run and its results imported. A
    stage that raises it is ``pending``, not failed (``BuildFolder.fail`` tells them by class)."""


@dataclass(frozen=True)
class Transport:
    """How a stage reaches its model: ``online`` through the backend, or a provider's batch
    file (``openai-batch``, ``gemini-batch``) exported now and reconciled from the result files
    in ``imports``. Not part of any identity: where a reply came from does not change what was
    asked."""

    kind: str = "online"
    imports: tuple[Path, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in ("online", *BATCH_FORMATS):
            raise InputError(f"unknown transport {self.kind!r}; choose from online, {', '.join(BATCH_FORMATS)}",
                             field="transport")


@dataclass(frozen=True)
class _Transport:
    key: str  # the field that names the task in both the request and the result file
    request: Callable[[GenerationTask, str], dict[str, Any]]
    result: Callable[[str, dict[str, Any]], GenerationResult]


_TRANSPORTS = {
    "openai-batch": _Transport(batch_openai.KEY, batch_openai.request_line, batch_openai.result_of),
    "gemini-batch": _Transport(batch_gemini.KEY, batch_gemini.request_line, batch_gemini.result_of),
}


def _transport(name: str) -> _Transport:
    if name not in _TRANSPORTS:
        raise InputError(f"unknown batch transport {name!r}; expected one of {', '.join(TRANSPORTS)}")
    return _TRANSPORTS[name]


@dataclass
class FileImport:
    """What one result file held, told with its name: a junk line, an unknown ``custom_id`` or
    an HTTP 500 reply is reported in the file that has it, not only in the sum of an import."""

    path: str
    replies: int = 0  # good lines for a uid that was asked for
    failed: int = 0  # error lines (an HTTP status other than 200, an expired request, ...)
    duplicates: int = 0
    malformed: list[str] = field(default_factory=list)  # "line N: why"
    unknown: list[str] = field(default_factory=list)  # uids not asked for, in the order met
    errors: dict[str, int] = field(default_factory=dict)  # error text -> lines with it

    def counts(self) -> dict[str, int]:
        return {"replies": self.replies, "failed": self.failed, "malformed": len(self.malformed),
                "unknown": len(self.unknown), "duplicates": self.duplicates}

    def summary(self, show: int = 3) -> str:
        """``out.jsonl: 38 replies, 2 failed (HTTP 500: boom ×2), 1 junk line (line 4: ...)``."""

        def some(items: list[str]) -> str:
            return "; ".join(items[:show]) + (f"; and {len(items) - show} more" if len(items) > show else "")

        parts = [f"{self.replies} {'reply' if self.replies == 1 else 'replies'}"]
        if self.failed:
            errors = [f"{e} ×{n}" if n > 1 else e for e, n in sorted(self.errors.items(), key=lambda x: -x[1])]
            parts.append(f"{self.failed} failed ({some(errors)}; asked again)")
        if self.malformed:
            parts.append(f"{len(self.malformed)} junk line{'s' if len(self.malformed) > 1 else ''} "
                         f"({some(self.malformed)})")
        if self.unknown:
            parts.append(f"{len(self.unknown)} unknown id{'s' if len(self.unknown) > 1 else ''} "
                         f"(not asked for: {some(self.unknown)})")
        if self.duplicates:
            parts.append(f"{self.duplicates} duplicate{'s' if self.duplicates > 1 else ''} (the first kept)")
        return f"{Path(self.path).name}: " + ", ".join(parts)


@dataclass
class ImportResult:
    """What a set of result files held: one generation per known uid (a good line wins over
    an error line, the first good line over a later one), and what could not be used, in all
    and per file (``files``, in the order given)."""

    generations: list[Generation] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)  # "FILE, line N: why"
    unknown: list[str] = field(default_factory=list)  # uids that were not asked for
    duplicates: int = 0  # good lines for a uid that already had one
    files: list[FileImport] = field(default_factory=list)

    def missing(self, hashes: Mapping[str, str]) -> list[str]:
        """The uids (in ``hashes`` order) still without a usable answer: what to export again."""
        by_uid = {g.uid: g for g in self.generations}
        return [uid for uid, digest in hashes.items()
                if (g := by_uid.get(uid)) is None or not g.usable_for(digest)]


def export_batch(transport: str, tasks: Sequence[GenerationTask], model: str, path: str | Path) -> int:
    """Write the provider's request file for ``tasks`` (one line each, in order) and return
    how many lines it has. Refused before anything is written: a uid twice (providers reject
    the whole file) or a task the provider cannot express."""
    chosen = _transport(transport)
    seen: set[str] = set()
    lines = []
    for task in tasks:
        if task.uid in seen:
            raise InputError(f"task uid {task.uid!r} appears twice; a batch file names each request once")
        seen.add(task.uid)
        lines.append(json.dumps(chosen.request(task, model), ensure_ascii=False))
    with atomic_writer(path) as fh:
        for line in lines:
            fh.write(line + "\n")
    return len(lines)


def _open(path: Path) -> IO[bytes]:
    if not path.exists():
        raise InputError("file not found", str(path))
    if not path.is_file():
        raise InputError("not a file", str(path))
    try:
        with path.open("rb") as fh:
            magic = fh.read(2)
        return gzip.open(path, "rb") if magic == GZIP_MAGIC else path.open("rb")  # type: ignore[return-value]
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or exc})", str(path)) from None


def _records(path: Path, key: str, malformed: list[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(uid, record) of each readable line; the others are told in ``malformed``."""
    lineno = 0
    try:
        with _open(path) as fh:
            for lineno, raw in enumerate(fh, start=1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    malformed.append(f"{path}, line {lineno}: not valid UTF-8 (byte {exc.start + 1})")
                    continue
                line = line.lstrip("\ufeff") if lineno == 1 else line
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    malformed.append(f"{path}, line {lineno}: {json_error(exc, line)}")
                    continue
                except RecursionError:
                    malformed.append(f"{path}, line {lineno}: malformed JSON (nested too deeply)")
                    continue
                except ValueError:  # an integer of more digits than Python converts
                    malformed.append(f"{path}, line {lineno}: malformed JSON (a number with too many digits)")
                    continue
                if not isinstance(record, dict):
                    malformed.append(f"{path}, line {lineno}: expected a JSON object, got {type(record).__name__}")
                    continue
                uid = record.get(key)
                if not isinstance(uid, str) or not uid:
                    malformed.append(f"{path}, line {lineno}: no {key!r} naming the request")
                    continue
                yield uid, record
    except (OSError, EOFError) as exc:  # a truncated gzip stream, a file gone mid-read
        raise InputError(f"cannot read past line {lineno} ({exc})", str(path)) from None


def import_batch(transport: str, paths: Sequence[str | Path], hashes: Mapping[str, str]) -> ImportResult:
    """Read result files (an output file and an error file may both be given) into
    generations for the uids of ``hashes`` (uid -> content hash), in ``hashes`` order."""
    chosen = _transport(transport)
    result = ImportResult()
    good: dict[str, Generation] = {}
    failed: dict[str, Generation] = {}
    unknown: dict[str, None] = {}
    for path in paths:
        this = FileImport(str(path))
        result.files.append(this)
        before = len(result.malformed)
        for uid, record in _records(Path(path), chosen.key, result.malformed):
            if uid not in hashes:
                unknown.setdefault(uid)
                if uid not in this.unknown:
                    this.unknown.append(uid)
                continue
            job = Job(GenerationRequest(uid, []), hashes[uid])
            generation = record_of(chosen.result(uid, record), job, DEFAULT_MAX_ANSWER_CHARS)
            if generation.error is not None:
                failed[uid] = generation  # the last error is the one to show
                this.failed += 1
                this.errors[generation.error] = this.errors.get(generation.error, 0) + 1
            elif uid in good:
                result.duplicates += 1
                this.duplicates += 1
            else:
                good[uid] = generation
                this.replies += 1
        this.malformed = [m.removeprefix(f"{path}, ") for m in result.malformed[before:]]
    result.generations = [g for uid in hashes if (g := good.get(uid) or failed.get(uid)) is not None]
    result.unknown = list(unknown)
    return result


__all__ = ["TRANSPORTS", "FileImport", "ImportResult", "export_batch", "import_batch"]
