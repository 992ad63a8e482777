"""Indic text in Latin letters, as people type it: the training text of the romanised-language
model (text.romanized_build). Brahmi-derived scripts only (Urdu's Arabic script writes too few
vowels to be spelled out).

Every letter's Latin value comes from its Unicode name ("KANNADA LETTER KHA" is kh + the inherent
a, "BENGALI VOWEL SIGN II" is ii), so one table serves every script. Three schemes:

- ``itrans``: long vowels doubled (aa ii uu), every inherent vowel written, anusvara m;
- ``iast``: IAST or ISO 15919 with the diacritics dropped (a i u for long vowels too, c for ca);
- ``informal``: chat spelling, each choice made per word by a stable hash of the word, so the same
  text always gives the same Latin: long vowels as aa/a, ee/i, oo/u; th/dh for Dravidian dentals;
  sh or s for the sibilants; v or w; z or j; f or ph; the inherent vowel dropped at the end of a word
  and between consonants in the languages that drop it; the language's own habits, from its
  profile's ``romanized.spellings`` (Bengali and Assamese o, Assamese x and s, Tamil's nd and mb),
  and Tamil's voiced k/t/p between vowels and Malayalam's final u, here.
"""

from __future__ import annotations

import unicodedata
import zlib
from functools import cache

from indicifeval.languages import get_profile, list_languages
from indicifeval.languages.profile import on_reload

SCHEMES = ("itrans", "iast", "informal")
BLOCKS = {"Deva": 0x900, "Beng": 0x980, "Guru": 0xA00, "Gujr": 0xA80, "Orya": 0xB00, "Taml": 0xB80,
          "Telu": 0xC00, "Knda": 0xC80, "Mlym": 0xD00}
# consonant (name without its final A) -> (itrans, iast, informal choices)
_CONSONANTS = {
    "K": ("k", "k", "k"), "KH": ("kh", "kh", "kh"), "G": ("g", "g", "g"), "GH": ("gh", "gh", "gh"),
    "NG": ("ng", "n", "n ng"), "C": ("ch", "c", "ch ch c"), "CH": ("chh", "ch", "chh ch"), "J": ("j", "j", "j"),
    "JH": ("jh", "jh", "jh"), "NY": ("ny", "n", "n ny"), "TT": ("t", "t", "t"), "TTH": ("th", "th", "th"),
    "DD": ("d", "d", "d"), "DDH": ("dh", "dh", "dh"), "NN": ("n", "n", "n"), "T": ("t", "t", "t"),
    "TH": ("th", "th", "th"), "D": ("d", "d", "d"), "DH": ("dh", "dh", "dh"), "N": ("n", "n", "n"),
    "NNN": ("n", "n", "n"), "P": ("p", "p", "p"), "PH": ("ph", "ph", "ph f"), "B": ("b", "b", "b"),
    "BH": ("bh", "bh", "bh"), "M": ("m", "m", "m"), "Y": ("y", "y", "y"), "YY": ("y", "y", "y"), "R": ("r", "r", "r"),
    "RR": ("r", "r", "r"), "L": ("l", "l", "l"), "LL": ("l", "l", "l"), "LLL": ("zh", "l", "zh l"),
    "V": ("v", "v", "v w"), "W": ("w", "v", "w v"), "SH": ("sh", "s", "sh s"), "SS": ("sh", "s", "sh s"),
    "S": ("s", "s", "s"), "H": ("h", "h", "h"), "Q": ("q", "q", "k q"), "KHH": ("kh", "kh", "kh"),
    "GHH": ("gh", "gh", "g gh"), "Z": ("z", "z", "z j"), "DDDH": ("r", "r", "r"), "RH": ("rh", "rh", "rh r"),
    "F": ("f", "f", "f ph"), "KHANDA T": ("t", "t", "t"), "R WITH MIDDLE DIAGONAL": ("r", "r", "r"),
    # Assamese wa: ITRANS has no letter for it (indic-nlp leaves it out; written as ba, the letter of the
    # same shape without the stroke), and it is said and typed b in many words (kebol, byabohar), w in others
    "R WITH LOWER DIAGONAL": ("b v", "v", "w b"),
}
_NUKTA = {"K": "Q", "KH": "KHH", "G": "GHH", "J": "Z", "DD": "DDDH", "DDH": "RH", "PH": "F", "Y": "YY"}
# vowel name -> (itrans, iast, informal choices)
_VOWELS = {
    "A": ("a", "a", "a"), "AA": ("aa", "a", "aa a"), "I": ("i", "i", "i"), "II": ("ii", "i", "ee i"),
    "U": ("u", "u", "u"), "UU": ("uu", "u", "oo u"), "VOCALIC R": ("ri", "r", "ri ru"), "VOCALIC RR": ("ri", "r", "ri"),
    "VOCALIC L": ("li", "l", "li"), "VOCALIC LL": ("li", "l", "li"), "E": ("e", "e", "e"), "EE": ("e", "e", "e e ee"),
    "SHORT E": ("e", "e", "e"), "CANDRA E": ("e", "e", "e"), "AI": ("ai", "ai", "ai"), "O": ("o", "o", "o"),
    "OO": ("o", "o", "o o oo"), "SHORT O": ("o", "o", "o"), "CANDRA O": ("o", "o", "o"), "AU": ("au", "au", "au ow"),
    "CANDRA A": ("a", "a", "a"),
}
_SIGNS = {"ANUSVARA": ("m", "m", "n m"), "CANDRABINDU": ("n", "m", "n"), "VISARGA": ("h", "h", "h "),
          "TIPPI": ("m", "n", "n"), "BINDI": ("m", "n", "n"), "AVAGRAHA": ("", "", "")}
SCHWA_DROPPING = frozenset({"as", "bn", "gu", "hi", "mr", "ne", "pa", "ur"})
DRAVIDIAN = frozenset({"kn", "ml", "ta", "te"})
_LABIALS = frozenset({"P", "PH", "B", "BH", "M"})
_FINAL_M = DRAVIDIAN | {"sa"}
_TAMIL_SOFT = {"k": "g h", "t": "d", "p": "b v", "ch": "s"}  # Tamil k, t, p, c between vowels (one letter each)


@cache
def _letter(ch: str) -> tuple[str, str] | None:
    """(kind, value name) for an Indic character: C consonant, V vowel, M vowel sign, X virama,
    N nukta, S other sign, D addak; None for anything else."""
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return None
    script, _, rest = name.partition(" ")
    if script not in {"DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA",
                      "MALAYALAM"}:
        return None
    if rest.startswith("VOWEL SIGN "):
        return ("M", rest[11:]) if rest[11:] in _VOWELS else None
    if rest.startswith("LETTER CHILLU "):
        return "K", rest[14:]  # a consonant with no vowel (Malayalam)
    if rest.startswith("LETTER ") or rest.startswith("VOWEL "):
        value = rest.partition(" ")[2]
        if value.startswith("RA WITH "):  # Assamese ra and wa
            value = "R" + value[2:]
        if value in _VOWELS:
            return "V", value
        if value.endswith("A") and value[:-1] in _CONSONANTS:
            return "C", value[:-1]
        if value in _CONSONANTS:
            return "C", value
        return ("V", value[:-1]) if script == "GURMUKHI" and value in {"URA", "AIRA"} else None
    if rest in {"SIGN VIRAMA", "SIGN CIRCULAR VIRAMA", "SIGN VERTICAL BAR VIRAMA"}:
        return "X", ""
    if rest == "SIGN NUKTA":
        return "N", ""
    if rest == "ADDAK":
        return "D", ""
    sign = rest.removeprefix("SIGN ")
    return ("S", sign) if sign in _SIGNS else None


@cache
def _habits(language: str) -> dict[str, str]:
    """The language's informal spellings beyond the common ones: letter name -> choices; "@" the
    inherent vowel (its profile's ``romanized.spellings``)."""
    if language not in list_languages():
        return {}
    romanized = get_profile(language).romanized
    return romanized.spellings if romanized is not None else {}


on_reload(_habits.cache_clear)


def _pick(choices: str, word: str, slot: int, scheme_seed: int) -> str:
    options = choices.split(" ")
    if len(options) == 1:
        return options[0]
    return options[zlib.crc32(f"{scheme_seed}:{slot}:{word}".encode()) % len(options)]


def _syllables(word: str) -> list[list]:
    """[consonant names, vowel name or None (inherent) or '' (virama) or '!' (chillu), signs] per syllable."""
    out: list[list] = []
    cluster: list[str] = []
    double = False
    for ch in word:
        kind = _letter(ch)
        if kind is None:
            continue
        what, value = kind
        if what == "C":
            if double:  # addak: the consonant doubled (its first letter only, as people type it)
                cluster.append(value[:1] if value[:1] in _CONSONANTS else value)
                double = False
            cluster.append(value)
            out.append([cluster, None, []])
            cluster = []
        elif what == "K":
            out.append([[value], "!", []])  # "!": no vowel, and none heard
        elif what == "V":
            out.append([[], value, []])
        elif not out:
            if what == "D":
                double = True
            continue
        elif what == "M":
            out[-1][1] = value
        elif what == "X":  # the consonant joins the next syllable's cluster
            last = out.pop()
            cluster = last[0] + cluster
            if last[2]:
                out.append([[], "", last[2]])
        elif what == "N" and out[-1][0]:
            base = out[-1][0][-1]
            out[-1][0][-1] = _NUKTA.get(base, base)
        elif what == "D":
            double = True
        elif what == "S":
            out[-1][2].append(value)
    if cluster:
        out.append([cluster, "", []])
    return out


def _drop_schwa(syllables: list[list], language: str) -> list[bool]:
    """Which inherent vowels people leave out: the last one in a word of two or more syllables, and
    one between a syllable with a vowel and a consonant with one (Hindi ``samajhte``, ``karna``)."""
    dropped = [False] * len(syllables)
    if language not in SCHWA_DROPPING:
        return dropped
    for i in range(len(syllables) - 1, 0, -1):
        cons, vowel, signs = syllables[i]
        if vowel is not None or not cons or signs:
            continue
        final = i == len(syllables) - 1
        if final or (syllables[i + 1][1] != "" and not dropped[i + 1] and not syllables[i - 1][2]):
            dropped[i] = True
    return dropped


def romanize_word(word: str, language: str, scheme: str, seed: int = 0) -> str:
    column = SCHEMES.index(scheme)
    syllables = _syllables(word)
    habits = _habits(language) if scheme == "informal" else {}
    dropped = _drop_schwa(syllables, language) if scheme == "informal" else [False] * len(syllables)
    out: list[str] = []
    for i, (cons, vowel, signs) in enumerate(syllables):
        key = " ".join(cons)
        latin = ""
        if key in habits:
            latin = _pick(habits[key], word, i, seed)
        else:
            for j, c in enumerate(cons):
                choices = habits.get(c) or _CONSONANTS[c][column]
                part = _pick(choices, word, 10 * i + j, seed)
                if (language == "ta" and scheme == "informal" and part in _TAMIL_SOFT and len(cons) == 1 and i > 0
                        and syllables[i - 1][1] != ""):
                    part = _pick(_TAMIL_SOFT[part], word, 10 * i + j + 5, seed)
                latin += part
        if vowel is None:
            if not dropped[i]:
                latin += _pick(habits["@"], word, 100 + i, seed) if "@" in habits else "a"
        elif vowel and vowel != "!":
            latin += _pick(_VOWELS[vowel][column], word, 100 + i, seed)
        elif language == "ml" and scheme == "informal" and i == len(syllables) - 1 and cons:
            latin += _pick("u u u ", word, 100 + i, seed)  # a final virama is a short u in Malayalam
        for sign in signs:
            if sign == "ANUSVARA" and scheme == "informal":  # the nasal of the next consonant's place
                after = syllables[i + 1][0][:1] if i + 1 < len(syllables) else []
                latin += "m" if (after and after[0] in _LABIALS) or (not after and language in _FINAL_M) else "n"
            else:
                latin += _pick(_SIGNS[sign][column], word, 200 + i, seed)
        out.append(latin)
    return "".join(out)


def romanize(text: str, language: str, scheme: str, seed: int = 0) -> str:
    """The text's Indic words in Latin letters (lower case); words in other scripts are left out."""
    words = unicodedata.normalize("NFC", text).split()
    latin = (romanize_word(w, language, scheme, seed) for w in words)
    return " ".join(w for w in latin if w)


__all__ = ["BLOCKS", "SCHEMES", "romanize", "romanize_word"]
