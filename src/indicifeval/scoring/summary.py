"""Aggregate row scores into the four IFEval metrics, overall and by group."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from indicifeval._version import __version__
from indicifeval.core.modes import ScoringMode
from indicifeval.languages import get_profile
from indicifeval.scoring.categories import CATEGORIES, CATEGORY_OF
from indicifeval.scoring.engine import RowScore

SUMMARY_FORMAT = 1
METRICS = ("prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc")


class _ScoreTally:
    __slots__ = ("prompts", "prompt_strict", "prompt_loose", "instructions", "inst_strict", "inst_loose")

    def __init__(self):
        self.prompts = self.prompt_strict = self.prompt_loose = 0
        self.instructions = self.inst_strict = self.inst_loose = 0

    def add_row(self, r: RowScore) -> None:
        self.prompts += 1
        self.prompt_strict += r.prompt_strict
        self.prompt_loose += r.prompt_loose
        self.instructions += len(r.strict)
        self.inst_strict += sum(r.strict)
        self.inst_loose += sum(r.loose)

    def add_instruction(self, strict: bool, loose: bool) -> None:
        self.instructions += 1
        self.inst_strict += strict
        self.inst_loose += loose

    def as_dict(self, prompt_level: bool = True) -> dict:
        def ratio(a: int, b: int) -> float | None:
            return a / b if b else None

        out = {}
        if prompt_level:
            out["prompt_level_strict_acc"] = ratio(self.prompt_strict, self.prompts)
        out["inst_level_strict_acc"] = ratio(self.inst_strict, self.instructions)
        if prompt_level:
            out["prompt_level_loose_acc"] = ratio(self.prompt_loose, self.prompts)
        out["inst_level_loose_acc"] = ratio(self.inst_loose, self.instructions)
        if prompt_level:
            out["prompts"] = self.prompts
        out["instructions"] = self.instructions
        return out


def _macro(blocks: list[dict]) -> dict:
    """The unweighted mean of per-language figures, as the paper's "Avg" columns."""
    out: dict = {}
    for m in METRICS:
        values = [b[m] for b in blocks if b.get(m) is not None]
        out[m] = sum(values) / len(values) if values else None
    return out


def _is_indic(code: str) -> bool:
    try:
        return get_profile(code).is_indic
    except KeyError:
        return False


def summarize(scores: Iterable[RowScore], scoring: ScoringMode) -> dict:
    overall = _ScoreTally()
    per_language: dict[str, _ScoreTally] = defaultdict(_ScoreTally)
    per_subset: dict[str, _ScoreTally] = defaultdict(_ScoreTally)
    per_language_subset: dict[str, _ScoreTally] = defaultdict(_ScoreTally)
    per_instruction: dict[str, _ScoreTally] = defaultdict(_ScoreTally)
    per_category: dict[str, _ScoreTally] = defaultdict(_ScoreTally)
    indic_pooled = _ScoreTally()
    indic_category: dict[str, _ScoreTally] = defaultdict(_ScoreTally)
    missing = 0
    indic_cache: dict[str, bool] = {}
    for r in scores:
        missing += r.response_missing
        indic = indic_cache.setdefault(r.language, _is_indic(r.language))
        for tally in (overall, per_language[r.language], per_subset[r.subset],
                      per_language_subset[f"{r.language}/{r.subset}"]):
            tally.add_row(r)
        if indic:
            indic_pooled.add_row(r)
        for iid, s, lo in zip(r.instruction_id_list, r.strict, r.loose):
            per_instruction[iid].add_instruction(s, lo)
            per_category[CATEGORY_OF[iid]].add_instruction(s, lo)
            if indic:
                indic_category[CATEGORY_OF[iid]].add_instruction(s, lo)
    indic_langs = sorted(code for code, is_indic in indic_cache.items() if is_indic)
    average = {}
    for subset in sorted(per_subset):
        blocks = [per_language_subset[f"{c}/{subset}"].as_dict() for c in indic_langs
                  if f"{c}/{subset}" in per_language_subset]
        if blocks:
            average[subset] = {**_macro(blocks), "languages": len(blocks)}
    return {
        "format_version": SUMMARY_FORMAT,
        "scoring": str(scoring),
        "version": __version__,
        "missing_responses": missing,
        "overall": overall.as_dict(),
        "per_language": {k: per_language[k].as_dict() for k in sorted(per_language)},
        "per_subset": {k: per_subset[k].as_dict() for k in sorted(per_subset)},
        "per_language_subset": {k: per_language_subset[k].as_dict() for k in sorted(per_language_subset)},
        "per_instruction": {k: per_instruction[k].as_dict(False) for k in sorted(per_instruction)},
        "per_category": {c: per_category[c].as_dict(False) for c in CATEGORIES if c in per_category},
        # The paper's Indic figures leave English out: "average" is the mean over the Indic
        # languages of each subset (Tables 1 and 2, "Avg"), "pooled" and "per_category" count
        # the Indic rows only.
        "indic": {
            "languages": indic_langs,
            "average": average,
            "pooled": indic_pooled.as_dict() if indic_pooled.prompts else None,
            "per_category": {c: indic_category[c].as_dict(False) for c in CATEGORIES if c in indic_category},
        },
    }
