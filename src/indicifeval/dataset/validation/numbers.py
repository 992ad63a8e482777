"""Counts: every number a checker enforces is stated in the prompt, and every relation it needs
is given.

A number counts as stated when the prompt writes it in digits of any script (ASCII, the
language's own, read with ``unicodedata.digit``) or as a number word of the language (the
profile's ``number_words``, ``ordinal_words`` for nth_paragraph; English ones too, which
prompts often keep). "less than N" may be written as "at most N-1" or "from X to N-1", and
"at least N" as "more than N-1", so N-1 counts as well. Some numbers are implied rather than
written, and are not asked for: a lower bound of 1 ("highlight some words"), "less than 1"
("do not use the letter e"), the first paragraph ("start your answer with"), and two
paragraphs where the prompt shows the one *** divider between them. What is left unstated is
a warning: the prompt may still spell the number in a way this check cannot read ("a dozen")."""

from __future__ import annotations

from collections.abc import Iterator

from indicifeval.checkers import REGISTRY
from indicifeval.dataset.validation.findings import ERROR, WARNING, Finding, finding
from indicifeval.dataset.validation.lexical import instructions
from indicifeval.dataset.validation.prompt import Prompt
from indicifeval.languages import get_profile

NUMBER_KWARGS = ("num_words", "num_sentences", "num_paragraphs", "num_bullets", "num_highlights", "num_placeholders",
                 "num_sections", "nth_paragraph", "frequency", "let_frequency", "capital_frequency")
RELATION_OF = {"num_words": "relation", "num_sentences": "relation", "frequency": "relation",
               "let_frequency": "let_relation", "capital_frequency": "capital_relation"}
# checked as "at least N" by their checkers, without a relation kwarg
_AT_LEAST = frozenset({"num_highlights", "num_placeholders", "num_sections"})


def _implied(p: Prompt, iid: str, name: str, n: int, relation: str | None) -> bool:
    if n <= 0 or (relation == "less than" and n == 1):
        return True
    if n == 1 and (relation == "at least" or name in _AT_LEAST or name == "nth_paragraph"):
        return True
    return iid == "length_constraints:number_paragraphs" and n == 2 and "***" in p.row.prompt


def _forms(p: Prompt, n: int, ordinal: bool) -> list[str]:
    profiles = [p.profile] + ([get_profile("en")] if p.profile.code != "en" else [])
    words: list[str] = []
    for profile in profiles:
        if ordinal:
            words += profile.ordinal_words.get(n, ())
        words += profile.number_words.get(n, ())
    return words


def _stated(p: Prompt, values: list[int], ordinal: bool) -> bool:
    return any(v in p.numbers or p.has_any_word(_forms(p, v, ordinal)) for v in values)


def number_stated(p: Prompt) -> Iterator[Finding]:
    for index, iid, kw in instructions(p):
        for name in NUMBER_KWARGS:
            n = kw.get(name)
            if not isinstance(n, int):
                continue
            relation_name = RELATION_OF.get(name)
            relation = kw.get(relation_name) if relation_name else None
            if _implied(p, iid, name, n, relation):
                continue
            values = [n, n - 1] if relation_name and relation != "exactly" else [n]
            if _stated(p, values, ordinal=name == "nth_paragraph"):
                continue
            shown = ", ".join(str(v) for v in sorted(p.numbers)[:12])
            said = f"{relation} {n}" if relation else str(n)
            alternatives = " or ".join(str(v) for v in values)
            yield finding(p.row, "number_stated", WARNING,
                          f"{name} is {said}, but the prompt never states {alternatives} (in digits or words)",
                          f"numbers in the prompt: {shown}" if shown else "the prompt states no numbers", index)


def relation_missing(p: Prompt) -> Iterator[Finding]:
    for index, iid, kw in instructions(p):
        for param in REGISTRY[iid].params:
            if param.kind == "relation" and param.name not in kw:
                yield finding(p.row, "relation_missing", ERROR,
                              f"{iid} has no {param.name}: the fixed scorer reads a missing relation as "
                              f"\"exactly\" (the paper's scorer draws one at random)", None, index)
