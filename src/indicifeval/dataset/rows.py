"""Benchmark rows: parsing and validation against the instruction registry.

A row's language and subset are its own (its fields, or where it lies in the hub's layout);
``language``/``subset`` given by the caller (``--language``/``--subset``) only fill in rows
that have none, and a row that says otherwise is an error, never relabelled."""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from indicifeval.checkers import REGISTRY, SUBSETS, KwargError, clean_kwargs
from indicifeval.core.errors import InputError, Source
from indicifeval.core.safe_text import sanitize_value
from indicifeval.dataset.hub_layout import is_hub_layout, layout_files, named_split
from indicifeval.dataset.readers import read_records
from indicifeval.languages import UnknownLanguageError, get_profile
from indicifeval.records import Row, RowId

SAMPLE = "sample"  # the bundled sample: the paper's instructions, scored in either mode
SAMPLE_BEYOND = "sample-beyond"  # its rows for the instructions beyond the paper (fixed mode only)
# and for the other suites' instructions (fixed mode only): sample-open-instruct, sample-ifbench
SAMPLE_SUITES = ("beyond", "open-instruct", "ifbench")
SAMPLES = (SAMPLE, *(f"{SAMPLE}-{suite}" for suite in SAMPLE_SUITES))
REQUIRED = ("key", "prompt", "instruction_id_list", "kwargs")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def check_key(key: Any, source: Source, field_name: str = "key") -> Any:
    """A key must be an integer or a one-line string; returns it unchanged."""
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise source.error(f"key must be an integer or a string, got {type(key).__name__} {key!r:.60}", field_name)
    if isinstance(key, str):
        if not key.strip():
            raise source.error("key must not be empty", field_name)
        if _CONTROL.search(key):
            raise source.error(f"key must not contain line breaks or control characters, got {key!r:.60}", field_name)
    return key


def found_fields(record: dict) -> str:
    names = ", ".join(sorted(map(str, record))[:12])
    return f"found fields: {names}" if names else "the object is empty"


def sample_path(kind: str, name: str = SAMPLE) -> list[Path]:
    """The bundled sample's files of one kind ("rows" or "responses"), one pair per language:
    ``sample``'s (hi.rows.jsonl), or a suite's: ``sample-beyond``'s (hi.beyond.rows.jsonl),
    ``sample-ifbench``'s (hi.ifbench.rows.jsonl, or in parts: hi.ifbench.words.rows.jsonl)..."""
    folder = Path(str(resources.files("indicifeval.sample")))
    suite = name.removeprefix(f"{SAMPLE}-") if name != SAMPLE else None
    if suite is not None:
        return sorted({*folder.glob(f"*.{suite}.{kind}.jsonl"), *folder.glob(f"*.{suite}.*.{kind}.jsonl")})
    return sorted(p for p in folder.glob(f"*.{kind}.jsonl") if p.name.count(".") == 2)


def _own_value(record: dict, name: str, source: Source, layout: str | None, given: str | None,
               default: str | None = None) -> str | None:
    """The row's own language/subset, checked against the layout and the caller's value."""
    own = record.get(name)
    if own is not None and not isinstance(own, str):
        raise source.error(f"{name} must be a string, got {own!r:.40}", name)
    origin = "its own field"
    if layout is not None:
        if own and own != layout:
            raise source.error(f"the row says {name} {own!r}, but it lies in the {layout!r} split", name)
        own, origin = layout, "the folder layout"
    if given is not None and own and own != given:
        raise source.error(f"the row's {name} is {own!r} (from {origin}), but {name} {given!r} was given "
                           f"(--{name}); --{name} only fills in rows that have no {name}: use --{name}s {given} "
                           f"to select rows", name)
    return own or given or default


def parse_row(record: dict, source: Source, language: str | None = None, subset: str | None = None,
              layout: tuple[str, str] | None = None, defaults: tuple[str | None, str | None] = (None, None)) -> Row:
    """Validate one record. ``language``/``subset`` fill in what the record lacks and must
    agree with what it has; ``defaults`` only fill in (a filter for one language implies it);
    ``layout`` is the (language, subset) its file's place in the hub layout says."""
    for name in REQUIRED:
        if name not in record:
            raise source.error(f"missing field; {found_fields(record)}", name)
    key = check_key(record["key"], source)
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
            # the field path counts as JSON does (kwargs[0] is the first); the instruction is named, not
            # counted again from 1 in the same line
            raise source.error(f"{exc} ({iid})", f"kwargs[{index}].{exc.field}") from None
    named = named_split(source.file) if layout is None and source.file else (None, None)
    lang = _own_value(record, "language", source, layout[0] if layout else None, language, defaults[0] or named[0])
    if lang is None:
        raise source.error("no language: give the row a 'language' field or pass --language", "language")
    try:
        get_profile(lang)
    except UnknownLanguageError as exc:
        raise source.error(str(exc), "language") from None
    sub = _own_value(record, "subset", source, layout[1] if layout else None, subset,
                     defaults[1] or named[1] or "trans")
    if sub not in SUBSETS:
        raise source.error(f"subset must be one of {', '.join(SUBSETS)}, got {sub!r}", "subset")
    tags = record.get("tags") or ()
    if not isinstance(tags, (list, tuple)) or not all(isinstance(t, str) for t in tags):
        raise source.error("tags must be a list of strings", "tags")
    resp_lang = record.get("resp_lang")
    if resp_lang is not None and not isinstance(resp_lang, str):
        raise source.error("resp_lang must be a string", "resp_lang")
    return Row(key, record["prompt"], tuple(ids), tuple(cleaned), lang, sub, tuple(tags), resp_lang, source)


Splits = tuple[list[str] | None, list[str] | None]


def _records(data: str | Path | Iterable[dict], splits: Splits | None = None):
    """(source, record, layout) from a path, the sample or row dicts; ``splits`` (subsets,
    languages) skips other split files of a hub layout unread."""
    if isinstance(data, (str, Path)):
        if str(data) in SAMPLES:
            for path in sample_path("rows", str(data)):
                for source, record in read_records(path):
                    yield source, record, None
            return
        path = Path(data)
        if is_hub_layout(path):
            for file, lang, subset in layout_files(path, *(splits or (None, None))):
                for source, record in read_records(file):
                    yield source, record, (lang, subset)
            return
        for source, record in read_records(path):
            yield source, record, None
        return
    for i, record in enumerate(data, start=1):
        source = Source("<memory>", i)
        if not isinstance(record, dict):
            raise source.error(f"expected a row object, got {type(record).__name__}")
        yield source, sanitize_value(record), None


def load_rows(
    data: str | Path | Iterable[dict] | Iterable[Row], language: str | None = None, subset: str | None = None,
    splits: Splits | None = None, defaults: tuple[str | None, str | None] = (None, None),
) -> list[Row]:
    """Rows from a JSONL/JSON/Parquet file or folder (the hub's layout included), ``"sample"``,
    row dicts, or parsed rows. Raises InputError on a bad row or a repeated key."""
    if isinstance(data, list) and data and all(isinstance(r, Row) for r in data):
        return list(data)
    rows = [parse_row(record, source, language, subset, layout, defaults)
            for source, record, layout in _records(data, splits)]  # type: ignore[arg-type]
    if not rows:
        raise InputError("no rows", str(data) if isinstance(data, (str, Path)) else None)
    return check_unique(rows)


def check_unique(rows: list[Row]) -> list[Row]:
    """``rows``, if no two share (language, subset, key); 7 and "7" count as one key."""
    seen: dict[RowId, Row] = {}
    for row in rows:
        ident = row.id
        first = seen.get(ident)
        if first is not None:
            where = f"first at {first.source.file}, line {first.source.line}" if first.source else "seen before"
            error = row.source.error if row.source else (lambda m, f: InputError(m, field=f))
            if first.key == row.key:
                raise error(f"duplicate key {row.key!r} for {row.language}/{row.subset} ({where})", "key")
            raise error(f"ambiguous keys: {first.key!r} and {row.key!r} both occur for {row.language}/{row.subset} "
                        f"({where}); keys must differ as text", "key")
        seen[ident] = row
    return rows
