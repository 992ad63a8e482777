"""IFBench's words:* instructions about which word stands where: repeats, the first word, a
keyword at a position, sentences and paragraphs that chain or close on a word. English is scored
as the reference scores it (``words_english``); an Indic answer by its profile's words and
sentences, words compared in their matching form (NFC, case-folded, without joiners)."""

from __future__ import annotations

from collections import Counter

from indicifeval.checkers.ifbench import words_english as en
from indicifeval.checkers.ifbench.words_letters import words_checker
from indicifeval.checkers.registry import Param
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.normalize import match_key, match_key_of_nfc
from indicifeval.text.sentences import split_sentences
from indicifeval.text.words import words as split_words

_NO_WORDS = (False, "no words")


def _q(word: str, size: int = 30) -> str:
    return repr(word if len(word) <= size else word[:size] + "…")


def _keys(text: str) -> list[str]:
    """The words of an NFC text in their matching form."""
    return [match_key_of_nfc(w) for w in split_words(text)]


def _sample_keyword(rng, profile: LanguageProfile, drawn: dict) -> str:
    return rng.choice(profile.default_keywords)


@words_checker("words:repeats", Param("small_n", "int", sample=lambda rng, p, drawn: rng.randint(1, 5)),
               table_row=226)
def repeats(view: TextView, args: dict, rules: Rules):
    most = args["small_n"]
    if rules.ifeval:
        return en.repeats(view.text, most)
    counts = Counter(_keys(view.nfc))
    if not counts:
        return _NO_WORDS
    word, n = counts.most_common(1)[0]
    return n <= most, f"{_q(word)} {n} times, needed at most {most}"


def _needs_tagger(profile: LanguageProfile) -> str | None:
    if profile.word_list("verbs") is None:
        return (f"words:start_verb is not defined for {profile.name}: whether a word is a verb takes a "
                f"part-of-speech tagger or a verb lexicon, and the {profile.code} profile has none (word_lists.verbs)")
    return None


@words_checker("words:start_verb", table_row=225, requires=_needs_tagger)
def start_verb(view: TextView, args: dict, rules: Rules):
    return en.start_verb(view.text, rules.profile)


def _sentences(view: TextView) -> list[str]:
    profile = view.rules.profile
    return split_sentences(view.nfc, profile.sentence_terminators, profile.abbreviations)


@words_checker("words:last_first", table_row=228, conflicts=("words:no_consecutive", "words:alphabet"))
def last_first(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.last_first(view.text)
    sentences = [_keys(s) for s in _sentences(view)]
    if len(sentences) < 2:
        return False, f"{len(sentences)} sentence, needed at least 2 to chain"
    for i in range(len(sentences) - 1):
        last, first = sentences[i][-1:], sentences[i + 1][:1]
        if not last or not first or last != first:
            shown = f"{_q(last[0]) if last else 'no word'} / {_q(first[0]) if first else 'no word'}"
            return False, f"sentence {i + 1} ends and sentence {i + 2} starts differently ({shown})"
    return True, f"{len(sentences)} sentences, each starting with the last word of the one before"


@words_checker("words:paragraph_last_first", table_row=229)
def paragraph_last_first(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.paragraph_last_first(view.text)
    seen = 0
    for i, line in enumerate(view.nfc.split("\n"), 1):  # (the instruction: paragraphs are lines)
        words = _keys(line)
        if not words:
            continue
        seen += 1
        if words[0] != words[-1]:
            return False, f"line {i} starts with {_q(words[0])} and ends with {_q(words[-1])}"
    if not seen:
        return _NO_WORDS
    return True, f"all {seen} paragraphs end with the word they start with"


@words_checker("words:keywords_specific_position",
         Param("keyword", "str", role="lexical", sample=_sample_keyword),
         Param("n", "int", sample=lambda rng, p, drawn: rng.randint(20, 30)),
         Param("m", "int", sample=lambda rng, p, drawn: rng.randint(30, 40)),
         table_row=231)
def keywords_specific_position(view: TextView, args: dict, rules: Rules):
    keyword, n, m = args["keyword"], args["n"], args["m"]
    if rules.ifeval:
        return en.keyword_at(view.text, keyword, n, m)
    sentences = _sentences(view)
    if n < 1 or m < 1 or len(sentences) < n:
        return False, f"{len(sentences)} sentences, needed a sentence {n}"
    words = _keys(sentences[n - 1])
    wanted = _keys(match_key(keyword))
    got = words[m - 1 : m - 1 + len(wanted)]
    if len(words) < m:
        return False, f"sentence {n} has {len(words)} words, needed a word {m}"
    return bool(wanted) and got == wanted, f"word {m} of sentence {n} is {_q(' '.join(got))}, needed {keyword!r}"


@words_checker("words:words_position", Param("keyword", "str", role="lexical", sample=_sample_keyword),
         table_row=232)
def words_position(view: TextView, args: dict, rules: Rules):
    keyword = args["keyword"]
    if rules.ifeval:
        return en.words_position(view.text, keyword)
    words = _keys(view.nfc)
    if len(words) < 2:
        return False, f"{len(words)} words, needed at least 2"
    wanted = _keys(match_key(keyword))
    k = len(wanted)
    second, before_last = words[1 : 1 + k], words[max(len(words) - 1 - k, 0) : len(words) - 1]
    ok = bool(wanted) and second == wanted == before_last
    return ok, (f"second word {_q(' '.join(second))}, second to last {_q(' '.join(before_last))}, "
                f"needed {keyword!r}")
