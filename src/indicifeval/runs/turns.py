"""A conversation's turns in a run folder: which uid each turn is asked under, what is sent
(the user turns and the model's own earlier answers, reasoning stripped) and the content hash
that makes an answer the answer of its turn.

Turn ``n`` of a conversation is asked under ``<row id>#t<n>`` with the messages: the system turn
(a chat backend's), then for every earlier turn its prompt and the model's answer to it (the
answer part only: a ``<think>`` block or a server's separate reasoning is never sent back, as
the chat templates of thinking models drop it from the history), then turn ``n``'s prompt. Its
content hash fingerprints turn ``n``'s row (prompt, instructions, kwargs) and that whole
history, so a changed earlier answer (or prompt) asks the later turns again, and an unchanged
one never does."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from indicifeval.records import Conversation, Generation

TURN_MARK = "#t"


def turn_uid(conversation: Conversation, turn: int) -> str:
    """The uid of turn ``turn`` (1-based) of a conversation."""
    return f"{conversation.id}{TURN_MARK}{turn}"


def history_hash(conversation: Conversation, turn: int, answers: Sequence[str]) -> str:
    """The content hash of turn ``turn`` asked after the model gave ``answers`` to the turns before."""
    if len(answers) != turn - 1:
        raise ValueError(f"turn {turn} follows {turn - 1} answers, got {len(answers)}")
    earlier = [[t.prompt, a] for t, a in zip(conversation.turns[:turn - 1], answers)]
    payload = json.dumps([conversation.turn_row(turn).content_hash, earlier], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def turn_messages(conversation: Conversation, turn: int, answers: Sequence[str], system: str | None = None
                  ) -> list[dict]:
    """What turn ``turn`` sends: the system turn, the earlier turns with the model's answers, the turn."""
    out = [{"role": "system", "content": system}] if system is not None else []
    for t, answer in zip(conversation.turns[:turn - 1], answers):
        out += [{"role": "user", "content": t.prompt}, {"role": "assistant", "content": answer}]
    return [*out, {"role": "user", "content": conversation.turns[turn - 1].prompt}]


@dataclass
class TurnState:
    """A conversation's answers so far, in turn order, and why the next turn has none (None: every
    turn is answered; "missing", "failed", or "stale": made for another history or turn)."""

    answers: list[str]
    stopped: str | None = None


def answered_turns(conversation: Conversation, generations: Mapping[str, dict]) -> TurnState:
    """The turns of a conversation that a log's latest generations answer, in order: a turn counts
    only when its answer was made after the answers that count before it."""
    answers: list[str] = []
    for n in range(1, len(conversation.turns) + 1):
        record = generations.get(turn_uid(conversation, n))
        if record is None:
            return TurnState(answers, "missing")
        g = Generation.from_json(record)
        if g.error is not None:
            return TurnState(answers, "failed")
        if g.content_hash is not None and g.content_hash != history_hash(conversation, n, answers):
            return TurnState(answers, "stale")
        answers.append(g.answer or "")
    return TurnState(answers)


__all__ = ["TURN_MARK", "TurnState", "answered_turns", "history_hash", "turn_messages", "turn_uid"]
