"""A faster ``langdetect.detect`` (langdetect 1.0.9, seed 0) that returns exactly the same answers.

langdetect spends its time in pure-Python per-character and per-language loops. This module
runs the same algorithm on langdetect's own profile data and its own character normaliser,
with the same random stream and the same floating-point operations in the same order:

* text preparation: URL and e-mail removal, Vietnamese normalisation, the 10 000-character
  cut, collapsing of runs of spaces, and ``cleaning_text`` (drop ``A``..``z`` when there are
  more than twice as many characters at or above U+0300 as in that range, counted by UTF-8
  bytes; langdetect's "Latin Extended Additional" exemption compares a block number with a
  name and so never applies);
* n-gram extraction: :mod:`indicifeval.text.langdetect_ngrams`;
* estimation: ``random.Random(0)``, per trial one ``gauss`` for alpha and one ``choice`` draw per
  update, updates ``p * (alpha / 10000 + q)`` in place order, normalisation by a left-to-right
  sum every five updates (checked after updates 1, 6, 11, ...), ``CONV_THRESHOLD``,
  ``ITERATION_LIMIT``, seven trials averaged as ``langprob[j] += prob[j] / 7``, and the same
  threshold and stable descending sort for the final ranking.

Draws are independent of the probabilities, so the five updates between two normalisations
are applied in one pass per language with the same left-to-right product. A language none of
the text's n-grams has is only ever multiplied by alpha / 10000, so all such languages share
one value, kept once; and ``detect`` stops after the trial from which the leader can no longer
be overtaken, since a trial adds at most 1/7 to any language.

Where the optional compiled kernel (``_langdetect_kernel``, built by ``setup.py``) is
installed, the estimation runs there instead, as langdetect writes it, over every language;
``INDICIFEVAL_PURE_PYTHON=1`` turns it off. Both give the same floats.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import threading
from collections.abc import Callable
from functools import partial, reduce
from heapq import nlargest
from math import ulp
from operator import add, itemgetter
from typing import Any

from indicifeval.core.kernels import optional_kernel
from indicifeval.text.langdetect_ngrams import Extractor, Features, GramTable

_kernel = optional_kernel("indicifeval.text._langdetect_kernel")  # None: the Python version here

__all__ = ["NoFeatures", "compiled", "confident_other", "detect_language", "get_probabilities", "knows",
           "other_languages"]

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
_NOT_A_TO_z = bytes(b for b in range(256) if not 0x41 <= b <= 0x7A)
_NOT_FROM_U0300 = bytes(b for b in range(256) if not 0xCC <= b <= 0xF4)
_ASCII_A_TO_z = re.compile("[A-z]")  # 'A' <= ch <= 'z', as in cleaning_text


class NoFeatures(Exception):
    """langdetect found nothing to judge (it raises ``LangDetectException: No features in text.``)."""


class _Model:
    def __init__(self, profile_dir: str):
        from langdetect.detector import Detector
        from langdetect.utils.ngram import NGram

        # DetectorFactory.load_profile's order and rules: os.listdir order, dot files and
        # folders skipped, vectors as long as the listing. Profiles stay parsed JSON and each
        # n-gram's vector (``1.0 * freq / n_words[len - 1]`` per language, as add_profile) is
        # built the first time a text has it: most of the 87 000 are never asked for.
        names = os.listdir(profile_dir)
        self.n_langs = len(names)
        self.langlist: list[str] = []
        self._profiles: list[tuple[dict, list]] = []
        for filename in names:
            path = os.path.join(profile_dir, filename)
            if filename.startswith(".") or not os.path.isfile(path):
                continue
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
            self.langlist.append(data["name"])
            self._profiles.append((data["freq"], data["n_words"]))
        self._grams = GramTable(self._profiles, self.n_langs, packed=compiled())
        self.url_sub = Detector.URL_RE.sub
        self.mail_sub = Detector.MAIL_RE.sub
        self.normalize_vi = NGram.normalize_vi
        self._vi_mark = re.compile("[" + re.escape(NGram.DMARK_CLASS) + "]")  # one pass for its five marks
        self.extract = Extractor(self._grams)  # (the table itself: the kernel looks n-grams up in it)
        self._index = {lang: j for j, lang in enumerate(self.langlist)}
        self._last: tuple[str, Features] | None = None
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
    def prepare(self, text: str) -> str:
        # Each substitution only where it can match, found in the text's UTF-8 (memchr-fast; the
        # counts below read it too): a URL starts with http, an address has an @, Vietnamese
        # normalisation needs one of its five marks (U+0300-U+0323: lead byte 0xCC), a run two
        # spaces (which a URL or address made a space can leave where there was none).
        original = text
        data = text.encode("utf-8", "surrogatepass")
        if b"http" in data:
            text = self.url_sub(" ", text)
        if b"@" in data and "@" in text:
            text = self.mail_sub(" ", text)
        if b"\xcc" in data and self._vi_mark.search(text):
            text = self.normalize_vi(text)
        text = text[:_MAX_TEXT_LENGTH]
        if (b"  " in data if text is original else "  " in text):
            text = _SPACE_RUN.sub(" ", text)
        # cleaning_text counts characters 'A' <= ch <= 'z' and characters >= U+0300 (its
        # "Latin Extended Additional" exemption compares a block number with a name, so it
        # never applies). In UTF-8 the first are the bytes 0x41-0x7A and the second the lead
        # bytes 0xCC-0xF4 (U+0300-U+07FF take 0xCC-0xDF, everything above 0xE0-0xF4). With
        # none of the first there is nothing to take away.
        if text is not original:
            data = text.encode("utf-8", "surrogatepass")
        latin = len(data.translate(None, _NOT_A_TO_z))
        if latin and latin * 2 < len(data.translate(None, _NOT_FROM_U0300)):
            text = _ASCII_A_TO_z.sub("", text)
        return text

    # -- Detector._detect_block ------------------------------------------------------------------
    def features(self, text: str) -> Features:
        """The text's n-grams (the last text's kept: a check of what it cannot be is
        followed by its detection); raises NoFeatures where langdetect would."""
        last = self._last
        if last is not None and last[0] is text:
            return last[1]
        found = self.extract(self.prepare(text))
        if not found.mask:
            raise NoFeatures("No features in text.")
        self._last = (text, found)
        return found

    def other_languages(self, text: str, lang: str) -> list[str] | None:
        """The languages of the text's n-grams when ``lang`` is not among them (then langdetect
        cannot answer ``lang``), else None. Languages no n-gram has keep one shared value that
        no language with n-grams ever falls below (each update multiplies them by
        alpha / 10000, the others by at least that), and the first update lifts one of those
        strictly above it, so each has a larger average, and a stable sort puts it first.
        Not claimed when some n-gram has a vector of zeros only (nothing is lifted by it)."""
        mask = self.features(text).mask
        n = self.n_langs
        index = self._index.get(lang)
        if mask >> n & 1 or (index is not None and mask >> index & 1):
            return None
        return [self.langlist[j] for j in range(n) if mask >> j & 1]

    def lang_probabilities(self, text: str, stop: _Stop | None = None) -> list[float]:
        """The averaged probabilities per language. ``stop(langprob, trial)`` may end the
        trials early once it knows what its caller asks (``_settled``: the top language),
        which leaves the values short of their sums over seven trials."""
        found = self.features(text)
        n = self.n_langs
        if compiled():
            return _compiled_estimate(found.runs(), n, stop)
        vectors, mask = found.vectors, found.mask
        support = [j for j in range(n) if mask >> j & 1]
        pick: Callable[[Any], Any]
        if not support or len(support) * 4 > n * 3:
            support, pick = list(range(n)), _same
        elif len(support) > 1:
            # A language no n-gram of the text has is multiplied by alpha / BASE_FREQ alone at
            # every update, so all of them hold one value: run the updates for the others and
            # that one value, and spread it back for the sums, maxima and averages.
            pick = itemgetter(*support)
        else:
            pick = partial(_one, support[0])
        if self._grams.packed:  # (made for the kernel, which was turned off since): read the doubles
            pick = partial(_unpacked, pick)
        return _estimate(vectors, n, support, pick, stop)

    def ranked(self, text: str, stop: _Stop | None = None) -> list[tuple[str, float]]:
        langprob = self.lang_probabilities(text, stop)
        result = [(lang, p) for lang, p in zip(self.langlist, langprob) if p > _PROB_THRESHOLD]
        result.sort(key=itemgetter(1), reverse=True)  # stable, as Language.__lt__ with reverse
        return result


def _same(v: Any) -> Any:
    return v


def _one(j: int, v: Any) -> tuple:
    return (v[j],)


def _unpacked(pick: Callable[[Any], Any], v: bytes) -> Any:
    return pick(memoryview(v).cast("d"))


def _estimate(vectors: list, n: int, support: list[int], pick, stop: _Stop | None) -> list[float]:
    """Detector._detect_block's seven trials, over the languages in ``support`` (each vector
    seen through ``pick``) plus one shared value for every other language, whose n-gram
    probabilities are all 0. Same draws, same products in the same order, same left-to-right
    sums over all ``n`` languages; see the module docstring."""
    langprob = [0.0] * n
    rng = random.Random(_SEED)
    gauss = rng.gauss
    count = len(vectors)
    picked: list = [None] * count
    if _getrandbits_choice():
        # random.choice's draw, inlined: k = n.bit_length() bits until one is below n.
        getrandbits = rng.getrandbits
        bits = count.bit_length()

        def draw() -> tuple:
            r = getrandbits(bits)
            while r >= count:
                r = getrandbits(bits)
            v = picked[r]
            if v is None:
                v = picked[r] = pick(vectors[r])
            return v
    else:  # pragma: no cover - a random module without _randbelow_with_getrandbits
        randbelow = getattr(rng, "_randbelow", None) or (lambda k: rng.choice(range(k)))

        def draw() -> tuple:
            r = randbelow(count)
            v = picked[r]
            if v is None:
                v = picked[r] = pick(vectors[r])
            return v

    others = n - len(support)
    # The shared value, added ``others`` times among the rest, leaves the left-to-right sum
    # unchanged once it is below half an ulp of the first non-zero value of the others (every
    # later partial sum is at least that value): ``bound * rest < ulp(first)`` checks that
    # with room for its own rounding.
    bound = 4.0 * n
    start = 1.0 / n
    for trial in range(1, _N_TRIAL + 1):
        alpha = _ALPHA_DEFAULT + gauss(0.0, 1.0) * _ALPHA_WIDTH
        w = alpha / _BASE_FREQ
        # Update 0 from the uniform start, then a convergence check after every fifth
        # update. Normalising is folded into the next five updates: p / total is the
        # normalised value langdetect stores, and max(p) / total equals the largest
        # normalised value because correctly rounded division by total > 0 is monotonic.
        # (w + 0.0) is w exactly, so the shared value's factor is w itself.
        prob = [start * (w + b) for b in draw()]
        rest = start * w if others else 0.0
        i = 0
        while True:
            if rest and bound * rest >= ulp(next(filter(None, prob), 0.0)):
                full = [rest] * n
                for j, p in zip(support, prob):
                    full[j] = p
                total = _left_sum(full)
                top = max(full)
            else:  # the shared value is 0 or vanishes in the sum
                total = _left_sum(prob)
                top = max(prob)
            if top / total > _CONV_THRESHOLD or i >= _ITERATION_LIMIT:
                break
            v1, v2, v3, v4, v5 = draw(), draw(), draw(), draw(), draw()
            prob = [(((((a / total) * (w + b1)) * (w + b2)) * (w + b3)) * (w + b4)) * (w + b5)
                    for a, b1, b2, b3, b4, b5 in zip(prob, v1, v2, v3, v4, v5)]
            if rest:
                rest = (((((rest / total) * w) * w) * w) * w) * w
            i += 5
        if others:
            full = [rest] * n
            for j, p in zip(support, prob):
                full[j] = p
        else:
            full = prob
        langprob = [acc + (p / total) / _N_TRIAL for acc, p in zip(langprob, full)]
        if stop is not None and trial < _N_TRIAL and stop(langprob, trial):
            break
    return langprob


def _getrandbits_choice() -> bool:
    """Whether ``random.choice`` draws ``getrandbits(n.bit_length())`` until below n (the
    compiled kernel and the inlined draw rely on it)."""
    return random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


_words = b""  # Random(0)'s first 32-bit outputs, little-endian: the same for every text


def _compiled_estimate(runs: tuple, n: int, stop: _Stop | None) -> list[float]:
    """The kernel's estimation over the features' runs, with more of Random(0)'s stream drawn
    when it runs out."""
    global _words
    while True:
        words = _words
        result = _kernel.estimate_runs(runs, n, words, stop)  # type: ignore[union-attr]
        if result is not None:
            return result
        k = max(1 << 16, len(words) // 2)  # twice as many words as before
        _words = random.Random(_SEED).getrandbits(32 * k).to_bytes(4 * k, "little")


def _settled(langprob: list[float], trial: int) -> bool:
    """The leader can no longer be overtaken: the other trials add at most 1/7 each."""
    top, second = nlargest(2, langprob)
    return top - second > (_N_TRIAL - trial) / _N_TRIAL + 1e-9


_Stop = Callable[[list[float], int], bool]
_lock = threading.Lock()
_model_instance: _Model | None = None


def _model() -> _Model:
    global _model_instance
    model = _model_instance
    if model is None:
        with _lock:
            model = _model_instance
            if model is None:
                from langdetect.detector_factory import PROFILES_DIRECTORY

                model = _model_instance = _Model(PROFILES_DIRECTORY)
    return model


def get_probabilities(text: str) -> list[tuple[str, float]]:
    """``Detector.get_probabilities()`` as (lang, prob) pairs; raises NoFeatures where it would."""
    return _model().ranked(text)


def compiled() -> bool:
    """Whether the estimation runs in the compiled kernel."""
    return _kernel is not None and _getrandbits_choice()


def knows(lang: str) -> bool:
    """Whether langdetect has a profile for ``lang`` (it has none for as, or, sa)."""
    return lang in _model()._index


def other_languages(text: str, lang: str) -> list[str] | None:
    """The languages ``detect_language(text)`` chooses among, when ``lang`` provably is not
    its answer; None when it may be. Raises NoFeatures where detection would."""
    return _model().other_languages(text, lang)


def confident_other(text: str, not_lang: str, at_least: float) -> str | None:
    """The language ``get_probabilities(text)`` ranks first, when it is not ``not_lang`` and
    its probability is ``at_least`` or more; else None. Trials stop once ``not_lang``
    holds more than ``1 - at_least``: the seven trials' probabilities sum to 1, so then no
    other language can reach ``at_least``. Raises NoFeatures where detection would."""
    model = _model()
    index = model._index.get(not_lang)

    def decided(langprob: list[float], trial: int) -> bool:
        return index is not None and langprob[index] > 1.0 - at_least + 1e-9

    ranked = model.ranked(text, decided)
    if ranked and ranked[0][0] != not_lang and ranked[0][1] >= at_least:
        return ranked[0][0]
    return None


def detect_language(text: str) -> str:
    """``Detector.detect()``: the top language, ``'unknown'`` if none passes the threshold."""
    ranked = _model().ranked(text, _settled)
    return ranked[0][0] if ranked else _UNKNOWN_LANG
