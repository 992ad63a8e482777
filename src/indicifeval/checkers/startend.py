"""startend:* — end phrase and wrapping quotation marks."""

from __future__ import annotations

from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.normalize import collapse


@checker(
    "startend:end_checker",
    # a phrase the prompt quotes: translated once, then the kwarg is what the prompt shows
    Param("end_phrase", "str", role="copy_of_prompt", copy_of="phrase", lexical=True,
          paper_default=lambda d, p: d.choice("end_phrase", p.default_end_phrases)),
    category="Keyword", table_row=14,
)
def end_checker(view: TextView, args: dict, rules: Rules):
    phrase = args["end_phrase"]
    if rules.indic_fixed:
        quotes = "".join(a + b for a, b in rules.profile.quote_pairs) + "'*_ \t\n"
        target = collapse(phrase)
        ok = bool(target) and view.collapsed_ends_with(target, quotes)
    else:
        text = view.text.strip().strip('"').lower()
        ok = text.endswith(phrase.strip().lower())
    tail = view.text.strip()[-40:]
    return ok, (f"ends with {phrase!r}" if ok else f"ends with …{tail!r}, needed {phrase!r}")


@checker("startend:quotation", category="Keyword", table_row=16, conflicts=("detectable_format:title",))
def quotation(view: TextView, args: dict, rules: Rules):
    text = view.text.strip()
    pairs = rules.profile.quote_pairs if rules.indic_fixed else (('"', '"'),)
    for open_q, close_q in pairs:
        if len(text) > 1 and text.startswith(open_q) and text.endswith(close_q):
            return True, f"wrapped in {open_q}…{close_q}"
    return False, f"not wrapped in double quotes (starts {text[:1]!r}, ends {text[-1:]!r})"
