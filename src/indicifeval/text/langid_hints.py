"""The tables language identification reads, made from data: world.json's languages and the
profiles, each with the hints it declares (CLD2's and langdetect's codes for it, distinctive
letters and endings, function words, marker words against close neighbours). Made once, and
again whenever the profiles are read again (a profile added in $INDICIFEVAL_PROFILE_PATH)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from indicifeval.languages import script_fallbacks, world_languages
from indicifeval.languages.profile import on_reload


@cache
def _languages_by_script() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for code, info in world_languages().items():
        table.setdefault(info["script"], []).append(code)
    # The first language of a script is its fallback when CLD2 names none of them.
    preferred = script_fallbacks()
    out = {}
    for script, codes in table.items():
        codes.sort(key=lambda c: (c != preferred.get(script), c))
        out[script] = tuple(codes)
    out.setdefault("Hani", ("zh",))
    return out


def _code_list(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


@cache
def _cld2_to_ours() -> dict[str, str]:
    """CLD2's code -> ours: each language's own code unless it declares its CLD2 codes ("cld2":
    world.json's Hebrew "iw", a profile's Maithili "bh"), then the close languages CLD2 may name
    instead ("cld2_also") where no language claims them; a profile's declaration wins."""
    table: dict[str, str] = {}
    languages = world_languages()
    for code, info in sorted(languages.items(), key=lambda kv: not kv[1].get("profile")):
        for also in info.get("cld2_also", ()):
            table.setdefault(also, code)
    for code, info in sorted(languages.items(), key=lambda kv: "cld2" in kv[1] and bool(kv[1].get("profile"))):
        for cld2 in _code_list(info.get("cld2", code)):
            table[cld2] = code
    return table


@cache
def _langdetect_to_ours() -> dict[str, str]:
    """langdetect's code -> ours, where a language declares its langdetect codes; else the same."""
    return {ld: code for code, info in world_languages().items() for ld in _code_list(info.get("langdetect", ()))}


@cache
def _distinctive_letters() -> dict[str, str]:
    return {code: info["distinctive_letters"] for code, info in world_languages().items()
            if info.get("distinctive_letters")}


@dataclass(frozen=True)
class _Distinctive:
    """Endings and whole words that one language of its script writes and its neighbours
    rarely do; a text is that language when enough of its words carry them."""
    endings: tuple[str, ...]
    words: frozenset[str]
    unmarked: frozenset[str]  # words with such an ending that the neighbours write too (Hindi आपको)
    min_words: int
    min_share: float

    def marks(self, word: str) -> bool:
        """Listed, or an ending written onto a stem (the word को is Hindi; पार्कको is Nepali)."""
        if word in self.words:
            return True
        return (word.endswith(self.endings) and word not in self.unmarked
                and any(len(word) > len(e) and word.endswith(e) for e in self.endings))


@cache
def _distinctive_endings() -> dict[str, _Distinctive]:
    out = {}
    for code, info in world_languages().items():
        spec = info.get("distinctive_endings")
        if spec:
            words, unmarked = frozenset(spec.get("words", ())), frozenset(spec.get("except", ()))
            out[code] = _Distinctive(tuple(spec["endings"]), words, unmarked, int(spec["min_words"]),
                                     float(spec["min_share"]))
    return out


@cache
def _function_words() -> dict[str, frozenset[str]]:
    return {code: frozenset(info["function_words"].split()) for code, info in world_languages().items()
            if info.get("function_words")}


@cache
def _function_word_languages() -> dict[str, tuple[str, ...]]:
    """Each function word and the languages that have it (a text's words are looked up once,
    not once a language)."""
    index: dict[str, list[str]] = {}
    for code, words in _function_words().items():
        for word in words:
            index.setdefault(word, []).append(code)
    return {word: tuple(codes) for word, codes in index.items()}


@dataclass(frozen=True)
class _Markers:
    against: tuple[str, ...]
    words: frozenset[str]
    endings: tuple[str, ...]
    contains: tuple[str, ...]

    def spelt(self, word: str) -> bool:
        """Marked by an ending or a letter (a rule), rather than listed."""
        return word.endswith(self.endings) or any(c in word for c in self.contains)


@cache
def _markers() -> dict[str, _Markers]:
    out = {}
    for code, info in world_languages().items():
        spec = info.get("markers")
        if spec:
            out[code] = _Markers(tuple(spec["against"]), frozenset(spec.get("words", "").split()),
                                 tuple(spec.get("endings", "").split()), tuple(spec.get("contains", "").split()))
    return out


for _table in (_languages_by_script, _cld2_to_ours, _langdetect_to_ours, _distinctive_letters, _distinctive_endings,
               _function_words, _function_word_languages, _markers):
    on_reload(_table.cache_clear)  # a profile added or changed: the tables are made again
