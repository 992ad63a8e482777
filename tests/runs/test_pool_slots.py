"""A kill loses no more answers than were in flight: the pool gives a slot back only once its
answer is journalled, so requests asked or answered-but-not-yet-kept never exceed the
concurrency, however slowly the journal writes (a resume asks again at most that many)."""

import asyncio
import threading
import time

from indicifeval.runs.backends.pool import run_pool
from indicifeval.runs.requests import GenerationRequest, GenerationResult


def _unkept_peak(n: int, concurrency: int, journal_s: float) -> tuple[int, int]:
    lock = threading.Lock()
    state = {"started": 0, "kept": 0, "peak": 0}

    async def one(request: GenerationRequest) -> GenerationResult:
        with lock:
            state["started"] += 1
            state["peak"] = max(state["peak"], state["started"] - state["kept"])
        await asyncio.sleep(0)
        return GenerationResult(request.uid, "answer", "stop")

    def on_result(result: GenerationResult) -> None:
        time.sleep(journal_s)  # a slow disk: the journal falls behind the answers
        with lock:
            state["kept"] += 1

    requests = [GenerationRequest(f"u{i}", [{"role": "user", "content": str(i)}]) for i in range(n)]
    assert asyncio.run(run_pool(requests, concurrency, one, on_result)) == []
    return state["peak"], state["kept"]


def test_answers_not_yet_kept_never_exceed_the_concurrency():
    peak, kept = _unkept_peak(120, 8, 0.002)
    assert kept == 120 and peak <= 8


def test_one_at_a_time_is_one_at_a_time():
    peak, kept = _unkept_peak(20, 1, 0.001)
    assert kept == 20 and peak == 1
