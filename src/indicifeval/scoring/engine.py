"""Score one row: strict on the response, loose on IFEval's eight variants.

Each distinct variant text becomes one ``TextView``, shared by all instructions of the row,
so a response is segmented at most once per variant. Loose stops at the first passing
variant; a strict pass is a loose pass (the first variant is the response itself), so in a
deterministic scorer loose can never be below strict.
"""

from __future__ import annotations

import regex

from indicifeval._version import __version__
from indicifeval.checkers import REGISTRY, Draw, KwargError, ScoringMode, TextView, get_rules, resolve_args
from indicifeval.core.errors import InputError
from indicifeval.dataset import Row
from indicifeval.records import RowScore
from indicifeval.text.variants import LOOSE_CUTS

# Fixed mode: an answer of only spaces and invisible characters (zero-width spaces, joiners,
# blank fillers) is as empty as "" (the paper's verdicts keep reading it as text).
_BLANK = regex.compile(r"[\s\p{Cf}\u115f\u1160\u3164\uffa0\u2800]*")


def resolve_row(row: Row, mode: ScoringMode) -> list[dict]:
    """Arguments for each instruction; raises the row's source error on a bad kwarg."""
    rules = get_rules(row.language, row.subset, mode)
    out = []
    for index, (iid, kwargs) in enumerate(zip(row.instruction_id_list, row.kwargs)):
        why = REGISTRY[iid].unavailable(rules.profile, rules.paper)
        if why is not None:
            where = f"{row.language}/{row.subset} key {row.key!r}"
            if row.source is None:
                raise InputError(f"{where}: {why}", field=f"instruction_id_list[{index}]")
            raise row.source.error(why, f"instruction_id_list[{index}]")  # the id is in why; one count: the field's
        try:
            out.append(resolve_args(iid, kwargs, rules, Draw(row.key, index)))
        except KwargError as exc:
            if row.source is None:
                raise
            raise row.source.error(f"{exc} ({iid})", f"kwargs[{index}].{exc.field}") from None
    return out


def _run(fn, view: TextView, args: dict, rules) -> tuple[bool, str]:
    try:
        ok, why = fn(view, args, rules)
        return bool(ok), why
    except Exception as exc:  # a checker must never take a whole run down
        return False, f"checker error: {exc.__class__.__name__}: {exc}"


# A cut of lines without stars (index in LOOSE_CUTS[1:]) -> the same cut of lines with them,
# which comes before it: its text less its stars is this one's
_FLAGS = [(c.drop_first, c.drop_last, c.no_star) for c in LOOSE_CUTS[1:]]
_WITH_STARS = {i: _FLAGS.index((first, last, False)) for i, (first, last, no_star) in enumerate(_FLAGS)
               if no_star and (first or last)}


def _cut_text(text: str, i: int, cut_texts: list[str | None]) -> str:
    """The text of loose cut ``i`` (of ``LOOSE_CUTS[1:]``), from the cut of the same lines where made."""
    j = _WITH_STARS.get(i)
    if j is None:
        return LOOSE_CUTS[i + 1].apply(text)
    lines = cut_texts[j]
    if lines is None:
        lines = cut_texts[j] = LOOSE_CUTS[j + 1].apply(text)
    return lines.replace("*", "")


def strict_verdicts(row: Row, text: str, mode: ScoringMode = ScoringMode.FIXED) -> list[tuple[bool, str]]:
    """Each instruction's strict verdict on a non-empty text, and no loose variant: what a
    corpus scan asks of every document (builder.ground.beyond), at a fraction of ``score_row``."""
    rules = get_rules(row.language, row.subset, mode)
    view = TextView(text, rules)
    return [_run(REGISTRY[iid].fn, view, a, rules) for iid, a in zip(row.instruction_id_list, resolve_row(row, mode))]


def score_row(row: Row, response: str | None, mode: ScoringMode = ScoringMode.FIXED, args=None) -> RowScore:
    rules = get_rules(row.language, row.subset, mode)
    ids = list(row.instruction_id_list)
    missing = response is None
    text = "" if response is None else response
    if args is None:
        args = resolve_row(row, mode)

    if not text or text.isspace() or (mode != ScoringMode.PAPER and _BLANK.fullmatch(text)):  # (no copy)
        why = "no response" if missing else "empty response"
        n = len(ids)
        return RowScore(row.key, row.language, row.subset, ids, [False] * n, [False] * n, False, False,
                        [why] * n, missing, str(mode), __version__)

    base = TextView(text, rules)
    # the loose variants, each cut when first tried, and their views: looked up by equality in
    # these few, not by hashing long texts
    cut_texts: list[str | None] = [None] * (len(LOOSE_CUTS) - 1)
    views: list[TextView] = [base]
    stars = "*" in text

    strict, loose, explanations = [], [], []
    for iid, a in zip(ids, args):
        fn = REGISTRY[iid].fn
        ok, why = _run(fn, base, a, rules)
        strict.append(ok)
        loose_ok = ok
        if not ok:
            tried = [text]
            for i, cut in enumerate(LOOSE_CUTS[1:]):
                if cut.no_star and not stars:
                    continue  # the same text as the cut before it without the star rule: tried, or nothing
                variant = cut_texts[i]
                if variant is None:
                    variant = cut_texts[i] = _cut_text(text, i, cut_texts)
                if variant in tried or not variant or variant.isspace():
                    continue
                tried.append(variant)
                view = next((v for v in views if v.text == variant), None)
                if view is None:
                    view = TextView(variant, rules, base, cut)
                    views.append(view)
                v_ok, v_why = _run(fn, view, a, rules)
                if v_ok:
                    loose_ok = True
                    why = f"{why}; loose: passes {cut.label} ({v_why})"
                    break
        loose.append(loose_ok)
        explanations.append(why)
    return RowScore(row.key, row.language, row.subset, ids, strict, loose, all(strict), all(loose),
                    explanations, missing, str(mode), __version__)
