"""``run`` on conversations (multi-turn data): every turn asked with the conversation so far, in
rounds, resumably per turn.

Round ``n`` asks turn ``n`` of every conversation whose turn ``n - 1`` is answered (in the log
already, or in the round before), with the user turns and the model's own earlier answers
(``runs.turns``: reasoning stripped, the content hash over the whole history). A killed run
leaves whole turns in the log; the next one takes each turn whose history is unchanged and asks
only what is left, so nothing is asked twice. A turn that fails ends its conversation for this
run (the turns after it are scored as missing; the next run asks it again)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.core.log import JsonlLog
from indicifeval.dataset import parse_languages
from indicifeval.dataset.multiturn import is_multiturn_data, load_conversations
from indicifeval.records import Conversation, Generation
from indicifeval.runs.backends import Backend
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.requests import DEFAULT_MAX_ANSWER_CHARS, GenerationRequest, SamplingSettings
from indicifeval.runs.resumable import Filled, Job, fill
from indicifeval.runs.turns import answered_turns, history_hash, turn_messages, turn_uid

NOT_TAG = "not:"


def is_conversation_source(source: str | Path) -> bool:
    """Whether ``run --data`` names conversations (found as ``score`` finds them)."""
    from indicifeval.dataset.sample_multiturn import SAMPLE_MULTITURN

    return str(source) == SAMPLE_MULTITURN or is_multiturn_data(source)


def load_conversation_data(source: str, languages: str | list[str] | None = "all", tags: Sequence[str] = (),
                           limit: int | None = None) -> tuple[list[Conversation], dict[str, Any]]:
    """The conversations to run (the first ``limit`` of each language, with every tag of ``tags``
    and none written ``not:TAG``) and what the manifest records of them."""
    from indicifeval.dataset.sample_multiturn import SAMPLE_MULTITURN, sample_conversations

    langs = parse_languages(languages)
    if source == SAMPLE_MULTITURN:
        found = sample_conversations(langs)
    else:
        found = load_conversations(source, languages=langs)
    wanted = {t for t in tags if not t.startswith(NOT_TAG)}
    unwanted = {t.removeprefix(NOT_TAG) for t in tags if t.startswith(NOT_TAG)}
    per_language: dict[str, int] = {}
    kept = []
    for c in found:
        if (wanted and not wanted <= set(c.tags)) or unwanted & set(c.tags):
            continue
        per_language[c.language] = per_language.get(c.language, 0) + 1
        if limit is None or per_language[c.language] <= limit:
            kept.append(c)
    if not kept:
        raise InputError("no conversations left after choosing languages and tags", source)
    info = {"source": source, "repo": None, "revision": None, "subsets": ["multiturn"],
            "languages": langs or "all", "tags": list(tags), "limit": limit, "multiturn": True,
            "conversations": len(kept), "turns": sum(len(c.turns) for c in kept)}
    return kept, info


def turn_content_hashes(conversations: Sequence[Conversation]) -> list[str]:
    """The content hash of every turn's row, for the provenance's fingerprint of the data."""
    return [c.turn_row(n).content_hash for c in conversations for n in range(1, len(c.turns) + 1)]


def all_turn_uids(conversations: Sequence[Conversation]) -> list[str]:
    return [turn_uid(c, n) for c in conversations for n in range(1, len(c.turns) + 1)]


def fill_turns(log: JsonlLog, spec: ModelSpec, conversations: Sequence[Conversation],
               open_backend: Callable[[], Backend], *, max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS,
               on_total: Callable[[int, int], None] | None = None,
               on_progress: Callable[[int], None] | None = None) -> Filled:
    """Every turn of every conversation answered into ``log``, round by round (see the module)."""
    settings = spec.settings or SamplingSettings()
    system = spec.system if spec.chat else None
    total = sum(len(c.turns) for c in conversations)
    backend: list[Backend] = []

    def opened() -> Backend:  # one backend for every round, opened when something is asked first
        if not backend:
            backend.append(open_backend())
        return backend[0]

    history: dict[int, list[str]] = {i: [] for i in range(len(conversations))}
    asked = reused = failed = 0
    changed: list[str] = []
    retried: list[str] = []
    answers: dict[str, Generation] = {}
    rounds = max((len(c.turns) for c in conversations), default=0)
    live = set(range(len(conversations)))
    for n in range(1, rounds + 1):
        jobs: dict[int, Job] = {}
        for i in sorted(live):
            conv = conversations[i]
            if n > len(conv.turns):
                continue
            earlier = history[i]
            request = GenerationRequest(turn_uid(conv, n), turn_messages(conv, n, earlier, system), settings)
            jobs[i] = Job(request, history_hash(conv, n, earlier),
                          {"key": conv.key, "language": conv.language, "subset": conv.subset, "turn": n})
        if not jobs:
            break
        filled = fill(log, list(jobs.values()), opened, shared=False, max_answer_chars=max_answer_chars,
                      on_progress=on_progress, on_start=_started(on_total, total, asked + reused))
        asked, reused = asked + filled.asked, reused + filled.reused
        changed += filled.changed
        retried += filled.retried
        for i, job in jobs.items():
            got = filled.answers.get(job.uid)
            if got is None:
                live.discard(i)
                failed += 1
                continue
            answers[job.uid] = got
            history[i].append(got.answer or "")
    return Filled(answers, asked, reused, failed, 0, tuple(changed), tuple(retried))


def _started(on_total: Callable[[int, int], None] | None, total: int, before: int
             ) -> Callable[[int, int], None] | None:
    """A round's ``on_start``: the run's total, and what earlier rounds and this one found done."""
    if on_total is None:
        return None
    return lambda asking, found: on_total(total, before + found)


def turn_answers(conversations: Sequence[Conversation], generations: dict[str, dict]
                 ) -> tuple[dict[tuple[str, str, int], str], dict[str, int]]:
    """(language, key, turn) -> the answer of each turn a log answers for today's history, and how
    many conversations stop at a turn that is missing, failed or stale."""
    out: dict[tuple[str, str, int], str] = {}
    stops: dict[str, int] = {}
    for conv in conversations:
        state = answered_turns(conv, generations)
        for n, text in enumerate(state.answers, start=1):
            out[(conv.language, str(conv.key), n)] = text
        if state.stopped:
            stops[state.stopped] = stops.get(state.stopped, 0) + 1
    return out, stops


__all__ = ["all_turn_uids", "fill_turns", "is_conversation_source", "load_conversation_data", "turn_answers",
           "turn_content_hashes"]
