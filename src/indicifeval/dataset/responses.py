"""Model responses, in our format or the ones other tools write.

Accepted per line: ``{key, response}`` (optionally with ``language``/``subset`` when one file
mixes languages); IFEval's ``{prompt, response}``; lm-evaluation-harness ``--log_samples``
records (``doc`` + ``filtered_resps``/``resps``), whose language and subset come from the
task name in the file name (``samples_indicifeval_trans_hi_*.jsonl``). A folder is read
whole, except that an lm-eval output folder is read for its ``samples_*.jsonl`` only. In
memory: a list of such dicts, or a mapping of key to text.

Anything that would make a row's answer a guess is an error that names the responses file:
two responses for one key or one prompt, a key that is not an integer or a one-line string,
``"response": null`` (unless missing answers are allowed, when it counts as missing)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError, Source
from indicifeval.core.safe_text import sanitize_value
from indicifeval.dataset.readers import is_data_file, read_records, skip_findings
from indicifeval.dataset.rows import SAMPLES, check_key, found_fields, sample_path
from indicifeval.records import Row, RowId

_LM_EVAL_TASK = re.compile(r"indicifeval_(trans|ground)_([a-z]{2,3})")
_MISSING = object()


@dataclass
class Responses:
    """Texts by (language, subset, key), by key alone, or by prompt; ``None`` is a response
    recorded as missing."""

    by_uid: dict[RowId, str | None] = field(default_factory=dict)
    by_key: dict[str, str | None] = field(default_factory=dict)
    by_prompt: dict[str, str | None] = field(default_factory=dict)
    sources: dict[tuple, Source] = field(default_factory=dict)

    def lookup(self, row: Row) -> str | None:
        """The row's response, or None when there is none (or it is recorded as missing)."""
        for value in (self.by_uid.get(row.id, _MISSING), self.by_key.get(str(row.key), _MISSING),
                      self.by_prompt.get(row.prompt, _MISSING)):
            if value is not _MISSING:
                return value  # type: ignore[return-value]
        return None

    def texts(self) -> list[str]:
        return [t for table in (self.by_uid, self.by_key, self.by_prompt) for t in table.values() if t]

    def __len__(self) -> int:
        return len(self.by_uid) + len(self.by_key) + len(self.by_prompt)

    def _put(self, table: dict, name: Any, text: str | None, source: Source, what: str, field_name: str,
             hint: str = "") -> None:
        first = self.sources.get((id(table), name))
        if first is not None:
            raise source.error(f"a second response for {what} (the first is at {first.file}, line {first.line}); "
                               f"each row needs exactly one{hint}", field_name)
        table[name] = text
        self.sources[(id(table), name)] = source


def _response_text(record: dict, source: Source, allow_missing: bool) -> str | None:
    if "response" in record:
        name, value = "response", record["response"]
    elif "filtered_resps" in record or "resps" in record:
        name = "filtered_resps" if "filtered_resps" in record else "resps"
        value = record.get("filtered_resps") or record.get("resps")
        while isinstance(value, list):
            if not value:
                raise source.error("empty response list", name)
            value = value[0]
    else:
        raise source.error(f"missing field; {found_fields(record)}", "response")
    if value is None:
        if allow_missing:
            return None
        raise source.error("the response is null (use --allow-missing to count it as missing)", name)
    if not isinstance(value, str):
        raise source.error(f"response must be a string, got {type(value).__name__}", name)
    return value


def _response_files(path: Path) -> list[Path]:
    if not path.is_dir():
        return [path]
    samples = sorted(p for p in path.rglob("samples_*.jsonl") if p.is_file())
    if samples:  # an lm-eval output folder: its results_*.json are not responses
        return samples
    files = sorted(p for p in path.rglob("*") if is_data_file(p))
    if not files:
        raise InputError("folder holds no .jsonl, .json or .parquet files", str(path))
    return skip_findings(files, path) or files  # only findings: each then says what it is


def _records(source: str | Path | Iterable[dict] | Mapping[Any, str]):
    if isinstance(source, (str, Path)):
        paths = sample_path("responses", str(source)) if str(source) in SAMPLES else _response_files(Path(source))
        for p in paths:
            yield from read_records(p)
        return
    if isinstance(source, Mapping):
        for i, (key, text) in enumerate(source.items(), start=1):
            yield Source("<memory>", i), sanitize_value({"key": key, "response": text})
        return
    for i, record in enumerate(source, start=1):
        src = Source("<memory>", i)
        if not isinstance(record, dict):
            raise src.error(f"expected a response object, got {type(record).__name__}")
        yield src, sanitize_value(record)


@lru_cache(maxsize=256)
def _task_in_name(file: str) -> re.Match | None:
    """lm-eval's task (indicifeval_trans_hi) in a samples file's name, once per file."""
    return _LM_EVAL_TASK.search(Path(file).name)


def load_responses(source: str | Path | Iterable[dict] | Mapping[Any, str], allow_missing: bool = False) -> Responses:
    """Responses from a file, a folder, ``"sample"``, a list of dicts or a key -> text mapping."""
    out = Responses()
    for src, record in _records(source):
        text = _response_text(record, src, allow_missing)
        doc = record.get("doc") if isinstance(record.get("doc"), dict) else None
        key = record.get("key", doc.get("key") if doc else None)
        if key is not None:
            key = check_key(key, src, "key" if "key" in record else "doc.key")
            language, subset = record.get("language"), record.get("subset")
            task = _task_in_name(src.file) or _LM_EVAL_TASK.search(str(record.get("task", "")))
            if doc is not None and task and not (language and subset):
                subset, language = task.group(1), task.group(2)
            if language and subset:
                out._put(out.by_uid, RowId.of(language, subset, key), text, src,
                         f"{language}/{subset} key {key!r}", "key")
            else:
                out._put(out.by_key, str(key), text, src, f"key {key!r}", "key",
                         " (add 'language' and 'subset' where keys repeat across languages)")
            continue
        prompt = record.get("prompt", doc.get("prompt") if doc else None)
        if isinstance(prompt, str):
            out._put(out.by_prompt, prompt, text, src, "this prompt", "prompt")
            continue
        raise src.error(f"a response needs a 'key' (or IFEval's 'prompt'); {found_fields(record)}", "key")
    return out


def sample_answers() -> dict[str, str]:
    """prompt -> response for the bundled sample (each prompt's passing response): what the
    loopback server and the mock backend answer with ``sample``."""
    from indicifeval.dataset.rows import load_rows

    responses = load_responses("sample")
    answers: dict[str, str] = {}
    for row in load_rows("sample"):
        text = responses.lookup(row)
        if text is not None and (row.prompt not in answers or str(row.key).endswith("-pass")):
            answers[row.prompt] = text
    return answers
