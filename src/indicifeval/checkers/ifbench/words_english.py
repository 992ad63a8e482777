"""IFBench's words:* checks on English answers, as the reference scores them: its own splitting
(punctuation dropped with ``string.punctuation``, whitespace split), NLTK's Punkt sentences and
word tokens (``text.punkt_en``, the same algorithm and tables offline), syllapy's syllables.

The one deliberate difference is words:start_verb: the reference asks NLTK's averaged-perceptron
tagger, whose model cannot be installed offline and which tags many imperatives that open an
answer as proper nouns ("Build resilient relationships..." -> NNP). Here the English profile's
verb lexicon decides (docs/scoring.md)."""

from __future__ import annotations

import string
from collections import Counter
from functools import lru_cache

from indicifeval.languages import LanguageProfile
from indicifeval.text.punkt_en import sent_tokenize_en, word_tokenize_en

Verdict = tuple[bool, str]
PUNCT = string.punctuation
_DROP = str.maketrans("", "", PUNCT)
_LETTERS = string.ascii_lowercase
_CONSONANTS = frozenset("bcdfghjklmnpqrstvwxyz")
# the reference's table of primes: a word of more than 97 letters never has a prime length there
PRIMES_TO_97 = frozenset([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89,
                          97])


def _q(word: str, size: int = 30) -> str:
    return repr(word if len(word) <= size else word[:size] + "…")


def alphabet(text: str) -> Verdict:
    words = text.translate(_DROP).strip(PUNCT + " ").split()
    if not words:
        return False, "no words"
    letter = words[0][0].lower()
    if letter not in _LETTERS:
        return False, f"the first word {_q(words[0])} does not start with a letter a-z"
    for i, word in enumerate(words[1:], 2):
        word = word.strip(PUNCT + " ").lower()
        if not word:
            continue
        letter = _LETTERS[(_LETTERS.index(letter) + 1) % 26]
        if word[0] != letter:
            return False, f"word {i} {_q(word)} starts with {word[0]!r}, needed {letter!r}"
    return True, f"{len(words)} words, each starting with the next letter"


def vowel(text: str) -> Verdict:
    lines = text.strip().split("\n")
    if len(lines) != 1:
        return False, f"{len(lines)} lines, needed one paragraph"
    found = sorted({ch for ch in lines[0].lower() if ch in "aeiou"})
    return len(found) <= 3, f"{len(found)} vowels ({', '.join(found) or 'none'}), needed at most 3"


def consonants(text: str) -> Verdict:
    words = text.lower().strip().split()
    for word in words:
        if not any(a in _CONSONANTS and b in _CONSONANTS for a, b in zip(word, word[1:])):
            return False, f"{_q(word)} has no consonant cluster"
    return True, f"all {len(words)} words have a consonant cluster"


def palindrome(text: str) -> Verdict:
    found = [w for w in text.translate(_DROP).lower().split() if len(w) >= 5 and w == w[::-1]]
    shown = ", ".join(dict.fromkeys(found[:20]))
    return len(found) >= 10, f"{len(found)} palindromes of 5+ letters ({shown or 'none'}), needed at least 10"


def prime_lengths(text: str) -> Verdict:
    words = text.translate(_DROP).split()
    for word in words:
        if len(word) not in PRIMES_TO_97:
            return False, f"{_q(word)} has {len(word)} letters, not a prime number"
    return True, f"all {len(words)} words have a prime number of letters"


def no_consecutive(text: str) -> Verdict:
    words = text.lower().translate(_DROP).split()
    for i, (a, b) in enumerate(zip(words, words[1:]), 1):
        if a[0] == b[0]:
            return False, f"words {i} and {i + 1} ({_q(a)}, {_q(b)}) both start with {a[0]!r}"
    return True, f"{len(words)} words, no two in a row with the same first letter"


def odd_even_syllables(text: str) -> Verdict:
    import syllapy  # (a small dictionary, loaded on first use)

    words = [w for w in text.translate(_DROP).lower().split() if w.strip()]
    parity = [syllapy.count(w) % 2 for w in words]
    for i in range(len(parity) - 1):
        if parity[i] == parity[i + 1]:
            kind = "odd" if parity[i] else "even"
            return False, f"words {i + 1} and {i + 2} ({_q(words[i])}, {_q(words[i + 1])}) both have {kind} syllables"
    return True, f"{len(words)} words alternating odd and even syllables"


def repeats(text: str, most: int) -> Verdict:
    counts = Counter(text.lower().translate(_DROP).split())
    over = [(w, n) for w, n in counts.items() if n > most]
    if over:
        word, n = max(over, key=lambda x: x[1])
        return False, f"{_q(word)} {n} times, needed at most {most}"
    return True, f"no word more than {most} times"


def last_first(text: str) -> Verdict:
    sentences = sent_tokenize_en(text)
    for i in range(len(sentences) - 1):
        last = sentences[i].rstrip(PUNCT + " ").split()
        first = sentences[i + 1].lstrip(PUNCT + " ").split()
        if not last or not first:
            return False, f"sentence {i + 1} or {i + 2} has no words"
        if last[-1].lower() != first[0].lower():
            return False, f"sentence {i + 1} ends with {_q(last[-1])}, sentence {i + 2} starts with {_q(first[0])}"
    return True, f"{len(sentences)} sentences, each starting with the last word of the one before"


def paragraph_last_first(text: str) -> Verdict:
    for i, paragraph in enumerate(text.split("\n"), 1):
        paragraph = paragraph.strip().lower()
        words = paragraph.strip(PUNCT + " ").split() if paragraph else []
        if words and words[0] != words[-1]:
            return False, f"line {i} starts with {_q(words[0])} and ends with {_q(words[-1])}"
    return True, "every paragraph ends with the word it starts with"


def keyword_at(text: str, keyword: str, n: int, m: int) -> Verdict:
    sentences = sent_tokenize_en(text)
    if n < 1 or m < 1 or len(sentences) < n:
        return False, f"{len(sentences)} sentences, needed a sentence {n}"
    words = [t for t in word_tokenize_en(sentences[n - 1]) if any(ch.isalnum() for ch in t)]
    if len(words) < m:
        return False, f"sentence {n} has {len(words)} words, needed a word {m}"
    got = words[m - 1]
    return got.lower() == keyword.lower(), f"word {m} of sentence {n} is {_q(got)}, needed {keyword!r}"


def words_position(text: str, keyword: str) -> Verdict:
    tokens = word_tokenize_en(text)
    if len(tokens) < 2:
        return False, f"{len(tokens)} words, needed at least 2"
    back = 2
    if tokens[-1] in PUNCT:  # (as the reference tests it: a substring of string.punctuation)
        if len(tokens) < 3:
            return False, "2 tokens, the last one punctuation"
        back = 3
    second, before_last = tokens[1], tokens[-back]
    ok = second.lower() == before_last.lower() == keyword.lower()
    return ok, f"second word {_q(second)}, second to last {_q(before_last)}, needed {keyword!r}"


# -- words:start_verb -------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _lexicon(profile: LanguageProfile) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    return (frozenset(profile.word_list("verbs") or ()), frozenset(profile.word_list("verb_forms") or ()),
            frozenset(profile.word_list("not_verbs") or ()))


# a word these follow is their subject, not an imperative ("Love is", "Change can")
_SUBJECT_OF = frozenset("is are was were has have had can could will would shall should may might must 's".split())


def _stems(word: str) -> list[str]:
    """The base forms a regular inflection of ``word`` may come from (made -> mak, make)."""
    out = []
    for suffix in ("ing", "ed", "es", "s", "d"):
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            stem = word[: -len(suffix)]
            out += [stem, stem + "e"]
            if len(stem) > 2 and stem[-1] == stem[-2]:
                out.append(stem[:-1])  # stopped, running
            if suffix in ("ed", "es") and stem.endswith("i"):
                out.append(stem[:-1] + "y")  # tried, carries
    return out


def is_verb(word: str, after: str, profile: LanguageProfile) -> bool:
    """Whether an answer's first token is a verb: a longer -ing word (a participle: "Whirring and
    pulsing..."), or a base or irregular form in the lexicon, or a regular inflection of a base
    form, unless an auxiliary follows it ("Love is"); never a label ("Note:") nor a word the
    profile lists as no verb."""
    verbs, forms, not_verbs = _lexicon(profile)
    w = word.lower()
    if after == ":" or w in not_verbs or not w.isalpha():
        return False
    if w.endswith("ing") and len(w) >= 6:
        return True
    if after.lower() in _SUBJECT_OF:
        return False  # the subject of what follows ("Love is patient")
    return w in verbs or w in forms or any(stem in verbs for stem in _stems(w))


def start_verb(text: str, profile: LanguageProfile) -> Verdict:
    tokens = word_tokenize_en(text[:2000])  # (the first sentence or two decide)
    if not tokens:
        return False, "no words"
    after = tokens[1] if len(tokens) > 1 else ""
    ok = is_verb(tokens[0], after, profile)
    return ok, f"starts with {_q(tokens[0])}{'' if ok else ', not a verb'}"
