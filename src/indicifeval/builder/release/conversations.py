"""Conversations in a release: a multi-turn build folder's ``multiturn/conversations.jsonl``
(each with the status ``build multiturn`` gave it), judged as rows are (one review item per
conversation, its id ``language/multiturn/KEY``), validated again turn by turn before anything
is written, and written beside the rows as our own JSON lines (``conversations.jsonl``, with
the release tags) and Multi-IF's format (``conversations.multi-if.jsonl``).

A multi-turn build folder's ``trans/rows.jsonl`` holds its translated follow-ups: they are parts
of its conversations, never released as Trans rows."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from indicifeval.builder.multiturn.stages import read_conversations
from indicifeval.core.errors import InputError
from indicifeval.dataset.hub_layout import conversation_config
from indicifeval.dataset.multiturn import multi_if_record
from indicifeval.dataset.validation import validate_rows
from indicifeval.dataset.validation.turns import turn_conflicts, turn_rows
from indicifeval.records import MULTITURN, Conversation, Row
from indicifeval.records.layout import MULTITURN_ROWS, RELEASE_CONVERSATIONS, RELEASE_MULTI_IF


def is_multiturn_build(folder: Path) -> bool:
    return (Path(folder) / MULTITURN_ROWS).is_file()


def read_build(folder: Path, language: str) -> tuple[list[tuple[Row, str]], dict[str, Conversation]]:
    """(each conversation as its last turn's row, whose id is the conversation's, with its
    status; id -> the conversation) of a multi-turn build folder."""
    found = read_conversations(Path(folder) / MULTITURN_ROWS)
    wrong = [c for _, c in found if c.language != language]
    if wrong:
        raise InputError(f"a {wrong[0].language} conversation ({wrong[0].key!r}) in a {language} build folder",
                         str(Path(folder) / MULTITURN_ROWS))
    return [(candidate.row, candidate.status) for candidate, _ in found], {str(c.id): c for _, c in found}


def validate(released: Iterable[tuple[Conversation, str]], overridden: set[str]) -> tuple[list[str], list[str]]:
    """As the rows are validated: a conversation called correct with a validator error (a turn's
    row check, or a conflict a later turn brought) refuses the release unless its reviewers
    approved it despite the validator; returns the ids of the incorrect ones with errors and of
    those approved so."""
    known: list[str] = []
    approved: list[str] = []
    for conversation, verdict in released:
        ident = str(conversation.id)
        errors = [f for f in [*turn_conflicts(conversation), *validate_rows(list(turn_rows(conversation)))]
                  if f.is_error]
        if not errors:
            continue
        if verdict == "incorrect":
            known.append(ident)
        elif ident in overridden:
            approved.append(ident)
        else:
            f = errors[0]
            raise InputError(f"{ident}: the release would hold a conversation the validator refuses ({f.check} in "
                             f"{f.row}: {f.message}); mark it incorrect in review, nothing was written")
    return known, approved


def release_files(conversations: list[Conversation]) -> dict[str, str]:
    """The release's conversation files (none without conversations): name -> text."""
    if not conversations:
        return {}
    most = max(len(c.turns) for c in conversations)
    return {RELEASE_CONVERSATIONS: "".join(json.dumps(c.to_json(), ensure_ascii=False) + "\n" for c in conversations),
            RELEASE_MULTI_IF: "".join(json.dumps(multi_if_record(c, most), ensure_ascii=False) + "\n"
                                      for c in conversations)}




def hub_config_lines(conversations: list[Conversation]) -> list[str]:
    """The card's front matter for the conversations' config, one split per language."""
    if not conversations:
        return []
    config = conversation_config()
    return [f"- config_name: {config}", "  data_files:",
            *[f"  - split: {lang}\n    path: {config}/{lang}-*.parquet"
              for lang in sorted({c.language for c in conversations})]]


def card_lines(conversations: list[Conversation]) -> list[str]:
    """The card's section on the conversations: per language, how many, their turns, their tags."""
    if not conversations:
        return []
    config = conversation_config()
    langs = sorted({c.language for c in conversations})
    tags = Counter((t, c.language) for c in conversations for t in c.tags)
    lines = ["## Conversations", "", f"`{config}` holds multi-turn conversations in Multi-IF's format (`key`, "
             f"`language`, and per turn N `turn_N_prompt` as a JSON message, `turn_N_instruction_id_list` and "
             f"`turn_N_kwargs` as JSON text; an absent turn is \"None\"), with their release tags (`tags`). Each "
             f"turn's list is the previous turn's, less what its new instruction contradicts, plus it; a "
             f"conversation was reviewed as a whole.", "", "| split | conversations | turns | tags |",
             "| --- | --- | --- | --- |"]
    for lang in langs:
        mine = [c for c in conversations if c.language == lang]
        said = ", ".join(f"`{t}` {n}" for (t, la), n in sorted(tags.items()) if la == lang)
        lines.append(f"| {lang} | {len(mine)} | {sum(len(c.turns) for c in mine)} | {said} |")
    return [*lines, ""]


__all__ = ["MULTITURN", "card_lines", "hub_config_lines", "is_multiturn_build", "read_build", "release_files",
           "validate"]
