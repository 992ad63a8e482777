"""What IFBench's custom:* and sentence:* checkers share: a response's sentences and words as
its language defines them, aksharas, first letters, a language's dictionary order, and the
word lists a language must have for an instruction to be defined in it.

English keeps the reference's own segmentation (NLTK Punkt, whitespace words), so that its
verdicts match IFBench's; every other language segments by its profile (docs/scoring.md)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

import regex

from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.punkt_en import sent_tokenize_en
from indicifeval.text.sentences import split_sentences

CUSTOM = "Custom"
SENTENCE = "Sentence"
SUITE = "ifbench"

_GRAPHEME = regex.compile(r"\X")
# after a virama that joins the next consonant: where a conjunct may be read as its consonants
_VIRAMA_SPLIT = regex.compile(r"(?<=[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d4d])(?=\p{L})")
# Arabic-script vowel marks (harakat, superscript alef): not letters, ignored by dictionary order
_HARAKAT = regex.compile(r"[\u064b-\u065f\u0670]")
_ARABIC = regex.compile(r"[\u0600-\u06ff]")
# The Arabic letter forms an Urdu text may carry instead of Urdu's own (kaf, yeh, heh)
_URDU_FORMS = str.maketrans({"\u0643": "\u06a9", "\u064a": "\u06cc", "\u0647": "\u06c1"})


def requires_lists(instruction_id: str, *names: str) -> Callable[[LanguageProfile], str | None]:
    """``requires=``: English follows the reference and needs nothing; another language needs
    these profile word lists (an instruction that has no data in a language is not defined there)."""

    def why(profile: LanguageProfile) -> str | None:
        if not profile.is_indic:
            return None
        missing = [n for n in names if not profile.word_list(n)]
        if not missing:
            return None
        return (f"{instruction_id} is not defined for {profile.code}: its profile has no "
                f"{', '.join('word_lists.' + n for n in missing)}")

    return why


def word_list(rules: Rules, name: str) -> tuple[str, ...]:
    """A list ``requires_lists`` has made sure of (an empty tuple if it is missing after all)."""
    return rules.profile.word_list(name) or ()


def sentences(view: TextView, rules: Rules) -> list[str]:
    """The response's sentences, computed once per text: Punkt's in English (as IFBench's
    ``split_into_sentences``), the profile's splitter elsewhere (dandas, blank lines, list items)."""
    cache = view._cache  # (TextView keeps per-text facts there; the key is ours alone)
    found = cache.get("ifbench_sentences")
    if found is None:
        if rules.ifeval:
            found = sent_tokenize_en(view.text)
        else:
            profile = rules.profile
            found = split_sentences(view.nfc, profile.sentence_terminators, profile.abbreviations)
        cache["ifbench_sentences"] = found
    return found


def aksharas(text: str) -> list[str]:
    """Extended grapheme clusters: a consonant with its vowel signs, a conjunct with its viramas."""
    return _GRAPHEME.findall(text)


def reversed_by_letter(text: str) -> set[str]:
    """``text`` written backwards letter by letter, where a letter is an akshara (never a vowel
    sign or virama apart from its consonant). A conjunct may be kept whole (ल्ड) or read as its
    consonants (ल् and ड), so both spellings are given."""
    whole = "".join(reversed(aksharas(text)))
    split = "".join(reversed([piece for a in aksharas(text) for piece in _VIRAMA_SPLIT.split(a)]))
    return {whole, split}


def base_letter(word: str) -> str:
    """The letter a word begins with, without the marks on it: क for कमल, का and क्या; ज for
    ज़मीन; ا for آج; e for été. A letter whose second half is a spacing vowel sign stays whole
    (Tamil ஓ is not ஒ, ஔ not ஓ). Case-folded, so a Latin word's initial compares case-blind."""
    for ch in unicodedata.normalize("NFC", word[:8]):
        if ch.isalpha():
            parts = unicodedata.normalize("NFD", ch)
            if len(parts) > 1 and all(unicodedata.category(c) == "Mn" for c in parts[1:]):
                ch = parts[0]
            return ch.casefold().translate(_URDU_FORMS)
        if ch.isdigit():
            return ch
    return ""


@lru_cache(maxsize=32)
def _letter_ranks(order: tuple[str, ...]) -> dict[str, float]:
    """Letters of a dictionary order, placed where the script's letters begin: after the signs
    that sort before every letter (anusvara, candrabindu, visarga) and before vowel signs and
    viramas (so कक < का < क्य, as dictionaries have it), in the listed order."""
    letters = [ch for ch in order if len(ch) == 1]
    if not letters:
        return {}
    base = (ord(letters[0]) & ~0x7F) + 4
    return {ch: base + i / 100 for i, ch in enumerate(letters)}


def as_urdu(text: str) -> str:
    """Arabic-script text with its vowel marks dropped (آ read as ا) and Arabic kaf, yeh and heh
    read as Urdu's; any other text as it is."""
    if not _ARABIC.search(text):
        return text
    return _HARAKAT.sub("", unicodedata.normalize("NFD", text)).translate(_URDU_FORMS)


def collation_key(text: str, order: tuple[str, ...]) -> list[float]:
    """A line's key in its language's dictionary order: each listed letter by its place in
    ``order``, everything else by code point. Composed (NFC), so that a two-part vowel sign
    sorts as one (Tamil கொ after கே, Bengali কো after কৈ); Arabic script as ``as_urdu`` reads it."""
    ranks = _letter_ranks(order)
    text = as_urdu(unicodedata.normalize("NFC", text).casefold())
    return [ranks.get(ch, float(ord(ch))) for ch in text]
