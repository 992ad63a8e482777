"""What a language profile lacks or gets wrong, as data alone can tell (``indicifeval languages
--check``): each finding one line, an error where the language cannot work as written (a
build would take its text for another language, an engine would translate into another one),
a warning where it works but less well than it could. The identification codes and the
profile's own text are checked by ``text.langid_check``, which needs the identification."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from indicifeval.languages.profile import LanguageProfile
from indicifeval.languages.scripts import script_ranges

# the engines that translate by a language code, the key each reads in "codes", and its format
ENGINE_CODES = {"sarvam": ("Sarvam (build trans --backend sarvam)", r"[a-z]{2,3}-IN"),
                "flores": ("FLORES-200 (NLLB and IndicTrans2 without their own key)", r"[a-z]{3}_[A-Z][a-z]{3}"),
                "nllb": ("NLLB (--backend seq2seq/hf)", r"[a-z]{3}_[A-Z][a-z]{3}"),
                "indictrans2": ("IndicTrans2 (--backend seq2seq/hf)", r"[a-z]{3}_[A-Z][a-z]{3}"),
                "m2m100": ("M2M100 (--backend seq2seq/hf)", r"[a-z]{2,3}")}
MIN_OWN_FUNCTION_WORDS = 5
REQUIRED = ("code", "name", "native_name", "script", "text_rules", "sentence_terminators", "abbreviations",
            "comma_chars", "quote_pairs", "constrained_responses", "language_names", "defaults", "paper",
            "instructions")
REQUIRED_DEFAULTS = ("end_phrases", "section_splitters", "postscript_markers", "keywords", "letters")
REQUIRED_PAPER = ("constrained_responses_trans", "constrained_responses_ground", "ground_first_word_strips_star",
                  "word_tokenizer", "langdetect_code")


@dataclass(frozen=True)
class ProfileFinding:
    level: str  # "error" or "warning"
    key: str  # the profile key it is about
    message: str

    def line(self) -> str:
        return f"{self.level}: {self.key}: {self.message}"


def _in_script(text: str, script: str) -> bool:
    ranges = script_ranges().get(script, ())
    return all(any(lo <= ord(ch) <= hi for lo, hi in ranges) for ch in text)


def check_schema(data: dict, stem: str | None) -> list[ProfileFinding]:
    """The keys loading needs, their types, the code against the file's name, the script."""
    out: list[ProfileFinding] = []
    for key in REQUIRED:
        if key not in data:
            out.append(ProfileFinding("error", key, "missing (copy it from the closest profile and change what "
                                                    "differs)"))
    for block, keys in (("defaults", REQUIRED_DEFAULTS), ("paper", REQUIRED_PAPER)):
        if isinstance(data.get(block), dict):
            out += [ProfileFinding("error", f"{block}.{k}", "missing") for k in keys if k not in data[block]]
        elif block in data:
            out.append(ProfileFinding("error", block, "must be an object"))
    code = data.get("code")
    if not isinstance(code, str) or not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]+)?", code or ""):
        out.append(ProfileFinding("error", "code", f"{code!r} is not a language code (ISO 639: mai, hi)"))
    elif stem is not None and stem != code:
        out.append(ProfileFinding("error", "code", f"the code is {code!r} but the file is {stem}.json: a copied "
                                                   f"profile keeps its old code; name the file {code}.json or change "
                                                   "the code"))
    script = data.get("script")
    if script not in script_ranges():
        known = ", ".join(sorted(script_ranges()))
        out.append(ProfileFinding("error", "script", f"unknown script {script!r}: scripts.json has {known} (a new "
                                                     "script needs its ranges there)"))
    return out


def check_profile(profile: LanguageProfile, others: dict[str, LanguageProfile], world: dict[str, dict],
                  instruction_ids: Collection[str] | None = None,
                  templates: Mapping[str, object] | None = None) -> list[ProfileFinding]:
    """A loaded profile against the other profiles and world.json's languages (``others`` and
    ``world`` without the profile itself): names, letters, what tells it from the languages
    of its script, answers, engine codes, instruction templates."""
    out: list[ProfileFinding] = []
    code, script = profile.code, profile.script
    names = profile.language_names
    if code not in names:
        out.append(ProfileFinding("error", "language_names", f"has no entry for {code} itself: add \"{code}\": "
                                                             f"\"{profile.native_name}\" (the language's name in "
                                                             "itself)"))
    unknown = sorted(set(names) - set(world) - set(others) - {code})
    if unknown:
        out.append(ProfileFinding("error", "language_names", f"unknown codes {', '.join(unknown)} (neither a profile "
                                                             "nor in world.json)"))
    out += _letters(profile)
    mates = {c: p for c, p in others.items() if p.script == script}
    world_mates = [c for c, info in world.items() if info.get("script") == script and c not in others]
    out += _function_words(profile, mates, {c: world[c].get("function_words", "") for c in world_mates})
    out += _copied(profile, mates)
    out += _engine_codes(profile, others)
    if len(profile.constrained_responses) != 3:
        out.append(ProfileFinding("error", "constrained_responses", f"{len(profile.constrained_responses)} phrases; "
                                                                    "three are needed (yes, no, maybe)"))
    if profile.paper and profile.constrained_responses != profile.paper.constrained_responses_ground:
        out.append(ProfileFinding("error", "paper.constrained_responses_ground", "must be the same three phrases as "
                                                                                 "constrained_responses"))
    if not profile.number_words:
        out.append(ProfileFinding("warning", "defaults.number_words", "none: the validator cannot find a number "
                                                                      "written as a word in a prompt"))
    if instruction_ids is not None:
        missing = sorted(set(instruction_ids) - set(templates or {}))
        extra = sorted(set(templates or {}) - set(instruction_ids))
        if missing or extra:
            out.append(ProfileFinding("error", "instructions.templates", f"missing {', '.join(missing) or 'none'}; "
                                                                         f"unknown {', '.join(extra) or 'none'}"))
    if (mates or world_mates) and not profile.function_words and not mates:
        out.append(ProfileFinding("warning", "function_words", f"none: inside {script} ({', '.join(world_mates)}) CLD2 "
                                                               "and the script's fallback decide"))
    return out


def _letters(profile: LanguageProfile) -> list[ProfileFinding]:
    out = []
    letters = profile.default_letters
    wanted = "Ll" if profile.script == "Latn" else "Lo"
    if not letters:
        out.append(ProfileFinding("error", "defaults.letters", "empty: the alphabet letter_frequency draws its letter "
                                                               "from"))
    elif len(set(letters)) != len(letters):
        out.append(ProfileFinding("error", "defaults.letters", "a letter is listed twice"))
    bad = [ch for ch in letters if unicodedata.category(ch) != wanted or not _in_script(ch, profile.script)]
    if bad:
        out.append(ProfileFinding("error", "defaults.letters", f"{''.join(bad)!r}: not {profile.script} letters "
                                                               f"({wanted})"))
    if profile.distinctive_letters and not (_in_script(profile.distinctive_letters, profile.script)
                                            and set(profile.distinctive_letters) <= set(letters)):
        out.append(ProfileFinding("error", "distinctive_letters", "must be letters of the script, listed in "
                                                                  "defaults.letters"))
    bad_words = [w for w in profile.default_keywords
                 if not _in_script("".join(c for c in w if unicodedata.category(c)[0] in "LM"), profile.script)]
    if bad_words:
        out.append(ProfileFinding("error", "defaults.keywords", f"not in the {profile.script} script: "
                                                                f"{', '.join(bad_words)}"))
    return out


def _function_words(profile: LanguageProfile, mates: dict[str, LanguageProfile],
                    world_words: dict[str, str]) -> list[ProfileFinding]:
    """Inside a script other languages share, the words that are the language's own: without
    them, identification takes its text for the first of them (and the build rejects it)."""
    voters = {c: set(p.function_words.split()) for c, p in mates.items() if p.function_words}
    voters.update({c: set(words.split()) for c, words in world_words.items() if words})
    mine = set(profile.function_words.split())
    out = []
    if voters:
        theirs = set().union(*voters.values())
        own = mine - theirs
        who = ", ".join(sorted(voters)) if len(voters) <= 6 else f"the {len(voters)} other languages of the script"
        if not mine:
            out.append(ProfileFinding("error", "function_words", f"none, but {who} share the {profile.script} script "
                                                                 f"and have theirs: {profile.code} text would be taken "
                                                                 f"for {sorted(voters)[0]}; list 20-40 frequent words "
                                                                 f"of {profile.name} (auxiliaries, postpositions, "
                                                                 f"pronouns, conjunctions) that {who} do not use"))
        elif len(own) < MIN_OWN_FUNCTION_WORDS:
            copied = max(voters, key=lambda c: len(mine & voters[c]))
            out.append(ProfileFinding("error", "function_words", f"only {len(own)} of its {len(mine)} words are its "
                                                                 f"own (the rest are {copied}'s): {profile.code} text "
                                                                 f"would be taken for {copied}; list frequent words "
                                                                 f"that {who} do not use"))
        elif len(own) < len(mine) / 2:
            out.append(ProfileFinding("warning", "function_words", f"{len(mine) - len(own)} of its {len(mine)} words "
                                                                   f"are also {who}'s: only its own words tell them "
                                                                   "apart"))
    if mates and not profile.stop_words:
        out.append(ProfileFinding("error", "stop_words", f"none, but {', '.join(sorted(mates))} share the "
                                                         f"{profile.script} script: the Ground keyword ranking would "
                                                         f"pick {profile.name}'s function words as keywords; list them "
                                                         "(a JSON list of words)"))
    return out


def _copied(profile: LanguageProfile, mates: dict[str, LanguageProfile]) -> list[ProfileFinding]:
    """What is word for word another profile's of the script: a copy not yet written anew."""
    out = []
    for other in mates.values():
        stops, theirs = set(profile.stop_words), set(other.stop_words)
        if stops and len(stops & theirs) >= 0.8 * len(stops):
            out.append(ProfileFinding("warning", "stop_words", f"{len(stops & theirs)} of {len(stops)} are "
                                                               f"{other.code}'s: the keyword ranking leaves out "
                                                               f"{other.name} words, not {profile.name} ones"))
        if profile.constrained_responses and profile.constrained_responses == other.constrained_responses:
            out.append(ProfileFinding("warning", "constrained_responses", f"the same as {other.code}'s: Trans prompts "
                                                                          f"and the scorer would use {other.name} "
                                                                          "answers"))
        if profile.default_end_phrases and profile.default_end_phrases == other.default_end_phrases:
            out.append(ProfileFinding("warning", "defaults.end_phrases", f"the same as {other.code}'s"))
        if _evidence(profile.distinctive_endings) and _evidence(profile.distinctive_endings) == _evidence(
                other.distinctive_endings):
            out.append(ProfileFinding("error", "distinctive_endings", f"the same as {other.code}'s: {other.name} text "
                                                                      f"would be marked as {profile.name} (give the "
                                                                      "language's own endings and words, or remove the "
                                                                      "key)"))
        mine = profile.instruction_texts.templates if profile.instruction_texts else {}
        same = sum(1 for iid, t in mine.items()
                   if other.instruction_texts and other.instruction_texts.templates.get(iid) == t)
        if mine and same >= len(mine) / 2:
            out.append(ProfileFinding("warning", "instructions.templates", f"{same} of {len(mine)} are {other.code}'s "
                                                                           "word for word: descriptions generated from "
                                                                           f"them would be in {other.name} (translate "
                                                                           "them; the builds do not use them)"))
    return out


def _evidence(spec: dict | None) -> tuple[frozenset[str], frozenset[str]] | None:
    if not spec:
        return None
    return frozenset(spec.get("endings", ())), frozenset(spec.get("words", ()))


def _engine_codes(profile: LanguageProfile, others: dict[str, LanguageProfile]) -> list[ProfileFinding]:
    out = []
    absent = []
    for key, (engine, pattern) in ENGINE_CODES.items():
        value = profile.codes.get(key)
        if not value:
            if key == "flores" or key == "m2m100" or not profile.codes.get("flores"):  # NLLB, IndicTrans2: FLORES's
                absent.append(key)
            continue
        owner = next((o for o in others.values() if o.codes.get(key) == value), None)
        if owner is not None:
            out.append(ProfileFinding("error", f"codes.{key}", f"{value!r} is {owner.code}'s code: {engine} would "
                                                               f"translate into {owner.name}; give {profile.name}'s "
                                                               "code, or remove the key if the engine does not cover "
                                                               "it"))
        elif not re.fullmatch(pattern, value):
            out.append(ProfileFinding("error", f"codes.{key}", f"{value!r} is not a {engine} code"))
        elif "_" in value and value.split("_")[1] != profile.script:
            out.append(ProfileFinding("error", f"codes.{key}", f"{value!r} names the {value.split('_')[1]} script, not "
                                                               f"{profile.script}"))
    if absent:
        out.append(ProfileFinding("warning", "codes", f"no {', '.join(absent)} code: those engines cannot translate "
                                                      f"into {profile.name} (a chat engine needs none)"))
    return out


__all__ = ["ENGINE_CODES", "ProfileFinding", "check_profile", "check_schema"]
