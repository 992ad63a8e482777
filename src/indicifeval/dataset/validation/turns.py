"""Validating conversations (``dataset.multiturn``): every turn as a row, through every row
check (its row id ``language/multiturn/KEY/turn_N`` names the turn; its prompt is every user
prompt so far, since an instruction turn 1 gave is stated there, not again), and ``turn_conflict``:
instructions of one turn that the checkers' conflict table says cannot be asked together.
Multi-IF's lists are cumulative, with an earlier instruction that a new one contradicts
dropped: a conflict a later turn brings is an error; one turn 1 already had (the single-turn
prompt it was made from) is a warning."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from indicifeval.checkers import conflicts
from indicifeval.dataset.multiturn import conversation_records, parse_conversation
from indicifeval.dataset.validation.findings import ERROR, WARNING, Finding
from indicifeval.records import Conversation, Row, RowId


def turn_rows(conversation: Conversation) -> Iterator[Row]:
    """Each turn as a row whose key names the turn (``7/turn_2``, keys unique per turn) and whose
    prompt is the user's prompts of turns 1..n, a blank line apart."""
    for n in range(1, len(conversation.turns) + 1):
        said = "\n\n".join(t.prompt for t in conversation.turns[:n])
        yield replace(conversation.turn_row(n), key=f"{conversation.key}/turn_{n}", prompt=said)


def conversations(data: str | Path, language: str | None = None) -> Iterator[Conversation]:
    for source, record in conversation_records(data):
        yield parse_conversation(record, source, language)


def turn_conflicts(conversation: Conversation) -> Iterator[Finding]:
    first = set(conversation.turns[0].instruction_id_list)
    for n, turn in enumerate(conversation.turns, start=1):
        ids = turn.instruction_id_list
        for i, iid in enumerate(ids):
            for j in range(i + 1, len(ids)):
                other = ids[j]
                if other not in conflicts(iid):
                    continue
                inherited = iid in first and other in first
                severity = WARNING if inherited else ERROR
                why = ("turn 1 has both, as the single-turn prompt it was made from did" if inherited else
                       "a later turn brought it: the earlier instruction the new one contradicts must leave the list")
                yield Finding(RowId.of(conversation.language, conversation.subset, f"{conversation.key}/turn_{n}"),
                              "turn_conflict", severity,
                              f"turn_{n}_instruction_id_list: {iid} and {other} cannot be asked together ({why})",
                              f"{iid} [{i}], {other} [{j}]", j, other, conversation.source)


__all__ = ["conversations", "turn_conflicts", "turn_rows"]
