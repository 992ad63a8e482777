"""language:response_language: the prompt names the language the answer must be in, and the
row's ``resp_lang`` agrees with what its instructions ask.

Names are taken from the row's profile (``language_names``), the other profiles of its script
(Hindi's name for a language is a fair spelling in a Nepali prompt), the English name and the
language's own name. Prompts inflect and respell names ("अंग्रेजीमा", "पन्जाबी" for the
profile's "पंजाबी"), so a name counts when it is part of a word, or close to the start of one
(at least 3/4 of its letters in order); a name not found is a warning."""

from __future__ import annotations

from collections.abc import Iterator
from difflib import SequenceMatcher
from functools import cache

import regex

from indicifeval.dataset.validation.findings import ERROR, WARNING, Finding, finding
from indicifeval.dataset.validation.lexical import instructions
from indicifeval.dataset.validation.prompt import Prompt
from indicifeval.languages import (
    LanguageProfile,
    UnknownLanguageError,
    get_profile,
    language_name,
    list_languages,
    world_languages,
)
from indicifeval.text.langid import identify_language
from indicifeval.text.normalize import match_key
from indicifeval.text.scripts import script_counts

RESPONSE_LANGUAGE = "language:response_language"
# instructions that ask for an English answer by themselves
ENGLISH_CASE = ("change_case:english_capital", "change_case:english_lowercase")
_CLOSE = 0.75


@cache
def names_of(code: str, row_language: str) -> tuple[str, ...]:
    """How a prompt in ``row_language`` may name the language ``code`` (match keys)."""
    own = get_profile(row_language)
    names = [own.language_names.get(code)]
    for other in list_languages():
        profile = get_profile(other)
        if profile.script == own.script:
            names.append(profile.language_names.get(code))
    names.append(language_name(code))
    try:
        target = get_profile(code)
        names += [target.native_name, target.name]
    except UnknownLanguageError:
        pass
    return tuple(dict.fromkeys(match_key(n).strip() for n in names if n and n.strip()))


def _close(name: str, word: str) -> bool:
    if len(name) < 3:
        return False
    for size in (len(name) - 1, len(name), len(name) + 1):
        if size <= len(word) and SequenceMatcher(None, name, word[:size]).ratio() >= _CLOSE:
            return True
    return False


def named(p: Prompt, code: str) -> str | None:
    """The word of the prompt that names ``code``, or None."""
    names = names_of(code, p.row.language)
    for name in names:
        if name in p.key:
            return name
    for word in p.words:
        if any(_close(name, word) for name in names if " " not in name):
            return word
    return None


def language_named(p: Prompt) -> Iterator[Finding]:
    for index, iid, kw in instructions(p):
        code = kw.get("language")
        if iid != RESPONSE_LANGUAGE or not code or named(p, code):
            continue
        tried = ", ".join(names_of(code, p.row.language))
        yield finding(p.row, "language_named", WARNING,
                      f"the prompt asks for {code} ({language_name(code)}) but does not name it", tried, index)


def resp_lang(p: Prompt) -> Iterator[Finding]:
    row = p.row
    given = row.resp_lang
    if given is None:
        return
    if given != "src" and given not in world_languages():
        yield finding(row, "resp_lang", ERROR, f"resp_lang {given!r} is neither 'src' nor a known language code",
                      given)
        return
    asked = [(index, kw.get("language")) for index, iid, kw in instructions(p) if iid == RESPONSE_LANGUAGE]
    for index, code in asked:
        if given == "src" and code != row.language:
            yield finding(row, "resp_lang", ERROR,
                          f"resp_lang is 'src' (the prompt's language, {row.language}), but the instruction asks for "
                          f"{code}", code, index)
        elif given not in ("src", code):
            yield finding(row, "resp_lang", ERROR, f"resp_lang is {given!r}, but the instruction asks for {code}",
                          code, index)
    if asked or given in ("src", row.language):
        return
    if given == "en" and any(iid in ENGLISH_CASE for iid in row.instruction_id_list):
        return
    yield finding(row, "resp_lang", WARNING,
                  f"resp_lang is {given!r}, but no instruction asks for an answer in {language_name(given)}", given)


_NOT_LETTERS = regex.compile(r"\{\{\d+\}\}|https?://\S+|`[^`]*`")
_MIN_LETTERS = 20


def prompt_language(p: Prompt) -> Iterator[Finding]:
    """The prompt is written in its row's language: most of its letters in the language's
    script (an error otherwise: an untranslated or wrongly generated prompt), and, inside a
    script several languages share, identified as the language by the scorer's language
    identification (a warning otherwise: short prompts and names can mislead it)."""
    row, profile = p.row, p.profile
    if row.language == "en" or profile.script == "Latn":
        return
    counts = script_counts(_NOT_LETTERS.sub(" ", row.prompt))
    total = sum(counts.values())
    if total < _MIN_LETTERS:
        return
    share = counts.get(profile.script, 0) / total
    if share < 0.5:
        top, n = counts.most_common(1)[0]
        yield finding(row, "prompt_language", ERROR, f"the prompt is mostly in the {top} script ({n / total:.0%} of "
                      f"its letters), not in {profile.script} ({language_name(row.language)}): untranslated?",
                      row.prompt[:80])
        return
    detected = identify_language(row.prompt)
    other = get_profile_or_none(detected) if detected is not None and detected != row.language else None
    if other is not None and other.script == profile.script:
        yield finding(row, "prompt_language", WARNING, f"the prompt reads as {language_name(other.code)}, not "
                      f"{language_name(row.language)}", row.prompt[:80])


def get_profile_or_none(code: str) -> LanguageProfile | None:
    try:
        return get_profile(code)
    except UnknownLanguageError:
        return None
