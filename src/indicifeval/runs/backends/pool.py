"""Requests through an HTTP session with a fixed number in flight: what the OpenAI-compatible
backend and the Sarvam translator share. A failed item stops new ones from starting; the ones
already answered have been handed to ``on_result`` (and so are kept by a resumable run)."""

from __future__ import annotations

import asyncio
import random
import socket
import threading
from collections.abc import Awaitable, Callable, Sequence
from queue import SimpleQueue
from typing import Any

from indicifeval.runs.backends.base import BackendError, OnResult
from indicifeval.runs.backends.http1 import CannotConnect
from indicifeval.runs.requests import GenerationRequest, GenerationResult


async def run_in_session(requests: Sequence[GenerationRequest], concurrency: int, timeout_s: float,
                         headers: dict[str, str], one: Callable[[Any, GenerationRequest], Awaitable[GenerationResult]],
                         on_result: OnResult) -> list[str]:
    """``run_pool`` over one aiohttp session with ``headers``, ``concurrency`` connections and a
    total timeout per request; ``one(session, request)`` answers a request. Returns the failures."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=concurrency)
    timeout = aiohttp.ClientTimeout(total=timeout_s)
    async with aiohttp.ClientSession(headers=headers, connector=connector, timeout=timeout) as session:
        return await run_pool(requests, concurrency, lambda request: one(session, request), on_result)


async def run_pool(requests: Sequence[GenerationRequest], concurrency: int,
                   one: Callable[[GenerationRequest], Awaitable[GenerationResult]], on_result: OnResult) -> list[str]:
    """Answer ``requests`` with ``one``, ``concurrency`` at a time; returns the failures. The
    answers go to ``on_result`` through a ``Journal``, in the order they came; an error there (a
    full disk) stops new requests, and is raised once every answer in hand has been handed on.

    A slot is given back only once its answer is journalled, not when it arrives: at any moment
    at most ``concurrency`` requests are asked or answered-but-not-yet-kept, so a kill never
    loses (and a resume never asks again) more than that."""
    queue: asyncio.Queue[GenerationRequest] = asyncio.Queue()
    for r in requests:
        queue.put_nowait(r)
    failures: list[str] = []
    unreachable: list[Unreachable] = []
    loop = asyncio.get_running_loop()
    slots = asyncio.Semaphore(max(1, concurrency))
    journal = Journal(on_result, loop, kept=lambda: loop.call_soon_threadsafe(slots.release))

    async def worker() -> None:
        while not failures and not unreachable and not journal.errors:
            await slots.acquire()
            try:
                request = queue.get_nowait()
            except asyncio.QueueEmpty:
                slots.release()
                return
            try:
                result = await one(request)
            except Unreachable as exc:
                slots.release()
                unreachable.append(exc)
                continue
            except BackendError as exc:
                slots.release()
                failures.append(str(exc))
                continue
            journal.put(result)  # its slot comes back once it is journalled

    try:
        await asyncio.gather(*(worker() for _ in range(min(concurrency, len(requests)))))
    finally:
        journal.close()  # also when cancelled (Ctrl-C): what came back is handed on, not dropped
    if unreachable:  # one line for the run, not one per request in flight
        raise unreachable[0]
    return failures


class Journal:
    """``on_result`` in a thread of its own, given the answers of each event-loop turn at once.

    Why: a resumable run journals each answer there (JSON, a flushed line, and every 64 lines an
    fsync of 1-3 ms); on the loop, that held every slot idle (bench_trans, 64 in flight). A hand-off
    per answer passed the interpreter lock back and forth and measured slower on a busy machine;
    one per turn does not. ``close`` returns once all are handed on (none is read before it is
    journalled), then raises the first error ``on_result`` raised."""

    def __init__(self, on_result: OnResult, loop: asyncio.AbstractEventLoop,
                 kept: Callable[[], object] | None = None):
        self.on_result, self.loop, self.kept = on_result, loop, kept
        self.errors: list[Exception] = []
        self._turn: list[GenerationResult] = []
        self._queue: SimpleQueue[list[GenerationResult] | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._drain, name="journal", daemon=True)
        self._thread.start()

    def put(self, result: GenerationResult) -> None:
        self._turn.append(result)
        if len(self._turn) == 1:
            self.loop.call_soon(self._hand_on)  # after the other answers of this turn

    def _hand_on(self) -> None:
        if self._turn:
            self._queue.put(self._turn)
            self._turn = []

    def _drain(self) -> None:
        while (answers := self._queue.get()) is not None:
            for result in answers:
                try:
                    self.on_result(result)
                except Exception as exc:  # raised in the loop's thread by close()
                    self.errors.append(exc)
                if self.kept is not None and not self.loop.is_closed():
                    try:
                        self.kept()
                    except RuntimeError:  # the loop is closing: nobody waits for a slot any more
                        pass

    def close(self) -> None:
        self._hand_on()
        self._queue.put(None)
        self._thread.join()
        if self.errors:
            raise self.errors[0]


class Unreachable(BackendError):
    """The server cannot be reached at all: the connection refused, or the host unknown to the
    resolver. Why apart from other failures: retried, a wrong --base-url or a server not started
    cost nine attempts and a minute and a half of backoff per request before the error; said at
    once instead, in one line naming the URL. A server that answered before and refuses now (a
    restart) is retried as any dropped connection is."""

    def __init__(self, url: str, reason: str):
        super().__init__(f"cannot reach {url}: {reason}; is the server running, and is --base-url right?")


def cannot_connect(exc: BaseException) -> str | None:
    """Why ``exc`` (the lean client's or aiohttp's) means no connection could be made at all,
    or None: a refused connection or an unknown host, not a timeout or a dropped connection."""
    if isinstance(exc, CannotConnect):
        return exc.reason
    cause = getattr(exc, "os_error", None)  # aiohttp.ClientConnectorError (and its DNS error) keep it
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused"
    if isinstance(cause, socket.gaierror):
        host = getattr(exc, "host", None)
        return f"the host {host + ' ' if host else ''}is not known ({cause.strerror or cause})"
    return None


class Retryable(Exception):
    """A failed attempt worth repeating (a 429 or 5xx, a dropped connection, a torn body),
    with the server's own wait when it said one (Retry-After)."""

    def __init__(self, why: str, wait: float | None = None):
        super().__init__(why)
        self.wait = wait


def backoff_wait(rng: random.Random, exc: BaseException, attempt: int, base_s: float, max_s: float) -> float:
    """Seconds to wait before attempt ``attempt + 1``: the server's Retry-After if it gave one,
    else exponential backoff with full jitter; never more than ``max_s``."""
    wait = getattr(exc, "wait", None)
    if wait is None:
        wait = rng.uniform(0, min(max_s, base_s * 2 ** (attempt - 1)))
    return min(wait, max_s)


def failure_message(failures: list[str]) -> str:
    return f"{len(failures)} request(s) failed; finished items are kept, run again to resume. First: {failures[0]}"


__all__ = ["Journal", "Retryable", "Unreachable", "backoff_wait", "cannot_connect", "failure_message", "run_in_session",
           "run_pool"]
