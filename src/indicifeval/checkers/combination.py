"""combination:* — two responses, repeat the prompt."""

from __future__ import annotations

from indicifeval.checkers.registry import Param, all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.normalize import collapse


@checker(
    "combination:two_responses",
    category="Format", table_row=17,
    conflicts=all_but("keywords:existence", "keywords:forbidden_words", "language:response_language",
                      "detectable_format:title", "punctuation:no_comma"),
)
def two_responses(view: TextView, args: dict, rules: Rules):
    pieces = view.text.split("******")
    valid = []
    for i, piece in enumerate(pieces):
        if not piece.strip():
            if i not in (0, len(pieces) - 1):
                return False, "an empty response between ****** separators"
        else:
            valid.append(piece)
    if len(valid) != 2:
        return False, f"{len(valid)} responses separated by ******, needed 2"
    if valid[0].strip() == valid[1].strip():
        return False, "the two responses are identical"
    return True, "2 different responses"


@checker(
    "combination:repeat_prompt",
    Param("prompt_to_repeat", "str", role="copy_of_prompt", copy_of="request"),
    category="Keyword", table_row=4,
    conflicts=all_but("keywords:existence", "detectable_format:title", "punctuation:no_comma"),
)
def repeat_prompt(view: TextView, args: dict, rules: Rules):
    wanted = args["prompt_to_repeat"]
    if not wanted:
        return False, "no prompt to repeat given"
    if rules.indic_fixed:
        ok = view.collapsed_starts_with(collapse(wanted))
    else:
        ok = view.text.strip().lower().startswith(wanted.strip().lower())
    return ok, ("starts with the request" if ok else "does not start with the request verbatim")
