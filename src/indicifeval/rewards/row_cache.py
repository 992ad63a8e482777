"""The rows a server's scorer remembers, bounded by their size: every new set of kwargs is a
new entry, and a count alone would let a few thousand large ones fill a worker's memory."""

from __future__ import annotations

import threading
from typing import Any

from indicifeval.rewards.verdicts import RewardScorer


class BoundedRows(dict):
    """A dict that forgets its oldest entries past ``max_bytes`` (the approximate size of each
    entry's key, which holds the instructions and their kwargs as JSON text, and of its row's
    prompt); an entry larger than an eighth of the bound is not kept at all."""

    def __init__(self, max_bytes: int):
        super().__init__()
        self.max_bytes, self.bytes = max_bytes, 0
        self._sizes: dict[Any, int] = {}
        self._lock = threading.Lock()

    def __setitem__(self, key: Any, value: Any) -> None:
        size = approximate_size(key, value)
        if size > self.max_bytes // 8:
            return
        with self._lock:
            if key in self._sizes:
                self.bytes -= self._sizes.pop(key)
                super().__delitem__(key)
            while self._sizes and self.bytes + size > self.max_bytes:
                oldest = next(iter(self._sizes))
                self.bytes -= self._sizes.pop(oldest)
                super().__delitem__(oldest)
            super().__setitem__(key, value)
            self._sizes[key] = size
            self.bytes += size


def approximate_size(key: Any, value: Any) -> int:
    """Bytes, roughly: the parsed kwargs take about their JSON text, twice (as given and as
    resolved), and each of their values an object of its own (about 120 bytes, a string and its
    place in a list, twice); the prompt about its length; each entry a little more."""
    text = str(key)
    prompt = getattr(getattr(value, "row", None), "prompt", "")
    return (2 * len(text) + 120 * (text.count(",") + text.count(":")) +
            2 * len(prompt if isinstance(prompt, str) else "") + 1024)


def bound_rows(scorer: RewardScorer, max_bytes: int) -> None:
    """Make ``scorer`` remember its rows within ``max_bytes``."""
    rows = BoundedRows(max_bytes)
    for key, value in scorer._rows.items():
        rows[key] = value
    scorer._rows = rows


__all__ = ["BoundedRows", "approximate_size", "bound_rows"]
