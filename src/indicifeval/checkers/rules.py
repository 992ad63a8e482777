"""What "a sentence", "a word", "contains the keyword" mean for one (language, subset, mode).

Checkers are written once and ask a ``Rules`` object; the language profile and the scoring
mode decide the answer. ``TextView`` caches each answer per text, so a response is segmented
once per loose variant however many instructions ask.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

from indicifeval.core.caches import bounded_cache
from indicifeval.core.modes import ScoringMode
from indicifeval.languages import LanguageProfile, composition, get_profile
from indicifeval.text import keywords as kw
from indicifeval.text import sentences, words
from indicifeval.text.langdetect_compat import NoFeatures, detect, knows
from indicifeval.text.langdetect_compat import other_languages as langdetect_others
from indicifeval.text.langid import identify_language, script_candidates
from indicifeval.text.normalize import match_key_of_nfc, nfc, star_removal_keeps_nfc
from indicifeval.text.paragraphs import paragraphs
from indicifeval.text.variants import Cut

Subset = Literal["trans", "ground"]
SUBSETS: tuple[str, ...] = composition().subsets  # the benchmark's, from languages/benchmark.json


class TextView:
    """One candidate response text plus lazily computed, cached facts about it.

    A loose variant keeps a link to the whole response (``base``) and the ``cut`` that made
    it, so its normalised form is cut from the response's (computed once) rather than
    normalised again: in fixed mode, literal matching sees NFC(response), then the cut."""

    __slots__ = ("text", "rules", "_cache", "base", "cut")

    def __init__(self, text: str, rules: Rules, base: TextView | None = None, cut: Cut | None = None):
        self.text = text
        self.rules = rules
        self._cache: dict[str, Any] = {}
        self.base = base
        self.cut = cut

    def _get(self, name: str, fn: Callable[[str], Any]) -> Any:
        try:
            return self._cache[name]
        except KeyError:
            value = self._cache[name] = fn(self.text)
            return value

    @property
    def sentence_count(self) -> int:
        """A loose variant shares its response's paragraph counts: cutting a line or the
        asterisks changes a paragraph or two, and the others are counted once for them all."""
        try:
            return self._cache["sentences"]
        except KeyError:
            memo = (self.base or self)._cache.setdefault("paragraph_sentences", {})
            value = self._cache["sentences"] = self.rules.count_sentences(self.text, memo)
            return value

    @property
    def word_count(self) -> int:
        """Counted on ``nfc``: a decomposed symbol (≠ as = and a combining mark) would leave
        its mark behind as a word of its own."""
        try:
            return self._cache["words"]
        except KeyError:
            memo = (self.base or self)._cache.setdefault("line_words", {})
            value = self._cache["words"] = self.rules.count_words(self.nfc, memo)
            return value

    @property
    def nfc(self) -> str:
        """The text in NFC where literal comparisons, words and language need it (fixed mode,
        Indic rows); the raw text where the reference scorers compare raw strings. Computed
        only on demand. A loose variant cuts it from the response's NFC: NFC never composes
        across a newline or whitespace, so cutting lines and stripping commute with it; only
        removing '*' can bring a letter and a combining mark together, which is checked."""
        if not self.rules.indic_fixed:
            return self.text
        try:
            return self._cache["nfc"]
        except KeyError:
            base, cut = self.base, self.cut
            if base is not None and cut is not None and (
                    not (cut.no_star and "*" in base.text) or base.star_removal_keeps_nfc):
                value = cut.apply(base.nfc)
            else:
                value = nfc(self.text)
            self._cache["nfc"] = value
            return value

    @property
    def star_removal_keeps_nfc(self) -> bool:
        """Whether the variants without '*' may be cut from ``nfc`` too (see normalize)."""
        try:
            return self._cache["star_ok"]
        except KeyError:
            value = self._cache["star_ok"] = star_removal_keeps_nfc(self.nfc)
            return value

    @property
    def matchable(self) -> str:
        """NFC, case-folded, joiners removed: the form keywords are matched against."""
        try:
            return self._cache["matchable"]
        except KeyError:
            if self.base is not None and self.cut is not None:
                value = self.cut.apply(self.base.matchable)
            else:
                value = match_key_of_nfc(self.nfc)
            self._cache["matchable"] = value
            return value

    @property
    def collapsed(self) -> str:
        """``matchable`` with every whitespace run made one space, for phrase comparisons."""
        try:
            return self._cache["collapsed"]
        except KeyError:
            value = self._cache["collapsed"] = " ".join(self.matchable.split())
            return value

    def collapsed_starts_with(self, target: str) -> bool:
        """``collapsed.startswith(target)``, reading only the start of a long text: the
        collapse of a start of ``matchable`` is a start of ``collapsed`` (its last word
        perhaps cut short), so once it is as long as ``target`` it decides."""
        if "collapsed" not in self._cache:
            text = self.matchable
            size = 2 * len(target) + 64
            if size < len(text):
                head = " ".join(text[:size].split())
                if len(head) >= len(target):
                    return head.startswith(target)
        return self.collapsed.startswith(target)

    def collapsed_ends_with(self, target: str, strip: str) -> bool:
        """``collapsed.strip(strip).endswith(target)``, reading only the end of a long text:
        the collapse of an end of ``matchable`` is an end of ``collapsed`` (its first word
        perhaps cut short); it decides once something not in ``strip`` precedes its last
        ``len(target)`` characters, where stripping the whole from the left stops."""
        if "collapsed" not in self._cache:
            text = self.matchable
            size = 2 * len(target) + 64
            if size < len(text):
                tail = " ".join(text[-size:].split()).rstrip(strip)
                if len(tail) > len(target) and tail[:len(tail) - len(target)].strip(strip):
                    return tail.endswith(target)
        return self.collapsed.strip(strip).endswith(target)

    @property
    def lower(self) -> str:
        return self._get("lower", str.lower)

    @property
    def language(self) -> str | None:
        """Identified on ``nfc`` in fixed Indic mode: a script's share of the letters and
        marks, and so the answer, must not depend on whether vowel signs are decomposed."""
        try:
            return self._cache["language"]
        except KeyError:
            value = self._cache["language"] = self.rules.identify(self.nfc, is_nfc=True)
            return value

    def other_languages(self, lang: str) -> list[str] | None:
        """Where the detector provably does not answer ``lang``, the languages it chooses
        among (see ``Rules.other_languages``); None when it may. For a loose variant in fixed
        Indic mode, also where its script has languages and ``lang`` is not one of them: a
        variant's explanation is shown only when it passes, so a failing one need not name
        what it is written in (the response's own check does, from the full identification)."""
        key = "not " + lang
        try:
            return self._cache[key]
        except KeyError:
            value = self.rules.other_languages(self.nfc, lang)
            if value is None and self.base is not None and self.rules.indic_fixed:
                candidates = script_candidates(self.nfc)
                if candidates and lang not in candidates:
                    value = list(candidates)
            self._cache[key] = value
            return value

    @property
    def paragraphs(self) -> list[str]:
        """Split from ``nfc``, so that their words are stripped of punctuation and symbols in
        the NFC form (a decomposed ≠ would leave its combining mark on the word)."""
        try:
            return self._cache["paragraphs"]
        except KeyError:
            value = self._cache["paragraphs"] = paragraphs(self.nfc)
            return value


def not_detected(wanted: str, others: list[str], most: int = 6) -> str:
    """Why the detector cannot have answered ``wanted``, naming what it chooses among."""
    among = ", ".join(others) if len(others) <= most else f"{', '.join(others[:most])} and {len(others) - most} more"
    why = "langdetect has no profile for it" if not knows(wanted) else f"no {wanted} n-gram in the answer"
    return f"detected one of {among} ({why}), needed {wanted}"


class Draw:
    """The deterministic stand-in for the authors' unseeded ``random`` calls: each value is
    drawn from a generator seeded with the row key, instruction index and argument name, so
    the same row always gets the same value, in strict and loose alike."""

    def __init__(self, key: Any, index: int):
        self._prefix = f"{key}|{index}|"

    def _rng(self, name: str) -> random.Random:
        return random.Random(self._prefix + name)

    def choice(self, name: str, options):
        return self._rng(name).choice(list(options))

    def randint(self, name: str, lo: int, hi: int) -> int:
        return self._rng(name).randint(lo, hi)

    def sample(self, name: str, options, k: int) -> list:
        options = list(options)
        return self._rng(name).sample(options, min(k, len(options)))


class Rules:
    """Text semantics for one language profile, subset and scoring mode."""

    def __init__(self, profile: LanguageProfile, subset: str, mode: ScoringMode):
        self.profile = profile
        self.subset = subset
        self.mode = mode
        self.paper = mode == ScoringMode.PAPER  # (==: the plain "paper" of an untyped caller is the same mode)
        self.ifeval = profile.text_rules == "ifeval"  # English: IFEval's own rules, both modes
        self.indic_fixed = not self.paper and not self.ifeval
        quirks = profile.paper
        self._tokenizer = quirks.word_tokenizer if quirks else "indic"

    def __repr__(self) -> str:
        return f"Rules({self.profile.code}, {self.subset}, {self.mode})"

    def warm_up(self) -> None:
        """Load the models these rules may need (before forking workers)."""
        if self.indic_fixed:
            identify_language("नमस्ते")
        else:
            self.identify("warm up")
        if self.ifeval:
            self.count_sentences("Warm up.")

    # -- segmentation -------------------------------------------------------------------------
    def count_sentences(self, text: str, memo: dict | None = None) -> int:
        """``memo``: what the splitter keeps per paragraph, shared by the variants of one
        response (both Indic splitters count paragraph by paragraph; English's punkt does not)."""
        if self.ifeval:
            from indicifeval.text.punkt_en import count_sentences_en

            return count_sentences_en(text)
        if self.paper:
            return sentences.count_sentences_paper(text, memo)
        return sentences.count_sentences(text, self.profile.sentence_terminators, self.profile.abbreviations, memo)

    def count_words(self, text: str, memo: dict[str, int] | None = None) -> int:
        """``memo``: word counts of lines, shared by a response's loose variants (the paper's
        tokens run across newlines, so it counts each text whole)."""
        if self.ifeval:
            return words.count_words_ifeval(text, memo, fixed=not self.paper)
        if self.paper:
            return words.count_words_paper(text, self._tokenizer)
        return words.count_words(text, memo)

    # -- keywords -----------------------------------------------------------------------------
    def keyword_count(self, view: TextView, keyword: str) -> int:
        if self.indic_fixed:
            return kw.count_keyword(view.matchable, keyword)
        if _plain_uncased(keyword) and keyword not in view.text:
            return 0
        return len(_ifeval_regex(keyword, self.paper).findall(view.text))

    def keyword_present(self, view: TextView, keyword: str) -> bool:
        if self.indic_fixed:
            return kw.has_keyword(view.matchable, keyword)
        if _plain_uncased(keyword) and keyword not in view.text:
            return False
        return _ifeval_regex(keyword, self.paper).search(view.text) is not None

    def forbidden_present(self, view: TextView, word: str) -> bool:
        if self.indic_fixed:
            return kw.has_keyword(view.matchable, word)
        if _plain_uncased(word) and word not in view.text:
            return False
        return _ifeval_bounded_regex(word, self.paper).search(view.text) is not None

    # -- language ID --------------------------------------------------------------------------
    def identify(self, text: str, is_nfc: bool = False) -> str | None:
        """Detected language; ``None`` when nothing can be judged. Fixed mode judges the NFC
        form (langid normalises, unless told ``text`` is NFC); the reference scorers see the
        raw text."""
        if self.indic_fixed:
            return identify_language(text, is_nfc)
        try:
            return detect(text)
        except NoFeatures:
            return None

    def other_languages(self, text: str, lang: str) -> list[str] | None:
        """langdetect's answer cannot be ``lang`` when none of the text's n-grams is in its
        profile (nor in langdetect at all: as, or, sa): then the languages it would choose
        among, found without running its estimation. None when it may be, in fixed Indic
        mode (the identifier is cheap), and where nothing can be judged."""
        if self.indic_fixed:
            return None
        try:
            return langdetect_others(text, lang)
        except NoFeatures:
            return None

    @property
    def undetectable_passes(self) -> bool:
        """The authors (and IFEval) count a detector failure as followed; fixed mode does not."""
        return self.paper

    # -- per-language constants ---------------------------------------------------------------
    @property
    def constrained_responses(self) -> tuple[str, ...]:
        quirks = self.profile.paper
        if self.paper and quirks is not None:
            if self.subset == "ground":
                return quirks.constrained_responses_ground
            return quirks.constrained_responses_trans
        return self.profile.constrained_responses

    @property
    def comma_chars(self) -> tuple[str, ...]:
        return (",",) if (self.paper or self.ifeval) else self.profile.comma_chars


@bounded_cache(maxsize=8192)
def _ifeval_regex(pattern: str, raw: bool) -> re.Pattern:
    """IFEval/the authors use the kwarg as a regular expression; fixed mode escapes it. A
    pattern that does not compile (the authors' scorer crashes) is matched literally."""
    if raw:
        try:
            return re.compile(pattern, re.IGNORECASE)
        except re.error:
            pass
    return re.compile(re.escape(pattern), re.IGNORECASE)


@bounded_cache(maxsize=8192)
def _plain_uncased(word: str) -> bool:
    """Whether ``word`` is a non-empty literal (as a pattern and escaped alike) of characters
    without case (Indic letters, digits): then the case-insensitive patterns built from it
    match only where the text holds it as it is, and a text without it needs no search."""
    return bool(word) and re.escape(word) == word and all(c.lower() == c == c.upper() for c in word)


@bounded_cache(maxsize=8192)
def _ifeval_bounded_regex(word: str, raw: bool) -> re.Pattern:
    if raw:
        try:
            return re.compile(r"\b" + word + r"\b", re.IGNORECASE)
        except re.error:
            pass
    return re.compile(r"\b" + re.escape(word) + r"\b", re.IGNORECASE)


@cache
def get_rules(language: str, subset: str, mode: ScoringMode) -> Rules:
    return Rules(get_profile(language), subset, mode)
