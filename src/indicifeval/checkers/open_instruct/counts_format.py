"""open-instruct's layout instructions: three paragraphs of so many sentences of so many words,
no dots, no exclamation marks, sentences joined by hyphens, every word in square brackets.

Indic answers: sentences and words as the language's profile defines them (a danda ends a
sentence, a full stop is no word, धीरे-धीरे inside a sentence is no join). English answers are
judged as the reference judges them, with its own sentence splitter and NLTK's tokens."""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from indicifeval.checkers.open_instruct.counts_text import DOTS, EXCLAMATIONS, HYPHENS, reference_sentences
from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.text.punkt_en import word_tokenize_en
from indicifeval.text.sentences import split_sentences
from indicifeval.text.words import words

_SUITE = "open-instruct"
_SHOWN = 40
_PARAGRAPHS = 3  # the instruction's fixed number of paragraphs
_DIVIDER = re.compile(r"\s?\*\*\*\s?")  # the reference's: *** with a space or newline either side
# Indic answers may also write the divider as the reference's description shows it, "* * *"
_DIVIDER_INDIC = re.compile(r"\s?(?:\*\*\*|\* \* \*)\s?")


def _sentences(text: str, rules: Rules) -> list[str]:
    return split_sentences(text, rules.profile.sentence_terminators, rules.profile.abbreviations)


def _word_count(sentence: str, rules: Rules) -> int:
    return len(words(sentence)) if rules.indic_fixed else len(word_tokenize_en(sentence))


@checker("count:counting_composition",
         Param("n_sent", "int", sample=lambda rng, p, drawn: rng.randint(2, 3)),
         Param("n_words", "int", sample=lambda rng, p, drawn: rng.randint(2, 3)),
         category="Count", table_row=123, fixed_only=True, suite=_SUITE,
         conflicts=("count:count_unique", "count:count_increment_word", "keywords:letter_frequency",
                    "keywords:frequency"))
def counting_composition(view: TextView, args: dict, rules: Rules):
    n_sent, n_words = args["n_sent"], args["n_words"]
    text = view.nfc if rules.indic_fixed else view.text
    pieces = (_DIVIDER_INDIC if rules.indic_fixed else _DIVIDER).split(text)
    count = len(pieces) - (not pieces[0].strip()) - (len(pieces) > 1 and not pieces[-1].strip())
    if count != _PARAGRAPHS:  # (whatever else is wrong, this is)
        return False, f"{count} paragraphs separated by ***, needed {_PARAGRAPHS}"
    for i, piece in enumerate(pieces):
        if not piece.strip() and 0 < i < len(pieces) - 1:
            return False, f"empty paragraph between dividers (piece {i + 1})"
        if not piece.strip() and rules.indic_fixed:
            continue  # a divider before the first paragraph or after the last
        # (the reference counts the sentences of an empty first or last piece too: none)
        sentences = _sentences(piece, rules) if rules.indic_fixed else reference_sentences(piece)
        if len(sentences) != n_sent:
            return False, f"paragraph {i + 1}: {len(sentences)} sentences, needed {n_sent} in each"
        for j, sentence in enumerate(sentences, 1):
            n = _word_count(sentence, rules)
            if n != n_words:
                noun = "words" if rules.indic_fixed else "tokens (a full stop is one, as in the reference)"
                return False, f"paragraph {i + 1}, sentence {j}: {n} {noun}, needed {n_words} in each"
    return True, f"{_PARAGRAPHS} paragraphs of {n_sent} sentences of {n_words} words"


def _no_marks(view: TextView, rules: Rules, ascii_mark: str, marks: str, noun: str):
    text = view.nfc if rules.indic_fixed else view.text
    found = [(c, n) for c in (marks if rules.indic_fixed else ascii_mark) if (n := text.count(c))]
    if not found:
        return True, f"no {noun}"
    return False, f"found {', '.join(f'{c} ×{n}' for c, n in found)}; needed no {noun}"


@checker("punctuation:punctuation_dot", category="Punctuation", table_row=126, fixed_only=True, suite=_SUITE)
def punctuation_dot(view: TextView, args: dict, rules: Rules):
    return _no_marks(view, rules, ".", DOTS, "dots")


@checker("punctuation:punctuation_exclamation", category="Punctuation", table_row=127, fixed_only=True,
         suite=_SUITE)
def punctuation_exclamation(view: TextView, args: dict, rules: Rules):
    return _no_marks(view, rules, "!", EXCLAMATIONS, "exclamation marks")


@lru_cache(maxsize=64)
def _join_pattern(terminators: tuple[str, ...]) -> regex.Pattern:
    """A sentence's end (terminators, then closing quotes or brackets) and the hyphen after it.
    Only a run's first terminator passes the look-behind, so a long run is read once."""
    ends = regex.escape("".join(terminators) + "\u2026")
    return regex.compile(f"(?<![{ends}])[{ends}]++[\"'\u201d\u2019\u00bb)\\]]*+[{regex.escape(HYPHENS)}]")


@checker("detectable_format:sentence_hyphens", category="Format", table_row=128, fixed_only=True, suite=_SUITE)
def sentence_hyphens(view: TextView, args: dict, rules: Rules):
    if not rules.indic_fixed:
        return _sentence_hyphens_reference(view.text)
    text = view.nfc.strip()
    joins = [m.end() for m in _join_pattern(rules.profile.sentence_terminators).finditer(text) if m.end() < len(text)]
    spaced = next((end for end in joins if text[end].isspace()), None)
    if spaced is not None:
        return False, f"a space after the hyphen in {text[max(0, spaced - _SHOWN):spaced + 2]!r}, needed none"
    # the sentences, with each joining hyphen read as the space it stands for
    parts, start = [], 0
    for end in joins:
        parts += [text[start:end - 1], " "]
        start = end
    sentences = _sentences("".join(parts) + text[start:], rules)
    if len(sentences) != len(joins) + 1:
        return False, (f"{len(sentences)} sentences and {len(joins)} hyphen joins; needed each sentence "
                       f"joined to the next by a hyphen with no spaces")
    if len(sentences) == 1:
        return True, "one sentence (nothing to join)"
    return True, f"{len(sentences)} sentences joined by hyphens"


def _sentence_hyphens_reference(text: str):
    """The reference: cut at every hyphen, each piece must be a sentence of the text (hyphens
    read as spaces) as its splitter writes it, with no space at either end; pieces and
    sentences are paired up to the shorter list."""
    gold = reference_sentences(text.replace("-", " "))
    for i, (piece, sentence) in enumerate(zip(text.split("-"), gold), 1):
        if piece.strip() != piece:
            return False, f"piece {i} {piece[:_SHOWN]!r} has spaces around it, needed none around hyphens"
        if piece != sentence:
            return False, f"piece {i} {piece[:_SHOWN]!r} is not sentence {i} ({sentence[:_SHOWN]!r})"
    return True, f"{len(gold)} sentences joined by hyphens"


_BRACKETED = re.compile(r"\[([^\[\]]*)\]")


@checker("detectable_format:square_brackets", category="Format", table_row=129, fixed_only=True, suite=_SUITE)
def square_brackets(view: TextView, args: dict, rules: Rules):
    if not rules.indic_fixed:
        for token in view.text.split():  # the reference: every whitespace token as [...]
            if not (token.startswith("[") and token.endswith("]")):
                return False, f"{token[:_SHOWN]!r} is not in square brackets"
        return True, "every word in square brackets"
    # a word of the language: each in brackets of its own ([नमस्ते]। is fine, [नमस्ते दुनिया] is not)
    text = view.nfc
    inside = 0
    for m in _BRACKETED.finditer(text):
        content = m.group(1).strip()
        if not words(content):
            continue
        if sum(1 for token in content.split() if words(token)) > 1:
            return False, f"{m.group(0)[:_SHOWN]!r} holds more than one word, needed one word in each"
        inside += 1
    outside = words(_BRACKETED.sub(" ", text))
    if outside:
        return False, f"{outside[0][:_SHOWN]!r} is not in square brackets ({len(outside)} words outside)"
    if not inside:
        return False, "no word in square brackets"
    return True, f"all {inside} words in square brackets"
