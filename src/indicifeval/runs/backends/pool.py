"""Requests through an HTTP session with a fixed number in flight: what the OpenAI-compatible
backend and the Sarvam translator share. A failed item stops new ones from starting; the ones
already answered have been handed to ``on_result`` (and so are kept by a resumable run)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from indicifeval.runs.backends.base import BackendError, OnResult
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
    """Answer ``requests`` with ``one``, ``concurrency`` at a time; returns the failures."""
    queue: asyncio.Queue[GenerationRequest] = asyncio.Queue()
    for r in requests:
        queue.put_nowait(r)
    failures: list[str] = []

    async def worker() -> None:
        while not failures:
            try:
                request = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                on_result(await one(request))
            except BackendError as exc:
                failures.append(str(exc))

    await asyncio.gather(*(worker() for _ in range(min(concurrency, len(requests)))))
    return failures


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


__all__ = ["Retryable", "backoff_wait", "failure_message", "run_pool"]
