"""The implicit constraints: what every honest answer does without being asked, and what the
answers that game a verifiable reward ("X X X" for "use X three times") do not. Each is a pure
function of the answer, the prompt and the row's allowances, returning why it failed or None;
each threshold is a named constant, documented in docs/rewards.md, and chosen so that honest
answers (the bundled sample's passing answers, the shared corpus, IFEval's English responses)
pass with room to spare."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property

import regex

from indicifeval.languages import language_name
from indicifeval.scoring.implicit.chars import LETTER, WORD, invisible
from indicifeval.scoring.implicit.compared import Compared
from indicifeval.scoring.implicit.expect import Allowance, profile_of
from indicifeval.scoring.implicit.measures import Measures, covered_words, measure
from indicifeval.scoring.implicit.plausible import known_share, known_word_share
from indicifeval.scoring.implicit.pleasantries import beside_pleasantries
from indicifeval.scoring.implicit.view import N_GRAM, AnswerView, word_ngrams, words_of
from indicifeval.text.langid import Identification, identify

NUMBERS_MIN_WORDS = 10  # an answer of this many numbers and no letter is no answer ("26" may be one)
MAX_INVISIBLE = 8  # invisible characters outside words: a few strays (web text has them) are forgiven,
MAX_INVISIBLE_SHARE = 0.005  # and more, if under half a percent of the answer's characters
IDENTIFY_CHARS = 1000  # the answer's language is read from its beginning
LANGUAGE_MIN_LETTERS = 20  # below this, only the script is judged (too short to tell languages apart)
PLAUSIBLE_MIN_TRIGRAMS = 40  # shorter: too few to tell (random Latin letters hit common trigrams)
PLAUSIBLE_MIN_SHARE = 0.25  # honest text >= 0.42 in the shared corpus; random letters <= 0.03
# Under this share the words decide too: random Latin letters (a-z, either case) hit up to 32 % of
# English trigrams (2,000 strings) but at most 9 % of its words; honest English answers >= 46 % of
# trigrams, lists of invented pronounceable names 42-70 % (median 55 %)
PLAUSIBLE_WORDS_BELOW = 0.45
PLAUSIBLE_MIN_WORDS = 40
PLAUSIBLE_MIN_WORD_SHARE = 0.12
ECHO_N = N_GRAM  # word n-grams compared with the prompt's (4)
ECHO_MIN_NGRAMS = 6
ECHO_MAX_SHARE = 0.8  # of the answer's words inside word 4-grams of its prompt (quoted passages aside)
ECHO_MAX_COVERED = 0.8  # of the prompt's word 4-grams found in the answer
TOP_WORD_MIN_WORDS = 10
TOP_WORD_MAX_SHARE = 0.4  # one word (a keyword, a filler) over 40 % of the words
REPEAT_N = N_GRAM
REPEAT_MIN_NGRAMS = 12
REPEAT_MAX_SHARE = 0.5  # of the word 4-grams repeating an earlier one
DUPLICATE_MIN_UNITS = 4
DUPLICATE_MAX_SHARE = 0.5  # of lines or sentences repeating an earlier one
FEW_REPEATS = 0.1  # of the 4-grams repeating: below this, sentences are not checked one by one
PLEASANTRIES_MAX_WORDS = 40  # a longer answer is not pleasantries alone
PLEASANTRIES_MIN_LEFT = 3  # words beside the pleasantries ("Sure! Here is ...", "I hope this helps")
PLEASANTRIES_MIN_SAID = 3  # words of pleasantries before an answer counts as made of them
KEYWORD_MIN_WORDS = 10
KEYWORD_MAX_SHARE = 0.3  # of the words being the keywords and phrases the instructions require


_TAG = regex.compile(r"(?<!<)<[!/?]?[A-Za-z][^<>]*>(?!>)")  # a markup tag, not a double angle quote


@dataclass
class Context:
    view: AnswerView
    prompt: str
    allowance: Allowance
    compared: Compared
    language: str  # the row's

    @cached_property
    def identified(self) -> Identification:
        return identify(self.view.text[:IDENTIFY_CHARS], is_nfc=True)  # the view's text is NFC

    @cached_property
    def measures(self) -> Measures:
        return measure(self.view, self.compared)


def not_empty(c: Context) -> str | None:
    if not c.measures.words:
        return "the answer has no words (empty, blank, invisible characters or an empty wrapper)"
    if c.measures.words >= NUMBERS_MIN_WORDS and not c.allowance.numbers and LETTER.search(c.view.text) is None:
        return f"the answer has no letters ({c.measures.words} numbers and symbols)"
    text = c.view.text
    if "<" in text and ">" in text and WORD.search(_TAG.sub(" ", text)) is None:
        return "the answer has no words once its markup tags are taken away (an empty HTML or XML wrapper)"
    return None


def no_invisible(c: Context) -> str | None:
    n = invisible(c.view.raw)[0]
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
    if allowed is None or not c.measures.words:
        return None
    found = c.identified
    if found.language is None:
        return None
    if c.allowance.latin_letters:
        if found.script != "Latn":
            return f"written in {found.script} letters; the instructions ask for Latin letters"
        return None
    letters = c.measures.letters
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
    if allowed is None or not c.allowance.plain_text or not c.measures.words:
        return None
    code = c.identified.language if c.identified.language in allowed else c.language
    script = _script(code)
    if script is None:
        return None
    measured = known_share(c.view, code, script)
    if measured is None or measured[1] < PLAUSIBLE_MIN_TRIGRAMS:
        return None
    share, n = measured
    if share < PLAUSIBLE_MIN_SHARE:
        return (f"not words of {language_name(code)}: {share:.0%} of {n} letter trigrams occur in its text "
                f"(at least {PLAUSIBLE_MIN_SHARE:.0%})")
    if share < PLAUSIBLE_WORDS_BELOW and not c.allowance.names_only:
        words = known_word_share(c.view, code, script)
        if words is not None and words[1] >= PLAUSIBLE_MIN_WORDS and words[0] < PLAUSIBLE_MIN_WORD_SHARE:
            return (f"not words of {language_name(code)}: {share:.0%} of {n} letter trigrams and {words[0]:.0%} of "
                    f"{words[1]} words occur in its text (at least {PLAUSIBLE_WORDS_BELOW:.0%} or "
                    f"{PLAUSIBLE_MIN_WORD_SHARE:.0%})")
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


def no_echo(c: Context) -> str | None:
    """Two ways to echo: most of the answer is the prompt's own instructions (its quoted
    passages, which a rewrite copies, aside), or most of the prompt, quotes and all, is in
    the answer."""
    if c.allowance.echo or not c.prompt:
        return None
    if c.allowance.copies:  # the copies the instructions ask for are not echoes: measured without them
        words = _without(c.view.words, c.allowance.copies)
        grams = word_ngrams(words, ECHO_N)
        n_grams, n_words = len(grams), len(words)
        own, stated = covered_words(grams, c.compared.own), covered_words(grams, c.compared.stated)
        found = len(c.compared.whole.intersection(grams))
    else:
        m = c.measures
        n_grams, n_words, own, stated, found = m.grams, m.words, m.own_covered, m.stated_covered, m.whole_found
    if n_grams < ECHO_MIN_NGRAMS:
        return None
    share = min(own, n_words) / n_words
    if share > ECHO_MAX_SHARE:
        return (f"restates the prompt: {share:.0%} of the answer's words are in word {ECHO_N}-grams of the prompt "
                f"(at most {ECHO_MAX_SHARE:.0%})")
    share = min(stated, n_words) / n_words
    if share > ECHO_MAX_SHARE:
        return (f"restates the instructions: {share:.0%} of the answer's words are in word {ECHO_N}-grams of the "
                f"prompt or its instructions' descriptions (at most {ECHO_MAX_SHARE:.0%})")
    whole = c.compared.whole_size
    if whole >= ECHO_MIN_NGRAMS:
        covered = found / whole
        if covered >= ECHO_MAX_COVERED:
            return (f"echoes the prompt: {covered:.0%} of the prompt's word {ECHO_N}-grams are in the answer "
                    f"(at most {ECHO_MAX_COVERED:.0%})")
    return None


def _duplicates(units: Sequence[Hashable]) -> float:
    return _repeated(len(units), len(set(units)))


def _repeated(n: int, distinct: int) -> float:
    return 1 - distinct / n


def no_padding(c: Context) -> str | None:
    if c.allowance.repeats:
        return None
    m = c.measures
    if m.words >= TOP_WORD_MIN_WORDS and m.top_count / m.words > TOP_WORD_MAX_SHARE:
        return (f"pads with one word: {m.top_word!r} is {m.top_count / m.words:.0%} of the words "
                f"(at most {TOP_WORD_MAX_SHARE:.0%})")
    repeated = _repeated(m.grams, m.distinct_grams) if m.grams >= REPEAT_MIN_NGRAMS else None
    if repeated is not None and repeated > REPEAT_MAX_SHARE:
        return (f"pads with repetition: {repeated:.0%} of its word {REPEAT_N}-grams repeat an earlier one "
                f"(at most {REPEAT_MAX_SHARE:.0%})")
    if m.lines >= DUPLICATE_MIN_UNITS and _repeated(m.lines, m.distinct_lines) > DUPLICATE_MAX_SHARE:
        return (f"pads with repeated lines: {_repeated(m.lines, m.distinct_lines):.0%} repeat an earlier one "
                f"(at most {DUPLICATE_MAX_SHARE:.0%})")
    # Repeated sentences repeat their 4-grams too: where hardly any do, the sentences are not read
    if repeated is None or repeated >= FEW_REPEATS:
        units = c.view.sentences
        if len(units) >= DUPLICATE_MIN_UNITS and _duplicates(units) > DUPLICATE_MAX_SHARE:
            return (f"pads with repeated sentences: {_duplicates(units):.0%} repeat an earlier one "
                    f"(at most {DUPLICATE_MAX_SHARE:.0%})")
    bullets = c.view.bullets
    if len(bullets) >= 2:
        filler = len(bullets) - len({b for b in bullets if b})
        if filler * 2 > len(bullets):
            return f"filler bullets: {filler} of {len(bullets)} are empty or repeat another"
    return None


def substance(c: Context) -> str | None:
    m = c.measures
    if c.allowance.only_given or not m.words:
        return None
    if m.only_given:
        return "only the keywords and phrases the instructions require"
    if m.words <= PLEASANTRIES_MAX_WORDS:
        left, said = beside_pleasantries(c.view.words, _languages_of(c))
        if sum(len(p.split()) for p in said) < PLEASANTRIES_MIN_SAID:  # "ok", "Sure!": too short to judge
            said = []
        if said and len(left) < PLEASANTRIES_MIN_LEFT:
            return f"only pleasantries ({', '.join(said)}): {len(left)} other words (at least {PLEASANTRIES_MIN_LEFT})"
        if said and all(w in c.compared.given for w in left):
            return f"only pleasantries ({', '.join(said)}) and the keywords and phrases the instructions require"
    if c.compared.keyword_texts and not c.allowance.repeats and m.words >= KEYWORD_MIN_WORDS and \
            m.keyword_words / m.words > KEYWORD_MAX_SHARE:
        share = m.keyword_words / m.words
        return f"keyword stuffing: the required keywords are {share:.0%} of the words (at most {KEYWORD_MAX_SHARE:.0%})"
    return None


def _languages_of(c: Context) -> frozenset[str]:
    return frozenset(c.allowance.languages or ()) | {c.language}


# In the order they are reported; the first ones explain the later ones' failures.
CHECKS: dict[str, Callable[[Context], str | None]] = {
    "not_empty": not_empty, "no_invisible": no_invisible, "language": language, "plausible": plausible,
    "no_echo": no_echo, "no_padding": no_padding, "substance": substance,
}

__all__ = ["CHECKS", "Context"]
