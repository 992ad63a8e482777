"""What a row's own instructions allow, so the implicit constraints never block an answer its
instructions asked for: another language (``language:response_language``, English case, the
row's ``resp_lang``), Latin letters (``language:romanized``), a copy of the request
(``copy:*``, ``repeat:*``: the answer *is* an echo), repeated phrases, a one-word answer from
a list of options, reversed characters. Read from the registry's parameters where it says so
(a ``language_code`` parameter, a ``copy_of_prompt`` one), from the few ids below where not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import regex

from indicifeval.checkers import REGISTRY
from indicifeval.core.caches import bounded_cache
from indicifeval.languages import LanguageProfile, get_profile
from indicifeval.languages.profile import UnknownLanguageError
from indicifeval.records import Row

# The whole answer in English, whatever the prompt's language.
WHOLE_ANSWER_ENGLISH = frozenset({"change_case:english_capital", "change_case:english_lowercase"})
# The answer in the prompt's language typed in Latin letters.
LATIN_LETTERS = frozenset({"language:romanized"})
# Answers that are repetitions by design (the copy itself checked by the instruction).
REPEATS_BY_DESIGN = frozenset({"copy:repeat_phrase", "copy:copying_multiple", "repeat:repeat_simple",
                               "repeat:repeat_change", "words:repeats"})
# Answers that may be only what the prompt gave (an option, a copied span, a repeated phrase).
ONLY_GIVEN_TEXT = frozenset({"format:options", "detectable_format:constrained_response", "repeat:repeat_simple",
                             "copy:repeat_phrase"})
# Answers that are numbers by design (a list of dates, of multiples): no letters needed.
NUMBERS_BY_DESIGN = frozenset({"custom:date_format_list", "custom:multiples"})
# Answers that may be a sentence of the prompt itself.
ECHO_BY_DESIGN = frozenset({"repeat:repeat_simple"})
# Answers that are names (cities, capitals, people): too few ordinary words to tell sibling
# languages of one script apart, so only the script is judged.
NAMES = frozenset({"custom:european_capitals_sort", "custom:csv_city", "count:person_names", "custom:reverse_newline"})
# Text no language has n-grams for (characters reversed), or in another script by design.
NOT_PLAIN_TEXT = frozenset({"custom:character_reverse", "count:words_japanese"})
# Ids whose answer also has something of its own beside the copy they ask for.
COPY_THEN_ANSWER = frozenset({"combination:repeat_prompt", "ratio:overlap"})


@dataclass(frozen=True)
class Allowance:
    """The row's allowances, each named after the constraint it relaxes."""

    ids: tuple[str, ...]  # the row's instruction ids
    kwargs: tuple[dict, ...]  # and their kwargs, as the row gives them
    languages: frozenset[str] | None  # the answer's acceptable languages; None: any
    names_only: bool  # mostly names: the script decides, not the language
    latin_letters: bool  # the prompt's language in Latin letters
    echo: bool  # the answer may be the prompt (or a copy of the request) itself
    repeats: bool  # repetition is the instruction
    only_given: bool  # the answer may consist of given text only
    numbers: bool  # the answer may be numbers only
    plain_text: bool  # its words are ordinary words of the language (n-grams apply)
    copies: tuple[str, ...]  # request copies to take out of the answer before measuring echo
    given: tuple[str, ...]  # keywords, phrases and markers the instructions require
    keywords: tuple[str, ...]  # of those, the keywords (counted for stuffing)
    quotes: tuple[tuple[str, str], ...]  # the prompt language's quotation marks


def profile_of(language: str) -> LanguageProfile | None:
    """The language's profile; None for a language the answer may be asked in that has none."""
    try:
        return get_profile(language)
    except UnknownLanguageError:
        return None


def _english_rules(language: str) -> bool:
    profile = profile_of(language)
    return profile is not None and profile.text_rules == "ifeval"


@bounded_cache(maxsize=4096)  # keyed by prompts: by their size too
def named_languages(language: str, prompt: str) -> frozenset[str]:
    """The languages a prompt names in its own language's words ("Explain in French ..."): for
    English rows only, whose prompts (IFEval's) ask so without an instruction; Indic rows say
    it in ``resp_lang`` and their prompts name English for other reasons (English capitals)."""
    profile = profile_of(language)
    if profile is None:
        return frozenset()
    names = profile.language_names
    lowered = prompt.lower()
    return frozenset(code for code, name in names.items()
                     if name and name.lower() in lowered and
                     regex.search(rf"(?<![\p{{L}}\p{{M}}]){regex.escape(name.lower())}", lowered))


def allowance(row: Row, args: Sequence[dict]) -> Allowance:
    ids = set(row.instruction_id_list)
    languages: set[str] = set()
    copies: list[str] = []
    given: list[str] = []
    keywords: list[str] = []
    copy_only = False
    for iid, arg in zip(row.instruction_id_list, args):
        checker = REGISTRY.get(iid)
        for param in checker.params if checker else ():
            value = arg.get(param.name)
            if param.role == "language_code" and isinstance(value, str):
                languages.add(value)
            elif param.copy_of == "request" and isinstance(value, str):
                copies.append(value)
                copy_only |= iid not in COPY_THEN_ANSWER
            elif param.lexical or param.copy_of == "phrase":
                values = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
                given.extend(values)
                if param.copy_of is None:
                    keywords.extend(values)
    if ids & WHOLE_ANSWER_ENGLISH:
        languages.add("en")
    if row.resp_lang and row.resp_lang != "src":
        languages.add(row.resp_lang)
    if _english_rules(row.language):  # IFEval's English prompts ask for a language in words, not by kwargs
        languages |= named_languages(row.language, row.prompt)
    languages.add(row.language)  # never blocked for answering in the prompt's language
    profile = profile_of(row.language)
    quotes = profile.quote_pairs if profile is not None else (('"', '"'),)
    return Allowance(
        ids=tuple(row.instruction_id_list),
        kwargs=tuple(row.kwargs),
        languages=None if ids & NOT_PLAIN_TEXT else frozenset(languages),
        latin_letters=bool(ids & LATIN_LETTERS),
        names_only=bool(ids & NAMES),
        echo=copy_only or bool(ids & ECHO_BY_DESIGN),
        repeats=copy_only or bool(ids & REPEATS_BY_DESIGN),
        only_given=copy_only or bool(ids & ONLY_GIVEN_TEXT),
        numbers=bool(ids & NUMBERS_BY_DESIGN),
        plain_text=not (ids & NOT_PLAIN_TEXT) and not (ids & LATIN_LETTERS),
        copies=tuple(c for c in copies if c.strip()),
        given=tuple(g for g in given if g.strip()),
        keywords=tuple(k for k in keywords if k.strip()),
        quotes=tuple(quotes),
    )


__all__ = ["Allowance", "allowance", "profile_of"]
