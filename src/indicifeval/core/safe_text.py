"""Text that can always be written: what arrives from files and servers is made safe once, at
the boundary, so no later write or print can fail on it."""

from __future__ import annotations

import re
from typing import Any

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
# The only way JSON text can carry a surrogate: an escape \uD800-\uDFFF (UTF-8 cannot).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def may_hold_surrogates(json_text: str) -> bool:
    """False when decoding ``json_text`` cannot give a surrogate, so ``sanitize_value`` of
    the result would change nothing (it may be True when none comes out)."""
    return "\\u" in json_text and _SURROGATE_ESCAPE.search(json_text) is not None


def sanitize(text: str) -> str:
    """Lone surrogates (legal in a JSON escape such as ``"\\ud800"``, illegal in UTF-8, so no
    file could hold them) become U+FFFD; everything else is kept as it is."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text)


def sanitize_value(value: Any) -> Any:
    """``sanitize`` applied to every string inside a JSON value."""
    if isinstance(value, str):
        return sanitize(value)
    if isinstance(value, list):
        return [sanitize_value(v) for v in value]
    if isinstance(value, dict):
        return {sanitize(k) if isinstance(k, str) else k: sanitize_value(v) for k, v in value.items()}
    return value
