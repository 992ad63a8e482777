"""IFBench's words:* instructions about the letters of words: alphabet order, first letters,
vowels, consonant clusters, palindromes, word lengths, syllables. English is scored as the
reference scores it (``words_english``); an Indic answer by its profile's words, counting
aksharas (``letters``), with the script's letters from the profile's ``word_lists``."""

from __future__ import annotations

from collections.abc import Callable

from indicifeval.checkers.ifbench import letters as lt
from indicifeval.checkers.ifbench import words_english as en
from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.languages import LanguageProfile
from indicifeval.text.normalize import match_key_of_nfc
from indicifeval.text.words import words as split_words

_NO_WORDS = (False, "no words")


def words_checker(instruction_id: str, *params: Param, table_row: int, conflicts: tuple[str, ...] = (),
                   requires: Callable[[LanguageProfile], str | None] | None = None):
    """``@checker`` for one of IFBench's words:* ids (category Words, fixed mode only)."""
    return checker(instruction_id, *params, category="Words", table_row=table_row, conflicts=conflicts,
                   fixed_only=True, requires=requires, suite="ifbench")


def _q(word: str, size: int = 30) -> str:
    return repr(word if len(word) <= size else word[:size] + "…")


def _words(view: TextView) -> list[str]:
    return split_words(view.nfc)


def _needs_alphabet(profile: LanguageProfile) -> str | None:
    if profile.is_indic and lt.alphabet(profile) is None:
        return f"words:alphabet needs the {profile.code} profile's alphabet in order (word_lists.alphabet)"
    return None


def _unwritten_vowels(what: str):
    """The letters an instruction needs; Urdu's script writes short vowels only as optional
    diacritics, and its long-vowel letters are consonants too, so it has none to count."""
    def requires(profile: LanguageProfile) -> str | None:
        if not profile.is_indic or lt.inventory(profile) is not None:
            return None
        if profile.script == "Arab":
            return (f"{what} is not defined for {profile.name}: its script leaves short vowels unwritten and "
                    f"writes long ones with letters that are also consonants (ا و ی)")
        return f"{what} needs the {profile.code} profile's vowels and consonants (word_lists.vowels, .consonants)"
    return requires


@words_checker("words:alphabet", table_row=220, conflicts=("words:last_first", "words:no_consecutive"),
               requires=_needs_alphabet)
def alphabet(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.alphabet(view.text)
    table = lt.alphabet(rules.profile)
    assert table is not None
    index, order = table
    words = _words(view)
    if not words:
        return _NO_WORDS
    place = index.get(lt.first_letter(words[0]))
    if place is None:
        return False, f"the first word {_q(words[0])} does not start with a letter of the alphabet"
    for i, word in enumerate(words[1:], 2):
        place = (place + 1) % len(order)
        if index.get(lt.first_letter(word)) != place:
            return False, f"word {i} {_q(word)} does not start with {order[place]!r}"
    return True, f"{len(words)} words, each starting with the next letter ({order[place]!r} last)"


@words_checker("words:vowel", table_row=221, requires=_unwritten_vowels("words:vowel"))
def vowel(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.vowel(view.text)
    inventory = lt.inventory(rules.profile)
    assert inventory is not None
    paragraphs = len(view.paragraphs)
    if paragraphs != 1:
        return False, f"{paragraphs} paragraphs, needed one"
    found = sorted(inventory.vowel_types(view.nfc))
    if not found:
        return False, f"no {rules.profile.name} vowel"
    return len(found) <= 3, f"{len(found)} vowels ({' '.join(found)}), needed at most 3"


@words_checker("words:consonants", table_row=222, requires=_unwritten_vowels("words:consonants"))
def consonants(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.consonants(view.text)
    inventory = lt.inventory(rules.profile)
    assert inventory is not None
    words = _words(view)
    if not words:
        return _NO_WORDS
    for word in words:
        if not inventory.has_cluster(word):
            return False, f"{_q(word)} has no consonant cluster (conjunct)"
    return True, f"all {len(words)} words have a consonant cluster"


@words_checker("words:palindrome", table_row=223)
def palindrome(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.palindrome(view.text)
    found = []
    for word in _words(view):
        parts = lt.aksharas(match_key_of_nfc(word))
        if len(parts) >= 5 and parts == parts[::-1]:
            found.append(word)
    shown = ", ".join(dict.fromkeys(found[:20]))
    return len(found) >= 10, f"{len(found)} palindromes of 5+ aksharas ({shown or 'none'}), needed at least 10"


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


@words_checker("words:prime_lengths", table_row=224)
def prime_lengths(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.prime_lengths(view.text)
    words = _words(view)
    if not words:
        return _NO_WORDS
    sizes: dict[str, int] = {}
    for word in words:
        size = sizes.get(word)
        if size is None:
            size = sizes[word] = len(lt.aksharas(word))
        if not _is_prime(size):
            return False, f"{_q(word)} has {size} aksharas, not a prime number"
    return True, f"all {len(words)} words have a prime number of aksharas"


@words_checker("words:odd_even_syllables", table_row=227,
               requires=_unwritten_vowels("words:odd_even_syllables"))
def odd_even_syllables(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.odd_even_syllables(view.text)
    inventory = lt.inventory(rules.profile)
    assert inventory is not None
    words = _words(view)
    if not words:
        return _NO_WORDS
    previous = -1
    for i, word in enumerate(words, 1):
        parity = inventory.syllables(word) % 2
        if parity == previous:
            kind = "odd" if parity else "even"
            return False, f"words {i - 1} and {i} ({_q(words[i - 2])}, {_q(word)}) both have {kind} syllables"
        previous = parity
    return True, f"{len(words)} words alternating odd and even syllables"


@words_checker("words:no_consecutive", table_row=230, conflicts=("words:last_first",))
def no_consecutive(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return en.no_consecutive(view.text)
    words = _words(view)
    if not words:
        return _NO_WORDS
    firsts = [lt.first_letter(match_key_of_nfc(w)) for w in words]
    for i in range(len(words) - 1):
        if firsts[i] == firsts[i + 1]:
            return False, f"words {i + 1} and {i + 2} ({_q(words[i])}, {_q(words[i + 1])}) both start with " \
                          f"{firsts[i]!r}"
    return True, f"{len(words)} words, no two in a row with the same first letter"
