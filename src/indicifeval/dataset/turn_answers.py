"""A conversation's answers, turn by turn, as they come.

Per line: ``{key, turn, response}`` (one turn's answer, ``turn`` from 1), or ``{key,
responses: [turn 1's, turn 2's, ...]}`` (a conversation's answers; fewer than its turns leaves
the rest unanswered); either with ``language`` where one file mixes languages whose keys
collide. ``null`` is an answer recorded as missing. In memory: a list of such dicts, or a
mapping of key to the list of answers. Two answers for one turn are an error naming both
places."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError, Source
from indicifeval.core.safe_text import sanitize_value
from indicifeval.dataset.readers import read_records
from indicifeval.dataset.rows import check_key, found_fields
from indicifeval.records import Conversation

MISSING = object()  # no answer at all (``None``: an answer recorded as missing)


@dataclass
class TurnAnswers:
    """Answers by (language, key, turn) where a line names its language, else by (key, turn)."""

    by_language: dict[tuple[str, str, int], str | None] = field(default_factory=dict)
    by_key: dict[tuple[str, int], str | None] = field(default_factory=dict)
    sources: dict[tuple, Source] = field(default_factory=dict)

    def lookup(self, conversation: Conversation, turn: int) -> Any:
        """The answer to ``turn`` (1-based): text, None (recorded as missing) or ``MISSING``."""
        key = str(conversation.key)
        found = self.by_language.get((conversation.language, key, turn), MISSING)
        return found if found is not MISSING else self.by_key.get((key, turn), MISSING)

    def __len__(self) -> int:
        return len(self.by_language) + len(self.by_key)

    def put(self, language: str | None, key: Any, turn: int, text: str | None, source: Source) -> None:
        name: tuple = (str(key), turn) if language is None else (language, str(key), turn)
        table: dict = self.by_key if language is None else self.by_language
        first = self.sources.get(name)
        if first is not None:
            raise source.error(f"a second answer for key {key!r} turn {turn} (the first at {first.file}, line "
                               f"{first.line})", "turn")
        self.sources[name] = source
        table[name] = text


def _text(value: Any, source: Source, field_name: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise source.error(f"an answer must be text or null, got {type(value).__name__}", field_name)


def _add(answers: TurnAnswers, record: dict, source: Source) -> None:
    if "key" not in record:
        raise source.error(f"an answer line needs a key; {found_fields(record)}", "key")
    key = check_key(record["key"], source)
    language = record.get("language")
    if language is not None and not isinstance(language, str):
        raise source.error("language must be a string", "language")
    if isinstance(record.get("responses"), list):
        for n, value in enumerate(record["responses"], start=1):
            answers.put(language, key, n, _text(value, source, f"responses[{n - 1}]"), source)
        return
    if "turn" not in record or "response" not in record:
        raise source.error("an answer line is {key, turn, response} or {key, responses: [turn 1's, turn 2's...]}; "
                           + found_fields(record), "turn" if "turn" not in record else "response")
    turn = record["turn"]
    if isinstance(turn, str) and turn.isdigit():
        turn = int(turn)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise source.error(f"turn must be a whole number from 1, got {turn!r:.20}", "turn")
    answers.put(language, key, turn, _text(record["response"], source, "response"), source)


def load_turn_answers(data: str | Path | Iterable[dict] | Mapping[Any, list]) -> TurnAnswers:
    """Answers from a JSONL/JSON file or folder, a list of dicts, or a key -> answers mapping."""
    answers = TurnAnswers()
    if isinstance(data, Mapping):
        for i, (key, texts) in enumerate(data.items(), start=1):
            _add(answers, {"key": key, "responses": list(texts)}, Source("<memory>", i))
    elif isinstance(data, (str, Path)):
        for source, record in read_records(data):
            _add(answers, record, source)
    else:
        for i, record in enumerate(data, start=1):
            source = Source("<memory>", i)
            if not isinstance(record, dict):
                raise source.error(f"expected an answer object, got {type(record).__name__}")
            _add(answers, sanitize_value(record), source)
    if not len(answers):
        raise InputError("no answers", str(data) if isinstance(data, (str, Path)) else None)
    return answers


__all__ = ["MISSING", "TurnAnswers", "load_turn_answers"]
