"""language:response_language."""

from __future__ import annotations

from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView, not_detected


def _default_language(draw, profile):
    # The authors draw from their language-name table (which lacks or, and as/sa elsewhere).
    codes = [c for c in profile.language_names if c not in ("as", "or", "sa") or c == profile.code]
    return draw.choice("language", codes)


def _sample_language(rng, profile, drawn):
    # Any language the profile can name, but its own: asking for it adds no constraint.
    return rng.choice(sorted(c for c in profile.language_names if c != profile.code))


# The answer is in another language, so the English-case checks and every instruction whose
# kwargs are words or letters of the prompt's language conflict with it (IFEval lists the
# case checks, keywords, end phrase and section splitter; the letter, first word and
# postscript marker are the prompt language's here too).
@checker(
    "language:response_language",
    Param("language", "language", paper_default=_default_language, sample=_sample_language),
    category="Language", table_row=25,
    conflicts=(
        "change_case:capital_word_frequency", "change_case:english_capital", "change_case:english_lowercase",
        "keywords:existence", "keywords:frequency", "keywords:forbidden_words", "keywords:letter_frequency",
        "startend:end_checker", "detectable_format:multiple_sections", "detectable_content:postscript",
        "length_constraints:nth_paragraph_first_word",
    ),
)
def response_language(view: TextView, args: dict, rules: Rules):
    wanted = args["language"]
    others = view.other_languages(wanted)
    if others is not None:
        return False, not_detected(wanted, others)
    found = view.language
    if found is None:
        if rules.undetectable_passes:
            return True, f"language undetectable (counted as followed), needed {wanted}"
        return False, f"language undetectable, needed {wanted}"
    return found == wanted, f"detected {found}, needed {wanted}"
