"""language:response_language."""

from __future__ import annotations

from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView


def _default_language(draw, profile):
    # The authors draw from their language-name table (which lacks or, and as/sa elsewhere).
    codes = [c for c in profile.language_names if c not in ("as", "or", "sa") or c == profile.code]
    return draw.choice("language", codes)


@checker("language:response_language", Param("language", "language", paper_default=_default_language))
def response_language(view: TextView, args: dict, rules: Rules):
    wanted = args["language"]
    found = view.language
    if found is None:
        if rules.undetectable_passes:
            return True, f"language undetectable (counted as followed), needed {wanted}"
        return False, f"language undetectable, needed {wanted}"
    return found == wanted, f"detected {found}, needed {wanted}"
