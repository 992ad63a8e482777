"""The implicit constraints: what every honest answer does without being asked, and what the
answers that game a verifiable reward ("X X X" for "use X three times") do not. Each is a pure
function of the answer, the prompt and the row's allowances, returning why it failed or None;
each threshold is a named constant, documented in docs/rewards.md, and chosen so that honest
answers (the bundled sample's passing answers, the shared corpus, IFEval's English responses)
pass with room to spare."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import regex

from indicifeval.checkers.describe import PLACEHOLDER, DescriptionError, render_description, templates_of
from indicifeval.checkers.registry import KwargError
from indicifeval.languages import language_name
from indicifeval.scoring.implicit.expect import Allowance, profile_of
from indicifeval.scoring.implicit.plausible import known_share
from indicifeval.scoring.implicit.view import AnswerView, invisible_count, word_ngrams, words_of
from indicifeval.text.langid import Identification, identify
from indicifeval.text.scripts import script_of

MAX_INVISIBLE = 8  # invisible characters outside words: a few strays (web text has them) are forgiven,
MAX_INVISIBLE_SHARE = 0.005  # and more, if under half a percent of the answer's characters
IDENTIFY_CHARS = 1000  # the answer's language is read from its beginning
LANGUAGE_MIN_LETTERS = 20  # below this, only the script is judged (too short to tell languages apart)
PLAUSIBLE_MIN_TRIGRAMS = 40  # shorter: too few to tell (random Latin letters hit common trigrams)
PLAUSIBLE_MIN_SHARE = 0.25  # honest text >= 0.42 in the shared corpus; random letters <= 0.03
ECHO_N = 4  # word n-grams compared with the prompt's
ECHO_MIN_NGRAMS = 6
ECHO_MAX_SHARE = 0.8  # of the answer's words inside word 4-grams of its prompt (quoted passages aside)
ECHO_MAX_COVERED = 0.8  # of the prompt's word 4-grams found in the answer
QUOTED_MIN_CHARS = 40  # a quoted passage: at least this long between quotation marks
TOP_WORD_MIN_WORDS = 10
TOP_WORD_MAX_SHARE = 0.4  # one word (a keyword, a filler) over 40 % of the words
REPEAT_N = 4
REPEAT_MIN_NGRAMS = 12
REPEAT_MAX_SHARE = 0.5  # of the word 4-grams repeating an earlier one
DUPLICATE_MIN_UNITS = 4
DUPLICATE_MAX_SHARE = 0.5  # of lines or sentences repeating an earlier one
FEW_REPEATS = 0.1  # of the 4-grams repeating: below this, sentences are not checked one by one
KEYWORD_MIN_WORDS = 10
KEYWORD_MAX_SHARE = 0.3  # of the words being the keywords and phrases the instructions require


@dataclass
class Context:
    view: AnswerView
    prompt: str
    allowance: Allowance
    language: str  # the row's

    @cached_property
    def identified(self) -> Identification:
        return identify(self.view.text[:IDENTIFY_CHARS])


def not_empty(c: Context) -> str | None:
    if not c.view.words:
        return "the answer has no words (empty, blank, invisible characters or an empty wrapper)"
    return None


def no_invisible(c: Context) -> str | None:
    n = invisible_count(c.view.raw)
    if n > MAX_INVISIBLE and n > MAX_INVISIBLE_SHARE * len(c.view.raw):
        return (f"{n} invisible characters (zero-width spaces, joiners outside words, fillers); at most "
                f"{MAX_INVISIBLE} or {MAX_INVISIBLE_SHARE:.1%} of the characters")
    return None


def _script(language: str) -> str | None:
    profile = profile_of(language)
    return profile.script if profile is not None else None


def _names(codes: frozenset[str]) -> str:
    return " or ".join(sorted(language_name(c) for c in codes))


def language(c: Context) -> str | None:
    allowed = c.allowance.languages
    if allowed is None or not c.view.words:
        return None
    found = c.identified
    if found.language is None:
        return None
    if c.allowance.latin_letters:
        if found.script != "Latn":
            return f"written in {found.script} letters; the instructions ask for Latin letters"
        return None
    letters = sum(map(len, c.view.words))
    if letters < LANGUAGE_MIN_LETTERS or c.allowance.names_only:  # too short (or names) to tell siblings apart
        scripts = {_script(code) for code in allowed}
        if found.script in scripts or None in scripts:
            return None
        return f"written in {found.script} letters; the answer should be in {_names(allowed)}"
    if found.language in allowed:
        return None
    return f"written in {language_name(found.language)}; the answer should be in {_names(allowed)}"


def plausible(c: Context) -> str | None:
    allowed = c.allowance.languages
    if allowed is None or not c.allowance.plain_text or not c.view.words:
        return None
    code = c.identified.language if c.identified.language in allowed else c.language
    script = _script(code)
    if script is None:
        return None
    measured = known_share(c.view.words, code, lambda w: script_of(w[0]) == script)
    if measured is None or measured[1] < PLAUSIBLE_MIN_TRIGRAMS:
        return None
    share, n = measured
    if share < PLAUSIBLE_MIN_SHARE:
        return (f"not words of {language_name(code)}: {share:.0%} of {n} letter trigrams occur in its text "
                f"(at least {PLAUSIBLE_MIN_SHARE:.0%})")
    return None


def _without(words: list[str], copies: tuple[str, ...]) -> list[str]:
    """The answer's words without one occurrence of each copy the instructions ask for (a
    substring search on the words joined by spaces: linear)."""
    for copy in copies:
        wanted = " ".join(words_of(copy))
        joined = f" {' '.join(words)} "
        at = joined.find(f" {wanted} ") if wanted else -1
        if at >= 0:
            words = (joined[:at] + joined[at + len(wanted) + 1:]).split()
    return words


def _unquoted(prompt: str, quotes: tuple[tuple[str, str], ...]) -> str:
    """The prompt without its quoted passages (the text a rewrite may copy)."""
    for opening, closing in quotes:
        prompt = regex.sub(f"{regex.escape(opening)}[^{regex.escape(closing)}]{{{QUOTED_MIN_CHARS},}}"
                           f"{regex.escape(closing)}", " ", prompt)
    return prompt


@lru_cache(maxsize=4096)
def _description_grams(language: str, iid: str, kwargs: str) -> frozenset[tuple[str, ...]]:
    """Word n-grams of the instruction's description in the language, rendered with the row's
    kwargs (JSON text), and of its templates (placeholders left out): what an answer restating
    the instruction is made of."""
    profile = profile_of(language)
    try:
        texts = [PLACEHOLDER.sub(" ", t) for t in templates_of(iid, profile)] if profile is not None else []
    except DescriptionError:
        return frozenset()
    try:
        if profile is not None:
            texts.append(render_description(iid, json.loads(kwargs), profile))
    except (DescriptionError, KwargError, KeyError, ValueError):
        pass
    return frozenset(g for t in texts for g in word_ngrams(words_of(t), ECHO_N))


@lru_cache(maxsize=4096)
def _prompt_grams(prompt: str, quotes: tuple[tuple[str, str], ...]) -> tuple[frozenset, frozenset]:
    """The prompt's word n-grams without its quoted passages, and with them."""
    return (frozenset(word_ngrams(words_of(_unquoted(prompt, quotes)), ECHO_N)),
            frozenset(word_ngrams(words_of(prompt), ECHO_N)))


_RUN = re.compile(rb"\x01+")
_GAP = re.compile(rb"\x00*")


def _covered(grams: list[tuple[str, ...]], found: set | frozenset, n_words: int) -> float:
    """The share of the words inside one of ``grams`` that is in ``found`` (so the n-grams that
    straddle two copied sentences do not hide the copy)."""
    hits = bytes(map(found.__contains__, grams))  # one byte a gram: 1 where found
    covered = 0
    for run in _RUN.finditer(hits):  # a run of found grams covers its words and the next n-1
        gap = _GAP.match(hits, run.end())
        tail = len(gap.group()) if gap and gap.end() < len(hits) else ECHO_N - 1  # the last gram's words
        covered += len(run.group()) + min(ECHO_N - 1, tail)
    return min(covered, n_words) / n_words


def no_echo(c: Context) -> str | None:
    """Two ways to echo: most of the answer is the prompt's own instructions (its quoted
    passages, which a rewrite copies, aside), or most of the prompt, quotes and all, is in
    the answer."""
    if c.allowance.echo or not c.prompt:
        return None
    words = _without(c.view.words, c.allowance.copies)
    grams = c.view.grams if words is c.view.words and ECHO_N == 4 else word_ngrams(words, ECHO_N)
    if len(grams) < ECHO_MIN_NGRAMS:
        return None
    own, whole = _prompt_grams(c.prompt, c.allowance.quotes)
    share = _covered(grams, own, len(words))
    if share > ECHO_MAX_SHARE:
        return (f"restates the prompt: {share:.0%} of the answer's words are in word {ECHO_N}-grams of the prompt "
                f"(at most {ECHO_MAX_SHARE:.0%})")
    stated = own.union(*(_description_grams(c.language, iid, json.dumps(kw, sort_keys=True, ensure_ascii=False))
                         for iid, kw in zip(c.allowance.ids, c.allowance.kwargs)))
    share = _covered(grams, stated, len(words))
    if share > ECHO_MAX_SHARE:
        return (f"restates the instructions: {share:.0%} of the answer's words are in word {ECHO_N}-grams of the "
                f"prompt or its instructions' descriptions (at most {ECHO_MAX_SHARE:.0%})")
    if len(whole) >= ECHO_MIN_NGRAMS:
        covered = len(whole.intersection(grams)) / len(whole)
        if covered >= ECHO_MAX_COVERED:
            return (f"echoes the prompt: {covered:.0%} of the prompt's word {ECHO_N}-grams are in the answer "
                    f"(at most {ECHO_MAX_COVERED:.0%})")
    return None


def _duplicates(units: Sequence[Hashable]) -> float:
    return 1 - len(set(units)) / len(units)


def no_padding(c: Context) -> str | None:
    if c.allowance.repeats:
        return None
    words = c.view.words
    if len(words) >= TOP_WORD_MIN_WORDS:
        word, n = Counter(words).most_common(1)[0]
        if n / len(words) > TOP_WORD_MAX_SHARE:
            return (f"pads with one word: {word!r} is {n / len(words):.0%} of the words "
                    f"(at most {TOP_WORD_MAX_SHARE:.0%})")
    grams = c.view.grams if REPEAT_N == 4 else word_ngrams(words, REPEAT_N)
    repeated = _duplicates(grams) if len(grams) >= REPEAT_MIN_NGRAMS else None
    if repeated is not None and repeated > REPEAT_MAX_SHARE:
        return (f"pads with repetition: {repeated:.0%} of its word {REPEAT_N}-grams repeat an earlier one "
                f"(at most {REPEAT_MAX_SHARE:.0%})")
    # Repeated sentences repeat their 4-grams too: where hardly any do, the sentences are not read
    units_of: list[tuple[str, Callable[[], list[str]]]] = [("lines", lambda: c.view.lines)]
    if repeated is None or repeated >= FEW_REPEATS:
        units_of.append(("sentences", lambda: c.view.sentences))
    for name, read in units_of:
        units = read()
        if len(units) >= DUPLICATE_MIN_UNITS and _duplicates(units) > DUPLICATE_MAX_SHARE:
            return (f"pads with repeated {name}: {_duplicates(units):.0%} repeat an earlier one "
                    f"(at most {DUPLICATE_MAX_SHARE:.0%})")
    bullets = c.view.bullets
    if len(bullets) >= 2:
        filler = len(bullets) - len({b for b in bullets if b})
        if filler * 2 > len(bullets):
            return f"filler bullets: {filler} of {len(bullets)} are empty or repeat another"
    return None


def substance(c: Context) -> str | None:
    if c.allowance.only_given or not c.view.words:
        return None
    given = {w for phrase in c.allowance.given for w in words_of(phrase)}
    words = c.view.words
    if all(w in given for w in words):
        return "only the keywords and phrases the instructions require"
    keywords = {w for phrase in c.allowance.keywords for w in words_of(phrase)}
    stuffed = sum(1 for w in words if w in keywords)
    if keywords and not c.allowance.repeats and len(words) >= KEYWORD_MIN_WORDS and \
            stuffed / len(words) > KEYWORD_MAX_SHARE:
        share = stuffed / len(words)
        return f"keyword stuffing: the required keywords are {share:.0%} of the words (at most {KEYWORD_MAX_SHARE:.0%})"
    return None


# In the order they are reported; the first ones explain the later ones' failures.
CHECKS: dict[str, Callable[[Context], str | None]] = {
    "not_empty": not_empty, "no_invisible": no_invisible, "language": language, "plausible": plausible,
    "no_echo": no_echo, "no_padding": no_padding, "substance": substance,
}

__all__ = ["CHECKS", "Context"]
