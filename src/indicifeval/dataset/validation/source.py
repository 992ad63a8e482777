"""Checks across rows: one row per (language, subset, key), and a Trans split against the English
rows it was translated from (``--source``).

Against the source, each Trans split must have the same keys; per key the same instruction ids
in the same order; the numbers, relations, language codes and ``resp_lang`` carried over
unchanged; and where the source keeps its words verbatim (``resp_lang`` not ``src``: the answer
is in another language, so its keywords stay in that language), each of its lexical values in
the translated prompt. Instructions are paired by id and occurrence, so a repeated id is
compared occurrence by occurrence.

One known difference is a warning, not an error: the released Trans splits drop the
``language:response_language`` (en) that the English source adds to its English-case prompts;
the English-case check itself already requires an English answer."""

from __future__ import annotations

import hashlib
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator

from indicifeval.checkers import REGISTRY, lexical_kwargs
from indicifeval.core.errors import Source
from indicifeval.dataset.release_lists import release_instructions
from indicifeval.dataset.validation.findings import ERROR, WARNING, Finding, finding
from indicifeval.dataset.validation.lexical import letter_shown
from indicifeval.dataset.validation.prompt import Prompt
from indicifeval.records import Row, RowId
from indicifeval.text.normalize import match_key

_CARRIED = ("number", "relation", "language_code")


def id_digest(row: Row) -> int:
    """Eight bytes standing for the row's id, so that a dataset's ids fit in eight bytes a row."""
    return int.from_bytes(hashlib.blake2b("\x1f".join(row.id).encode("utf-8", "surrogatepass"),
                                          digest_size=8).digest(), "big")


def repeated_digests(digests: array) -> frozenset[int]:
    """The digests that occur more than once: the only rows whose ids need remembering."""
    ordered = sorted(digests)
    return frozenset(a for a, b in zip(ordered, ordered[1:], strict=False) if a == b)


class DuplicateKeys:
    """The rows seen so far whose id digest is among ``suspects`` (``repeated_digests`` of a
    first pass), each as where it was and its key: exact, and memory grows with the repeats,
    not with the dataset. Without ``suspects``, every row is remembered."""

    def __init__(self, suspects: frozenset[int] | None = None) -> None:
        self._suspects = suspects
        self._seen: dict[RowId, tuple[Source | None, object]] = {}

    def check(self, row: Row) -> Finding | None:
        """The finding for ``row`` if its key came before (7 and "7" are one key)."""
        if self._suspects is not None and id_digest(row) not in self._suspects:
            return None
        first = self._seen.get(row.id)
        if first is None:
            self._seen[row.id] = (row.source, row.key)
            return None
        place, key = first
        where = f"{place.file}, line {place.line}" if place else "an earlier row"
        same = "the same key" if key == row.key else f"keys {key!r} and {row.key!r}, the same as text"
        return finding(row, "duplicate_key", ERROR, f"{row.id} occurs twice ({same}; first at {where})", where)


def source_index(source_rows: Iterable[Row]) -> dict[str, Row]:
    index: dict[str, Row] = {}
    for row in source_rows:
        index.setdefault(str(row.key), row)
    return index


def missing_keys(present: dict[str, set[str]], index: dict[str, Row]) -> Iterator[Finding]:
    """A source key that a Trans split lacks (each split on its own); ``present``: language ->
    the keys of its Trans rows."""
    for language in sorted(present):
        for key, src in index.items():
            if key not in present[language]:
                yield Finding(RowId.of(language, "trans", key), "source_keys", ERROR,
                              f"key {src.key!r} of the source is missing from {language}/trans", None,
                              where=src.source)


def _paired(src: Row, row: Row) -> Iterator[tuple[int, int]]:
    """(source index, row index) of the instructions with the same id and occurrence."""
    where: dict[str, list[int]] = defaultdict(list)
    for i, iid in enumerate(src.instruction_id_list):
        where[iid].append(i)
    seen: dict[str, int] = defaultdict(int)
    for j, iid in enumerate(row.instruction_id_list):
        k = seen[iid]
        seen[iid] += 1
        if k < len(where[iid]):
            yield where[iid][k], j


def against_source(p: Prompt) -> Iterator[Finding]:
    """The row compared with its source row (``p.source``); a key the source lacks is an error."""
    row, src = p.row, p.source
    if src is None:
        yield finding(row, "source_keys", ERROR, f"key {row.key!r} is not in the source", str(row.key))
        return
    yield from _instructions(row, src)
    if src.resp_lang is not None and row.resp_lang is not None and src.resp_lang != row.resp_lang:
        yield finding(row, "source_kwargs", ERROR, f"resp_lang is {row.resp_lang!r} here but {src.resp_lang!r} in "
                      f"the source", row.resp_lang)
    for i, j in _paired(src, row):
        iid = row.instruction_id_list[j]
        for param in REGISTRY[iid].params:
            if param.role in _CARRIED and src.kwargs[i].get(param.name) != row.kwargs[j].get(param.name):
                yield finding(row, "source_kwargs", ERROR,
                              f"{param.name} is {row.kwargs[j].get(param.name)!r} here but "
                              f"{src.kwargs[i].get(param.name)!r} in the source", str(src.kwargs[i].get(param.name)),
                              j)
    plan = src.resp_lang or row.resp_lang
    if plan not in (None, "src") and row.language != src.language:
        for i, j in _paired(src, row):
            yield from _verbatim(p, i, j, plan)


def _instructions(row: Row, src: Row) -> Iterator[Finding]:
    ids, wanted = list(row.instruction_id_list), list(src.instruction_id_list)
    if ids == wanted:
        return
    evidence = f"source: {', '.join(wanted)}; here: {', '.join(ids)}"
    released, dropped = release_instructions(src)
    if dropped and ids == list(released.instruction_id_list):
        yield finding(row, "source_instructions", WARNING,
                      "the source's language:response_language (en) is dropped; the English-case instruction "
                      "already requires an English answer", evidence)
    else:
        yield finding(row, "source_instructions", ERROR, "the instruction ids differ from the source's", evidence)


def _verbatim(p: Prompt, i: int, j: int, plan: str) -> Iterator[Finding]:
    row, src = p.row, p.source
    assert src is not None
    iid = row.instruction_id_list[j]
    for name in lexical_kwargs(iid):
        value = src.kwargs[i].get(name)
        if value is None:
            continue
        values = list(value) if isinstance(value, (list, tuple)) else [value]
        here = row.kwargs[j].get(name)
        here_values = {match_key(v) for v in (here if isinstance(here, list) else [here]) if isinstance(v, str)}
        for v in values:
            if not v.strip():
                continue
            if name == "letter":
                state = "word" if letter_shown(p, v) else ("substring" if match_key(v) in p.key else "absent")
                word = None
            else:
                state, word = p.presence(v.strip())
            if state == "absent":
                yield finding(row, "source_verbatim", ERROR,
                              f"the source's {name} {v!r} (kept verbatim: the answer is in {plan}) does not occur in "
                              f"the translated prompt", v, j)
            elif state == "substring":
                yield finding(row, "source_verbatim", WARNING,
                              f"the source's {name} {v!r} (kept verbatim: the answer is in {plan}) occurs in the "
                              f"translated prompt only inside a longer word", word or v, j)
            if match_key(v) not in here_values:
                yield finding(row, "source_verbatim", WARNING,
                              f"the source's {name} {v!r} should be kept verbatim (the answer is in {plan}), but this "
                              f"row's {name} is {here!r}", v, j)
