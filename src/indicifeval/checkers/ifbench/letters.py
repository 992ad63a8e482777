"""What a letter, a vowel, a consonant cluster and a syllable are in a language's script, for
IFBench's words:* instructions: read from the profile's ``word_lists`` (``alphabet``, ``vowels``,
``consonants``) and from Unicode's names for the script's signs, so that no vowel sign or virama
is ever split from its consonant.

An akshara is an extended grapheme cluster (``regex``'s ``\\X``), with a consonant that a virama
joins to the next kept in one piece (क्ष, ಕ್ಷ): ``\\X`` already does so for some scripts and not
for others. Tamil's pulli is the exception: it is written visibly and a consonant under it (க்)
is a letter of its own, as Tamil counts its letters."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import regex

from indicifeval.languages import LanguageProfile

_CLUSTER = regex.compile(r"\X")
_JOINERS = "\u200c\u200d"
_ZWNJ = "\u200c"
_TAMIL = range(0x0B80, 0x0C00)


@lru_cache(maxsize=4096)
def _kind(ch: str) -> str:
    """The role of a combining sign, from its Unicode name: virama, nukta, vowel sign, addak
    (Gurmukhi's doubling sign), or "" for anything else."""
    if unicodedata.combining(ch) == 9:
        return "virama"
    name = unicodedata.name(ch, "")
    if "NUKTA" in name:
        return "nukta"
    if " VOWEL SIGN " in name or name.endswith(" AU LENGTH MARK"):
        return "sign"
    if name == "GURMUKHI ADDAK":
        return "addak"
    return ""


@lru_cache(maxsize=4096)
def _is_dead_consonant(ch: str) -> bool:
    """A consonant written without its vowel by itself: Malayalam's chillus, Bengali's khanda ta."""
    name = unicodedata.name(ch, "")
    return " CHILLU " in name or name.endswith("LETTER KHANDA TA")


@lru_cache(maxsize=4096)
def sign_letter(sign: str) -> str:
    """The independent vowel a vowel sign writes (ा -> आ), by Unicode name; the sign itself
    where the script has no such letter."""
    name = unicodedata.name(sign, "")
    for part in (" VOWEL SIGN ", " "):
        if part in name:
            try:
                return unicodedata.lookup(name.replace(part, " LETTER ", 1).replace(" AU LENGTH MARK", " LETTER AU"))
            except KeyError:
                continue
    return sign


def first_letter(word: str) -> str:
    """The letter a word starts with, a nukta or Arabic mark on it left off, so that ज़ counts as ज
    (as dictionaries order it) and Urdu's آ as ا; a letter whose decomposition is two letters (ஔ)
    stays whole."""
    if not word:
        return ""
    parts = unicodedata.normalize("NFD", word[0])
    return parts[0] if all(unicodedata.combining(ch) for ch in parts[1:]) else word[0]


def aksharas(word: str) -> list[str]:
    """The word's aksharas (for Urdu, its letters with their marks), in order."""
    out: list[str] = []
    joined = False
    for cluster in _CLUSTER.findall(word):
        if joined and out and unicodedata.category(cluster[0]) == "Lo":
            out[-1] += cluster
        else:
            out.append(cluster)
        core = cluster.rstrip(_JOINERS)
        joined = (bool(core) and _kind(core[-1]) == "virama" and ord(core[-1]) not in _TAMIL
                  and not cluster.endswith(_ZWNJ))
    return out


@dataclass(frozen=True)
class Inventory:
    """A Brahmic script's letters as one language writes it."""

    vowels: frozenset[str]
    consonants: frozenset[str]
    inherent: str  # the vowel a consonant carries when nothing follows it (अ)

    def vowel_types(self, text: str) -> set[str]:
        """The vowels written in ``text``: independent vowels, vowel signs (as their letters), and
        the inherent vowel of every consonant with neither a sign nor a virama after it."""
        found: set[str] = set()
        pending = False  # a consonant whose vowel is not known yet
        for ch in text:
            if ch in self.consonants:
                if pending:
                    found.add(self.inherent)
                pending = not _is_dead_consonant(ch)
                continue
            if ch in self.vowels:
                found.add(ch)
            elif ch in _JOINERS:
                continue
            else:
                kind = _kind(ch)
                if kind == "nukta":
                    continue
                if kind == "sign":
                    found.add(sign_letter(ch))
                elif pending and kind != "virama":
                    found.add(self.inherent)
            pending = False
        if pending:
            found.add(self.inherent)
        return found

    def syllables(self, word: str) -> int:
        """Orthographic syllables: independent vowels, and consonants that carry a vowel (their own
        or the inherent one); a consonant under a virama and a chillu carry none (जगत् has two)."""
        count = 0
        live = False  # the last consonant seen still carries a vowel unless a virama follows
        for ch in word:
            if ch in self.consonants:
                count += live
                live = not _is_dead_consonant(ch)
            elif ch in self.vowels:
                count += live + 1
                live = False
            elif ch in _JOINERS or _kind(ch) == "nukta":
                continue
            else:
                count += live and _kind(ch) != "virama"
                live = False
        return count + live

    def has_cluster(self, word: str) -> bool:
        """Two consonants together: a conjunct (a consonant, a virama, another consonant: क्ष, க்க),
        a chillu or khanda ta before a consonant (ൽക, ৎস), or Gurmukhi's addak doubling one (ੱਕ)."""
        state = ""  # "consonant", "killed" (under a virama, a chillu, after an addak), or ""
        for ch in word:
            if ch in self.consonants:
                if state == "killed":
                    return True
                state = "killed" if _is_dead_consonant(ch) else "consonant"
                continue
            if ch in _JOINERS:
                continue
            kind = _kind(ch)
            if kind == "nukta":
                continue
            state = "killed" if (kind == "virama" and state == "consonant") or kind == "addak" else ""
        return False


@lru_cache(maxsize=32)
def _inventory(vowels: tuple[str, ...], consonants: tuple[str, ...]) -> Inventory:
    return Inventory(frozenset(vowels), frozenset(consonants), vowels[0])


def inventory(profile: LanguageProfile) -> Inventory | None:
    """The profile's vowels and consonants, or None where it lists none."""
    vowels, consonants = profile.word_list("vowels"), profile.word_list("consonants")
    if not vowels or not consonants:
        return None
    return _inventory(vowels, consonants)


@lru_cache(maxsize=32)
def _alphabet(entries: tuple[str, ...]) -> tuple[dict[str, int], tuple[str, ...]]:
    index: dict[str, int] = {}
    for i, entry in enumerate(entries):
        for form in entry.split():
            index.setdefault(first_letter(form), i)
    return index, tuple(entry.split()[0] for entry in entries)


def alphabet(profile: LanguageProfile) -> tuple[dict[str, int], tuple[str, ...]] | None:
    """(first letter -> its place, the letters in order) from ``word_lists.alphabet``, whose
    entries are a letter and the forms that count as it ("ੳ ਉ ਊ ਓ"); None where there is none."""
    entries = profile.word_list("alphabet")
    return _alphabet(entries) if entries else None
