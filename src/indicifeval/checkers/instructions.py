"""The generation side of the registry, read from the ``@checker`` registrations: the paper
category of an instruction, the roles of its kwargs in a translation plan, drawing kwargs for a
new prompt, and which instructions cannot be asked together."""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

from indicifeval.checkers.registry import CATEGORY_NAMES, REGISTRY, SUITES, AllBut, Checker, Role
from indicifeval.languages import LanguageProfile


def _spec(instruction_id: str) -> Checker:
    try:
        return REGISTRY[instruction_id]
    except KeyError:
        raise KeyError(f"unknown instruction id {instruction_id!r}") from None


# -- categories -----------------------------------------------------------------------------------
def category_of(instruction_id: str) -> str:
    return _spec(instruction_id).category_label


def categories() -> dict[str, tuple[str, ...]]:
    """The paper's Table 3, then the categories beyond it, then each other suite's (labelled
    with the suite: "IFBench Format"): category -> ids, both in order."""
    ordered = sorted(REGISTRY.values(), key=lambda c: (SUITES.index(c.suite), c.table_row, c.id))
    table: dict[str, list[str]] = {name: [] for name in CATEGORY_NAMES}
    for spec in ordered:
        table.setdefault(spec.category_label, []).append(spec.id)
    return {name: tuple(ids) for name, ids in table.items() if ids}


def availability(suite: str | None = None) -> dict[str, dict[str, str | None]]:
    """For every instruction (of ``suite``), in every profiled language: None where the language
    defines it, else the one line that says why not (docs/scoring.md's table)."""
    from indicifeval.languages import get_profile, list_languages

    profiles = [get_profile(code) for code in list_languages()]
    return {iid: {p.code: spec.unavailable(p, paper=False) for p in profiles}
            for iid, spec in sorted(REGISTRY.items()) if suite is None or spec.suite == suite}


def available_ids(profile) -> tuple[str, ...]:
    """The instructions a language's rows may ask for in fixed mode: the 25, and those beyond
    the paper whose data its profile has (numerals, units, romanised words)."""
    return tuple(sorted(iid for iid, spec in REGISTRY.items()
                        if spec.requires is None or spec.requires(profile) is None))


# -- kwargs for a translation plan --------------------------------------------------------------
def kwarg_role(instruction_id: str, name: str) -> Role:
    role = _spec(instruction_id).param(name).role
    assert role is not None, "every kwarg is given a role when it is registered"
    return role


def lexical_kwargs(instruction_id: str) -> tuple[str, ...]:
    """The kwargs whose values are text a Trans pipeline must translate or protect."""
    return tuple(p.name for p in _spec(instruction_id).params if p.lexical)


def copied_kwargs(instruction_id: str) -> dict[str, str]:
    """kwarg -> what of the prompt it must equal: "request" (all of it) or "phrase" (a quoted part)."""
    return {p.name: p.copy_of for p in _spec(instruction_id).params if p.copy_of is not None}


# -- drawing kwargs -------------------------------------------------------------------------------
def sample_kwargs(
    instruction_id: str, rng: random.Random, profile: LanguageProfile, request: str | None = None
) -> dict:
    """Kwargs for a new prompt in ``profile``'s language, drawn from ``rng`` in the ranges IFEval
    uses; the same seed gives the same kwargs. ``request``: the prompt a copy of the whole
    request must equal (combination:repeat_prompt), required there."""
    kwargs: dict = {}
    for p in _spec(instruction_id).params:
        if p.copy_of == "request":
            if request is None:
                raise ValueError(f"{instruction_id}: its {p.name} is the request itself; pass request=")
            kwargs[p.name] = request
        elif p.sample is not None:
            kwargs[p.name] = p.sample(rng, profile, kwargs)
        elif p.required:
            raise AssertionError(f"{instruction_id}: required kwarg {p.name} has no sampler")
    return kwargs


# -- conflicts ------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _conflict_table(ids: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Each declared set (an "all but" set expanded), made symmetric, and every id with itself:
    an instruction is asked at most once per prompt."""
    table: dict[str, set[str]] = {iid: {iid} for iid in ids}
    for iid in ids:
        declared = REGISTRY[iid].conflicts
        others = set(ids) - declared.ids if isinstance(declared, AllBut) else set(declared)
        for other in others:
            if other not in table:
                raise KeyError(f"{iid} declares a conflict with unknown instruction {other!r}")
            table[iid].add(other)
            table[other].add(iid)
    return {iid: frozenset(s) for iid, s in table.items()}


def conflicts(instruction_id: str) -> frozenset[str]:
    """The instructions that cannot sensibly be asked in one prompt with this one (itself included)."""
    _spec(instruction_id)
    return _conflict_table(tuple(REGISTRY))[instruction_id]


def compatible(instruction_ids: Iterable[str]) -> bool:
    """Whether these instructions can be asked together (no pair conflicts, none twice)."""
    ids = list(instruction_ids)
    for i, iid in enumerate(ids):
        clashes = conflicts(iid)
        if any(other in clashes for other in ids[i + 1 :]):
            return False
    return True
