"""A corpus as shards, read as a stream: one task per shard, never the whole corpus in memory.

A corpus is a local JSONL or Parquet file, a folder of them, or a hub dataset path
(``hf://datasets/ai4bharat/sangraha/verified/hin`` with a revision) whose Parquet files are
listed and read through ``huggingface_hub``'s file system. A large JSONL file is cut into byte
ranges (a range owns the lines that start in it), a Parquet file is one shard. Each document is
``{doc_id, text}`` (``id`` is taken for ``doc_id``); a document without a usable text is
counted, not fatal, and a line that is not JSON is reported with its file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import regex

from indicifeval.core.errors import InputError

HUB_PREFIX = "hf://"
_SUFFIXES = (".jsonl", ".json", ".parquet", ".jsonl.gz")
# A JSONL corpus too small to fill SHARDS_WANTED shards of the configured size is cut into that
# many, so every worker of a pool or a small cluster has work; but never below MIN_SHARD_BYTES
# (about 1,400 Hindi documents, a few tenths of a second of work: below that, handing a task out
# costs more than it saves). Neither depends on the workers, so every executor and -j cuts a
# corpus the same way and the outputs stay byte-identical.
SHARDS_WANTED = 32
MIN_SHARD_BYTES = 2 << 20


@dataclass(frozen=True)
class Shard:
    """One task's part of the corpus: a file, or a byte range of a JSONL file."""

    id: str
    path: str
    kind: str  # jsonl | parquet
    start: int = 0
    end: int | None = None  # None: to the end of the file
    revision: str | None = None  # hub files: the commit they are read at

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Shard:
        return cls(**data)


@dataclass
class Document:
    doc_id: str
    text: str
    shard: str


def _kind(name: str) -> str | None:
    lower = name.lower()
    if lower.endswith(".parquet"):
        return "parquet"
    if lower.endswith((".jsonl", ".json")):
        return "jsonl"
    return None


def shard_size(corpus_bytes: int, configured: int) -> int:
    """The byte size of a JSONL shard: ``configured`` at most, less for a corpus too small to give
    SHARDS_WANTED shards of it, never under MIN_SHARD_BYTES (unless configured lower)."""
    return min(configured, max(MIN_SHARD_BYTES, -(-corpus_bytes // SHARDS_WANTED)))


def list_shards(corpus: str, revision: str | None = None, shard_bytes: int = 64 << 20) -> list[Shard]:
    """The shards of ``corpus``, in a stable order (file names sorted, then byte ranges); a
    JSONL file is cut at ``shard_size`` of the corpus's JSONL bytes (``shard_bytes`` at most)."""
    if corpus.startswith(HUB_PREFIX):
        return _hub_shards(corpus, revision)
    path = Path(corpus)
    if not path.exists():
        raise InputError("no such corpus file or folder (or an hf://datasets/... path)", corpus)
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and _kind(p.name))
    if not files:
        raise InputError("the corpus folder holds no .jsonl or .parquet files", corpus)
    kinds: dict[Path, str] = {}
    for file in files:
        kind = _kind(file.name)
        if kind is None:
            raise InputError(f"a corpus file must be JSONL or Parquet ({', '.join(_SUFFIXES)})", str(file))
        kinds[file] = kind
    step = shard_size(sum(f.stat().st_size for f, k in kinds.items() if k == "jsonl"), shard_bytes)
    shards: list[Shard] = []
    for file, kind in kinds.items():
        size = file.stat().st_size
        if kind == "parquet" or size <= step:
            shards.append(Shard(f"{len(shards):05d}", str(file), kind))
            continue
        for start in range(0, size, step):
            shards.append(Shard(f"{len(shards):05d}", str(file), kind, start, min(start + step, size)))
    return shards


def _hub_fs() -> Any:
    try:
        from huggingface_hub import HfFileSystem
    except ImportError:
        raise InputError("reading a hub corpus needs huggingface_hub: pip install 'indicifeval[hub]'") from None
    return HfFileSystem()


def _at_revision(path: str, revision: str | None) -> str:
    """``datasets/owner/name/sub`` read at ``revision``: ``datasets/owner/name@revision/sub``."""
    parts = path.split("/")
    if not revision or "@" in "/".join(parts[:3]):
        return path
    return "/".join(parts[:3]) + f"@{revision}" + ("/" + "/".join(parts[3:]) if len(parts) > 3 else "")


def _hub_shards(corpus: str, revision: str | None) -> list[Shard]:
    """The Parquet (or JSONL) files under a hub path, pinned to ``revision``."""
    fs = _hub_fs()
    path = corpus[len(HUB_PREFIX):].rstrip("/")
    try:
        files = sorted(f for f in fs.glob(_at_revision(path, revision) + "/**") if _kind(f))
    except Exception as exc:  # network, missing repo, bad revision: one line, no traceback
        raise InputError(f"cannot list the hub corpus ({exc.__class__.__name__}: {str(exc)[:200]})", corpus) from None
    if not files:
        raise InputError("no .parquet or .jsonl files under this hub path", corpus)
    return [Shard(f"{i:05d}", HUB_PREFIX + f, _kind(f) or "parquet", revision=revision) for i, f in enumerate(files)]


def _open(shard: Shard):
    if shard.path.startswith(HUB_PREFIX):
        return _hub_fs().open(_at_revision(shard.path[len(HUB_PREFIX):], shard.revision), "rb")
    return open(shard.path, "rb")


def iter_documents(shard: Shard, stats: dict[str, Any] | None = None) -> Iterator[Document]:
    """The shard's documents in file order; ``stats`` counts what was skipped and why."""
    stats = stats if stats is not None else {}
    if shard.kind == "parquet":
        yield from _parquet_documents(shard, stats)
    else:
        yield from _jsonl_documents(shard, stats)


_SURROGATE = regex.compile(r"[\ud800-\udfff]")


def _skip(stats: dict[str, Any], why: str, where: str) -> None:
    """Count a skipped document by why, and remember where the first one is, for a person: a
    JSONL line by its byte offset (file@byte), a Parquet row counted from 1 (file#row counts
    from 0, as a document id), as every other row number the tool prints."""
    stats[why] = stats.get(why, 0) + 1
    if f"first_{why}" not in stats:
        name, sep, row = where.rpartition("#")
        place = f"{name}, row {int(row) + 1}" if sep and row.isdigit() else where.replace("@", ", byte ")
        stats[f"first_{why}"] = place


def _document(record: Any, where: str, shard: Shard, stats: dict[str, Any],
              escapes: bool = True) -> Document | None:
    """A document, or None (counted by why) for a record that is not one: no object, no text,
    a lone surrogate (an escape like \\ud800 no text can hold; only looked for when the line
    has a \\u escape), an id that is not a string or a number."""
    if not isinstance(record, dict):
        _skip(stats, "not_an_object", where)
        return None
    text = record.get("text")
    if not isinstance(text, str) or not text or text.isspace():
        _skip(stats, "no_text", where)
        return None
    if escapes and _SURROGATE.search(text):
        _skip(stats, "lone_surrogate", where)
        return None
    doc_id = record.get("doc_id", record.get("id"))
    if doc_id is not None and (isinstance(doc_id, bool) or not isinstance(doc_id, (str, int, float))
                               or (escapes and isinstance(doc_id, str) and _SURROGATE.search(doc_id))):
        _skip(stats, "bad_doc_id", where)
        return None
    return Document(str(doc_id) if doc_id is not None else where, text, shard.id)


def _jsonl_documents(shard: Shard, stats: dict[str, Any]) -> Iterator[Document]:
    name = Path(shard.path).name
    with _open(shard) as fh:
        position = shard.start
        if shard.start:
            fh.seek(shard.start - 1)
            if fh.read(1) != b"\n":  # the line that started before the range belongs to the one before
                position = shard.start + len(fh.readline())
        fh.seek(position)
        while shard.end is None or position < shard.end:
            line = fh.readline()
            if not line:
                break
            at = position
            position += len(line)
            try:
                text = line.decode("utf-8").lstrip("\ufeff")
            except UnicodeDecodeError:  # skipped and counted: a document with a mangled byte is not text
                _skip(stats, "invalid_utf8", f"{name}@{at}")
                continue
            if not text or text.isspace():
                continue
            try:
                record = json.loads(text)  # (JSON's own whitespace around the object is allowed)
            except (ValueError, RecursionError):
                try:  # other whitespace at either end, as str.strip removes it
                    record = json.loads(text.strip())
                except (ValueError, RecursionError):
                    _skip(stats, "malformed", f"{name}@{at}")
                    continue
            doc = _document(record, f"{name}@{at}", shard, stats, "\\u" in text)
            if doc is not None:
                yield doc


def _parquet_documents(shard: Shard, stats: dict[str, Any]) -> Iterator[Document]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading Parquet needs pyarrow: pip install 'indicifeval[parquet]'", shard.path) from None
    name = Path(shard.path).name
    with _open(shard) as fh:
        try:
            file = pq.ParquetFile(fh)
        except Exception as exc:
            raise InputError(f"unreadable Parquet file ({exc.__class__.__name__})", shard.path) from None
        columns = [c for c in ("doc_id", "id", "text") if c in file.schema_arrow.names]
        if "text" not in columns:
            raise InputError(f"no 'text' column (columns: {', '.join(file.schema_arrow.names)})", shard.path)
        row = 0
        for batch in file.iter_batches(batch_size=4096, columns=columns):
            for record in batch.to_pylist():
                doc = _document(record, f"{name}#{row}", shard, stats)
                row += 1
                if doc is not None:
                    yield doc


SAMPLE = "sample"


def sample_corpus(language: str) -> str:
    """``--corpus sample``: the bundled sample's prompts and answers in ``language`` as documents,
    written once (the same bytes every time, so the same identity) to a cache folder, where the
    build can name it by file like any corpus."""
    import os

    from indicifeval.core.files import write_text
    from indicifeval.dataset import load_rows
    from indicifeval.dataset.responses import load_responses

    rows = [r for r in load_rows(SAMPLE) if r.language == language]
    if not rows:
        raise InputError(f"the bundled sample has no rows in {language!r}; give a corpus of your own (--corpus FILE)",
                         field="corpus")
    answers = load_responses(SAMPLE)
    docs = [{"doc_id": f"sample-{language}-prompt-{r.key}", "text": r.prompt} for r in rows]
    docs += [{"doc_id": f"sample-{language}-answer-{r.key}", "text": text} for r in rows
             if (text := answers.lookup(r))]
    lines = "".join(json.dumps(d, ensure_ascii=False, sort_keys=True) + "\n" for d in docs)
    path = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "indicifeval" / "corpora" / \
        f"sample-{language}.jsonl"
    if not path.is_file() or path.read_text(encoding="utf-8") != lines:
        write_text(path, lines)
    return str(path)


__all__ = ["MIN_SHARD_BYTES", "SAMPLE", "SHARDS_WANTED", "Document", "Shard", "iter_documents", "list_shards",
           "sample_corpus", "shard_size"]
