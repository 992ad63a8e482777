"""The one reader of JSON-lines files (and JSON arrays), with errors that say where. Strings
come out safe to write: a lone surrogate from a ``\\ud800`` escape becomes U+FFFD.

Accepted: UTF-8 with or without a byte-order mark, plain or gzip-compressed (by content, not
by name). Refused with one clear line: UTF-16, binary data, CSV/TSV, invalid UTF-8 (with the
line and column), malformed JSON and lines that are not objects."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import IO

from indicifeval.core.errors import InputError, Source
from indicifeval.core.files import atomic_writer
from indicifeval.core.safe_text import may_hold_surrogates, sanitize_value

GZIP_MAGIC = b"\x1f\x8b"
PARQUET_MAGIC = b"PAR1"
_BOM = b"\xef\xbb\xbf"
_source = partial(tuple.__new__, Source)  # Source(file, line) without its generated __new__ (a line each)
# Lines of answers run to kilobytes: read through a buffer of this many bytes, a line takes
# one copy, not several reads joined (a third of the CPU of reading the lines)
_READ_BUFFER = 1 << 20


def sniff(path: Path) -> bytes:
    """The first bytes of a file (decompressed if it is gzip)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
        if head.startswith(GZIP_MAGIC):
            with gzip.open(path, "rb") as gz:
                head = gz.read(4096)
    except (OSError, EOFError) as exc:
        raise InputError(f"cannot read ({exc})", str(path)) from None
    return head


def _open_bytes(path: Path) -> IO[bytes]:
    with path.open("rb") as fh:
        magic = fh.read(2)
    if magic == GZIP_MAGIC:
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return path.open("rb", buffering=_READ_BUFFER)


def _looks_utf16(head: bytes) -> bool:
    """UTF-16 without a byte-order mark: ASCII (JSON's syntax) leaves a zero byte in every
    other position, and almost none in the others."""
    if len(head) < 8:
        return False
    even, odd = head[0::2].count(0), head[1::2].count(0)
    quarter, sixteenth = len(head) // 4, len(head) // 16
    return (odd > quarter and even <= sixteenth) or (even > quarter and odd <= sixteenth)


def check_text(path: Path, head: bytes) -> None:
    """Refuse, in one line, what is not UTF-8 JSON text."""
    name = str(path)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or _looks_utf16(head):
        raise InputError("the file is UTF-16 text; expected UTF-8 (convert it, e.g. `iconv -f UTF-16 -t UTF-8`)", name)
    if head.startswith(PARQUET_MAGIC):
        raise InputError("this is a Parquet file; give it the .parquet extension", name)
    if b"\x00" in head:
        raise InputError("this is a binary file, not JSON lines", name)
    text = head.removeprefix(_BOM).lstrip()
    first = text.split(b"\n", 1)[0]
    if text and text[:1] not in (b"{", b"["):
        if b"," in first or b"\t" in first:
            raise InputError("looks like CSV/TSV; expected JSON lines (one JSON object per line)", name, 1)
        raise InputError("not JSON lines: the first line does not start with '{' (one JSON object per line "
                         "expected)", name, 1)


def _decode(raw: bytes, path: Path, lineno: int) -> str:
    """UTF-8 text of ``raw`` (which starts at line ``lineno``); the error names the line and
    column of the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        column = len(raw[line_start: exc.start].decode("utf-8", "replace")) + 1
        raise InputError(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {column})", str(path),
                         lineno + raw.count(b"\n", 0, exc.start)) from None


def where_in(text: str, pos: int) -> tuple[int, int]:
    """(line, column), both 1-based, of character ``pos`` of ``text``, never past the end of the
    content: json reports a line cut short after its last character as column 1 of the line
    after it (past the line break), which is not where anything is missing."""
    end = len(text.rstrip())
    while end < len(text) and text[end] in " \t":  # the spaces that end the last line with content
        end += 1
    pos = min(pos, end)
    start = text.rfind("\n", 0, pos) + 1
    return text.count("\n", 0, pos) + 1, pos - start + 1


def json_error(exc: json.JSONDecodeError, text: str | None = None) -> str:
    """"malformed JSON (Expecting value, column 5)"; json's "... starting at" reads on. The
    column is ``where_in``'s in ``text``, what was parsed (by default the error's own)."""
    column = where_in(exc.doc if text is None else text, exc.pos)[1]
    sep = " " if exc.msg.endswith(" at") else ", "
    return f"malformed JSON ({exc.msg}{sep}column {column})"


def _object(record: object, source: Source) -> dict:
    if not isinstance(record, dict):
        raise source.error(f"expected a JSON object, got {type(record).__name__}")
    return record


def read_jsonl(path: str | Path) -> Iterator[tuple[Source, dict]]:
    """(source, record) for every object in a JSON-lines file or JSON array file."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found" if not path.exists() else "not a file", str(path))
    head = sniff(path)
    check_text(path, head)
    if head.removeprefix(_BOM).lstrip().startswith(b"["):
        yield from _read_json_array(path)
        return
    name = str(path)
    lineno = 0
    try:
        with _open_bytes(path) as fh:
            for lineno, raw in enumerate(fh, start=1):
                if lineno == 1:
                    raw = raw.removeprefix(_BOM)
                line = _decode(raw, path, lineno)
                if not line or line.isspace():  # (no stripped copy of a long line)
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(json_error(exc, line), name, lineno) from None
                except RecursionError:
                    raise InputError("malformed JSON (nested too deeply)", name, lineno) from None
                except ValueError as exc:  # an integer of more digits than Python converts
                    raise InputError(f"malformed JSON ({_first(exc)})", name, lineno) from None
                if may_hold_surrogates(line):
                    record = sanitize_value(record)
                source = _source((name, lineno))
                yield source, _object(record, source)
    except (OSError, EOFError) as exc:  # a truncated or corrupt gzip stream, a vanished file
        raise InputError(f"cannot read past line {lineno} ({exc})", name) from None


def _read_json_array(path: Path) -> Iterator[tuple[Source, dict]]:
    try:
        with _open_bytes(path) as fh:
            data = fh.read()
    except (OSError, EOFError) as exc:
        raise InputError(f"cannot read ({exc})", str(path)) from None
    text = _decode(data.removeprefix(_BOM), path, 1)
    try:
        records = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(json_error(exc, text), str(path), where_in(text, exc.pos)[0]) from None
    except RecursionError:
        raise InputError("malformed JSON (nested too deeply)", str(path)) from None
    except ValueError as exc:
        raise InputError(f"malformed JSON ({_first(exc)})", str(path)) from None
    if not isinstance(records, list):
        raise InputError(f"expected a JSON array of objects, got {type(records).__name__}", str(path))
    if may_hold_surrogates(text):
        records = sanitize_value(records)
    for i, record in enumerate(records, start=1):
        yield Source(str(path), i), _object(record, Source(str(path), i))


def _first(exc: Exception) -> str:
    text = str(exc)
    return "a number with too many digits" if "integer string conversion" in text else text.splitlines()[0][:120]


def write_jsonl(path: str | Path, records: Iterable[dict]) -> Path:
    """The one JSON-lines writer: ``records`` one per line, UTF-8 as it is, atomically (a kill
    or a full disk leaves the old file whole)."""
    with atomic_writer(path) as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return Path(path)
