"""A cache bounded by the size of its keys as well as their number: the checkers cache what
they make of an instruction's arguments (a compiled pattern, a normalised keyword), and under
``indicifeval serve`` the arguments are whatever a client sends. ``functools.lru_cache`` bounds
a cache by count only: 4,096 keywords of 100,000 characters each, compiled, fill gigabytes."""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import regex

F = TypeVar("F", bound=Callable[..., Any])

MAX_CHARS = 2**20  # the characters of a cache's keys, together (its values are a small multiple of them)


def bounded_cache(maxsize: int, max_chars: int = MAX_CHARS) -> Callable[[F], F]:
    """``lru_cache(maxsize)`` that also forgets its least recently used entries past
    ``max_chars`` characters of string arguments, and keeps none of over an eighth of them
    (nor, for a compiled pattern, do ``re`` and ``regex``' own caches); thread-safe.
    Positional arguments only, as the checkers' caches are called."""

    def decorate(fn: F) -> F:
        entries: OrderedDict[tuple, tuple[Any, int]] = OrderedDict()
        total = [0]
        lock = threading.Lock()

        @functools.wraps(fn)
        def cached(*args: Any) -> Any:
            with lock:
                found = entries.get(args)
                if found is not None:
                    entries.move_to_end(args)
                    return found[0]
            value = fn(*args)
            chars = 16 + sum(len(a) for a in args if isinstance(a, str))
            if chars > max_chars // 8:
                if isinstance(value, (re.Pattern, regex.Pattern)):
                    _forget_patterns()
                return value
            with lock:
                if args not in entries:
                    entries[args] = (value, chars)
                    total[0] += chars
                    while len(entries) > maxsize or total[0] > max_chars:
                        total[0] -= entries.popitem(last=False)[1][1]
            return value

        def cache_clear() -> None:
            with lock:
                entries.clear()
                total[0] = 0

        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        cached.cache_chars = lambda: total[0]  # type: ignore[attr-defined]
        return cached  # type: ignore[return-value]

    return decorate


def _forget_patterns() -> None:
    """``re`` and ``regex`` keep the last 500-odd patterns they compiled, whatever their size: a
    pattern too large to keep here is not kept there either (they forget the rest with it)."""
    re.purge()
    regex.purge()


__all__ = ["MAX_CHARS", "bounded_cache"]
