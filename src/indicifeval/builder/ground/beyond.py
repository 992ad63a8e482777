"""Ground contexts for the instructions beyond the paper (numbers, number systems, units,
romanised answers): a document is a context for one when it holds what the instruction acts on.
Best is a document that the opposite instruction accepts (ASCII digits for native digits, lakh
and crore for the international system, kilometres for imperial units), so that a rewrite of it
must change them; next, a document the instruction itself accepts (an example answer, as a
keyword's context is). Both are judged by the real checkers, as a response would be; any
document in the language is a context for a romanised answer.

A plan asks for them by instruction id (``"beyond": {"numbers:native_digits": 5}``)."""

from __future__ import annotations

from typing import Any

from indicifeval.checkers.registry import REGISTRY
from indicifeval.core.errors import InputError
from indicifeval.languages import get_profile
from indicifeval.records import Row
from indicifeval.scoring.engine import score_row

KIND = "beyond"
TAG = "beyond"  # the rows' tag, as the bundled sample-beyond rows have it
ROMANIZED = "language:romanized"
_IN_LANGUAGE = "language:response_language"
# per instruction, the checkers a context may pass, best first: each tuple is one tier
SOURCES: dict[str, tuple[tuple[str, ...], ...]] = {
    "numbers:native_digits": (("numbers:ascii_digits",), ("numbers:native_digits",)),
    "numbers:ascii_digits": (("numbers:native_digits",), ("numbers:ascii_digits",)),
    "numbers:spelled_out": (("numbers:ascii_digits", "numbers:native_digits"), ("numbers:spelled_out",)),
    "numbers:indian_system": (("numbers:international_system",), ("numbers:indian_system",)),
    "numbers:international_system": (("numbers:indian_system",), ("numbers:international_system",)),
    "units:metric": (("units:imperial",), ("units:metric",)),
    "units:imperial": (("units:metric",), ("units:imperial",)),
    ROMANIZED: ((_IN_LANGUAGE,),),
}
IDS = tuple(SOURCES)


def quotas(value: Any, name: str, where: str) -> dict[str, int]:
    """A plan's ``beyond`` setting: instruction ids to how many contexts."""
    if not isinstance(value, dict) or not all(k in SOURCES and isinstance(v, int) and not isinstance(v, bool)
                                              and v >= 0 for k, v in value.items()):
        raise InputError(f"{name} must map instructions beyond the paper ({', '.join(IDS)}) to how many contexts, "
                         f'e.g. {{"numbers:native_digits": 5}}', where, field=name)
    return dict(value)


def check_language(wanted: dict[str, int], language: str, where: str | None = None) -> None:
    """A clear error when the plan asks for an instruction the language does not define."""
    profile = get_profile(language)
    for iid, quota in wanted.items():
        why = REGISTRY[iid].unavailable(profile, paper=False) if quota else None
        if why is not None:
            raise InputError(f"the plan asks for {iid} contexts, but {why}", where, field="beyond")


class Sources:
    """Which tier of its sources each wanted instruction finds in a document: one scoring of
    the document by every source checker at once (the checkers share its numbers and words)."""

    def __init__(self, language: str, wanted: tuple[str, ...]):
        self.wanted = tuple(i for i in wanted if i != ROMANIZED)
        self.romanized = ROMANIZED in wanted
        ids = tuple(dict.fromkeys(s for i in self.wanted for tier in SOURCES[i] for s in tier))
        self.row = Row("context", "", ids, tuple({} for _ in ids), language, "ground")
        self.index = {iid: n for n, iid in enumerate(ids)}

    def tiers(self, text: str) -> dict[str, int]:
        """Instruction id to the best tier the text passes (0 best); instructions it gives no
        material for are left out. A romanised answer's context is checked at the recheck."""
        out = {ROMANIZED: 0} if self.romanized else {}
        if not self.row.instruction_id_list:
            return out
        passed = score_row(self.row, text).strict
        for iid in self.wanted:
            for tier, sources in enumerate(SOURCES[iid]):
                if any(passed[self.index[s]] for s in sources):
                    out[iid] = tier
                    break
        return out


def recheck(language: str, instruction_id: str, text: str) -> tuple[bool, str]:
    """Whether ``text`` is a context for the instruction, and which source checker says so."""
    tried = []
    for tier in SOURCES[instruction_id]:
        for source in tier:
            kwargs = {"language": language} if source == _IN_LANGUAGE else {}
            result = score_row(Row("check", "", (source,), (kwargs,), language, "ground"), text)
            if result.strict[0]:
                return True, f"{source}: {result.explanations[0]}"
            tried.append(f"{source}: {result.explanations[0]}")
    return False, "; ".join(tried)


__all__ = ["IDS", "KIND", "SOURCES", "TAG", "Sources", "check_language", "quotas", "recheck"]
