"""Text the checker looks for must be in the prompt: lexical kwargs, the letter, the request to
repeat, the constrained-response phrases; and every required kwarg must be there at all.

Matching is the scorer's (whole words on ``match_key``). Absent is an error: the model cannot
know what it is asked. Found only inside a longer word is a warning: the prompt shows an
inflected or glued form, and the scorer, which matches whole words, will not accept that form."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import regex

from indicifeval.checkers import REGISTRY, lexical_kwargs
from indicifeval.dataset.validation.findings import ERROR, WARNING, Finding, finding
from indicifeval.dataset.validation.prompt import Prompt, enclosing, snippet
from indicifeval.text.normalize import collapse, match_key, nfc

_SEPARATE = (r"(?<![\p{L}\p{M}\p{N}])", r"(?![\p{L}\p{M}\p{N}])")


def instructions(p: Prompt) -> Iterator[tuple[int, str, dict]]:
    """(index, id, cleaned kwargs) of every instruction, repeated ids included."""
    yield from ((i, iid, kw) for i, (iid, kw) in enumerate(zip(p.row.instruction_id_list, p.row.kwargs)))


def instruction_defined(p: Prompt) -> Iterator[Finding]:
    """An instruction the row's language does not define (English letter case in Hindi): the
    scorer and the verifier refuse the row, so the dataset should not hold it. (The
    instructions beyond the paper are ``beyond_stated``'s.)"""
    for index, iid, _ in instructions(p):
        spec = REGISTRY[iid]
        if spec.suite != "beyond":
            why = spec.unavailable(p.profile, paper=False)
            if why is not None:
                yield finding(p.row, "instruction_defined", ERROR, why, None, index)


def kwarg_missing(p: Prompt) -> Iterator[Finding]:
    """A required kwarg that is absent (relations are ``relation_missing``'s): fixed-mode scoring
    stops on it, and paper mode would draw a random value."""
    for index, iid, kw in instructions(p):
        for param in REGISTRY[iid].params:
            if param.required and param.kind != "relation" and param.name not in kw:
                yield finding(p.row, "kwarg_missing", ERROR,
                              f"{iid} needs kwarg {param.name!r}, which the row does not give (fixed-mode "
                              f"scoring refuses the row; paper mode draws a random value)", None, index)


def _values(value) -> list[str]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _postscript_shown(p: Prompt, marker: str) -> bool:
    # the scorer's marker match: dots optional, any spacing between the marker's parts
    parts = [x for x in regex.split(r"[\s.]+", match_key(marker)) if x]
    if not parts:
        return False
    body = r"[\s.]*".join(regex.escape(x) for x in parts)
    return regex.search(_SEPARATE[0] + body + _SEPARATE[1], p.key) is not None


def lexical_in_prompt(p: Prompt) -> Iterator[Finding]:
    for index, iid, kw in instructions(p):
        for name in lexical_kwargs(iid):
            if name == "letter" or name not in kw:
                continue
            for value in _values(kw[name]):
                text = value.strip()
                if not text:
                    yield finding(p.row, "lexical_in_prompt", ERROR, f"{name} is empty", repr(value), index)
                    continue
                state, word = p.presence(text)
                if state == "word" or (name == "postscript_marker" and _postscript_shown(p, text)):
                    continue
                if state == "substring":
                    yield finding(p.row, "lexical_in_prompt", WARNING,
                                  f"{name} {text!r} occurs in the prompt only inside a longer word ({word!r}); "
                                  f"the scorer matches whole words", word, index)
                else:
                    yield finding(p.row, "lexical_in_prompt", ERROR,
                                  f"{name} {text!r} does not occur in the prompt", text, index)


def lexical_duplicate(p: Prompt) -> Iterator[Finding]:
    for index, iid, kw in instructions(p):
        for name in lexical_kwargs(iid):
            value = kw.get(name)
            if not isinstance(value, list):
                continue
            seen = Counter(match_key(v).strip() for v in value)
            for v in dict.fromkeys(value):
                n = seen[match_key(v).strip()]
                if n > 1:
                    seen[match_key(v).strip()] = 0  # report each value once
                    yield finding(p.row, "lexical_duplicate", WARNING, f"{name} lists {v!r} {n} times", v, index)


def letter_shown(p: Prompt, letter: str) -> bool:
    """Whether ``letter`` stands on its own in the prompt (quoted, or between spaces), not only
    inside words: "the letter क" shows क, "कविता" does not."""
    key = match_key(letter.strip())
    return bool(key) and regex.search(_SEPARATE[0] + regex.escape(key) + _SEPARATE[1], p.key) is not None


def letter_in_prompt(p: Prompt) -> Iterator[Finding]:
    for index, iid, kw in instructions(p):
        if "letter" not in kw or "letter" not in lexical_kwargs(iid):
            continue
        letter = match_key(kw["letter"].strip())
        if not letter:
            yield finding(p.row, "letter_in_prompt", ERROR, "letter is empty", repr(kw["letter"]), index)
            continue
        if letter_shown(p, letter):
            continue
        at = p.key.find(letter)
        if at == -1:
            yield finding(p.row, "letter_in_prompt", ERROR, f"letter {kw['letter']!r} does not occur in the prompt",
                          kw["letter"], index)
        else:
            word = enclosing(p.key, at, at + len(letter))
            yield finding(p.row, "letter_in_prompt", WARNING,
                          f"letter {kw['letter']!r} occurs only inside words (e.g. {word!r}), never on its own or "
                          f"quoted", word, index)


def repeat_prompt(p: Prompt) -> Iterator[Finding]:
    for index, _, kw in instructions(p):
        if "prompt_to_repeat" not in kw:
            continue
        wanted = kw["prompt_to_repeat"]
        if not wanted.strip():
            yield finding(p.row, "repeat_prompt", ERROR, "prompt_to_repeat is empty", repr(wanted), index)
        elif nfc(wanted) in p.nfc:
            continue
        elif collapse(wanted) in p.collapsed:
            yield finding(p.row, "repeat_prompt", WARNING,
                          "prompt_to_repeat matches the prompt only after spacing and case are ignored (the fixed "
                          "scorer ignores them; the paper's does not)", snippet(wanted, 0, 80, 0), index)
        else:
            yield finding(p.row, "repeat_prompt", ERROR, "prompt_to_repeat is not a verbatim piece of the prompt",
                          snippet(wanted, 0, 120, 0), index)


def constrained_options(p: Prompt) -> Iterator[Finding]:
    for index, iid, _ in instructions(p):
        if iid != "detectable_format:constrained_response":
            continue
        options = p.profile.constrained_responses
        missing = [o for o in options if collapse(o) not in p.collapsed]
        if missing:
            yield finding(p.row, "constrained_options", ERROR,
                          f"{len(missing)} of the {len(options)} answers the scorer accepts for {p.row.language} "
                          f"are not in the prompt", " / ".join(missing), index)
