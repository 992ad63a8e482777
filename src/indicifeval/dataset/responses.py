"""Model responses, in our format or the ones other tools write.

Accepted per line: ``{key, response}`` (optionally with ``language``/``subset`` when one file
mixes languages); IFEval's ``{prompt, response}``; lm-evaluation-harness ``--log_samples``
records (``doc`` + ``filtered_resps``/``resps``), whose language and subset come from the
task name in the file name (``samples_indicifeval_trans_hi_*.jsonl``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.dataset.errors import InputError, Source
from indicifeval.dataset.readers import read_records
from indicifeval.dataset.rows import SAMPLE, Row, sample_path

_LM_EVAL_TASK = re.compile(r"indicifeval_(trans|ground)_([a-z]{2})")


@dataclass
class Responses:
    by_uid: dict[tuple, str] = field(default_factory=dict)
    by_key: dict[Any, list[str]] = field(default_factory=dict)
    by_prompt: dict[str, str] = field(default_factory=dict)
    sources: dict[tuple, Source] = field(default_factory=dict)

    def lookup(self, row: Row) -> str | None:
        for key in _key_forms(row.key):  # a key written as 7 in one file may be "7" in another
            uid = (row.language, row.subset, key)
            if uid in self.by_uid:
                return self.by_uid[uid]
        hits = next((self.by_key[k] for k in _key_forms(row.key) if k in self.by_key), None)
        if hits:
            if len(hits) > 1:
                raise InputError(
                    f"{len(hits)} responses for key {row.key!r}; add 'language' and 'subset' to them", field="key"
                )
            return hits[0]
        return self.by_prompt.get(row.prompt)


def _key_forms(key: Any) -> tuple:
    if isinstance(key, int):
        return (key, str(key))
    if isinstance(key, str) and key.strip().lstrip("-").isdigit():
        return (key, int(key))
    return (key,)


def _response_text(record: dict, source: Source) -> str:
    if "response" in record:
        value = record["response"]
    elif "filtered_resps" in record or "resps" in record:
        value = record.get("filtered_resps") or record.get("resps")
        while isinstance(value, list):
            if not value:
                raise source.error("empty response list", "filtered_resps")
            value = value[0]
    else:
        raise source.error("missing field", "response")
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise source.error(f"response must be a string, got {type(value).__name__}", "response")
    return value


def load_responses(path: str | Path) -> Responses:
    paths = sample_path("responses") if str(path) == SAMPLE else [Path(path)]
    out = Responses()
    for source, record in (rec for p in paths for rec in read_records(p)):
        text = _response_text(record, source)
        doc = record.get("doc") if isinstance(record.get("doc"), dict) else None
        key = record.get("key", doc.get("key") if doc else None)
        if doc is not None:
            task = _LM_EVAL_TASK.search(Path(source.file).name) or _LM_EVAL_TASK.search(str(record.get("task", "")))
            if task and key is not None:
                uid = (task.group(2), task.group(1), key)
                out.by_uid[uid] = text
                out.sources[uid] = source
                continue
        if key is not None:
            language, subset = record.get("language"), record.get("subset")
            if language and subset:
                uid = (language, subset, key)
                if uid in out.by_uid:
                    raise source.error(f"second response for {language}/{subset} key {key!r}", "key")
                out.by_uid[uid] = text
                out.sources[uid] = source
            else:
                out.by_key.setdefault(key, []).append(text)
            continue
        prompt = record.get("prompt", doc.get("prompt") if doc else None)
        if isinstance(prompt, str):
            out.by_prompt[prompt] = text
            continue
        raise source.error("a response needs a 'key' (or IFEval's 'prompt')", "key")
    return out
