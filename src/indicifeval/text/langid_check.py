"""Whether the language identification can find a profiled language (``indicifeval languages
--check``): the CLD2 and langdetect codes it declares or lacks, the profile's own sentences
identified, and, given a sample of the language's text, how much of it is identified as the
language. The profile must be loaded (on $INDICIFEVAL_PROFILE_PATH) so that it is a candidate."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import regex

from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import json_error
from indicifeval.languages import LanguageProfile, language_name, script_fallbacks
from indicifeval.languages.check import ProfileFinding
from indicifeval.text.langid import identify
from indicifeval.text.langid_hints import _cld2_to_ours, _languages_by_script

_PLACEHOLDER = regex.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")  # {num_words}, {N}, {keyword1}
SAMPLE_ERROR_SHARE, SAMPLE_WARNING_SHARE = 0.5, 0.9


@cache
def cld2_codes() -> frozenset[str]:
    import pycld2

    return frozenset(code for _, code in pycld2.LANGUAGES)


def _langdetect_knows(code: str) -> bool:
    from indicifeval.text.langdetect_fast import knows

    return knows(code)


def check_identification(profile: LanguageProfile, world: dict[str, dict]) -> list[ProfileFinding]:
    """The identification codes, and what identification falls back to without them."""
    out: list[ProfileFinding] = []
    code, script = profile.code, profile.script
    mates = [c for c in _languages_by_script().get(script, ()) if c != code]
    for declared in profile.cld2:
        if declared not in cld2_codes():
            out.append(ProfileFinding("error", "cld2", f"{declared!r} is not a CLD2 code (pycld2.LANGUAGES lists "
                                                       "them)"))
            continue
        winner = _cld2_to_ours().get(declared)
        if winner not in (None, code):
            out.append(ProfileFinding("warning", "cld2", f"{declared!r} is claimed by {winner} too; CLD2's {declared} "
                                                         f"is read as {winner}"))
    for declared in profile.langdetect:
        if not _langdetect_knows(declared):
            out.append(ProfileFinding("error", "langdetect", f"{declared!r} is not one of langdetect's languages"))
        elif declared != code and declared in world:
            out.append(ProfileFinding("error", "langdetect", f"{declared!r} is {language_name(declared)}'s own code: "
                                                             f"its text would be read as {code}"))
    if not mates:
        return out  # the only language of its script: the script decides
    fallback = script_fallbacks().get(script) or sorted(mates)[0]
    if not profile.cld2 and code not in cld2_codes():
        out.append(ProfileFinding("warning", "cld2", f"CLD2 has no code {code!r}: declare the code CLD2 gives "
                                                     f"{profile.name} text (\"cld2\": [\"bh\"] for Maithili; `python "
                                                     "-c \"import pycld2; print(pycld2.detect(TEXT))\"`), else inside "
                                                     f"{script} only its function words tell it from "
                                                     f"{', '.join(mates)}, and text without them falls back to "
                                                     f"{fallback}"))
    if not profile.langdetect and not _langdetect_knows(code):
        out.append(ProfileFinding("warning", "langdetect", f"langdetect has no profile for {code}: where CLD2 and the "
                                                           "function words do not decide, its n-grams choose among "
                                                           f"{', '.join(mates)} only"))
    return out


def own_texts(profile: LanguageProfile) -> list[str]:
    """The profile's own sentences: its answers, end phrases, instruction templates (without
    their placeholders and examples in Latin letters)."""
    texts = list(profile.constrained_responses) + list(profile.default_end_phrases)
    if profile.instruction_texts:
        for variants in profile.instruction_texts.templates.values():
            texts += [_PLACEHOLDER.sub(" ", t) for t in variants]
    return texts


# Word lists that are no vocabulary of the language: its pleasantries (the reward's implicit
# constraints read them), which the models trained on the profile's words leave out
NOT_VOCABULARY = frozenset({"boilerplate"})


def list_words(profile: LanguageProfile) -> list[str]:
    """The words and phrases of the profile's word lists that are its vocabulary."""
    return [w for name, ws in profile.word_lists.items() if name not in NOT_VOCABULARY for w in ws]


def check_own_texts(profile: LanguageProfile) -> list[ProfileFinding]:
    texts = own_texts(profile)
    found = Counter(identify(t).language for t in texts)
    other = [(n, c) for c, n in found.items() if c not in (profile.code, None)]
    if other and max(other)[0] > found.get(profile.code, 0):
        n, c = max(other)
        return [ProfileFinding("warning", "profile text", f"{n} of the profile's {len(texts)} own sentences (answers, "
                                                          f"end phrases, templates) read as {language_name(c)}, "
                                                          f"{found.get(profile.code, 0)} as {profile.name}: are they "
                                                          f"written in {profile.name}?")]
    return []


def sample_texts(path: Path) -> list[str]:
    """Documents of a sample: JSONL objects' ``text`` (a corpus), else blank-line paragraphs."""
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError("not UTF-8", str(path)) from None
    lines = [(number, ln) for number, ln in enumerate(raw.split("\n"), start=1) if ln.strip()]
    if lines and lines[0][1].lstrip().startswith("{"):
        texts = []
        for number, line in lines:  # the file's own line numbers, blank lines counted
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(json_error(exc, line), str(path), number) from None
            if isinstance(record, dict) and isinstance(record.get("text"), str) and record["text"].strip():
                texts.append(record["text"])
        return texts
    return [p.strip() for p in regex.split(r"\n\s*\n", raw) if p.strip()]


def check_sample(profile: LanguageProfile, path: Path) -> tuple[list[ProfileFinding], str]:
    """(findings, one line of what was measured) for a sample of the language's text."""
    texts = sample_texts(path)
    if not texts:
        raise InputError("no text in the sample (JSONL with a 'text' field, or paragraphs)", str(path))
    found = Counter(identify(t).language for t in texts)
    mine = found.get(profile.code, 0)
    rest = ", ".join(f"{n} as {c}" for c, n in found.most_common() if c != profile.code)
    line = f"sample: {mine} of {len(texts)} texts ({mine / len(texts):.0%}) identified as {profile.code}" + \
        (f"; {rest}" if rest else "")
    if mine < SAMPLE_ERROR_SHARE * len(texts):
        why = "give the profile function words of its own and its CLD2 codes"
        return [ProfileFinding("error", "identification", f"most of the sample is not identified as {profile.code} "
                                                          f"({rest}): {why}")], line
    if mine < SAMPLE_WARNING_SHARE * len(texts):
        return [ProfileFinding("warning", "identification", f"{len(texts) - mine} of {len(texts)} sample texts are "
                                                            f"taken for another language ({rest})")], line
    return [], line


__all__ = ["check_identification", "check_own_texts", "check_sample", "cld2_codes", "own_texts", "sample_texts"]
