"""A faster ``langdetect.detect`` (langdetect 1.0.9, seed 0) that returns exactly the same answers.

langdetect spends its time in pure-Python per-character and per-language loops. This module
runs the same algorithm on langdetect's own profile data and its own character normaliser,
with the same random stream and the same floating-point operations in the same order:

* text preparation: URL and e-mail removal, Vietnamese normalisation, the 10 000-character
  cut, collapsing of runs of spaces, and ``cleaning_text`` (drop ``A``..``z`` when there are
  more than twice as many characters at or above U+0300 as in that range; langdetect's
  "Latin Extended Additional" exemption compares a block number with a name and so never
  applies, and we keep that by asking its own ``unicode_block`` the same question);
* n-gram extraction: every character goes through ``NGram.normalize`` (cached per
  character), and the 1/2/3-grams langdetect's ``NGram`` buffer would produce, including the
  rule that skips a character that is upper-case after an upper-case one, are computed once
  per normalised word (cached per word) by slicing ``' ' + word + ' '``;
* estimation: ``random.Random(0)``, per trial one ``gauss`` for alpha and one ``choice`` draw per
  update, updates ``p * (alpha / 10000 + q)`` in place order, normalisation by a left-to-right
  sum every five updates (checked after updates 1, 6, 11, ...), ``CONV_THRESHOLD``,
  ``ITERATION_LIMIT``, seven trials averaged as ``langprob[j] += prob[j] / 7``, and the same
  threshold and stable descending sort for the final ranking.

Draws are independent of the probabilities, so the five updates between two normalisations
are applied in one pass per language with the same left-to-right product.
"""

from __future__ import annotations

import random
import re
import sys
import threading
from collections import Counter
from functools import partial, reduce
from operator import add, itemgetter

__all__ = ["NoFeatures", "detect_language", "get_probabilities"]

# langdetect.detector.Detector's constants.
_ALPHA_DEFAULT = 0.5
_ALPHA_WIDTH = 0.05
_ITERATION_LIMIT = 1000
_PROB_THRESHOLD = 0.1
_CONV_THRESHOLD = 0.99999
_BASE_FREQ = 10000
_N_TRIAL = 7
_MAX_TEXT_LENGTH = 10000
_SEED = 0
_UNKNOWN_LANG = "unknown"

if sys.version_info < (3, 12):
    _left_sum = sum  # plain left-to-right float addition, as langdetect's sum() here
else:  # pragma: no cover - sum() of floats is compensated from 3.12 on
    _left_sum = partial(reduce, add)

_SPACE_RUN = re.compile(" {2,}")
_ASCII_A_TO_z = re.compile("[A-z]")  # 'A' <= ch <= 'z', as in cleaning_text

_WORD_CACHE_LIMIT = 200_000  # entries; cleared when exceeded
_WORD_CACHE_MAX_LEN = 40  # longer "words" (e.g. unspaced CJK runs) are not cached


class NoFeatures(Exception):
    """langdetect found nothing to judge (it raises ``LangDetectException: No features in text.``)."""


class _NormalizeTable(dict):
    """ord(ch) -> NGram.normalize(ch), filled on first sight; used with ``str.translate``."""

    __slots__ = ("_normalize",)

    def __init__(self, normalize):
        super().__init__()
        self._normalize = normalize

    def __missing__(self, code):
        value = self._normalize(chr(code))
        self[code] = value
        return value


class _Model:
    def __init__(self, factory):
        from langdetect.detector import Detector
        from langdetect.utils.ngram import NGram
        from langdetect.utils.unicode_block import unicode_block

        self.langlist = list(factory.langlist)
        self.vectors = factory.word_lang_prob_map  # n-gram -> per-language probabilities
        self.n_langs = len(self.langlist)
        self.url_sub = Detector.URL_RE.sub
        self.mail_sub = Detector.MAIL_RE.sub
        self.normalize_vi = NGram.normalize_vi
        self.norm_table = _NormalizeTable(NGram.normalize)
        self._unicode_block = unicode_block
        self.char_class: dict[str, int] = {}  # 1: counted Latin, 2: counted non-Latin, 0: neither
        self.word_cache: dict[tuple[str, bool], tuple] = {}
        # Consistency with the Detector this model mirrors.
        for name, value in (("ALPHA_DEFAULT", _ALPHA_DEFAULT), ("ALPHA_WIDTH", _ALPHA_WIDTH),
                            ("ITERATION_LIMIT", _ITERATION_LIMIT),
                            ("PROB_THRESHOLD", _PROB_THRESHOLD),
                            ("CONV_THRESHOLD", _CONV_THRESHOLD), ("BASE_FREQ", _BASE_FREQ)):
            if getattr(Detector, name) != value:  # pragma: no cover - other langdetect version
                raise RuntimeError(f"langdetect Detector.{name} is not {value!r}")
        if NGram.N_GRAM != 3:  # pragma: no cover
            raise RuntimeError("langdetect NGram.N_GRAM is not 3")

    # -- Detector.append + Detector.cleaning_text ---------------------------------------------
    def _classify(self, ch: str) -> int:
        if "A" <= ch <= "z":
            kind = 1
        elif ch >= "\u0300" and self._unicode_block(ch) != "Latin Extended Additional":
            kind = 2
        else:
            kind = 0
        self.char_class[ch] = kind
        return kind

    def prepare(self, text: str) -> str:
        text = self.url_sub(" ", text)
        text = self.mail_sub(" ", text)
        text = self.normalize_vi(text)
        text = _SPACE_RUN.sub(" ", text[:_MAX_TEXT_LENGTH])
        char_class, classify = self.char_class, self._classify
        latin = non_latin = 0
        for ch, count in Counter(text).items():
            kind = char_class.get(ch)
            if kind is None:
                kind = classify(ch)
            if kind == 1:
                latin += count
            elif kind == 2:
                non_latin += count
        if latin * 2 < non_latin:
            text = _ASCII_A_TO_z.sub("", text)
        return text

    # -- Detector._extract_ngrams ---------------------------------------------------------------
    def _word_grams(self, word: str, trailing_space: bool) -> tuple:
        """Profile vectors of the n-grams NGram emits for ' ' + word (+ ' '), in order."""
        s = " " + word + " " if trailing_space else " " + word
        get = self.vectors.get
        out = []
        prev_upper = False  # s[0] is the space
        for k in range(1, len(s)):
            ch = s[k]
            upper = ch.isupper()
            if upper and prev_upper:
                continue  # NGram.capitalword: nothing emitted for this character
            prev_upper = upper
            if ch != " ":
                v = get(ch)
                if v is not None:
                    out.append(v)
            v = get(s[k - 1:k + 1])
            if v is not None:
                out.append(v)
            if k >= 2:
                v = get(s[k - 2:k + 1])
                if v is not None:
                    out.append(v)
        return tuple(out)

    def extract(self, text: str) -> list:
        normalized = text.translate(self.norm_table)
        words = normalized.split(" ")
        last = len(words) - 1
        cache = self.word_cache
        if len(cache) > _WORD_CACHE_LIMIT:
            cache.clear()
        result: list = []
        extend = result.extend
        for index, word in enumerate(words):
            if not word:
                continue
            trailing = index != last
            if len(word) > _WORD_CACHE_MAX_LEN:
                extend(self._word_grams(word, trailing))
                continue
            key = (word, trailing)
            grams = cache.get(key)
            if grams is None:
                grams = cache[key] = self._word_grams(word, trailing)
            extend(grams)
        return result

    # -- Detector._detect_block ------------------------------------------------------------------
    def lang_probabilities(self, text: str) -> list[float]:
        vectors = self.extract(self.prepare(text))
        if not vectors:
            raise NoFeatures("No features in text.")
        n = self.n_langs
        langprob = [0.0] * n
        rng = random.Random(_SEED)
        gauss = rng.gauss
        count = len(vectors)
        # Detector draws random.choice(ngrams), i.e. ngrams[rng._randbelow(len(ngrams))];
        # choice(range(count)) is the same draw, for a random module without _randbelow.
        randbelow = getattr(rng, "_randbelow", None) or (lambda k: rng.choice(range(k)))
        start = 1.0 / n
        for _ in range(_N_TRIAL):
            alpha = _ALPHA_DEFAULT + gauss(0.0, 1.0) * _ALPHA_WIDTH
            w = alpha / _BASE_FREQ
            # Update 0 from the uniform start, then a convergence check after every fifth
            # update. Normalising is folded into the next five updates: p / total is the
            # normalised value langdetect stores, and max(p) / total equals the largest
            # normalised value because correctly rounded division by total > 0 is monotonic.
            prob = [a * (w + b) for a, b in zip([start] * n, vectors[randbelow(count)])]
            i = 0
            while True:
                total = _left_sum(prob)
                if max(prob) / total > _CONV_THRESHOLD or i >= _ITERATION_LIMIT:
                    break
                v1 = vectors[randbelow(count)]
                v2 = vectors[randbelow(count)]
                v3 = vectors[randbelow(count)]
                v4 = vectors[randbelow(count)]
                v5 = vectors[randbelow(count)]
                prob = [(((((a / total) * (w + b1)) * (w + b2)) * (w + b3)) * (w + b4)) * (w + b5)
                        for a, b1, b2, b3, b4, b5 in zip(prob, v1, v2, v3, v4, v5)]
                i += 5
            langprob = [acc + (p / total) / _N_TRIAL for acc, p in zip(langprob, prob)]
        return langprob

    def ranked(self, text: str) -> list[tuple[str, float]]:
        langprob = self.lang_probabilities(text)
        result = [(lang, p) for lang, p in zip(self.langlist, langprob) if p > _PROB_THRESHOLD]
        result.sort(key=itemgetter(1), reverse=True)  # stable, as Language.__lt__ with reverse
        return result


_lock = threading.Lock()
_model_instance: _Model | None = None


def _model() -> _Model:
    global _model_instance
    model = _model_instance
    if model is None:
        with _lock:
            model = _model_instance
            if model is None:
                from langdetect import detector_factory

                f = detector_factory.DetectorFactory()
                f.seed = _SEED
                f.load_profile(detector_factory.PROFILES_DIRECTORY)
                model = _model_instance = _Model(f)
    return model


def get_probabilities(text: str) -> list[tuple[str, float]]:
    """``Detector.get_probabilities()`` as (lang, prob) pairs; raises NoFeatures where it would."""
    return _model().ranked(text)


def detect_language(text: str) -> str:
    """``Detector.detect()``: the top language, ``'unknown'`` if none passes the threshold."""
    ranked = _model().ranked(text)
    return ranked[0][0] if ranked else _UNKNOWN_LANG
