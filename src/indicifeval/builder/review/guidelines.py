"""The project's own guidelines for its annotators, written by its lead in each build folder's
``review/guidelines.md`` and shown beside every item of that folder. Read as plain text in
blocks (paragraphs, ``-`` or ``1.`` lists, ``#`` headings), never as HTML: the template escapes
every word, so the file can hold nothing that runs. Read again only when it changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import regex

from indicifeval.records.layout import REVIEW_GUIDELINES

MAX_BYTES = 64 * 1024  # a page of guidelines fits many times; a larger file is cut, and says so
_BULLET = regex.compile(r"^\s*[-*•]\s+(.*)$")
_NUMBERED = regex.compile(r"^\s*\d+[.)]\s+(.*)$")
_HEADING = regex.compile(r"^\s*#{1,6}\s+(.*?)\s*#*\s*$")
_cache: dict[Path, tuple[tuple[int, int], dict[str, Any]]] = {}


def blocks(text: str) -> list[dict[str, Any]]:
    """``text`` as blocks: {"kind": "p", "text"}, {"kind": "h", "text"}, {"kind": "ul" | "ol",
    "items"}. Blank lines end a block; an indented line goes on with the list item above it."""
    out: list[dict[str, Any]] = []
    open_block: dict[str, Any] | None = None
    for line in text.splitlines():
        if not line.strip():
            open_block = None
            continue
        bullet, numbered, heading = _BULLET.match(line), _NUMBERED.match(line), _HEADING.match(line)
        if heading:
            out.append({"kind": "h", "text": heading.group(1)})
            open_block = None
        elif bullet or numbered:
            kind, item = ("ul", bullet.group(1)) if bullet else ("ol", numbered.group(1))
            if open_block is None or open_block["kind"] != kind:
                open_block = {"kind": kind, "items": []}
                out.append(open_block)
            open_block["items"].append(item.strip())
        elif open_block is not None and open_block["kind"] in ("ul", "ol") and line[:1].isspace():
            open_block["items"][-1] += " " + line.strip()
        elif open_block is not None and open_block["kind"] == "p":
            open_block["text"] += " " + line.strip()
        else:
            open_block = {"kind": "p", "text": line.strip()}
            out.append(open_block)
    return out


def guidelines_in(folder: str | Path) -> dict[str, Any] | None:
    """The folder's guidelines for the page: {"file", "blocks", "note"}; None without a file
    (the page shows the default ones). A file that cannot be read says why in ``note``."""
    path = Path(folder) / REVIEW_GUIDELINES
    try:
        stat = path.stat()
    except OSError:
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
    hit = _cache.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    note = None
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            data, note = data[:MAX_BYTES], f"{REVIEW_GUIDELINES} is longer than {MAX_BYTES // 1024} KiB: cut there"
        text = data.decode("utf-8", errors="replace" if note else "strict")
    except (OSError, UnicodeDecodeError) as exc:
        text, note = "", f"{REVIEW_GUIDELINES} could not be read ({exc.__class__.__name__}): the defaults apply"
    view = {"file": REVIEW_GUIDELINES, "blocks": blocks(text.lstrip("\ufeff")), "note": note}
    _cache[path] = (stamp, view)
    return view


__all__ = ["MAX_BYTES", "blocks", "guidelines_in"]
