"""Resumably run requests through a backend into a log: the core that benchmark runs and every
LLM- or MT-calling build stage share.

An item is done when its latest record succeeded and was made for the item's current content
(``content_hash``: what was asked, and for stages whose settings vary per item, how); a
changed or failed item is asked again. Answers are made safe to store (lone surrogates
mended), cut at ``max_answer_chars`` (the cut recorded), and split from their reasoning."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from indicifeval.core.log import JsonlLog
from indicifeval.core.safe_text import sanitize
from indicifeval.records import Generation
from indicifeval.runs.backends import Backend
from indicifeval.runs.requests import DEFAULT_MAX_ANSWER_CHARS, GenerationRequest, GenerationResult
from indicifeval.text.reasoning import split_reasoning

T = TypeVar("T")


@dataclass
class Job:
    """One item to generate: its request (with its own settings) and its content hash."""

    request: GenerationRequest
    content_hash: str
    meta: dict[str, Any] = field(default_factory=dict)  # copied into the record (key, language, subset)

    @property
    def uid(self) -> str:
        return self.request.uid


@dataclass
class Plan:
    done: list[str]
    changed: list[str]  # generated before for other content
    failed: list[str]  # failed before: asked again
    todo: list[Job]


def plan(jobs: Sequence[Job], latest: dict[str, dict]) -> Plan:
    """What is done and what is left, given the latest record of each uid."""
    done: list[str] = []
    changed: list[str] = []
    failed: list[str] = []
    todo: list[Job] = []
    for job in jobs:
        record = latest.get(job.uid)
        generation = Generation.from_json(record) if record is not None else None
        if generation is not None and generation.usable_for(job.content_hash):
            done.append(job.uid)
            continue
        if generation is not None:
            (failed if generation.error else changed).append(job.uid)
        todo.append(job)
    return Plan(done, changed, failed, todo)


def record_of(result: GenerationResult, job: Job, max_answer_chars: int) -> Generation:
    output = sanitize(result.output or "")
    reasoning = sanitize(result.reasoning) if result.reasoning else result.reasoning
    capped = None
    if len(output) > max_answer_chars:
        capped, output = len(output), output[:max_answer_chars]
    answer = split_reasoning(output, reasoning)
    return Generation(
        uid=result.uid, output=output, content_hash=job.content_hash,
        answer=None if result.error else answer.answer, reasoning=answer.reasoning,
        reasoning_unterminated=answer.unterminated, finish_reason=result.finish_reason,
        truncated=result.finish_reason == "length", capped_from_chars=capped, error=result.error,
        usage=result.usage, latency_s=None if result.latency_s is None else round(result.latency_s, 4),
        attempts=result.attempts, key=job.meta.get("key"), language=job.meta.get("language"),
        subset=job.meta.get("subset"), sample=job.meta.get("sample", 0), seed=job.meta.get("seed"),
        turn=job.meta.get("turn", 0),
    )


def cached(records: Iterable[dict], hashes: Mapping[str, str]) -> dict[str, Generation]:
    """uid -> a usable answer for each item of ``hashes`` (uid -> content hash) that a log of
    paid-for results already holds: the item's own latest record, or any successful record made
    for the same content under another uid (the log is a content-addressed cache: the same
    request is never paid for twice, whatever rerun or renumbering came between)."""
    latest: dict[str, dict] = {}
    by_hash: dict[str, dict] = {}
    for record in records:
        uid = record.get("uid")
        if isinstance(uid, str):
            latest[uid] = record
        if record.get("error") is None and isinstance(record.get("content_hash"), str):
            by_hash[record["content_hash"]] = record
    out: dict[str, Generation] = {}
    for uid, wanted in hashes.items():
        own = latest.get(uid)
        if own is not None and Generation.from_json(own).usable_for(wanted):
            out[uid] = Generation.from_json(own)
        elif wanted in by_hash:
            out[uid] = Generation.from_json({**by_hash[wanted], "uid": uid})
    return out


def content_hash(key: str, payload: str) -> str:
    """The one content hash of a paid-for answer: what was asked (``payload``: the text, or a
    fingerprint of the whole request) of which model (``key``: ``ModelSpec.key``)."""
    return hashlib.sha256(f"{key}\n{payload}".encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class Filled:
    """What ``fill`` found and did: the answers (uid -> generation), how many were asked now,
    reused from the log (``rehashed`` of them found under a hash an earlier version used) and
    still missing (failed); of those asked, the ones answered before for other content
    (``changed``) and the ones that had failed before (``retried``)."""

    answers: dict[str, Generation]
    asked: int
    reused: int
    failed: int
    rehashed: int = 0
    changed: tuple[str, ...] = ()
    retried: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        out = {"asked": self.asked, "reused": self.reused, "failed": self.failed}
        return {**out, "rehashed": self.rehashed} if self.rehashed else out


def keyed(key: str, payloads: Mapping[str, str], old_keys: Sequence[str | None] = ()
          ) -> tuple[dict[str, str], dict[str, list[str]]]:
    """uid -> the content hash of asking ``payloads[uid]`` of the model whose key is ``key``, and
    uid -> the hashes an earlier version logged the same answer under (``old_keys``: that model's
    keys then; None: hashed from the payload alone)."""
    hashes = {uid: content_hash(key, payload) for uid, payload in payloads.items()}
    earlier = {uid: [payload if old is None else content_hash(old, payload) for old in old_keys]
               for uid, payload in payloads.items()} if old_keys else {}
    return hashes, earlier


def rehash(log: JsonlLog, hashes: Mapping[str, str], earlier: Mapping[str, Sequence[str]],
           have: Mapping[str, Generation]) -> int:
    """Answers an earlier version logged under another hash for the same request to the same
    model (``earlier``: uid -> those hashes) appended again under today's, once: reused, never
    asked again. Returns how many were."""
    missing = [uid for uid in hashes if uid not in have and earlier.get(uid)]
    if not missing or not log.exists():
        return 0
    found: dict[str, Generation] = {}
    records = list(log.read())
    for turn in range(max(len(earlier[uid]) for uid in missing)):
        wanted = {uid: earlier[uid][turn] for uid in missing if uid not in found and turn < len(earlier[uid])}
        found.update(cached(records, wanted))
    if found:
        with log:
            log.append_many([replace(g, content_hash=hashes[uid]).to_json() for uid, g in found.items()])
    return len(found)


def _own(records: Iterable[dict], jobs: Sequence[Job]) -> tuple[dict[str, Generation], list[str], list[str]]:
    """Per item only: each one's own latest answer if it is usable for its content now, and
    the items answered before for other content (changed) or failed before."""
    latest: dict[str, dict] = {}
    for record in records:
        if isinstance(record.get("uid"), str):
            latest[record["uid"]] = record
    done = plan(jobs, latest)
    have = {uid: Generation.from_json(latest[uid]) for uid in done.done}
    return have, done.changed, done.failed


def fill(log: JsonlLog, jobs: Sequence[Job], open_backend: Callable[[], Backend], *, shared: bool = True,
         earlier: Mapping[str, Sequence[str]] | None = None, on_start: Callable[[int, int], None] | None = None,
         on_progress: Callable[[int], None] | None = None, bar: Callable[[int], Any] | None = None,
         max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS) -> Filled:
    """Every job answered into ``log``: what the log already holds for its content hash is taken
    (``shared``: from any item, the log being a content-addressed cache of paid-for answers, and
    the first job per hash is the one asked; else each item's own latest answer only, as a
    benchmark run keeps one answer per row), the rest asked through the backend, opened only when
    something is asked. ``on_start(asking, reused)`` is told before; ``bar(n)`` gives a progress
    context for ``n`` asks, yielding ``advance``."""
    hashes = {job.uid: job.content_hash for job in jobs}
    records = list(log.read()) if log.exists() else []
    changed: list[str] = []
    retried: list[str] = []
    if shared:
        have = cached(records, hashes)
        moved = rehash(log, hashes, earlier or {}, have)
        if moved:
            have = cached(log.read(), hashes)
        ask = first_per_key([job for job in jobs if job.uid not in have], lambda job: job.content_hash)
    else:
        have, changed, retried = _own(records, jobs)
        moved, ask = 0, [job for job in jobs if job.uid not in have]
    if on_start is not None:
        on_start(len(ask), len(jobs) - len(ask))
    if ask:
        waiting: dict[str, list[str]] = {}
        for job in jobs:
            if job.uid not in have:
                waiting.setdefault(job.content_hash, []).append(job.uid)
        answered: list[Generation] = []  # journalled without an error: what the log now holds
        backend = open_backend()
        if bar is None:
            execute(backend, ask, log, max_answer_chars=max_answer_chars, on_progress=on_progress,
                    on_record=answered.append)
        else:
            with bar(len(ask)) as advance:
                execute(backend, ask, log, max_answer_chars=max_answer_chars, on_progress=advance,
                        on_record=answered.append)
        for generation in answered:  # read from memory, not the log: a fifth of a stage's time at 64 in flight
            if generation.error is None:
                for uid in waiting.get(generation.content_hash or "", ()):
                    if shared or uid == generation.uid:
                        have[uid] = replace(generation, uid=uid)
    return Filled(have, len(ask), len(jobs) - len(ask), len(jobs) - len(have), moved, tuple(changed),
                  tuple(retried))


def first_per_key(items: Iterable[T], key: Callable[[T], str]) -> list[T]:
    """The first item of each key, in order: identical requests in one batch are asked once (the
    cache then answers the others by their content hash)."""
    seen: dict[str, T] = {}
    for item in items:
        seen.setdefault(key(item), item)
    return list(seen.values())


def execute(backend: Backend, jobs: Sequence[Job], log: JsonlLog, *,
            max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS,
            on_progress: Callable[[int], None] | None = None,
            on_record: Callable[[Generation], None] | None = None) -> None:
    """Generate ``jobs`` with ``backend``, appending one record to ``log`` as each finishes
    (then handing it to ``on_record``)."""
    if max_answer_chars < 1:
        raise ValueError("max_answer_chars must be at least 1")
    by_uid = {job.uid: job for job in jobs}
    lock = threading.Lock()

    def on_result(result: GenerationResult) -> None:
        record = record_of(result, by_uid[result.uid], max_answer_chars)
        with lock:
            log.append(record.to_json())
            if on_record is not None:
                on_record(record)
        if on_progress:
            on_progress(1)

    with log:
        backend.generate([job.request for job in jobs], on_result)


__all__ = ["DEFAULT_MAX_ANSWER_CHARS", "Filled", "Job", "Plan", "cached", "content_hash", "execute", "fill",
           "first_per_key", "keyed", "plan", "record_of", "rehash"]
