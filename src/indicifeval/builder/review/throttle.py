"""The login limit: failed logins counted per client address and per annotator named, so that
guessing is slowed and said to be (429 with Retry-After) — without ever refusing a right
token: the token is checked first, and only a failure is counted. Counting and deciding are
one step under a lock, so concurrent failures are each counted and at most the limit of them
are answered as a plain wrong token."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable

FAILURES, WINDOW = 5, 60.0  # failed logins answered as such per address and per annotator in WINDOW seconds
MEMORY = 10_000  # keys kept before those with nothing recent are forgotten

Key = tuple[str, str]  # ("address", "203.0.113.5") or ("name", "asha")


class LoginLimit:
    """At most ``failures`` failed logins per key in ``window`` seconds are answered as a wrong
    token; the ones after, until the oldest leaves the window, as too many. In memory, so a
    restart forgets (as it should: the limit slows guessing down, the tokens' 256 bits are what
    stop it). Each key keeps only its last ``failures`` times: a flood costs no memory."""

    def __init__(self, failures: int = FAILURES, window: float = WINDOW, clock: Callable[[], float] = time.time):
        self.failures, self.window, self.clock = failures, window, clock
        self._seen: dict[Key, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: Key, now: float) -> deque[float]:
        times = self._seen.get(key) or deque(maxlen=self.failures)
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def _wait(self, keys: Iterable[Key], now: float) -> float:
        worst = 0.0
        for key in keys:
            times = self._recent(key, now)
            if len(times) >= self.failures:
                worst = max(worst, times[0] + self.window - now)
        return worst

    def wait(self, keys: Iterable[Key]) -> int:
        """Seconds before a failure of any of ``keys`` is answered as a wrong token again; 0: now."""
        with self._lock:
            worst = self._wait(keys, self.clock())
        return math.ceil(worst) if worst > 0 else 0

    def fail(self, keys: Iterable[Key]) -> int:
        """Count one failed login against every key, in one step with the check: 0 when it was
        within the limit (answer: wrong token), else the seconds to wait (answer: 429)."""
        keys = list(keys)
        now = self.clock()
        with self._lock:
            worst = self._wait(keys, now)
            for key in keys:
                times = self._seen[key] = self._recent(key, now)
                times.append(now)
            if len(self._seen) > MEMORY:  # many addresses: forget those with nothing recent
                self._seen = {k: v for k, v in self._seen.items() if self._recent(k, now)}
        return math.ceil(worst) if worst > 0 else 0

    failed = fail

    def succeeded(self, key: Key) -> None:
        """The annotator got in: their count starts again. An address's does not, or one valid
        token would let its holder guess the others' without limit."""
        with self._lock:
            self._seen.pop(key, None)


__all__ = ["FAILURES", "WINDOW", "Key", "LoginLimit"]
