"""Multi-turn rows (``records.Conversation``): the one reader and the writers.

Read: Multi-IF's own format (CSV or JSON lines/JSON/Parquet; ``key``, ``language`` as an
English name or a code, and per turn N ``turn_N_prompt`` as a JSON-encoded message
``{"role": "user", "content": ...}``, ``turn_N_instruction_id_list`` as a list or its JSON text,
``turn_N_kwargs`` as a list of JSON strings or its JSON text; a turn is absent when its prompt
is empty or "None") and our own JSON lines (``turns``: a list of ``{prompt,
instruction_id_list, kwargs}``). Each turn's ids must be known, its kwargs valid for the
language; an error names file, line and field (``turn_2_kwargs[0].num_words``).

Written: Multi-IF's format (JSON lines or CSV, every turn field as Multi-IF's CSV cells hold
it, so that its own scorer reads our files) and our own JSON lines (``Conversation.to_json``)."""

from __future__ import annotations

import csv
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from indicifeval.checkers import REGISTRY, Draw, KwargError, ScoringMode, clean_kwargs, get_rules, resolve_args
from indicifeval.core.errors import InputError, Source
from indicifeval.core.files import StagedFiles, write_text
from indicifeval.core.safe_text import sanitize_value
from indicifeval.dataset.hub_layout import conversation_config, is_hub_layout
from indicifeval.dataset.readers import read_records
from indicifeval.dataset.rows import check_key, found_fields
from indicifeval.languages import UnknownLanguageError, get_profile, list_languages, world_languages
from indicifeval.records import MULTITURN, Conversation, Turn
from indicifeval.records.layout import RELEASE_CONVERSATIONS, RELEASE_ROWS

TURN_PROMPT = re.compile(r"turn_(\d+)_prompt")
_ABSENT = ("", "None")
_INTEGER = re.compile(r"0|-?[1-9][0-9]{0,17}")


def is_multiturn_record(record: dict) -> bool:
    """Whether a record is a conversation: our ``turns`` list or Multi-IF's ``turn_N_prompt``."""
    return isinstance(record.get("turns"), list) or any(TURN_PROMPT.fullmatch(str(k)) for k in record)


def is_multiturn_data(data: str | Path) -> bool:
    """Whether a file (or a folder's first file) holds conversations: a ``.csv`` always does
    (rows are never CSV), so does a release folder or hub layout with conversations and no
    rows; otherwise its first record tells."""
    path = Path(data)
    if not path.exists():
        return False
    if path.is_dir() and ((path / RELEASE_CONVERSATIONS).is_file() or _hub_files(path) or _hub_files(path / "hub")):
        # a release or hub layout holding conversations and no rows
        return not (path / RELEASE_ROWS).is_file() and not is_hub_layout(path) and not is_hub_layout(path / "hub")
    if path.is_file() and path.suffix.lower() == ".csv":
        return True
    if path.is_dir() and any(path.glob("*.csv")):
        return True
    try:
        for _, record in read_records(path):
            return is_multiturn_record(record)
    except InputError:
        return False
    return False


def language_code(value: Any, source: Source, field_name: str = "language") -> str:
    """Our code for a language given as a code (``hi``) or an English name (``Hindi``, any case)."""
    if not isinstance(value, str) or not value.strip():
        raise source.error(f"language must be a code or an English name, got {value!r:.40}", field_name)
    text = value.strip()
    try:
        get_profile(text)
        return text
    except UnknownLanguageError:
        pass
    for code in list_languages():
        if get_profile(code).name.casefold() == text.casefold():
            return code
    world = [code for code, entry in world_languages().items() if str(entry.get("name", "")).casefold()
             == text.casefold()]
    if world:
        raise source.error(f"{text} ({world[0]}) has no language profile: conversations are scored in "
                           f"{', '.join(list_languages())}", field_name)
    raise source.error(f"unknown language {text!r}: give a code ({', '.join(list_languages())}) or its English "
                       f"name (Hindi, Bengali...)", field_name)


def _decoded(value: Any, source: Source, field_name: str, what: str) -> Any:
    """A JSON cell's value: Multi-IF's CSV holds lists and messages as JSON text."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            raise source.error(f"must be {what}, got text that is not JSON: {value!r:.60}", field_name) from None
    return value


def _message(value: Any, source: Source, field_name: str) -> str:
    what = 'a JSON-encoded message {"role": "user", "content": ...}'
    message = _decoded(value, source, field_name, what)
    if isinstance(message, list) and len(message) == 1:
        message = message[0]
    if not isinstance(message, dict) or not isinstance(message.get("content"), str):
        raise source.error(f"must be {what}, got {str(value)[:60]!r}", field_name)
    if message.get("role", "user") != "user":
        raise source.error(f"a turn's prompt is the user's message, got role {message.get('role')!r}", field_name)
    return message["content"]


def _turn(n: int, prompt: str, ids: Any, kwargs: Any, source: Source, names: tuple[str, str, str],
          language: str, key: Any) -> Turn:
    """One turn, checked: known ids, as many kwargs, each valid for the language (fixed mode)."""
    _, ids_field, kwargs_field = names
    ids = _decoded(ids, source, ids_field, "a list of instruction ids")
    if not isinstance(ids, (list, tuple)) or not ids or not all(isinstance(i, str) for i in ids):
        raise source.error(f"turn {n} needs a non-empty list of instruction ids", ids_field)
    for index, iid in enumerate(ids):
        if iid not in REGISTRY:
            raise source.error(f"unknown instruction id {iid!r}", f"{ids_field}[{index}]")
    kwargs = _decoded(kwargs, source, kwargs_field, "a list of kwargs (JSON strings or objects)")
    if not isinstance(kwargs, (list, tuple)) or len(kwargs) != len(ids):
        got = len(kwargs) if isinstance(kwargs, (list, tuple)) else f"a {type(kwargs).__name__}"
        raise source.error(f"must be a list as long as the turn's instruction ids ({len(ids)}), got {got}",
                           kwargs_field)
    rules = get_rules(language, MULTITURN, ScoringMode.FIXED)
    cleaned = []
    for index, (iid, kw) in enumerate(zip(ids, kwargs)):
        where = f"{kwargs_field}[{index}]"
        kw = _decoded(kw, source, where, "a JSON object")
        if kw is None:
            kw = {}
        why = REGISTRY[iid].unavailable(rules.profile, False)
        if why is not None:
            raise source.error(why, f"{ids_field}[{index}]")
        try:
            clean = clean_kwargs(iid, kw)
            resolve_args(iid, clean, rules, Draw(key, index))
        except KwargError as exc:
            raise source.error(f"{exc} ({iid})", f"{where}.{exc.field}") from None
        cleaned.append(clean)
    return Turn(prompt, tuple(ids), tuple(cleaned))


def _multi_if_turns(record: dict, source: Source, language: str, key: Any) -> list[Turn]:
    numbers = sorted(int(m.group(1)) for k in record if (m := TURN_PROMPT.fullmatch(str(k))))
    turns: list[Turn] = []
    gap = None
    for n in range(1, (numbers[-1] if numbers else 0) + 1):
        names = (f"turn_{n}_prompt", f"turn_{n}_instruction_id_list", f"turn_{n}_kwargs")
        value = record.get(names[0])
        if value is None or (isinstance(value, str) and value.strip() in _ABSENT):
            gap = gap or n
            continue
        if gap is not None:
            raise source.error(f"turn {n} is given but turn {gap} is absent: turns run 1, 2, 3... without gaps",
                               names[0])
        for name in names[1:]:
            if name not in record:
                raise source.error(f"turn {n} has a prompt and no {name}; {found_fields(record)}", name)
        turns.append(_turn(n, _message(value, source, names[0]), record[names[1]], record[names[2]], source, names,
                           language, key))
    return turns


def _own_turns(record: dict, source: Source, language: str, key: Any) -> list[Turn]:
    turns = []
    for n, turn in enumerate(record["turns"], start=1):
        base = f"turns[{n - 1}]"
        if not isinstance(turn, dict) or not isinstance(turn.get("prompt"), str):
            raise source.error("a turn is an object with a prompt (text), instruction_id_list and kwargs", base)
        turns.append(_turn(n, turn["prompt"], turn.get("instruction_id_list"), turn.get("kwargs"), source,
                           (f"{base}.prompt", f"{base}.instruction_id_list", f"{base}.kwargs"), language, key))
    return turns


def parse_conversation(record: dict, source: Source, language: str | None = None) -> Conversation:
    """One conversation, validated; ``language`` fills in a record without one (and must agree)."""
    if "key" not in record:
        raise source.error(f"missing field; {found_fields(record)}", "key")
    key = check_key(record["key"], source)
    own = record.get("language")
    if own in (None, ""):
        if language is None:
            raise source.error("no language: give the row a 'language' field or pass --language", "language")
        code = language_code(language, source)
    else:
        code = language_code(own, source)
        if language is not None and language_code(language, source) != code:
            raise source.error(f"the row's language is {code!r}, but {language!r} was given (--language only fills "
                               f"in rows that have none)", "language")
    subset = record.get("subset") or MULTITURN
    if subset != MULTITURN:
        raise source.error(f"a conversation's subset is {MULTITURN!r}, got {subset!r}", "subset")
    tags = record.get("tags") or ()
    if not isinstance(tags, (list, tuple)) or not all(isinstance(t, str) for t in tags):
        raise source.error("tags must be a list of strings", "tags")
    if isinstance(record.get("turns"), list):
        turns = _own_turns(record, source, code, key)
    else:
        turns = _multi_if_turns(record, source, code, key)
    if not turns:
        raise source.error("a conversation needs at least one turn (turn_1_prompt is empty or None)",
                           "turn_1_prompt" if "turns" not in record else "turns")
    return Conversation(key, code, tuple(turns), MULTITURN, tuple(tags), source)


def read_csv(path: Path) -> Iterator[tuple[Source, dict]]:
    """(source, record) of a CSV file with a header; ``line`` is where the record starts."""
    csv.field_size_limit(sys.maxsize)
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames is None:
            raise InputError("an empty CSV file (no header)", str(path))
        start = reader.line_num + 1
        for record in reader:
            source = Source(str(path), start)
            start = reader.line_num + 1
            if None in record:
                raise source.error("more cells than the header has names")
            record = {k: v for k, v in record.items() if k}
            key = record.get("key")
            if isinstance(key, str) and _INTEGER.fullmatch(key):  # Multi-IF's keys are integers: a cell is text
                record["key"] = int(key)
            yield source, sanitize_value(record)


def _hub_files(folder: Path) -> list[Path]:
    """The conversations' split files of a hub layout (``indicifeval-multiturn/<lang>-*.parquet``)."""
    return sorted((folder / conversation_config()).glob("*.parquet")) if folder.is_dir() else []


def conversation_records(data: str | Path | Iterable[dict]) -> Iterator[tuple[Source, dict]]:
    """(source, record) of conversations: a CSV, JSON lines, JSON or Parquet file or folder; a
    hub layout (its ``indicifeval-multiturn`` config), a release folder (its ``conversations.jsonl``,
    else its ``hub/``); or dicts."""
    if isinstance(data, (str, Path)):
        path = Path(data)
        if not path.exists():
            raise InputError("file not found", str(path))
        if path.is_dir() and (path / RELEASE_CONVERSATIONS).is_file():  # a release folder
            yield from read_records(path / RELEASE_CONVERSATIONS)
            return
        hub = next((h for h in (path, path / "hub") if _hub_files(h)), None)
        if hub is not None:
            for file in _hub_files(hub):
                yield from read_records(file)
            return
        files = sorted(path.glob("*.csv")) if path.is_dir() else []
        if path.is_file() and path.suffix.lower() == ".csv":
            files = [path]
        if files:
            for file in files:
                yield from read_csv(file)
            return
        yield from read_records(path)
        return
    for i, record in enumerate(data, start=1):
        source = Source("<memory>", i)
        if not isinstance(record, dict):
            raise source.error(f"expected a conversation object, got {type(record).__name__}")
        yield source, sanitize_value(record)


def load_conversations(data: str | Path | Iterable[dict] | Iterable[Conversation], language: str | None = None,
                       languages: Iterable[str] | None = None) -> list[Conversation]:
    """Conversations from a CSV/JSONL/JSON/Parquet file or folder, or dicts; ``languages`` keeps
    only those. Raises InputError on a bad record or a key repeated within a language."""
    if isinstance(data, list) and data and all(isinstance(c, Conversation) for c in data):
        found = list(data)
    else:
        found = [parse_conversation(record, source, language)
                 for source, record in conversation_records(data)]  # type: ignore[arg-type]
    if not found:
        raise InputError("no conversations", str(data) if isinstance(data, (str, Path)) else None)
    wanted = set(languages) if languages is not None else None
    kept = [c for c in found if wanted is None or c.language in wanted]
    if not kept:
        raise InputError("no conversations left after choosing languages")
    seen: dict[str, Conversation] = {}
    for c in kept:
        first = seen.setdefault(str(c.id), c)
        if first is not c:
            where = f"first at {first.source.file}, line {first.source.line}" if first.source else "seen before"
            error = c.source.error if c.source else (lambda m, f: InputError(m, field=f))
            raise error(f"duplicate key {c.key!r} for {c.language} ({where})", "key")
    return kept


def multi_if_record(conversation: Conversation, turns: int | None = None) -> dict[str, Any]:
    """Multi-IF's record of a conversation, each turn field as its CSV cell holds it (JSON text);
    ``turns``: how many turn columns to write (absent ones are "None")."""
    out: dict[str, Any] = {"key": conversation.key, "language": get_profile(conversation.language).name}
    for n in range(1, max(turns or 0, len(conversation.turns)) + 1):
        if n > len(conversation.turns):
            out[f"turn_{n}_prompt"] = out[f"turn_{n}_instruction_id_list"] = out[f"turn_{n}_kwargs"] = "None"
            continue
        turn = conversation.turns[n - 1]
        out[f"turn_{n}_prompt"] = json.dumps({"role": "user", "content": turn.prompt}, ensure_ascii=False)
        out[f"turn_{n}_instruction_id_list"] = json.dumps(list(turn.instruction_id_list), ensure_ascii=False)
        out[f"turn_{n}_kwargs"] = json.dumps([json.dumps(dict(k), ensure_ascii=False) for k in turn.kwargs],
                                             ensure_ascii=False)
    return out


def write_multi_if(conversations: Iterable[Conversation], path: str | Path) -> Path:
    """Multi-IF's format: CSV when ``path`` ends in .csv, else JSON lines."""
    items = list(conversations)
    most = max((len(c.turns) for c in items), default=0)
    records = [multi_if_record(c, most) for c in items]
    target = Path(path)
    if target.suffix.lower() == ".csv":
        import io

        buffer = io.StringIO()
        names = ["key", "language"] + [f"turn_{n}_{f}" for n in range(1, most + 1)
                                       for f in ("prompt", "instruction_id_list", "kwargs")]
        writer = csv.DictWriter(buffer, fieldnames=names, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        write_text(target, buffer.getvalue())
    else:
        write_text(target, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return target


def write_conversations_hub(folder: str | Path, conversations: Iterable[Conversation]) -> list[Path]:
    """The hub layout's conversations: ``indicifeval-multiturn/<lang>-00000-of-00001.parquet``,
    one file per language, each record Multi-IF's (every turn field its JSON text, absent turns
    "None") and the conversation's tags; read back by ``load_conversations``. Staged: the files
    replace earlier ones together."""
    from indicifeval.dataset.writers import _pyarrow, parquet_bytes

    pa = _pyarrow()
    by_language: dict[str, list[Conversation]] = {}
    for c in conversations:
        by_language.setdefault(c.language, []).append(c)
    config = conversation_config()
    staged = StagedFiles(folder)
    with staged:
        for language, found in sorted(by_language.items()):
            most = max(len(c.turns) for c in found)
            ints = all(isinstance(c.key, int) and not isinstance(c.key, bool) for c in found)
            records = [{**multi_if_record(c, most), "key": c.key if ints else str(c.key), "tags": list(c.tags)}
                       for c in found]
            fields = [("key", pa.int64() if ints else pa.string()), ("language", pa.string())]
            fields += [(f"turn_{n}_{f}", pa.string()) for n in range(1, most + 1)
                       for f in ("prompt", "instruction_id_list", "kwargs")]
            schema = pa.schema([*fields, ("tags", pa.list_(pa.string()))])
            staged.write_bytes(f"{config}/{language}-00000-of-00001.parquet", parquet_bytes(records, schema))
    return [Path(folder) / n for n in staged.names]


def write_conversations_jsonl(conversations: Iterable[Conversation], path: str | Path) -> Path:
    """Our own format: one ``Conversation.to_json`` per line."""
    target = Path(path)
    write_text(target, "".join(json.dumps(c.to_json(), ensure_ascii=False) + "\n" for c in conversations))
    return target


__all__ = ["conversation_records", "is_multiturn_data", "is_multiturn_record", "language_code",
           "load_conversations", "multi_if_record", "parse_conversation", "read_csv", "write_conversations_hub",
           "write_conversations_jsonl", "write_multi_if"]
