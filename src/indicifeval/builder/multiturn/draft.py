"""Drawing a conversation's follow-up turns, as Multi-IF drew its own from IFEval's prompts: turn 1
is an existing Trans row; each later turn adds one instruction, drawn (seeded, per row) from the
ones the language's rows may ask for, with kwargs sampled as the generators sample them
(``Param.sample``). A turn's list is the previous turn's plus the new one, an earlier instruction
that conflicts with the new one dropped by the checkers' own conflict table.

A follow-up is asked in English first ("Now rewrite your answer ..." and the instruction's English
description) and becomes a row of the Trans pipeline's source (key ``KEY:turn-N``), translated with
the same protection and validated by the same validator as every Trans row.

What a follow-up never draws: an instruction that is a task of its own rather than a rewrite of an
answer (``combination:*``, ``detectable_format:constrained_response``), one that changes the answer's
language or script (``language:response_language``, ``change_case:english_*``,
``language:romanized``: the conversation keeps its turn 1's answer language), one already in the
list, and one that conflicts with the instruction the turn before added (a turn never undoes its
predecessor's)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from indicifeval.checkers import REGISTRY, available_ids, conflicts
from indicifeval.checkers.describe import render_description
from indicifeval.checkers.instructions import sample_kwargs
from indicifeval.languages import LanguageProfile, get_profile
from indicifeval.records import Row

FOLLOW_UP = "Now rewrite your answer so that it also follows this instruction. {description}"
SUITES = ("ifeval", "beyond")  # the Trans subset's instructions, as Multi-IF drew from IFEval's
NOT_A_REWRITE = ("combination:repeat_prompt", "combination:two_responses", "detectable_format:constrained_response")
LANGUAGE_CHANGERS = ("language:response_language", "change_case:english_capital", "change_case:english_lowercase",
                     "language:romanized")


def follow_up_key(key: Any, turn: int) -> str:
    return f"{key}:turn-{turn}"


@dataclass(frozen=True)
class FollowUp:
    """One later turn as drawn: the instruction it adds (English kwargs), the earlier ones it
    drops, and the English row the Trans pipeline translates."""

    turn: int
    instruction_id: str
    dropped: tuple[str, ...]
    row: Row  # the English follow-up, a Trans source row

    def to_json(self) -> dict:
        return {"turn": self.turn, "instruction_id": self.instruction_id, "dropped": list(self.dropped),
                "key": self.row.key, "english": self.row.prompt, "kwargs": dict(self.row.kwargs[0])}


def pool(profile: LanguageProfile) -> tuple[str, ...]:
    """The instructions a follow-up in ``profile``'s language may add (described in English first)."""
    english = set(available_ids(get_profile("en")))
    return tuple(iid for iid in available_ids(profile) if iid in english and REGISTRY[iid].suite in SUITES
                 and iid not in NOT_A_REWRITE and iid not in LANGUAGE_CHANGERS)


def draw(row: Row, profile: LanguageProfile, seed: int, turns: int = 3) -> list[FollowUp]:
    """The follow-ups of the conversation that starts with ``row`` (turns 2..``turns``): the same
    row, language and seed draw the same instructions and kwargs."""
    rng = random.Random(f"{seed}:{profile.code}:{row.key}")
    english = get_profile("en")
    ids = list(row.instruction_id_list)
    choices = pool(profile)
    out: list[FollowUp] = []
    for n in range(2, turns + 1):
        last = out[-1].instruction_id if out else None
        options = [iid for iid in choices if iid not in ids and (last is None or iid not in conflicts(last))]
        if not options:
            break
        new = rng.choice(options)
        kwargs = sample_kwargs(new, rng, english)
        dropped = tuple(i for i in ids if i in conflicts(new))
        ids = [i for i in ids if i not in dropped] + [new]
        resp_lang = row.resp_lang if any(i in LANGUAGE_CHANGERS for i in ids) else None
        text = FOLLOW_UP.format(description=render_description(new, kwargs, english))
        follow = Row(follow_up_key(row.key, n), text, (new,), (kwargs,), "en", "trans", ("multiturn",), resp_lang)
        out.append(FollowUp(n, new, dropped, follow))
    return out


__all__ = ["FOLLOW_UP", "LANGUAGE_CHANGERS", "NOT_A_REWRITE", "SUITES", "FollowUp", "draw", "follow_up_key", "pool"]
