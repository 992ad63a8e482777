"""Response-language identification for the 15 benchmark languages and the languages that
Trans prompts may request, deterministic and offline.

Script first: most languages here are the only user of their script among the candidates
(Gujarati, Gurmukhi, Odia, Tamil, Telugu, Kannada, Malayalam, Hangul, Thai, ...). Only inside a
shared script (Devanagari: hi/mr/ne/sa; Bengali: bn/as; Latin; Arabic: ur/fa/ar; Cyrillic)
does a statistical model (CLD2 via pycld2) choose, restricted to the languages of that script.
An Indic script wins over Latin unless Latin letters are at least 70 % of the letters, so an
Indic answer with English technical terms is still Indic (a Han, kana or Hangul character
counts for three letters). Inside a script, data decides before the model where it can:
distinctive letters, distinctive word endings, and function words, which outvote CLD2 when
it calls a sentence made of them another language because of a few (English) names. After
the model, two checks: a sentence CLD2 calls English (its prior for short Latin text) goes to
langdetect's n-grams when they are confident of another candidate, and close neighbours
(Danish, Norwegian, Swedish; Bulgarian, Russian) are told apart by marker words and endings.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

from indicifeval.languages import script_weights
from indicifeval.languages.profile import on_reload
from indicifeval.text.langid_hints import (
    _cld2_to_ours,
    _distinctive_endings,
    _distinctive_letters,
    _function_word_languages,
    _function_words,
    _langdetect_to_ours,
    _languages_by_script,
    _Markers,
    _markers,
)
from indicifeval.text.langid_words import voting_words as _voting_words
from indicifeval.text.normalize import nfc, strip_controls
from indicifeval.text.scripts import script_counts

LATIN_SHARE_FOR_LATIN = 0.7
_MAX_CHARS = 2000  # CLD2 is linear; the first two thousand characters decide
_FUNCTION_WORD_SHARE = 0.2
# CLD2 falls back on English, its prior, for short Latin text, however un-English: "processo
# in background terminato in modo imprevisto" is English to it at 98 %. From this many voting
# words on, langdetect's n-grams, confident in another candidate, overrule that call.
_CLD2_PRIOR = "en"
_PRIOR_CHECK_WORDS = 6
_PRIOR_CHECK_CONFIDENCE = 0.7
_GUESS_WORDS = 3  # voting words before langdetect guesses where CLD2 named no candidate


@dataclass(frozen=True)
class Identification:
    language: str | None  # None: no letters at all
    script: str | None
    method: str  # "script", "letters", "words", "endings", "cld2", "ngrams", "markers", "fallback", "empty"


def dominant_script(text: str) -> str | None:
    counts = script_counts(text)
    if not counts:
        return None
    for script, weight in script_weights().items():
        if script in counts:
            counts[script] *= weight
    if counts.get("Kana"):
        return "Kana"  # kana is the mark of Japanese; Han alone is Chinese
    total = sum(counts.values())
    non_latin = [(n, s) for s, n in counts.items() if s != "Latn"]
    if non_latin and counts.get("Latn", 0) < LATIN_SHARE_FOR_LATIN * total:
        return max(non_latin)[1]
    return max((n, s) for s, n in counts.items())[1]


def identify(text: str, is_nfc: bool = False) -> Identification:
    """The language of ``text``, judged on its NFC form (decomposed vowel signs would count
    as extra marks and shift the script shares). ``is_nfc``: the caller has normalised."""
    if not is_nfc and not unicodedata.is_normalized("NFC", text):
        text = nfc(text)
    script = dominant_script(text)
    if script is None:
        return Identification(None, None, "empty")
    candidates = _languages_by_script().get(script, ())
    if not candidates:
        return Identification(None, script, "script")
    if len(candidates) == 1:
        return Identification(candidates[0], script, "script")
    # Past the script and its distinctive letters, only the text's start is read: a loose
    # variant less the last line (or less asterisks after it) is identified as its response.
    marked = _marked_language(text, candidates)
    key = (script, marked, text[:_MAX_CHARS])
    found = _identified.get(key)
    if found is None:
        if len(_identified) >= _IDENTIFIED_KEPT:
            _identified.clear()
        found = _identified[key] = _identify_within(text, script, candidates, marked)
    return found


# (script, distinctive-letter language, the text's start) -> what identify says: bounded, and
# emptied with the profiles' tables when they are read again
_identified: dict[tuple[str, str | None, str], Identification] = {}
_IDENTIFIED_KEPT = 512
on_reload(_identified.clear)


def _identify_within(text: str, script: str, candidates: tuple[str, ...], marked: str | None) -> Identification:
    language, method = _within_script(text, candidates, marked)
    if method in ("cld2", "words", "ngrams", "fallback") and language in _markers():
        neighbour = _neighbour_language(_tokens(text), language, candidates)
        if neighbour is not None:
            return Identification(neighbour, script, "markers")
    return Identification(language, script, method)


def _within_script(text: str, candidates: tuple[str, ...], marked: str | None) -> tuple[str, str]:
    if marked is not None:
        overruled = _word_vote(text, candidates, [marked])  # "the plot of Cien años de soledad"
        if overruled is not None:
            return overruled, "words"
        return marked, "letters"
    ending = _ending_language(text, candidates)
    if ending is not None:
        return ending, "endings"
    ranking = _cld2_ranking(text, candidates)
    best = ranking[0] if ranking else None
    voted = _word_vote(text, candidates, ranking)
    if voted is not None:
        return voted, "words"
    if best == _CLD2_PRIOR:
        other = _ngram_language(text, candidates)
        if other is not None:
            return other, "ngrams"
    if best is not None:
        return best, "cld2"
    guessed = _ngram_guess(text, candidates)  # CLD2 named none of the candidates
    if guessed is not None:
        return guessed, "ngrams"
    return candidates[0], "fallback"


def _marked_language(text: str, candidates: tuple[str, ...]) -> str | None:
    """The one candidate whose distinctive letters (Assamese ৰ ৱ, Ukrainian і ї є ґ, ...)
    occur in the text, if exactly one does."""
    letters = _distinctive_letters()
    hits = [c for c in candidates if c in letters and any(ch in text for ch in letters[c])]
    return hits[0] if len(hits) == 1 else None




def _ending_language(text: str, candidates: tuple[str, ...]) -> str | None:
    """The candidate whose distinctive endings and words (Sanskrit -ः, -म्, -स्य, च, इति;
    Nepali -लाई, -हरू, छ, थियो) mark enough of the text's words: forms the other languages of
    the script rarely write, where a statistical model trained on little of the language
    confuses it with its neighbours. Counted over the voting words, once per distinct word;
    where several candidates qualify, the one with more than twice the others' marked words."""
    table = _distinctive_endings()
    wanted = [c for c in candidates if c in table]
    if not wanted:
        return None
    tokens = _tokens(text)
    total = tokens.total()
    counts = dict.fromkeys(wanted, 0)
    marked = _marked_by
    for word, n in tokens.items():
        codes = marked.get(word)
        if codes is None:
            codes = _mark(word, table)
        for code in codes:
            if code in counts:
                counts[code] += n
    hits = {}
    for code, n in counts.items():
        spec = table[code]
        if n >= spec.min_words and n >= spec.min_share * total:
            hits[code] = n
    if not hits:
        return None
    best = max(hits, key=hits.__getitem__)
    return best if all(n * 2 < hits[best] for code, n in hits.items() if code != best) else None


# word -> the languages whose distinctive endings or words mark it: answers repeat their words,
# so each is judged once (bounded; emptied with the profiles' tables when they are read again)
_marked_by: dict[str, tuple[str, ...]] = {}
_MARKED_LIMIT = 200_000


def _mark(word: str, table: dict) -> tuple[str, ...]:
    if len(_marked_by) >= _MARKED_LIMIT:
        _marked_by.clear()
    codes = _marked_by[word] = tuple(code for code, spec in table.items() if spec.marks(word))
    return codes


on_reload(_marked_by.clear)

_last_tokens: tuple[str, Counter[str]] | None = None


def _tokens(text: str) -> Counter[str]:
    """The voting words of the text's start, casefolded and counted (the last text's kept:
    the function words, the n-gram check and the neighbour markers all ask)."""
    global _last_tokens
    last = _last_tokens
    if last is not None and last[0] is text:
        return last[1]
    words = _voting_words(text[:_MAX_CHARS])
    # one casefold of them all (no casefolding makes a space): the same words as one by one
    tokens = Counter(" ".join(words).casefold().split(" ")) if words else Counter()
    _last_tokens = (text, tokens)
    return tokens


def _word_vote(text: str, candidates: tuple[str, ...], ranking: list[str]) -> str | None:
    """The candidate whose function words the text is made of, where CLD2 chose another (or
    none): CLD2 calls short Spanish, Italian or Danish sentences English (and Bulgarian ones
    Russian, Spanish ones Portuguese) on the strength of a few names. Words in capitals
    (SELECT, ON, BY: code and acronyms) and capitalised words inside a sentence (names) do
    not vote. It takes at least 2 such words, a fifth of the words (prose is made of them; a
    chance "na" or "wa" in a long text is not), and twice the chosen language's count plus
    one, or, against a close neighbour, twice its words that the other lacks plus one (and
    at least 2); between candidates with as many, the one with more words of its own, then
    CLD2's order, then langdetect's."""
    model_choice = ranking[0] if ranking else None
    table = _function_words()
    voters = [c for c in candidates if c in table]
    if len(voters) < 2:
        return None
    tokens = _tokens(text)
    seen = tokens.keys()
    counts = dict.fromkeys(voters, 0)
    index = _function_word_languages()
    for word in seen & index.keys():  # the text's function words, each looked up once
        n = tokens[word]
        for code in index[word]:
            if code in counts:
                counts[code] += n
    top = max(counts.values())
    chosen = counts.get(model_choice, 0) if model_choice else 0
    if top < max(2, _FUNCTION_WORD_SHARE * tokens.total()):
        return None
    leaders = [c for c in voters if counts[c] == top]
    if model_choice in leaders:
        return None
    if len(leaders) > 1:
        order = ranking + [c for c in _langdetect_ranking(text) if c not in ranking]

        def own(c: str) -> int:  # its words that none of the other leaders has
            others = frozenset().union(*(table[o] for o in leaders if o != c))
            return sum(tokens[w] for w in seen & (table[c] - others))

        leaders.sort(key=lambda c: (-own(c), order.index(c) if c in order else len(order)))
    best = leaders[0]
    if model_choice is not None and top < 2 * chosen + 1:
        # A close neighbour (Danish and Norwegian, Spanish and Portuguese): the words both
        # have cancel out, and its own words must outnumber the chosen language's.
        mine = sum(tokens[w] for w in seen & (table[best] - table.get(model_choice, frozenset())))
        theirs = sum(tokens[w] for w in seen & (table.get(model_choice, frozenset()) - table[best]))
        if mine < 2 or mine < 2 * theirs + 1:
            return None
    return best


def _marks(word: str, mine: _Markers, theirs: _Markers) -> int:
    """+1 when the word marks ``mine`` and not ``theirs``, -1 the other way, else 0. A listed
    word outranks the spelling rules: Danish *omdøbe* has the ø both write, Danish *forkert*
    the ending -ert of Norwegian, and both are Danish."""
    listed_mine, listed_theirs = word in mine.words, word in theirs.words
    if listed_mine or listed_theirs:
        return listed_mine - listed_theirs
    return mine.spelt(word) - theirs.spelt(word)


def _neighbour_language(tokens: Counter[str], chosen: str, candidates: tuple[str, ...]) -> str | None:
    """A close neighbour of the chosen language (Norwegian for Danish, Russian for Bulgarian)
    that the text's words mark as its own: CLD2 and the function words take messages that
    read almost alike for one another. A word counts for a language when it is one of its
    markers and not one of the other's (see ``_marks``); the neighbour needs at least one such
    word and more than twice the chosen language's."""
    table = _markers()
    mine = table.get(chosen)
    if mine is None:
        return None
    best, best_count = None, 0
    for other in mine.against:
        theirs = table.get(other)
        if theirs is None or other not in candidates:
            continue
        marks = [(_marks(w, mine, theirs), n) for w, n in tokens.items()]
        own = sum(n for m, n in marks if m > 0)
        their = sum(n for m, n in marks if m < 0)
        if their >= 2 * own + 1 and their > best_count:
            best, best_count = other, their
    return best


def _ngram_language(text: str, candidates: tuple[str, ...]) -> str | None:
    """Another candidate that langdetect is confident of, for a text that CLD2 calls English:
    on gettext's Italian, Dutch, Danish, ... sentences that CLD2 called English, langdetect was
    right on most and on no English sentence of six voting words or more wrong at 0.7."""
    if _tokens(text).total() < _PRIOR_CHECK_WORDS:
        return None
    sample = text[:_MAX_CHARS]
    from indicifeval.text.langdetect_fast import NoFeatures, confident_other

    try:
        lang = confident_other(sample, _CLD2_PRIOR, _PRIOR_CHECK_CONFIDENCE)
    except NoFeatures:
        return None
    lang = _langdetect_to_ours().get(lang, lang) if lang is not None else None
    return lang if lang in candidates else None


def _ngram_guess(text: str, candidates: tuple[str, ...]) -> str | None:
    """langdetect's most likely candidate, where CLD2 named none (short Bulgarian it leaves
    unknown, Czech without its accents it calls Slovenian), from three voting words on: below
    that it calls short English terms ("Pre-Base Forms", one voting word) Czech or Finnish,
    and the script's first language is the better guess."""
    if _tokens(text).total() < _GUESS_WORDS:
        return None
    return next((lang for lang in _langdetect_ranking(text) if lang in candidates), None)


def _langdetect_ranking(text: str) -> list[str]:
    """The languages langdetect ranks above its threshold for the text's start, most likely
    first; none where it finds nothing to judge."""
    from indicifeval.text.langdetect_fast import NoFeatures, get_probabilities

    try:
        ranked = get_probabilities(text[:_MAX_CHARS])
    except NoFeatures:
        return []
    ours = _langdetect_to_ours()
    return list(dict.fromkeys(ours.get(lang, lang) for lang, _ in ranked))


def _cld2_ranking(text: str, candidates: tuple[str, ...]) -> list[str]:
    """The candidates CLD2 names for the text (an NFC text, as ``identify`` has it; up to
    three), most likely first. A start of an NFC text is NFC (composition and reordering look
    only at what precedes a character); taking out a control character can bring a mark
    next to a letter, so only then is the sample normalised again."""
    import pycld2

    start = text[:_MAX_CHARS]
    sample = strip_controls(start)
    if sample is not start:
        sample = nfc(sample)
    try:
        _, _, details = pycld2.detect(sample, bestEffort=True)
    except (pycld2.error, ValueError, UnicodeError):
        return []
    mapping = _cld2_to_ours()
    ranked: list[str] = []
    for _name, code, percent, _score in details:
        ours = mapping.get(code)
        if ours in candidates and percent > 0 and ours not in ranked:
            ranked.append(ours)
    return ranked


def identify_language(text: str, is_nfc: bool = False) -> str | None:
    return identify(text, is_nfc).language


def script_candidates(text_nfc: str) -> tuple[str, ...]:
    """The languages ``identify`` chooses among for an NFC text (those of its dominant script):
    its answer is one of them, or None where there are none."""
    script = dominant_script(text_nfc)
    return () if script is None else _languages_by_script().get(script, ())

