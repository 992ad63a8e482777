"""Resumably run requests through a backend into a log: the core that benchmark runs and every
LLM- or MT-calling build stage share.

An item is done when its latest record succeeded and was made for the item's current content
(``content_hash``: what was asked, and for stages whose settings vary per item, how); a
changed or failed item is asked again. Answers are made safe to store (lone surrogates
mended), cut at ``max_answer_chars`` (the cut recorded), and split from their reasoning."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from indicifeval.core.log import JsonlLog
from indicifeval.core.safe_text import sanitize
from indicifeval.records import Generation
from indicifeval.runs.backends import Backend
from indicifeval.runs.requests import GenerationRequest, GenerationResult
from indicifeval.text.reasoning import split_reasoning

T = TypeVar("T")
DEFAULT_MAX_ANSWER_CHARS = 1_000_000  # far beyond any budget; a runaway server answer is cut here


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
        subset=job.meta.get("subset"),
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


def first_per_key(items: Iterable[T], key: Callable[[T], str]) -> list[T]:
    """The first item of each key, in order: identical requests in one batch are asked once (the
    cache then answers the others by their content hash)."""
    seen: dict[str, T] = {}
    for item in items:
        seen.setdefault(key(item), item)
    return list(seen.values())


def execute(backend: Backend, jobs: Sequence[Job], log: JsonlLog, *,
            max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS,
            on_progress: Callable[[int], None] | None = None) -> None:
    """Generate ``jobs`` with ``backend``, appending one record to ``log`` as each finishes."""
    if max_answer_chars < 1:
        raise ValueError("max_answer_chars must be at least 1")
    by_uid = {job.uid: job for job in jobs}
    lock = threading.Lock()

    def on_result(result: GenerationResult) -> None:
        record = record_of(result, by_uid[result.uid], max_answer_chars)
        with lock:
            log.append(record.to_json())
        if on_progress:
            on_progress(1)

    with log:
        backend.generate([job.request for job in jobs], on_result)


__all__ = ["DEFAULT_MAX_ANSWER_CHARS", "Job", "Plan", "cached", "execute", "first_per_key", "plan", "record_of"]
