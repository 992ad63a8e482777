"""Benchmark rows: parsing and validation against the instruction registry."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from indicifeval.checkers import REGISTRY, SUBSETS, KwargError, clean_kwargs
from indicifeval.dataset.errors import InputError, Source
from indicifeval.dataset.readers import read_records
from indicifeval.languages import UnknownLanguageError, get_profile

SAMPLE = "sample"


@dataclass(frozen=True)
class Row:
    key: Any
    prompt: str
    instruction_id_list: tuple[str, ...]
    kwargs: tuple[dict, ...]  # cleaned: nulls dropped, whole floats made int
    language: str
    subset: str
    tags: tuple[str, ...] = ()
    resp_lang: str | None = None
    source: Source | None = field(default=None, compare=False)

    @property
    def uid(self) -> tuple[str, str, Any]:
        return (self.language, self.subset, self.key)


def sample_path(kind: str) -> list[Path]:
    """The bundled sample's files of one kind ("rows" or "responses"), one pair per language."""
    folder = Path(str(resources.files("indicifeval.sample")))
    return sorted(folder.glob(f"*.{kind}.jsonl"))


def parse_row(record: dict, source: Source, language: str | None = None, subset: str | None = None) -> Row:
    """Validate one record; the record's own language/subset win over the defaults given."""
    for name in ("key", "prompt", "instruction_id_list", "kwargs"):
        if name not in record:
            raise source.error("missing field", name)
    key = record["key"]
    if not isinstance(key, (int, str)) or isinstance(key, bool):
        raise source.error(f"key must be an integer or string, got {key!r}", "key")
    if not isinstance(record["prompt"], str):
        raise source.error("prompt must be a string", "prompt")
    ids = record["instruction_id_list"]
    if not isinstance(ids, (list, tuple)) or not ids or not all(isinstance(i, str) for i in ids):
        raise source.error("must be a non-empty list of instruction ids", "instruction_id_list")
    for i in ids:
        if i not in REGISTRY:
            raise source.error(f"unknown instruction id {i!r}", "instruction_id_list")
    kwargs = record["kwargs"]
    if not isinstance(kwargs, (list, tuple)) or len(kwargs) != len(ids):
        n = len(kwargs) if isinstance(kwargs, (list, tuple)) else "not a list"
        raise source.error(f"must be a list as long as instruction_id_list ({len(ids)}), got {n}", "kwargs")
    cleaned = []
    for index, (iid, kw) in enumerate(zip(ids, kwargs)):
        try:
            cleaned.append(clean_kwargs(iid, kw))
        except KwargError as exc:
            raise source.error(f"{exc} (instruction {index + 1}, {iid})", f"kwargs[{index}].{exc.field}") from None
    lang = record.get("language") or language
    if lang is None:
        raise source.error("no language: give the row a 'language' field or pass --language", "language")
    try:
        get_profile(lang)
    except UnknownLanguageError as exc:
        raise source.error(str(exc), "language") from None
    sub = record.get("subset") or subset or "trans"
    if sub not in SUBSETS:
        raise source.error(f"subset must be one of {', '.join(SUBSETS)}, got {sub!r}", "subset")
    tags = record.get("tags") or ()
    if not isinstance(tags, (list, tuple)):
        raise source.error("tags must be a list of strings", "tags")
    resp_lang = record.get("resp_lang")
    return Row(key, record["prompt"], tuple(ids), tuple(cleaned), lang, sub, tuple(tags), resp_lang, source)


def load_rows(
    data: str | Path | Iterable[dict] | Iterable[Row], language: str | None = None, subset: str | None = None
) -> list[Row]:
    """Rows from a JSONL/JSON/Parquet file or folder, ``"sample"``, row dicts, or parsed rows."""
    if isinstance(data, list) and data and all(isinstance(r, Row) for r in data):
        return list(data)
    if isinstance(data, (str, Path)):
        paths = sample_path("rows") if str(data) == SAMPLE else [Path(data)]
        records = (rec for path in paths for rec in read_records(path))
    else:
        records = ((Source("<memory>", i), r) for i, r in enumerate(data, start=1))
    rows: list[Row] = []
    seen: dict[tuple, Source] = {}
    for source, record in records:
        row = parse_row(record, source, language, subset)
        if row.uid in seen:
            first = seen[row.uid]
            raise source.error(f"duplicate key {row.key!r} for {row.language}/{row.subset} (first at line {first.line})", "key")
        seen[row.uid] = source
        rows.append(row)
    if not rows:
        raise InputError("no rows", str(data) if isinstance(data, (str, Path)) else None)
    return rows
