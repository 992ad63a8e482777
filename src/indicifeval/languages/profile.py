"""Load the per-language JSON profiles shipped in ``profiles/``.

Adding a language means adding one JSON file: nothing in the code names a language
except English's IFEval text rules, which the profile itself selects.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from indicifeval.core.errors import IndicIFEvalError, InputError
from indicifeval.core.jsonl import where_in
from indicifeval.languages.benchmark import Composition, read_composition
from indicifeval.languages.numerals import (
    Numerals,
    Romanized,
    Units,
    numerals_from_json,
    romanized_from_json,
    single_words,
    units_from_json,
)
from indicifeval.languages.scripts import script_ranges


class UnknownLanguageError(IndicIFEvalError, KeyError):
    """Raised for a language code that has no profile."""


@dataclass(frozen=True)
class PaperQuirks:
    """Per-language facts that only the authors' scorer (``--scoring paper``) uses."""

    constrained_responses_trans: tuple[str, ...]
    constrained_responses_ground: tuple[str, ...]
    ground_first_word_strips_star: bool
    word_tokenizer: Literal["indic", "urdu", "ifeval"]
    langdetect_code: str | None


@dataclass(frozen=True)
class InstructionTexts:
    """How a prompt in this language words each instruction (``instructions`` in the JSON),
    for generating prompts: one template per instruction id, or several where optional kwargs
    may be absent; placeholders are the kwarg names (``{num_words}``). ``{relation} {n}`` is
    one unit: the relation's rendering is a pattern around the number, since "less than 5"
    is "5 से कम" in Hindi."""

    status: str  # e.g. "draft, needs native-speaker review"
    relations: dict[str, str]  # "less than" -> "{n} से कम"
    list_quote: tuple[str, str]  # around each item of a listed kwarg (keywords)
    list_separator: str
    list_last_separator: str  # before the last item: " और "
    templates: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class LanguageProfile:
    code: str
    name: str
    native_name: str
    script: str
    text_rules: Literal["indic", "ifeval"]
    sentence_terminators: tuple[str, ...]
    abbreviations: frozenset[str]
    comma_chars: tuple[str, ...]
    quote_pairs: tuple[tuple[str, str], ...]
    constrained_responses: tuple[str, ...]
    language_names: dict[str, str] = field(hash=False, compare=False)
    default_end_phrases: tuple[str, ...] = ()
    default_section_splitters: tuple[str, ...] = ()
    default_postscript_markers: tuple[str, ...] = ()
    default_keywords: tuple[str, ...] = ()
    paper: PaperQuirks | None = None
    distinctive_letters: str = ""  # letters no other language of the same script uses
    # word endings that mark the language among those of its script (Sanskrit's visarga -ः,
    # -म्, -स्य): {"endings": [...], "min_words": n, "min_share": f}, for language identification
    distinctive_endings: dict | None = field(default=None, hash=False, compare=False)
    # frequent words (space-separated) that outvote CLD2 calling a sentence of them another
    # language of the script because of a few names
    function_words: str = ""
    # Identification hints, as world.json has them (a profile's declaration wins over it):
    # the codes CLD2 gives the language's text (Maithili is CLD2's "bh"; default: its own code),
    # CLD2's codes for close languages it may name instead (read as this one unless another
    # language claims them), langdetect's codes for it, and the marker words against neighbours.
    cld2: tuple[str, ...] = field(default=(), hash=False, compare=False)
    cld2_also: tuple[str, ...] = field(default=(), hash=False, compare=False)
    langdetect: tuple[str, ...] = field(default=(), hash=False, compare=False)
    markers: dict | None = field(default=None, hash=False, compare=False)
    # words the Ground keyword ranking leaves out (postpositions, auxiliaries, pronouns,
    # conjunctions, particles in their usual forms): a keyword should be a content word
    stop_words: tuple[str, ...] = field(default=(), hash=False, compare=False)
    subsets: tuple[str, ...] | None = None  # for a language the benchmark file does not list
    # Generation side (scoring needs neither): letters to draw a letter_frequency letter from,
    # and the instruction descriptions.
    default_letters: tuple[str, ...] = ()
    # the language's code in other systems: sarvam (od-IN for Odia), flores / nllb / indictrans2 (hin_Deva), m2m100
    codes: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    # How prompts in the language write the numbers 1-10 and the ordinals first-tenth (for the
    # dataset validator: a kwarg's number must be stated in its prompt); empty when not given.
    number_words: dict[int, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)
    ordinal_words: dict[int, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)
    instruction_texts: InstructionTexts | None = field(default=None, hash=False, compare=False)
    # the instructions beyond the paper: digits and number words, unit words, romanised words
    numerals: Numerals | None = field(default=None, hash=False, compare=False)
    units: Units | None = field(default=None, hash=False, compare=False)
    romanized: Romanized | None = field(default=None, hash=False, compare=False)
    # named word lists instructions need (pronouns, conjunctions, vowels...): see word_list()
    word_lists: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)
    source: str = field(default="", hash=False, compare=False)  # the JSON file it was read from

    @property
    def is_indic(self) -> bool:
        return self.text_rules == "indic"

    def word_list(self, name: str) -> tuple[str, ...] | None:
        """The profile's word list ``name`` (``word_lists`` in its JSON), or None when it has none:
        an instruction that needs it is then not defined for the language."""
        return self.word_lists.get(name)

    def name_of(self, code: str) -> str:
        """Localised name of a language code, falling back to its English name."""
        return self.language_names.get(code) or language_name(code)


def _texts_from_json(data: dict | None) -> InstructionTexts | None:
    if data is None:
        return None
    lists = data["lists"]
    return InstructionTexts(
        status=data["status"],
        relations=dict(data["relations"]),
        list_quote=(lists["quote"][0], lists["quote"][1]),
        list_separator=lists["separator"],
        list_last_separator=lists["last_separator"],
        templates={iid: (t,) if isinstance(t, str) else tuple(t) for iid, t in data["templates"].items()},
    )


def _numbered(table: dict | None) -> dict[int, tuple[str, ...]]:
    """``{"1": ["one"], ...}`` -> ``{1: ("one",), ...}``; a key that is not a number is an error."""
    return {int(n): tuple(words) for n, words in (table or {}).items()}


def _words(value: object) -> tuple[str, ...]:
    """A list of single words (``stop_words``); anything else is a bad profile."""
    if value is None:
        return ()
    if not single_words(value):
        raise ValueError("stop_words must be a list of single words")
    return tuple(value)


def _word_list(name: str, value: object) -> tuple[str, ...]:
    """One of ``word_lists``: words or short phrases, as the language writes them."""
    if not isinstance(value, list) or not value or not all(isinstance(w, str) and w.strip() for w in value):
        raise ValueError(f"word_lists.{name} must be a non-empty list of words or phrases")
    return tuple(w.strip() for w in value)


def _codes(value: object, key: str) -> tuple[str, ...]:
    """A code or a list of codes (``"cld2": ["bh"]``); anything else is a bad profile."""
    if value is None:
        return ()
    codes = [value] if isinstance(value, str) else value
    if not isinstance(codes, list) or not all(isinstance(c, str) and c.strip() == c and c for c in codes):
        raise ValueError(f"{key} must be a code or a list of codes")
    return tuple(codes)


def _string_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and v for v in value)


def _hints(data: dict) -> None:
    """The identification hints' shapes, as language identification reads them."""
    if not isinstance(data.get("function_words", ""), str) or not isinstance(data.get("distinctive_letters", ""), str):
        raise ValueError("function_words and distinctive_letters are strings (words separated by spaces)")
    endings = data.get("distinctive_endings")
    if endings is not None and not (isinstance(endings, dict)
                                    and all(_string_list(endings.get(k, [])) for k in ("endings", "words", "except"))
                                    and (endings.get("endings") or endings.get("words"))
                                    and isinstance(endings.get("min_words"), int)
                                    and isinstance(endings.get("min_share"), (int, float))):
        raise ValueError('distinctive_endings is {"endings": [...], "words": [...], "except": [...], '
                         '"min_words": n, "min_share": f} (endings or words not empty)')
    markers = data.get("markers")
    if markers is not None and not (isinstance(markers, dict) and isinstance(markers.get("against"), list)
                                    and all(isinstance(markers.get(k, ""), str) for k in ("words", "endings",
                                                                                         "contains"))):
        raise ValueError('markers is {"against": [codes], "words": "...", "endings": "...", "contains": "..."}')


def _profile_from_json(data: dict, source: str = "") -> LanguageProfile:
    _hints(data)
    paper = data["paper"]
    defaults = data["defaults"]
    return LanguageProfile(
        code=data["code"],
        name=data["name"],
        native_name=data["native_name"],
        script=data["script"],
        text_rules=data["text_rules"],
        sentence_terminators=tuple(data["sentence_terminators"]),
        abbreviations=frozenset(data["abbreviations"]),
        comma_chars=tuple(data["comma_chars"]),
        quote_pairs=tuple((a, b) for a, b in data["quote_pairs"]),
        constrained_responses=tuple(data["constrained_responses"]),
        language_names=dict(data["language_names"]),
        default_end_phrases=tuple(defaults["end_phrases"]),
        default_section_splitters=tuple(defaults["section_splitters"]),
        default_postscript_markers=tuple(defaults["postscript_markers"]),
        default_keywords=tuple(defaults["keywords"]),
        distinctive_letters=data.get("distinctive_letters", ""),
        distinctive_endings=data.get("distinctive_endings"),
        function_words=data.get("function_words", ""),
        cld2=_codes(data.get("cld2"), "cld2"),
        cld2_also=_codes(data.get("cld2_also"), "cld2_also"),
        langdetect=_codes(data.get("langdetect"), "langdetect"),
        markers=data.get("markers"),
        stop_words=_words(data.get("stop_words")),
        subsets=tuple(data["subsets"]) if data.get("subsets") else None,
        default_letters=tuple(defaults.get("letters", "")),
        codes=dict(data.get("codes") or {}),
        number_words=_numbered(defaults.get("number_words")),
        ordinal_words=_numbered(defaults.get("ordinal_words")),
        instruction_texts=_texts_from_json(data.get("instructions")),
        numerals=numerals_from_json(data.get("numerals")),
        units=units_from_json(data.get("units")),
        romanized=romanized_from_json(data.get("romanized")),
        word_lists={name: _word_list(name, words) for name, words in (data.get("word_lists") or {}).items()
                    if not name.startswith("_")},
        source=source,
        paper=PaperQuirks(
            constrained_responses_trans=tuple(paper["constrained_responses_trans"]),
            constrained_responses_ground=tuple(paper["constrained_responses_ground"]),
            ground_first_word_strips_star=bool(paper["ground_first_word_strips_star"]),
            word_tokenizer=paper["word_tokenizer"],
            langdetect_code=paper["langdetect_code"],
        ),
    )


def _read_json(*parts: str) -> dict:
    path = resources.files("indicifeval.languages").joinpath(*parts)
    return json.loads(path.read_text(encoding="utf-8"))


PROFILE_PATH_ENV = "INDICIFEVAL_PROFILE_PATH"


def _profile_entries() -> list:
    """Where profiles are looked for: the folders (or single ``.json`` files) named in
    $INDICIFEVAL_PROFILE_PATH, in order, then the shipped profiles; the first profile found
    for a code is the one used, so a user's profile replaces a shipped one."""
    entries: list = []
    for part in os.environ.get(PROFILE_PATH_ENV, "").split(os.pathsep):
        if not part:
            continue
        path = Path(part).expanduser()
        if not path.exists():
            raise InputError(f"${PROFILE_PATH_ENV} names {part}, which does not exist (a folder of <code>.json "
                             f"profiles, or one profile file; several separated by {os.pathsep!r})", part)
        entries.append(path)
    entries.append(resources.files("indicifeval.languages").joinpath("profiles"))
    return entries


def _files_of(entry) -> list:
    if entry.is_file():
        return [entry]
    return sorted((p for p in entry.iterdir() if p.name.endswith(".json")), key=lambda p: p.name)


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    keys = [key for key, _ in pairs]
    if len(set(keys)) < len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"the key {twice!r} is given twice in one object (the first would be lost)")
    return dict(pairs)


def read_profile_file(path) -> LanguageProfile:
    """One profile file, checked as far as loading needs: JSON, the keys the scorer reads, a
    code that is its file's name, a script scripts.json knows. Bad input is one line."""
    name = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_repeated_keys)
    except UnicodeDecodeError:
        raise InputError("not UTF-8", name) from None
    except json.JSONDecodeError as exc:
        line, column = where_in(exc.doc, exc.pos)  # a file cut short: its last line, not the one after
        raise InputError(f"not a JSON profile: {exc.msg}, column {column}", name, line) from None
    except ValueError as exc:  # a key twice: the first would be lost without a word
        raise InputError(str(exc), name) from None
    if not isinstance(data, dict):
        raise InputError("a profile is a JSON object", name)
    try:
        profile = _profile_from_json(data, name)
    except KeyError as exc:
        raise InputError(f"bad language profile: the key {exc} is missing", name) from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"bad language profile: {exc}", name) from None
    stem = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
    if stem != profile.code:
        raise InputError(f"the profile's code is {profile.code!r} but its file is {path.name}: name it "
                         f"{profile.code}.json, or set \"code\" to {stem!r} (a copied profile keeps its old code)",
                         name, field="code")
    if profile.script not in script_ranges():
        raise InputError(f"unknown script {profile.script!r}: scripts.json has {', '.join(sorted(script_ranges()))}",
                         name, field="script")
    return profile


@cache
def _all_profiles() -> dict[str, LanguageProfile]:
    profiles: dict[str, LanguageProfile] = {}
    for entry in _profile_entries():
        for path in _files_of(entry):
            profile = read_profile_file(path)
            profiles.setdefault(profile.code, profile)
    shipped = _read_json("benchmark.json")["languages"]  # the shipped order first, then the rest by code
    return {c: profiles[c] for c in sorted(profiles, key=lambda c: (c not in shipped, c))}


_ON_RELOAD: list = []


def on_reload(clear) -> None:
    """Call ``clear`` (a cache's ``cache_clear``) whenever the profiles are read again: the
    tables later layers derive from the profiles (language identification's) go with them."""
    _ON_RELOAD.append(clear)


def reload_profiles() -> None:
    """Forget loaded profiles (after changing $INDICIFEVAL_PROFILE_PATH)."""
    _all_profiles.cache_clear()
    world_languages.cache_clear()
    composition.cache_clear()
    for clear in _ON_RELOAD:
        clear()


def list_languages() -> list[str]:
    """Codes of every profiled language, in the benchmark's order (benchmark.json), then the
    languages added by profile alone."""
    return list(composition().languages)


@cache
def composition() -> Composition:
    """The benchmark's composition, its languages read from these profiles when first asked for
    (its subsets alone read no profile: a bad one is reported by the command that needs it)."""
    return read_composition(_all_profiles)


def indic_codes() -> tuple[str, ...]:
    """The Indic languages, in the benchmark's order (the paper's 14, then any added)."""
    return composition().indic


def get_profile(code: str) -> LanguageProfile:
    try:
        return _all_profiles()[code]
    except KeyError:
        known = ", ".join(list_languages())
        raise UnknownLanguageError(f"unknown language {code!r}; known: {known}") from None


# what a profile may declare for language identification, as world.json does
IDENTIFICATION_HINTS = ("distinctive_letters", "distinctive_endings", "function_words", "cld2", "cld2_also",
                        "langdetect", "markers")


@cache
def world_languages() -> dict[str, dict]:
    """Every identifiable language: those in world.json, then the profiled ones, each with
    world.json's hints for it (if it has any) overlaid by the hints its profile declares;
    ``profile`` marks the profiled ones."""
    table = {k: dict(v) for k, v in _read_json("world.json").items() if not k.startswith("_")}
    for code, profile in _all_profiles().items():
        entry = table.pop(code, {})
        entry.update(name=profile.name, script=profile.script, profile=True)
        for key in IDENTIFICATION_HINTS:
            value = getattr(profile, key)
            if value:
                entry[key] = list(value) if isinstance(value, tuple) else value
        table[code] = entry
    return table


def language_name(code: str) -> str:
    entry = world_languages().get(code)
    return entry["name"] if entry else code
