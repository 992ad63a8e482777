"""IFBench's ratio:* instructions: stop-word share, sentence types, three equal sentences,
trigram overlap with a reference text.

English reads the answer exactly as the reference scorer does (Punkt sentences, ``\\w+``
words, NLTK's English stop words, character trigrams); an Indic answer by the profile's
sentence terminators, its words and stop words, and aksharas where the reference counts
characters. Fixed mode only; the rules are in docs/scoring.md."""

from __future__ import annotations

from functools import lru_cache

from indicifeval.checkers.ifbench.count_text import (
    aksharas,
    cached,
    ref_sentences,
    ref_words,
    sentence_kinds,
    sentences_of,
    word_keys,
)
from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text import words as wd
from indicifeval.text.normalize import match_key, match_key_of_nfc, nfc

_SUITE = "ifbench"


def _needs_stop_words(profile: LanguageProfile) -> str | None:
    if not profile.stop_words:
        return f"needs the language's stop words: the {profile.code} profile has no stop_words"
    return None


@lru_cache(maxsize=32)
def _stop_keys(stop_words: tuple[str, ...], english: bool) -> frozenset[str]:
    """English compares lower-cased \\w+ tokens (the reference); Indic ones, match keys."""
    return frozenset(w.lower() if english else match_key(w) for w in stop_words)


@checker(
    "ratio:stop_words",
    Param("percentage", "int", sample=lambda rng, p, drawn: rng.randint(1, 100)),
    category="Ratio", table_row=209, fixed_only=True, suite=_SUITE, requires=_needs_stop_words,
)
def stop_words(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        stops = _stop_keys(rules.profile.stop_words, True)
        tokens = ref_words(view)
        total, n = len(tokens), sum(1 for t in tokens if t.lower() in stops)
    else:
        stops = _stop_keys(rules.profile.stop_words, False)
        keys = word_keys(view)
        total, n = len(keys), sum(1 for k in keys if k in stops)
    limit = args["percentage"]
    if total == 0:
        return False, f"no words, needed stop words at most {limit}% of them"
    share = n / total * 100
    return share <= limit, f"{n} stop words of {total} words ({share:.1f}%), needed at most {limit}%"


def _ref_kinds(view: TextView) -> tuple[int, int, int]:
    """The reference: a Punkt sentence's type is its very last character (. ? !)."""
    sentences = ref_sentences(view)
    return (sum(1 for s in sentences if s.endswith(".")), sum(1 for s in sentences if s.endswith("?")),
            sum(1 for s in sentences if s.endswith("!")))


@checker(
    "ratio:sentence_type",
    category="Ratio", table_row=210, fixed_only=True, suite=_SUITE,
    conflicts=("ratio:sentence_balance",),
)
def sentence_type(view: TextView, args: dict, rules: Rules):
    statements, questions, _ = _ref_kinds(view) if rules.ifeval else sentence_kinds(view, rules)
    found = f"{statements} declarative and {questions} interrogative sentences"
    if not rules.ifeval and questions == 0:  # (the reference passes 0:0)
        return False, f"{found}, needed twice as many declarative as interrogative, and a question"
    return statements == 2 * questions, f"{found}, needed twice as many declarative as interrogative"


@checker(
    "ratio:sentence_balance",
    category="Ratio", table_row=211, fixed_only=True, suite=_SUITE,
)
def sentence_balance(view: TextView, args: dict, rules: Rules):
    kinds = _ref_kinds(view) if rules.ifeval else sentence_kinds(view, rules)
    found = "{} declarative, {} interrogative, {} exclamatory sentences".format(*kinds)
    if not rules.ifeval and 0 in kinds:  # (the reference passes 0:0:0)
        return False, f"{found}, needed the same number of each, at least one"
    return kinds[0] == kinds[1] == kinds[2], f"{found}, needed the same number of each"


@checker(
    "ratio:sentence_words",
    category="Ratio", table_row=212, fixed_only=True, suite=_SUITE,
)
def sentence_words(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        # the reference: three Punkt sentences of the same len(); it does not look at the words
        sentences = ref_sentences(view)
        lengths = [len(s.strip()) for s in sentences]
    else:
        sentences = sentences_of(view, rules)
        lengths = [len(aksharas(s.strip())) for s in sentences]
    if len(sentences) != 3:
        return False, f"{len(sentences)} sentences, needed 3"
    unit = "characters" if rules.ifeval else "aksharas"
    if len(set(lengths)) != 1:
        return False, f"sentences of {', '.join(map(str, lengths))} {unit}, needed the same number"
    if not rules.ifeval:
        seen: dict[str, int] = {}
        for i, sentence in enumerate(sentences):
            for key in {match_key_of_nfc(w) for w in wd.words(sentence)}:
                if seen.setdefault(key, i) != i:
                    return False, f"the word {key!r} is in sentences {seen[key] + 1} and {i + 1}, needed all different"
    return True, f"3 sentences of {lengths[0]} {unit} each"


def _trigrams(units: list[str] | str) -> set[tuple[str, ...]]:
    return set(zip(units, units[1:], units[2:]))


@checker(
    "ratio:overlap",
    Param("reference_text", "str", role="copy_of_prompt", copy_of="request"),
    Param("percentage", "int", sample=lambda rng, p, drawn: rng.randint(1, 100)),
    category="Ratio", table_row=213, fixed_only=True, suite=_SUITE,
)
def overlap(view: TextView, args: dict, rules: Rules):
    reference, wanted = args["reference_text"], args["percentage"]
    if rules.ifeval:  # the reference: trigrams of characters
        mine = cached(view, "ref-trigrams", _trigrams)
        theirs = _trigrams(reference)
    else:  # of aksharas, so a vowel sign never starts a trigram of its own
        mine = cached(view, "akshara-trigrams", lambda _text: _trigrams(aksharas(view.nfc)))
        theirs = _trigrams(aksharas(nfc(reference)))
    if not mine:
        return False, f"too short for a trigram, needed {wanted}% (±2%) of them in the reference text"
    share = len(mine & theirs) / len(mine)
    ok = wanted - 2 <= share * 100 <= wanted + 2
    return ok, f"{share * 100:.1f}% of the answer's trigrams are in the reference text, needed {wanted}% (±2%)"
