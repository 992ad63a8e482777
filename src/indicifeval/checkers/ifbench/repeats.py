"""IFBench's repeat:* instructions: repeat the request with its first word changed, output a
fixed sentence only, copy a span of the request.

English compares as the reference scorer does (lower-cased, stripped; spans by character
index); an Indic answer is compared as phrases are everywhere in fixed mode (NFC,
case-folded, joiners removed, whitespace runs as one space), and a span is counted in
whitespace-separated words, as IFBench's released prompts word it. Fixed mode only."""

from __future__ import annotations

from indicifeval.checkers.describe import DescriptionError, templates_of
from indicifeval.checkers.ifbench.count_text import collapsed, phrase_key
from indicifeval.checkers.registry import Param, all_but, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.paragraphs import strip_edges

_SUITE = "ifbench"


@checker(
    "repeat:repeat_change",
    Param("prompt_to_repeat", "str", role="copy_of_prompt", copy_of="request"),
    category="Repeat", table_row=214, fixed_only=True, suite=_SUITE, conflicts=all_but(),
)
def repeat_change(view: TextView, args: dict, rules: Rules):
    request = args["prompt_to_repeat"]
    if not request.strip():
        return False, "no request to repeat given"
    if rules.ifeval:
        theirs, mine = request.split(), view.text.split()
        # the reference only asks that the answer differ from the request somewhere; a first
        # word left as it was (the request again, with other spacing) is not a change
        changed = view.text != request and theirs[:1] != mine[:1]
    else:
        theirs, mine = collapsed(request).split(" "), view.collapsed.split(" ")
        changed = strip_edges(theirs[0]) != strip_edges(mine[0])
    if not mine or mine[1:] != theirs[1:]:
        return False, "the answer is not the request after its first word"
    if not changed:
        return False, "the request repeated with its first word unchanged"
    return True, f"the request with its first word changed ({mine[0]!r} for {theirs[0]!r})"


def _sentence(profile: LanguageProfile) -> str | None:
    """The sentence to output: this instruction's own description in the language."""
    try:
        return templates_of("repeat:repeat_simple", profile)[0]
    except DescriptionError:
        return None


def _needs_sentence(profile: LanguageProfile) -> str | None:
    if _sentence(profile) is None:
        return f"the answer is the description itself: the {profile.code} profile has no template for it"
    return None


@checker(
    "repeat:repeat_simple",
    category="Repeat", table_row=215, fixed_only=True, suite=_SUITE, conflicts=all_but(),
    requires=_needs_sentence,
)
def repeat_simple(view: TextView, args: dict, rules: Rules):
    sentence = _sentence(rules.profile) or ""
    if rules.ifeval:
        ok = view.text.strip().lower() == sentence.strip().lower()
    else:  # (a danda or a full stop at the end, or none, is the same sentence)
        ok = phrase_key(view.nfc) == phrase_key(sentence)
    return ok, ("only the sentence" if ok else f"not only the sentence {sentence!r}")


def _span_start(rng, profile: LanguageProfile, drawn: dict) -> int:
    request = drawn.get("prompt_to_repeat") or ""
    size = len(request.split()) if profile.is_indic else len(request)
    return rng.randint(0, max(0, size - 2))


def _span_end(rng, profile: LanguageProfile, drawn: dict) -> int:
    request = drawn.get("prompt_to_repeat") or ""
    size = len(request.split()) if profile.is_indic else len(request)
    start = drawn["n_start"]
    return rng.randint(start + 1, max(start + 1, size - 1))


@checker(
    "repeat:repeat_span",
    Param("prompt_to_repeat", "str", role="copy_of_prompt", copy_of="request"),
    Param("n_start", "int", sample=_span_start),
    Param("n_end", "int", sample=_span_end),
    category="Repeat", table_row=216, fixed_only=True, suite=_SUITE, conflicts=all_but(),
)
def repeat_span(view: TextView, args: dict, rules: Rules):
    request, start, end = args["prompt_to_repeat"], args["n_start"], args["n_end"]
    if rules.ifeval:  # character indices, both ends included
        span = request[start:end + 1]
        ok = view.text.strip().lower() == span.strip().lower()
        unit = "characters"
    else:  # word indices (whitespace-separated), both ends included
        span = " ".join(request.split()[start:end + 1])
        ok = bool(span) and view.collapsed == collapsed(span)
        unit = "words"
    if not span.strip():
        return False, f"the request has no {unit} {start} to {end}"
    return ok, (f"the span of {unit} {start} to {end}" if ok else f"not the span of {unit} {start} to {end}: {span!r}")
