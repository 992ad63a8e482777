"""English prompts in the shapes the other instruction suites ship them, read as benchmark rows
so that a Trans build can translate them (``build trans --source ifbench:PATH`` or
``open-instruct:PATH``):

* IFBench's test file: IFEval's shape (``key``, ``prompt``, ``instruction_id_list``, ``kwargs``);
* open-instruct's RL-training rows: ``messages`` (the user turn is the prompt) and
  ``ground_truth``, a Python or JSON literal of ``[{"instruction_id": [...], "kwargs": [...]}]``;
* NeMo Gym's instruction-following rows: ``id``, ``prompt`` (or the last user turn of
  ``responses_create_params.input``), ``instruction_id_list`` and ``kwargs`` at the top level or
  in ``verifier_metadata``.

Each row is English, in the Trans subset, tagged with its suite; a key is the row's own (``key``,
then ``id``) or its line number. Nothing is guessed: a line that fits none of the shapes is an
error naming the file, the line and the field."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError, Source
from indicifeval.dataset.readers import read_records
from indicifeval.dataset.rows import parse_row
from indicifeval.records import Row

SUITE_SOURCES = ("ifbench", "open-instruct")


def _user_turn(messages: Any, source: Source, name: str) -> str:
    if not isinstance(messages, list):
        raise source.error("must be a list of chat messages", name)
    turns = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role", "user") == "user"]
    text = turns[-1] if turns else None
    if isinstance(text, list):  # content parts
        text = "".join(p.get("text", "") for p in text if isinstance(p, dict))
    if not isinstance(text, str) or not text.strip():
        raise source.error("has no user turn with text", name)
    return text


def _ground_truth(value: Any, source: Source) -> tuple[Any, Any]:
    """(instruction ids, kwargs) from open-instruct's ``ground_truth``."""
    data = value
    if isinstance(data, str):
        try:
            data = ast.literal_eval(data)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError):
                raise source.error("is neither a Python nor a JSON literal", "ground_truth") from None
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    if isinstance(data, str):  # a JSON text inside the literal, as some rows have it
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            raise source.error("holds text that is not JSON", "ground_truth") from None
    if not isinstance(data, dict) or "instruction_id" not in data:
        raise source.error('must hold {"instruction_id": [...], "kwargs": [...]}', "ground_truth")
    return data["instruction_id"], data.get("kwargs")


def suite_record(record: dict, source: Source, line: int) -> dict[str, Any]:
    """One line of any of the three shapes as a benchmark row's record (not yet validated)."""
    given = record.get("verifier_metadata")
    meta: dict[str, Any] = given if isinstance(given, dict) else {}
    key = record.get("key", record.get("id", line))
    if "ground_truth" in record:
        ids, kwargs = _ground_truth(record["ground_truth"], source)
        prompt = record["prompt"] if isinstance(record.get("prompt"), str) else \
            _user_turn(record.get("messages"), source, "messages")
    else:
        ids = meta.get("instruction_id_list", record.get("instruction_id_list"))
        if ids is None:
            raise source.error("no instruction ids (instruction_id_list, verifier_metadata or ground_truth)",
                               "instruction_id_list")
        kwargs = meta.get("kwargs", record.get("kwargs"))
        prompt = meta.get("prompt", record.get("prompt"))
        if not isinstance(prompt, str):
            params = record.get("responses_create_params")
            prompt = _user_turn(params.get("input") if isinstance(params, dict) else None, source,
                                "responses_create_params.input")
    if isinstance(ids, list) and kwargs is None:
        kwargs = [{} for _ in ids]
    if isinstance(kwargs, list):
        kwargs = [{} if k is None else k for k in kwargs]
    return {"key": key, "prompt": prompt, "instruction_id_list": ids, "kwargs": kwargs}


def read_suite_rows(path: str | Path, suite: str) -> list[Row]:
    """The English rows of a suite's file, tagged with the suite."""
    if suite not in SUITE_SOURCES:
        raise InputError(f"unknown suite {suite!r}; choose from {', '.join(SUITE_SOURCES)}", field="source")
    rows: list[Row] = []
    for source, record in read_records(path):
        parsed = parse_row(suite_record(record, source, source.line or len(rows) + 1), source, language="en",
                           subset="trans")
        rows.append(Row(parsed.key, parsed.prompt, parsed.instruction_id_list, parsed.kwargs, "en", "trans",
                        tuple(dict.fromkeys((*parsed.tags, suite))), parsed.resp_lang, parsed.source))
    if not rows:
        raise InputError(f"no rows in this {suite} file", str(path))
    return rows


__all__ = ["SUITE_SOURCES", "read_suite_rows", "suite_record"]
