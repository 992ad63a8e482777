"""Whether a Latin-letter answer is a given Indic language typed in Latin letters.

CLD2 and langdetect know romanised Indic text least (they call it English, Indonesian or
Tagalog), and a list of typed words cannot cover how people spell, so the evidence is a character
n-gram model (``romanized_ngrams.json``, built by text.romanized_build from the project's own text
romanised under ITRANS, IAST without diacritics and informal spellings; English from the English
profile and prompts). Rule (docs/scoring.md): at least 90% of the letters are Latin; at least 2
Latin words; and the model's likeliest language for the words is the language (Hindi and Urdu,
typed alike, share one class). A language the model lacks (a profile added later) falls back to
its ``romanized.words``: at least 2 of the words, and 15% of them, are the language's romanised
words; fewer are English function words; and no other language's romanised words mark it more
than twice as often plus one, counting only the words the two do not share."""

from __future__ import annotations

import gzip
import json
import math
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import regex

from indicifeval.languages import get_profile, list_languages
from indicifeval.languages.profile import on_reload
from indicifeval.text.scripts import script_of

if TYPE_CHECKING:
    import numpy as np

LATIN_SHARE = 0.9
MIN_WORDS = 2
MIN_SHARE = 0.15
ORDERS = (1, 2, 3, 4)
WHOLE_WORDS = True
KINDS = len(ORDERS) + 1  # the n-gram orders and whole words
# how much each kind's evidence counts (unigrams, bigrams, trigrams, 4-grams, whole words): the short
# n-grams repeat what the longer ones say, and a whole word is what tells siblings apart (Assamese
# from Odia and Bengali, which share most of their letter sequences)
WEIGHTS = (0.5, 0.5, 1.0, 1.0, 3.0)
MODEL_PATH = Path(__file__).with_name("romanized_ngrams.json.gz")
LEVELS = 4  # counts are stored as round(LEVELS * log2(1 + count))
SMOOTHING = 0.5  # added to every n-gram count
_WORD_MAX = 30  # letters of a word the model reads (a longer run of letters is not a word)
_CACHE_LIMIT = 100_000  # words; the cache is cleared when it grows past this
_LATIN_WORD = regex.compile(r"\p{Latin}[\p{Latin}\p{Mn}]*(?:['’]\p{Latin}+)*")
_ASCII_WORD = regex.compile(r"[a-z]+")


@dataclass(frozen=True)
class Evidence:
    latin: int  # Latin letters
    letters: int  # all letters
    words: int  # Latin words
    own: tuple[str, ...]  # the language's romanised words found (each occurrence)
    english: int  # English function words
    rival: str | None  # the other language its words mark more, if one does
    rival_words: int  # that language's words the two do not share
    own_distinct: int  # the language's words that language lacks
    # the model's reading (None where the model lacks the language): its likeliest class, and how
    # much likelier per word (natural log) than the language's own class, or than the runner-up
    model: str | None = None
    margin: float = 0.0


def _fold(word: str) -> str:
    """A Latin word as the lists write it: lower case, without diacritics (IAST ahaṃ, ISO
    mērā: aham, mera)."""
    if word.isascii():
        return word.lower()
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c)).casefold()


def latin_words(text: str) -> list[str]:
    """The text's words as the model reads them: folded, runs of a-z."""
    return [w for word in _LATIN_WORD.findall(text) for w in _ASCII_WORD.findall(_fold(word))]


def word_grams(word: str) -> list[str]:
    """A word's character n-grams, with a space before and after it (the unigram space left out),
    and the whole word longer than the longest n-gram, marked ``#``."""
    padded = f" {word[:_WORD_MAX]} "
    grams = [padded[i:i + n] for n in ORDERS for i in range(len(padded) - n + 1) if n > 1 or padded[i] != " "]
    return [*grams, f"#{word[:_WORD_MAX]}"] if WHOLE_WORDS and len(padded) > ORDERS[-1] else grams


def gram_kind(gram: str) -> int:
    """Which distribution an n-gram belongs to: its order's (0 for unigrams), or the words' (last)."""
    return len(ORDERS) if gram.startswith("#") else len(gram) - 1


class _RomanizedModel:
    """Per class: log P(gram) by order, smoothed; a word's score is the sum over its n-grams, each
    kind weighted (WEIGHTS)."""

    def __init__(self, table: dict):
        import numpy as np  # (here: a scorer without romanised rows never loads numpy, 80 ms)

        self.classes: tuple[str, ...] = tuple(table["classes"])
        self.shares: dict[str, str] = dict(table["shares"])
        totals = np.array(table["totals"], dtype=np.float64)  # class x order
        kept = Counter(gram_kind(g) for g in table["grams"])
        sizes = np.array([kept[k] + 1 for k in range(KINDS)], dtype=np.float64)
        denominators = np.log(totals + SMOOTHING * sizes)  # class x order
        weights = np.array(WEIGHTS, dtype=np.float64)
        self.unseen = (math.log(SMOOTHING) - denominators).T * weights[:, None]  # order x class
        self.deltas: dict[str, np.ndarray] = {}
        for gram, counts in table["grams"].items():
            count = np.exp2(np.array([int(c) for c in counts.split()], dtype=np.float64) / LEVELS) - 1
            self.deltas[gram] = (np.log(count + SMOOTHING) - math.log(SMOOTHING)) * weights[gram_kind(gram)]
        self._words: dict[str, np.ndarray] = {}

    def word(self, word: str) -> np.ndarray:
        found = self._words.get(word)
        if found is None:
            import numpy as np

            grams = word_grams(word)
            kinds = Counter(gram_kind(g) for g in grams)
            found = sum((self.unseen[kind] * k for kind, k in kinds.items()), np.zeros(len(self.classes)))
            for gram in grams:
                delta = self.deltas.get(gram)
                if delta is not None:
                    found = found + delta
            if len(self._words) >= _CACHE_LIMIT:
                self._words.clear()
            self._words[word] = found
        return found

    def scores(self, words: list[str]) -> np.ndarray:
        """The log-likelihood of the words under each class."""
        import numpy as np

        counts = Counter(words)
        if not counts:
            return np.zeros(len(self.classes))
        vectors = np.stack([self.word(w) for w in counts])
        return np.asarray(np.array(list(counts.values()), dtype=np.float64) @ vectors)

    def class_of(self, language: str) -> str | None:
        code = self.shares.get(language, language)
        return code if code in self.classes else None


@cache
def model() -> _RomanizedModel:
    return _RomanizedModel(json.loads(gzip.decompress(MODEL_PATH.read_bytes())))


@cache
def _romanized(language: str) -> frozenset[str]:
    profile = get_profile(language)
    return profile.romanized.words if profile.romanized is not None else frozenset()


@cache
def _others() -> tuple[str, ...]:
    return tuple(c for c in list_languages() if _romanized(c))


@cache
def _english() -> frozenset[str]:
    return frozenset(get_profile("en").function_words.split())


for _table in (_romanized, _others, _english):
    on_reload(_table.cache_clear)


def _read(words: list[str], language: str) -> tuple[str | None, float]:
    """The model's likeliest class for the words, and its margin per word: over the language's
    class when that is not the likeliest (negative), else over the runner-up."""
    m = model()
    own = m.class_of(language)
    if own is None or not words:
        return None, 0.0
    scores = m.scores(words)
    order = (-scores).argsort(kind="stable")
    best = m.classes[int(order[0])]
    mine = m.classes.index(own)
    other = int(order[1]) if best == own else mine
    return best, float(scores[int(order[0])] - scores[other]) / len(words) * (1 if best == own else -1)


def evidence(text: str, language: str) -> Evidence:
    letters = regex.findall(r"\p{L}", text)
    latin = sum(1 for ch in letters if script_of(ch) == "Latn")
    words = [_fold(w) for w in _LATIN_WORD.findall(text)]
    own_table = _romanized(language)
    own = tuple(w for w in words if w in own_table)
    english = sum(1 for w in words if w in _english())
    rival, rival_words, own_distinct = None, 0, len(own)
    best, margin = _read(latin_words(text), language) if latin >= LATIN_SHARE * len(letters) else (None, 0.0)
    if own_table:  # the word lists' evidence too: the model and the lists each accept what they know
        for other in _others():
            if other == language:
                continue
            theirs = _romanized(other)
            their_only = sum(1 for w in words if w in theirs and w not in own_table)
            mine_only = sum(1 for w in own if w not in theirs)
            if their_only > 2 * mine_only + 1 and their_only > rival_words:
                rival, rival_words, own_distinct = other, their_only, mine_only
    return Evidence(latin, len(letters), len(words), own, english, rival, rival_words, own_distinct, best, margin)


VETO = 2  # words only a sibling language of the same script lists, to refuse what the model accepts;
SIBLING_VETO = 5  # where the model cannot tell the two apart (Hindi and Urdu, one class), 5
CLOSE_CALL = 2.0  # nats a word: the model's lead over the language below which the word lists may decide


def _name(code: str) -> str:
    m = model()
    sharing = sorted({code, *(k for k, v in m.shares.items() if v == code)})
    return " or ".join(get_profile(c).name for c in sharing if c in list_languages() or c == code)


def verdict(ev: Evidence, language: str) -> tuple[bool, str]:
    name = get_profile(language).name
    if not ev.letters:
        return False, "no letters"
    share = ev.latin / ev.letters
    if share < LATIN_SHARE:
        return False, f"{100 * share:.0f}% of the letters are Latin, needed at least {100 * LATIN_SHARE:.0f}%"
    listed = _listed(ev, language, name, share) if _romanized(language) else (False, "")
    if ev.model is not None:
        if ev.words < MIN_WORDS:
            return False, f"{ev.words} word{'' if ev.words == 1 else 's'} in Latin letters, needed at least {MIN_WORDS}"
        own = model().class_of(language)
        # another language's listed words veto the model; where the model cannot tell them apart (Hindi
        # and Urdu, one class), only clearly more of them (their everyday words are the same)
        vetoed = ev.rival is not None and (
            ev.rival_words >= SIBLING_VETO if model().class_of(ev.rival) == own else
            ev.rival_words >= VETO and get_profile(ev.rival).script == get_profile(language).script)
        if ev.model == own and not vetoed:
            return True, (f"{100 * share:.0f}% Latin letters; {ev.words} words read as romanised {name} "
                          f"({ev.margin:.2f} nats a word over the next language)")
        # a veto, code-mixed text the model reads as English, or a close call between two languages: the
        # word lists decide
        if ev.model == own or (listed[0] and (ev.model == "en" or -ev.margin < CLOSE_CALL)):
            return listed
        read = "English" if ev.model == "en" else f"romanised {_name(ev.model)}"
        return False, (f"{100 * share:.0f}% Latin letters, but they read as {read}, not {name} "
                       f"({-ev.margin:.2f} nats a word likelier)")
    return _listed(ev, language, name, share)


def _listed(ev: Evidence, language: str, name: str, share: float) -> tuple[bool, str]:
    """The word lists' verdict: enough of the language's romanised words, fewer English function
    words, and no other language's words outnumbering them."""
    words = f"{len(ev.own)} {name} word{'' if len(ev.own) == 1 else 's'}"
    found = (f"{words} typed in Latin ({', '.join(dict.fromkeys(ev.own[:8]))})" if ev.own
             else f"no {name} word typed in Latin")
    if len(ev.own) < max(MIN_WORDS, MIN_SHARE * ev.words):
        return False, f"{found} of {ev.words} words, needed at least {MIN_WORDS} and {100 * MIN_SHARE:.0f}%"
    if ev.english >= len(ev.own):
        return False, f"{found}, but {ev.english} English function words: English, not {name}"
    if ev.rival is not None:
        other = get_profile(ev.rival).name
        return False, (f"{found}, but {ev.rival_words} {other} words that {name} lacks against {ev.own_distinct}: "
                       f"{other}, not {name}")
    return True, f"{100 * share:.0f}% Latin letters; {found}, {ev.english} English"
