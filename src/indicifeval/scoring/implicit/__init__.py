"""Implicit constraints: what a verifiable reward must also ask of an answer so that it cannot
be gamed (empty or invisible answers, echoes of the prompt, padding, keyword stuffing, the
wrong language or script, random letters). Part of the reward by default (``rewards``,
``serve``); ``score`` keeps the plain verdicts unless asked (``--implicit``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from indicifeval.core.errors import InputError
from indicifeval.languages import list_languages
from indicifeval.records import Row
from indicifeval.scoring.implicit.checks import CHECKS, Context
from indicifeval.scoring.implicit.compared import Compared, compared
from indicifeval.scoring.implicit.expect import Allowance, allowance, profile_of
from indicifeval.scoring.implicit.measures import prepare_tables
from indicifeval.scoring.implicit.plausible import known_trigrams
from indicifeval.scoring.implicit.view import AnswerView

IMPLICIT: tuple[str, ...] = tuple(CHECKS)
PREFIX = "implicit:"


def parse_implicit(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """``"all"`` (every constraint), ``"none"``/``None`` (the plain reward), or names, as a list
    or comma-separated (``language,no_echo``; the ``implicit:`` prefix may be given)."""
    if value is None:
        return ()
    names = [v.strip() for v in value.split(",")] if isinstance(value, str) else [str(v).strip() for v in value]
    names = [n.removeprefix(PREFIX) for n in names if n]
    if names in (["all"], ["default"]):
        return IMPLICIT
    if names in (["none"], []):
        return ()
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise InputError(f"unknown implicit constraint {unknown[0]!r}; known: all, none, {', '.join(IMPLICIT)}",
                         field="implicit")
    return tuple(n for n in IMPLICIT if n in names)


def implicit_failures(row: Row, args: Sequence[dict], answer: str | None, prompt: str | None = None,
                      checks: Sequence[str] = IMPLICIT) -> list[str]:
    """``implicit:<name>: <why>`` for each constraint the answer fails (empty: it passes all).
    ``prompt`` defaults to the row's."""
    if not checks:
        return []
    prompt = row.prompt if prompt is None else prompt
    allowed, against = _expected(row, args, prompt)
    context = Context(AnswerView(answer or "", _terminators(row.language)), prompt, allowed, against, row.language)
    out = []
    for name in checks:
        why = CHECKS[name](context)
        if why is not None:
            out.append(f"{PREFIX}{name}: {why}")
            if name == "not_empty":
                break  # the rest have nothing to read
    return out


def warm_up() -> None:
    """Build the tables the constraints read (0.4 s, once a process), so that a server's first
    batch does not pay for them."""
    prepare_tables(known_trigrams(code) for code in list_languages())


def _terminators(language: str) -> str:
    profile = profile_of(language)
    return "".join(profile.sentence_terminators if profile is not None else ()) or ".!?"


# (row, args, prompt) -> what they allow and what an answer is compared with: an RL batch
# scores many answers to each row. Keyed by the identity of the resolved arguments and kwargs
# (held in the entry, so that no other object takes their id while it is kept) and the rest
# of what ``allowance`` reads; emptied when its entries' approximate size passes the bound (a
# server's memory stays bounded whatever prompts it is sent), an entry over an eighth of it
# not kept at all.
_EXPECTED: dict[tuple, tuple[object, object, Allowance, Compared]] = {}
_EXPECTED_BYTES = 32 * 2**20
_expected_bytes = 0


def _expected(row: Row, args: Sequence[dict], prompt: str) -> tuple[Allowance, Compared]:
    global _expected_bytes
    key = (id(args), id(row.kwargs), row.language, row.resp_lang, row.instruction_id_list, row.prompt, prompt)
    hit = _EXPECTED.get(key)
    if hit is not None and hit[0] is args and hit[1] is row.kwargs:
        return hit[2], hit[3]
    allowed = allowance(row, args)
    against = compared(allowed, prompt, row.language)
    size = against.approximate_bytes() + len(row.prompt)
    if size <= _EXPECTED_BYTES // 8:
        if _expected_bytes + size > _EXPECTED_BYTES:
            _EXPECTED.clear()
            _expected_bytes = 0
        _EXPECTED[key] = (args, row.kwargs, allowed, against)
        _expected_bytes += size
    return allowed, against


__all__ = ["IMPLICIT", "PREFIX", "implicit_failures", "parse_implicit", "warm_up"]
