"""IFBench format:* marks inside the text: an emoji ending every sentence, nested brackets, nested
quotes, quoted phrases each followed by an explanation, an HTML-italic thesis.

English follows IFBench's checks (docs/scoring.md lists the corrections); Indic answers are read
with the profile's sentences, curly quotes, and apostrophes inside words that are no quotes."""

from __future__ import annotations

import re
import string

import regex

from indicifeval.checkers.registry import checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.sentences import split_sentences

_SUITE = "ifbench"
_SHOWN = 40  # characters of the answer an explanation quotes


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


# -- emoji -----------------------------------------------------------------------------------------
# One character the `emoji` package calls an emoji (emoji.is_emoji): Unicode's Emoji property less
# the keycap bases # * 0-9 and the lone regional indicators (a flag is two of them).
_EMOJI_CHAR = regex.compile(r"[\p{Emoji}--[#*0-9\p{Regional_Indicator}]]", regex.V1)
# A grapheme that shows as an emoji: a pictograph, an emoji-presentation character, a skin tone, a
# keycap (1️⃣), or a flag (two regional indicators)
_EMOJI_IN_CLUSTER = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Presentation}\p{Emoji_Modifier}\u20e3]")
_TRAILING = regex.compile(r"(?r)[\p{P}\s]*")  # punctuation and spaces at the end (matched backwards)
_LEADING = regex.compile(r"[\p{P}\s]*")
_GRAPHEME = regex.compile(r"\X")
_DELETE_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)
_CLUSTER_SPAN = 32  # no emoji sequence is longer (a family of four with skin tones is 19)


def _all_end(n: int) -> str:
    return "the one sentence ends with an emoji" if n == 1 else f"all {n} sentences end with an emoji"


def _is_emoji_char(ch: str) -> bool:
    return _EMOJI_CHAR.match(ch) is not None


def _last_grapheme(text: str) -> str:
    """The last grapheme before trailing punctuation and spaces ('' when there is none)."""
    end = _TRAILING.search(text).start()  # (?r): the run that ends the text
    tail = text[max(0, end - _CLUSTER_SPAN) : end]
    found = _GRAPHEME.findall(tail)
    return found[-1] if found else ""


def _first_grapheme(text: str) -> str:
    start = _LEADING.match(text).end()
    found = _GRAPHEME.match(text, start)
    return found.group(0) if found else ""


def _is_emoji(grapheme: str) -> bool:
    return _EMOJI_IN_CLUSTER.search(grapheme) is not None


def _emoji_reference(text: str):
    """IFBench's check: Punkt sentences without ASCII punctuation; the last or the second-last
    character is an emoji, or the next sentence starts with one (an emoji after the full stop)."""
    from indicifeval.text.punkt_en import sent_tokenize_en

    sentences = sent_tokenize_en(text)
    for i, sentence in enumerate(sentences):
        stripped = sentence.translate(_DELETE_ASCII_PUNCTUATION).strip()
        if not stripped:
            return False, f"sentence {i + 1} of {len(sentences)} is only punctuation"
        if _is_emoji_char(stripped[-1]) or _is_emoji_char(stripped[-2] if len(stripped) > 1 else stripped[-1]):
            continue
        if i < len(sentences) - 1:
            following = sentences[i + 1].translate(_DELETE_ASCII_PUNCTUATION).strip()
            if following and _is_emoji_char(following[0]):
                continue
        return False, f"sentence {i + 1} of {len(sentences)} ends without an emoji: …{stripped[-_SHOWN:]!r}"
    return True, _all_end(len(sentences))


@checker("format:emoji", category="Format", table_row=240, fixed_only=True, suite=_SUITE)
def emoji(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return _emoji_reference(view.text)
    profile = rules.profile
    sentences = split_sentences(view.nfc, profile.sentence_terminators, profile.abbreviations)
    if not sentences:
        return False, "no sentence (no letter or digit)"
    for i, sentence in enumerate(sentences):
        if _is_emoji(_last_grapheme(sentence)):
            continue
        if i + 1 < len(sentences) and _is_emoji(_first_grapheme(sentences[i + 1])):
            continue  # the emoji came after the sentence's danda or full stop
        return False, f"sentence {i + 1} of {len(sentences)} ends without an emoji: …{sentence[-_SHOWN:]!r}"
    return True, _all_end(len(sentences))


# -- nested brackets ---------------------------------------------------------------------------------
_BRACKET = re.compile(r"[][(){}]")
_OPENS = {")": "(", "]": "[", "}": "{"}
_MIN_BRACKETS = 5


@checker("format:parentheses", category="Format", table_row=248, fixed_only=True, suite=_SUITE)
def parentheses(view: TextView, args: dict, rules: Rules):
    """IFBench's check in every language (brackets are the same in every script): followed once a
    bracket closes after the open ones reached 5 levels; a bracket that closes none of them
    starts the count again."""
    levels: list[str] = []
    depth = deepest = closed = 0  # since the last mismatch; opened and closed in the whole answer
    for m in _BRACKET.finditer(view.text):
        char = m.group(0)
        if char in "([{":
            levels.append(char)
            depth = max(depth, len(levels))
            deepest = max(deepest, depth)
        elif levels and levels[-1] == _OPENS[char]:
            levels.pop()
            if depth >= _MIN_BRACKETS:
                return True, f"brackets nested {depth} levels deep, and closed (at character {m.start() + 1})"
            closed = max(closed, depth)
        else:
            levels, depth = [], 0
    return False, (f"a bracket closed inside {_n(closed, 'level')} at most (opened up to {deepest}), "
                   f"needed {_MIN_BRACKETS}")


# -- nested quotes -------------------------------------------------------------------------------------
_MIN_QUOTES = 3
_ASCII_QUOTE = re.compile("[\"']")
# Indic answers: straight and curly quotes; a double quote is one kind, a single quote the other
_QUOTE_CHAR = re.compile("[\"'“”‘’]")
_KIND = {'"': '"', "“": '"', "”": '"', "'": "'", "‘": "'", "’": "'"}
_OPENING, _CLOSING = "“‘", "”’"
_WORD_CHAR = regex.compile(r"[\p{L}\p{M}\p{N}]")


def _apostrophe(text: str, at: int) -> bool:
    """A single quote between two letters (ল'ৰা, it's) is part of the word."""
    return (text[at] in "'’" and 0 < at < len(text) - 1 and _WORD_CHAR.match(text, at - 1) is not None
            and _WORD_CHAR.match(text, at + 1) is not None)


def _quotes_reference(text: str):
    """IFBench's check: a quote mark closes the level above it when it is the same mark, and
    opens a level otherwise; followed once 3 levels below the deepest reached are closed."""
    levels: list[str] = []
    reached = 0
    for m in _ASCII_QUOTE.finditer(text):
        char = m.group(0)
        if levels and char == levels[-1]:
            levels.pop()
            if reached - len(levels) >= _MIN_QUOTES:
                return True, f"quotes nested {_n(reached, 'level')} deep, alternating \" and '"
        else:
            levels.append(char)
            reached = max(reached, len(levels))
    return False, f"no 3 nested levels of alternating \" and ' quotes closed (deepest {reached})"


@checker("format:quotes", category="Format", table_row=250, fixed_only=True, suite=_SUITE)
def quotes(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return _quotes_reference(view.text)
    text = view.nfc
    levels: list[list] = []  # [kind, the deepest alternating nesting closed inside it]
    deepest = 0
    for m in _QUOTE_CHAR.finditer(text):
        char, at = m.group(0), m.start()
        if _apostrophe(text, at):
            continue
        kind = _KIND[char]
        if char not in _OPENING and levels and levels[-1][0] == kind:
            depth = levels.pop()[1] + 1
            deepest = max(deepest, depth)
            if depth >= _MIN_QUOTES:
                return True, f"quotes nested {_n(depth, 'level')} deep, alternating double and single"
            if levels and levels[-1][0] != kind:
                levels[-1][1] = max(levels[-1][1], depth)
        elif char not in _CLOSING:
            levels.append([kind, 0])
    return False, f"quotes nested {_n(deepest, 'level')} deep, alternating double and single; needed {_MIN_QUOTES}"


# -- quoted phrases and their explanations -----------------------------------------------------------
_PUNCTUATION_BUT_DOUBLE_QUOTE = string.digits + string.punctuation.replace('"', "")
_LETTER = regex.compile(r"\p{L}")
_CLOSER_OF = {'"': '"”', "“": '”"', "‘": "’'", "'": "'’"}


def _quote_unquote_reference(text: str):
    """IFBench's check, with its curly quotes made straight again (their replacement lost the
    curly marks in a later edit; the shipped verdicts were made with it): no two quote marks
    with only whitespace between, and the answer does not end with a quote."""
    value = text.replace("“", '"').replace("”", '"').replace("'\"'", "")
    value = "".join(value.split())
    at = value.find('""')
    if at >= 0:
        return False, f"a quoted phrase followed directly by another quote: {value[max(0, at - 20) : at + 20]!r}"
    stripped = value.strip(_PUNCTUATION_BUT_DOUBLE_QUOTE)
    if stripped and stripped[-1] == '"':
        return False, f"the answer ends with a quoted phrase: …{stripped[-_SHOWN:]!r}"
    return True, f"{_n(value.count(chr(34)) // 2, 'quoted phrase')}, none last and none next to another"


@checker("format:quote_unquote", category="Format", table_row=249, fixed_only=True, suite=_SUITE)
def quote_unquote(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return _quote_unquote_reference(view.text)
    text = view.nfc
    closers = ""  # inside a quotation: the marks that close it
    phrases = 0
    explained_from = -1  # where the last quoted phrase ended, while no letter has followed it
    for m in _QUOTE_CHAR.finditer(text):
        char, at = m.group(0), m.start()
        if _apostrophe(text, at):
            continue
        if closers:
            if char in closers:
                closers, explained_from = "", m.end()
                phrases += 1
            continue
        if char not in _CLOSER_OF:
            continue  # a closing mark outside a quotation
        if explained_from >= 0 and _LETTER.search(text, explained_from, at) is None:
            return False, f"quoted phrase {phrases} is followed by another without an explanation: " \
                          f"{text[max(0, at - 30) : at + 10]!r}"
        closers, explained_from = _CLOSER_OF[char], -1
    if explained_from >= 0 and _LETTER.search(text, explained_from) is None:
        return False, f"the answer ends with a quoted phrase: …{text[-_SHOWN:]!r}"
    if not phrases:
        return True, "no quoted phrase (nothing to explain)"
    return True, f"each of {_n(phrases, 'quoted phrase')} is followed by unquoted text"


# -- an HTML-italic thesis ----------------------------------------------------------------------------
@checker("format:thesis", category="Format", table_row=252, fixed_only=True, suite=_SUITE)
def thesis(view: TextView, args: dict, rules: Rules):
    """IFBench's check in every language: the first <i> (or <em>) italic is not blank and text
    follows it. Its offsets, right for <i>, are now right for <em> too (an empty <em></em> or an
    <em> italic at the very end passed)."""
    text = view.text
    for tag in ("i", "em"):
        start = text.find(f"<{tag}>")
        if start >= 0:
            break
    else:
        return False, "no HTML italics (<i>…</i> or <em>…</em>)"
    value = text[start:]
    for close in ("</i>", "</em>"):
        end = value.find(close)
        if end >= 0:
            break
    else:
        return False, f"the italics opened by <{tag}> are never closed"
    statement = value[len(tag) + 2 : end]
    if not statement.strip():
        return False, "the italic thesis statement is empty"
    if not value[end + len(close) :].strip():
        return False, f"nothing follows the italic thesis statement {statement.strip()[:_SHOWN]!r}"
    return True, f"italic thesis statement {statement.strip()[:_SHOWN]!r}, followed by text"
