"""What ``indicifeval serve`` reads, made safe before the scorer sees it: the body, read no
further than its limit; its JSON, refused where parsing it would cost far more memory than its
size (too many values), and with numbers JSON cannot carry (an integer of more than 4,300
digits, NaN, Infinity, 1e999) a 4xx naming their field, not a 500; and the item fields the
scorer remembers rows without (``key``, ``prompt``, ``response``), checked on every request."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from indicifeval.core.errors import Source
from indicifeval.core.jsonl import where_in
from indicifeval.dataset.rows import check_key

MAX_DIGITS = 4300  # Python's own limit on converting an integer's digits (sys.int_info.default_max_str_digits)
# JSON values in one body: parsed, each costs 30-80 bytes however short its text ("[[],[],...").
VALUES_PER_ITEM = 256
MIN_VALUES = 1_000_000
_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


class HTTPError(Exception):
    def __init__(self, status: int, message: str, field: str | None = None, item: int | None = None,
                 limit: str | None = None):
        super().__init__(message)
        self.status, self.message, self.field, self.item, self.limit = status, message, field, item, limit

    def to_json(self) -> dict[str, Any]:
        return {"error": self.message, **({"field": self.field} if self.field else {}),
                **({"item": self.item} if self.item is not None else {}),
                **({"limit": self.limit} if self.limit else {})}


class Gone(Exception):
    """The client went away before its request was read."""


class _Bad:
    """A number JSON cannot carry, kept where it stood until its field is named."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why


def max_values(max_batch: int) -> int:
    return max(MIN_VALUES, VALUES_PER_ITEM * max_batch)


def count_values(body: bytes) -> int:
    """At least the JSON values of the body less one (a comma or an opening bracket before
    each, outside strings); linear, a pass over the body without its strings."""
    bare = _STRINGS.sub(b"", body)
    return bare.count(b",") + bare.count(b"[") + bare.count(b"{")


def parse(body: bytes, jsonl: bool, most_values: int, most_lines: int | None = None) -> Any:
    """The body as JSON (or JSON lines: one value a line, lines split on ``\\n`` only, so
    U+2028 and its kind inside an answer's string stay in it)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HTTPError(400, f"the body is not UTF-8 (byte {exc.start + 1})") from None
    if len(body) > 2 * most_values and count_values(body) > most_values:  # (each value takes 2 bytes or more)
        raise HTTPError(413, f"the body holds over {most_values:,} JSON values, more than a batch needs")
    if jsonl:  # each line parsed alone: an error names the body's line, not the line's own (always 1)
        lines = [(number, line) for number, line in enumerate(text.split("\n"), start=1) if line.strip()]
        if most_lines is not None and len(lines) > most_lines:
            raise HTTPError(413, f"{len(lines):,} items, over the batch limit of {most_lines:,}", "items")
        items = []
        for n, (number, line) in enumerate(lines, start=1):
            try:
                items.append(loads(line, number, " lines"))
            except HTTPError as exc:
                exc.item = n if exc.field is not None else None
                raise
        return items
    return loads(text, 1, "")


def loads(text: str, first_line: int = 1, kind: str = "", name: str | None = None) -> Any:
    """``text`` (which starts at the body's line ``first_line``) as strict JSON, or a 4xx
    naming the body's line and column (or, for a field given as JSON text, the field)."""
    bad: list[bool] = []
    try:
        value = json.loads(text, parse_int=_catch(_int, bad), parse_float=_catch(_float, bad),
                           parse_constant=_catch(_constant, bad))
    except json.JSONDecodeError as exc:
        if name is not None:
            raise HTTPError(422, f"{name} is a string but not JSON ({exc.msg})", name) from None
        line, column = where_in(text, exc.pos)
        raise HTTPError(400, f"the body is not valid JSON{kind}: {exc.msg} at line {first_line + line - 1}, "
                        f"column {column}") from None
    except RecursionError:
        raise HTTPError(400 if name is None else 422, f"{name or 'the body'} is nested too deeply", name) from None
    if bad:
        path, why = _first_bad(value)
        if name is not None:
            path = name + ("." if path and not path.startswith("[") else "") + path
        raise HTTPError(422 if path else 400, why + (f" (in {path})" if path else ""), path or None)
    return value


def _catch(read: Callable[[str], Any], bad: list[bool]) -> Callable[[str], Any]:
    def hook(text: str) -> Any:
        value = read(text)
        if isinstance(value, _Bad):
            bad.append(True)
        return value
    return hook


def _int(text: str) -> Any:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        return _Bad(f"an integer of {digits:,} digits, over the limit of {MAX_DIGITS:,}")
    return int(text)


def _float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else _Bad(f"{text[:20]} is too large a number for JSON")


def _constant(name: str) -> Any:
    return _Bad(f"{name} is not a number JSON allows (strict JSON has no NaN or Infinity)")


def _first_bad(value: Any) -> tuple[str, str]:
    """The path (``items[2].kwargs[0].n``) and reason of the first unfit number; iterative,
    so a value nested as deeply as JSON allows costs no recursion."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _Bad):
            return path, node.why
        if isinstance(node, dict):
            stack.extend((f"{path}.{k}" if path else str(k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(node))))
    return "", "a number JSON cannot carry"


def split_path(path: str | None) -> tuple[int | None, str | None]:
    """``[3].kwargs[0].n`` or ``items[3].kwargs[0].n`` -> (item 4, ``kwargs[0].n``)."""
    if path is None:
        return None, None
    m = re.match(r"(?:items)?\[(\d+)\]\.?(.*)", path)
    if m is None:
        return None, path
    return int(m.group(1)) + 1, m.group(2) or None


def check_item(item: Any, where: Source) -> Any:
    """An item's fields the scorer may take from a remembered row rather than read again: its
    own ``key``, ``prompt`` and ``response``, each checked every time; a field given as JSON
    text (``kwargs``, as TRL's columns hold it) parsed here, strictly."""
    if not isinstance(item, dict):
        return item
    if "key" in item:
        check_key(item["key"], where)
    if item.get("prompt") is not None and not isinstance(item["prompt"], str):
        raise where.error(f"prompt must be a string, got {type(item['prompt']).__name__}", "prompt")
    response = item.get("response")
    if response is not None and not isinstance(response, (str, list, dict)):
        raise where.error("response must be the answer (a string), a chat completion (a list of messages) or "
                          f"a message, got {type(response).__name__}", "response")
    if isinstance(item.get("kwargs"), str):
        try:
            return {**item, "kwargs": loads(item["kwargs"], name="kwargs")}
        except HTTPError as exc:
            raise where.error(exc.message, exc.field or "kwargs") from None
    return item


__all__ = ["MAX_DIGITS", "Gone", "HTTPError", "check_item", "count_values", "loads", "max_values", "parse",
           "split_path"]
