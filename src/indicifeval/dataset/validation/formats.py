"""Format instructions must show (or describe) the format the checker parses: ******, JSON,
bullets, *highlights*, <<title>>.

Script-agnostic: the markup is looked for as characters. A prompt without it may still
describe it in words ("double angular brackets", "बुलेट पोइन्ट"), so what is missing is only a
warning, and none is given when the prompt uses a word that the profile's own description of
that instruction uses and no other description does (its cue words), or the English term.
On a dataset large enough to tell, a cue word must also be specific to the prompts that ask for
the format: common words ("can", "गर्न") that happen to be in one description are dropped.
A missed warning costs less than a false alarm on every faithful translation."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import regex

from indicifeval.checkers import REGISTRY
from indicifeval.dataset.validation.findings import WARNING, Finding, finding
from indicifeval.dataset.validation.lexical import instructions
from indicifeval.dataset.validation.prompt import Prompt, snippet
from indicifeval.languages import get_profile
from indicifeval.text.normalize import match_key

TWO = "combination:two_responses"
JSON = "detectable_format:json_format"
BULLETS = "detectable_format:number_bullet_lists"
HIGHLIGHTS = "detectable_format:number_highlighted_sections"
TITLE = "detectable_format:title"
# the English terms, which Indic prompts often keep in Latin letters
_LATIN_CUES = {TWO: ("asterisk",), JSON: ("json",), BULLETS: ("bullet",), HIGHLIGHTS: ("highlight", "italic", "bold"),
               TITLE: ("title", "angular", "angle bracket")}
_EXAMPLES = regex.compile(r"<<[^>\n]*>>|\*[^*\n]*\*|^\s*[*\-•].*$|\{[a-z_]+\}|```\w*", regex.MULTILINE)
_WORD = regex.compile(r"[\p{L}\p{M}]{3,}")


@cache
def cue_words(language: str, instruction_id: str) -> frozenset[str]:
    """Words of the profile's description of ``instruction_id`` (examples left out) that no
    other instruction's description of the same family of suites uses: how the language names
    this format. (IFEval's and ours are told apart among themselves; another suite's bullet
    instructions do not take the word for bullets away from IFEval's.)"""
    texts = get_profile(language).instruction_texts
    if texts is None:
        return frozenset()

    def words(iid: str) -> set[str]:
        return {w for t in texts.templates.get(iid, ()) for w in _WORD.findall(match_key(_EXAMPLES.sub(" ", t)))}

    def family(iid: str) -> str:
        suite = REGISTRY[iid].suite if iid in REGISTRY else "ifeval"
        return "own" if suite in ("ifeval", "beyond") else suite

    mine = family(instruction_id)
    others = set().union(*(words(iid) for iid in texts.templates if iid != instruction_id and family(iid) == mine))
    return frozenset(words(instruction_id) - others)


FORMAT_IDS = (TWO, JSON, BULLETS, HIGHLIGHTS, TITLE)
# The instructions beyond the paper (validation.beyond) are named by cue words the same way.
BEYOND_IDS = ("numbers:native_digits", "numbers:ascii_digits", "numbers:spelled_out", "numbers:indian_system",
              "numbers:international_system", "units:metric", "units:imperial", "language:romanized")
_LATIN_CUES.update({
    "numbers:native_digits": ("digit", "numeral"), "numbers:ascii_digits": ("0-9", "digit", "ascii"),
    "numbers:spelled_out": ("spell", "in words"), "numbers:indian_system": ("lakh", "crore", "indian"),
    "numbers:international_system": ("million", "billion", "international"),
    "units:metric": ("metric", "kilomet", "kilogram"), "units:imperial": ("imperial", "mile", "pound"),
    "language:romanized": ("latin", "roman", "english letters"),
})
CUED_IDS = FORMAT_IDS + BEYOND_IDS
Cues = dict[tuple[str, str], frozenset[str]]
# a cue must be rare in the prompts without the format, and much commoner in those with it
_MIN_PROMPTS, _MAX_ELSEWHERE, _ENRICHMENT = 20, 0.02, 5.0


@cache
def all_cues(language: str, instruction_id: str) -> frozenset[str]:
    return cue_words(language, instruction_id) | frozenset(_LATIN_CUES.get(instruction_id, ()))


class CueCounts:
    """What ``format_cues`` decides from, counted one prompt at a time, so that a dataset of
    any size is read without holding its prompts: per (language, format id), the prompts with
    and without the format, and in each how many contain each cue word."""

    def __init__(self) -> None:
        self._prompts: dict[tuple[str, str, bool], int] = {}
        self._hits: dict[tuple[str, str, bool, str], int] = {}

    def add(self, p: Prompt) -> None:
        language, ids, key = p.row.language, p.row.instruction_id_list, p.key
        for iid in CUED_IDS:
            mine = iid in ids
            self._prompts[language, iid, mine] = self._prompts.get((language, iid, mine), 0) + 1
            for cue in all_cues(language, iid):
                if cue in key:
                    self._hits[language, iid, mine, cue] = self._hits.get((language, iid, mine, cue), 0) + 1

    def _share(self, language: str, iid: str, cue: str, has: bool, n: int) -> float:
        return self._hits.get((language, iid, has, cue), 0) / n

    def table(self) -> Cues:
        """(language, format id) -> the cue words that are specific to prompts asking that
        format, where there are enough prompts to tell (otherwise every cue word is kept)."""
        table: Cues = {}
        for language in dict.fromkeys(lang for lang, _, _ in self._prompts):
            for iid in CUED_IDS:
                cues = all_cues(language, iid)
                mine, other = self._prompts.get((language, iid, True), 0), self._prompts.get((language, iid, False), 0)
                if not mine or other < _MIN_PROMPTS:
                    table[language, iid] = cues
                    continue
                table[language, iid] = frozenset(
                    c for c in cues if (s := self._share(language, iid, c, False, other)) <= _MAX_ELSEWHERE
                    and self._share(language, iid, c, True, mine) >= _ENRICHMENT * s)
        return table


def format_cues(prompts: list[Prompt]) -> Cues:
    counts = CueCounts()
    for p in prompts:
        counts.add(p)
    return counts.table()


def described(p: Prompt, instruction_id: str) -> str | None:
    """A word of the prompt that names the format (see ``cue_words``), or None."""
    cues = p.cues.get((p.row.language, instruction_id)) if p.cues is not None else None
    if cues is None:
        cues = all_cues(p.row.language, instruction_id)
    for cue in cues:
        if " " in cue and cue in p.key:
            return cue
    for word in p.words:
        for cue in cues:
            if cue in word:
                return word
    return None


_ASTERISK_RUN = regex.compile(r"(?<!\*)\*{3,5}(?!\*)")


def two_responses_separator(p: Prompt) -> Iterator[Finding]:
    for index, iid, _ in instructions(p):
        if iid != TWO or "******" in p.row.prompt:
            continue
        run = _ASTERISK_RUN.search(p.row.prompt)
        if run:
            yield finding(p.row, "two_responses_separator", WARNING,
                          f"the prompt shows {run.group()} ({len(run.group())} asterisks); the checker splits the "
                          f"responses on exactly ******", snippet(p.row.prompt, run.start(), run.end()), index)
        elif not described(p, iid):
            yield finding(p.row, "two_responses_separator", WARNING,
                          "the prompt neither shows the ****** separator nor names asterisks", None, index)


def json_mentioned(p: Prompt) -> Iterator[Finding]:
    for index, iid, _ in instructions(p):
        if iid == JSON and "```" not in p.row.prompt and not described(p, iid):
            yield finding(p.row, "json_mentioned", WARNING, "the prompt mentions neither JSON nor a ``` block",
                          None, index)


_BULLET_LINE = regex.compile(r"^[ \t]*[*\-•][ \t]", regex.MULTILINE)


def bullet_example(p: Prompt) -> Iterator[Finding]:
    for index, iid, _ in instructions(p):
        if iid != BULLETS:
            continue
        text = p.row.prompt
        if "*" in text or "•" in text or _BULLET_LINE.search(text) or described(p, iid):
            continue
        yield finding(p.row, "bullet_example", WARNING,
                      "the prompt shows no bullet marker (* or -) and does not name bullet points", None, index)


_HIGHLIGHT = regex.compile(r"\*{1,2}[^*\n]*[^\s*][^*\n]*\*{1,2}")
_EMPTY_HIGHLIGHT = regex.compile(r"(?<!\*)\*{1,2}[ \t]*\*{1,2}(?!\*)")


def _example(p: Prompt, instruction_id: str, check: str, shown: regex.Pattern, empty: regex.Pattern,
             when_empty: str, when_missing: str) -> Iterator[Finding]:
    """A warning for each ``instruction_id`` whose prompt shows no non-empty example of the
    format (``shown``) and does not name it; the evidence is an empty example if there is one."""
    for index, iid, _ in instructions(p):
        if iid != instruction_id or shown.search(p.row.prompt) or described(p, iid):
            continue
        found = empty.search(p.row.prompt)
        yield finding(p.row, check, WARNING, when_empty if found else when_missing,
                      snippet(p.row.prompt, found.start(), found.end()) if found else None, index)


def highlight_example(p: Prompt) -> Iterator[Finding]:
    yield from _example(p, HIGHLIGHTS, "highlight_example", _HIGHLIGHT, _EMPTY_HIGHLIGHT,
                        "the prompt's only highlight example is empty",
                        "the prompt shows no *highlighted* example and does not name highlighting")


_TITLE = regex.compile(r"<<[^\n]*?\S[^\n]*?>>")
_EMPTY_TITLE = regex.compile(r"<<\s*>>")


def title_example(p: Prompt) -> Iterator[Finding]:
    yield from _example(p, TITLE, "title_example", _TITLE, _EMPTY_TITLE, "the prompt's only <<title>> example is empty",
                        "the prompt shows no <<title>> example and does not describe the double angular brackets")
