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
from indicifeval.scoring.engine import score_row, strict_verdicts

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
    the document by the source checkers it needs (they share its numbers and words)."""

    def __init__(self, language: str, wanted: tuple[str, ...]):
        self.language, self.wanted = language, wanted

    def tiers(self, text: str, wanted: dict[str, int] | None = None) -> dict[str, int]:
        """Instruction id to the best tier the text passes (0 best), for the instructions of
        ``wanted`` up to the tier given for each (default: all, every tier); those it gives no
        material for are left out. Any text is a context for a romanised answer here; the
        recheck makes sure it is in the language."""
        upto = wanted if wanted is not None else {i: len(SOURCES[i]) - 1 for i in self.wanted}
        out = {ROMANIZED: 0} if ROMANIZED in upto else {}
        need = {i: SOURCES[i][:t + 1] for i, t in upto.items() if i != ROMANIZED}
        sources = tuple(dict.fromkeys(s for tiers in need.values() for tier in tiers for s in tier))
        if not sources:
            return out
        row = Row("context", "", sources, tuple({} for _ in sources), self.language, "ground")
        passed = {s: ok for s, (ok, _) in zip(sources, strict_verdicts(row, text))}
        for iid, tiers in need.items():
            tier = next((n for n, sources_ in enumerate(tiers) if any(passed[s] for s in sources_)), None)
            if tier is not None:
                out[iid] = tier
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
