"""The model's reply to a Ground prompt request, read as its JSON object: models wrap it in
code fences or prose, run out of tokens in the middle, or (older prompts) answer a context they
will not use with one magic sentence. Each failure comes back as a reason, never an exception,
so the rows stage can count and show them."""

from __future__ import annotations

import json
import re
from typing import Any

LEGACY_UNSAFE = "This context contains controversial themes"
_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_DECODER = json.JSONDecoder()


def _unfenced(text: str) -> str:
    """The inside of the first code fence (an unclosed one runs to the end), else the text."""
    match = _FENCE.search(text)
    return match.group(1) if match else text


def _decode(text: str) -> tuple[Any, str | None]:
    """The first JSON object in ``text`` that looks like the answer, else why there is none.
    A later ``{`` is tried only when the first fails, and taken only if it has ``instruction``,
    so a brace in prose before the answer does not hide it, and a nested object of a broken
    answer is not taken for the answer."""
    starts = [i for i, c in enumerate(text) if c == "{"]
    if not starts:
        return None, "no JSON object in the reply"
    first_error: str | None = None
    for n, start in enumerate(starts):
        try:
            value, _ = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as exc:
            if first_error is None:
                first_error = _why(exc, text)
            continue
        except RecursionError:
            first_error = first_error or "malformed JSON (nested too deeply)"
            continue
        except ValueError:  # an integer of more digits than Python converts
            first_error = first_error or "malformed JSON (a number with too many digits)"
            continue
        if n == 0 or (isinstance(value, dict) and "instruction" in value):
            return value, None
    return None, first_error


def _why(exc: json.JSONDecodeError, text: str) -> str:
    if exc.msg.startswith("Unterminated string") or exc.pos >= len(text.rstrip()):
        return "truncated JSON"
    before = text[: exc.pos].rstrip()
    if before.endswith(",") and text[exc.pos: exc.pos + 1] in ("}", "]"):
        return f"malformed JSON (trailing comma, column {exc.colno})"
    sep = " " if exc.msg.endswith(" at") else ", "
    return f"malformed JSON ({exc.msg}{sep}column {exc.colno})"


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def parse_json_answer(text: str) -> tuple[dict | None, str | None]:
    """(the answer object, None) or (None, why). The object has ``instruction`` (a non-empty
    string, unless the model calls the context unsafe), ``constraint`` (a string) and
    ``unsafe`` (a bool; "true"/"false" strings are taken); other keys are kept as they are."""
    if not isinstance(text, str) or not text.strip():
        return None, "empty reply"
    body = _unfenced(text)
    value, why = _decode(body)
    if why is not None:
        if why == "no JSON object in the reply" and LEGACY_UNSAFE.casefold() in text.casefold():
            return {"instruction": "", "constraint": "", "unsafe": True}, None
        return None, why
    if not isinstance(value, dict):
        return None, f"the reply is a JSON {type(value).__name__}, not an object"
    for name in ("instruction", "constraint", "unsafe"):
        if name not in value:
            return None, f"missing {name!r}"
        if name != "unsafe" and not isinstance(value[name], str):
            return None, f"{name!r} is not a string"
    unsafe = _flag(value["unsafe"])
    if unsafe is None:
        return None, "'unsafe' is not true or false"
    if not unsafe and not value["instruction"].strip():
        return None, "'instruction' is empty"
    return {**value, "unsafe": unsafe}, None
