"""The translation plan of one English row: which spans of its prompt must not be left to the
machine translator, and how the prompt is cut into the units that are translated.

Protected spans become numbered placeholders in the text sent to the engine and get their
final text when the row is assembled:

* ``lexical`` — a kwarg value (keywords, forbidden words, keyword, first word, end phrase,
  postscript marker, section splitter): its translation from the phrase table when the answer
  is in the prompt's language (``resp_lang`` "src"), kept verbatim otherwise;
* ``letter`` — the letter of letter_frequency, quoted or named ("the letter t"): a letter of
  the target alphabet for "src" rows, kept otherwise (never every occurrence of the letter);
* ``answer`` — IFEval's "My answer is yes./no./maybe.": the profile's own options;
* ``language`` — the English name of a language an instruction asks for: its name in the
  target language (from the profile);
* ``keep`` — markup and code that must survive as they are: ``******``, ``***``, fenced
  blocks (a fence opens and closes at the start of a line), inline triple backticks, URLs,
  the word JSON.

Titles ``<<…>>`` and highlights ``*…*`` are translated with the prose (their words should be
in the target language); assembling checks that their markup survived (``trans.markup``).

Units (``units``): ``whole`` (the default, as the authors translate) sends each prompt in one
piece; ``lines`` cuts it at line breaks. Either way the part of the prompt a
``prompt_to_repeat`` must equal is a unit of its own, translated alone and copied into that
kwarg by construction, not by a table of keys."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from indicifeval.builder.trans.beyond import kept_numbers, value_words
from indicifeval.checkers.instructions import copied_kwargs, kwarg_role, lexical_kwargs
from indicifeval.languages import language_name
from indicifeval.records import Row

PLAN_FORMAT = 2
PLACEHOLDER = "{{%d}}"
ANSWERS = {"yes": 0, "no": 1, "maybe": 2}
UNITS = ("whole", "lines")
_ANSWER = re.compile(r"My answer is (yes|no|maybe)\.?", re.IGNORECASE)
# a fenced block opens with ``` at the start of a line and closes with ``` at the start of a
# line; any other ``` ("markdown ticks such as ```") is one token, never paired across prose
_KEEP = re.compile(r"(?m)^```[^\n]*\n(?:.*\n)*?```(?!`)|(?<!`)```(?!`)|https?://\S+[^\s.,;:!?'\")\]]|\*{6}"
                   r"|\*{3}(?!\*)|\bJSON\b")
_LINE_BREAK = re.compile(r"\n+")


@dataclass
class Span:
    """A protected piece of the prompt: ``start``/``end`` in the English prompt, its role,
    the English text there, and the phrase it stands for (the kwarg value as the kwargs write
    it, a language code, an answer). The row's kwargs are made from the phrases, not the spans."""

    start: int
    end: int
    role: str  # lexical | letter | answer | language | keep
    text: str
    phrase: str
    keep: bool = False  # lexical values of rows answered in another language stay verbatim
    id: int = 0  # its placeholder number


@dataclass
class Unit:
    """One piece sent to the engine: ``text`` with placeholders; ``translate`` False for a
    piece with nothing to translate. ``sep`` is what follows it in the prompt."""

    text: str
    translate: bool
    sep: str = ""
    repeat: bool = False  # part of the request a prompt_to_repeat must equal


@dataclass
class TransPlan:
    key: Any
    resp_lang: str
    units: list[Unit]
    spans: list[Span]
    problems: list[str] = field(default_factory=list)  # what makes the row need review before any MT
    dropped: list[dict] = field(default_factory=list)  # source instructions left out, each with why
    format_version: int = PLAN_FORMAT

    def to_json(self) -> dict:
        """As ``dataclasses.asdict`` writes it (field order, copies), by hand: asdict's generic
        recursion was a fifth of the plan stage."""
        return {"key": self.key, "resp_lang": self.resp_lang, "units": [dict(vars(u)) for u in self.units],
                "spans": [dict(vars(s)) for s in self.spans], "problems": list(self.problems),
                "dropped": copy.deepcopy(self.dropped), "format_version": self.format_version}

    @classmethod
    def from_json(cls, data: dict) -> TransPlan:
        return cls(data["key"], data["resp_lang"], [Unit(**u) for u in data["units"]],
                   [Span(**s) for s in data["spans"]], list(data.get("problems") or []),
                   list(data.get("dropped") or []), data.get("format_version", PLAN_FORMAT))


def _occurrences(prompt: str, value: str) -> list[tuple[int, int]]:
    """Where ``value`` stands in ``prompt``, case-insensitive, not inside a longer word."""
    if not value.strip():
        return []
    left = r"(?<![\w])" if value[0].isalnum() else ""
    right = r"(?![\w])" if value[-1].isalnum() else ""
    pattern = left + r"\s+".join(re.escape(part) for part in value.split()) + right
    return [(m.start(), m.end()) for m in re.finditer(pattern, prompt, re.IGNORECASE)]


def _letter_spans(prompt: str, letter: str) -> list[tuple[int, int]]:
    """The letter where the prompt names it: quoted ('t', "t"), or right after "letter"."""
    quoted = [(m.start(1), m.end(1)) for m in
              re.finditer(r"[\"'‘“]" + f"({re.escape(letter)})" + r"[\"'’”]", prompt, re.IGNORECASE)]
    if quoted:
        return quoted
    return [(m.start(1), m.end(1)) for m in
            re.finditer(r"\bletters?\s+" + f"({re.escape(letter)})" + r"(?![\w])", prompt, re.IGNORECASE)]


def _lexical_spans(row: Row) -> tuple[list[Span], list[str]]:
    spans: list[Span] = []
    problems: list[str] = []
    keep = (row.resp_lang or "src") != "src"
    for iid, kwargs in zip(row.instruction_id_list, row.kwargs):
        for name in lexical_kwargs(iid):
            value = kwargs.get(name)
            values = value if isinstance(value, list) else [value] if isinstance(value, str) else []
            for text in values:
                if kwarg_role(iid, name) == "letter":
                    if not text.isalpha():  # "!", "#": a symbol, the same in every language
                        continue
                    found, role, keep_it = _letter_spans(row.prompt, text), "letter", keep
                else:
                    found, role, keep_it = _occurrences(row.prompt, text), "lexical", keep
                if not found:
                    problems.append(f"{iid} {name} {text!r} is not in the prompt")
                for start, end in found:
                    spans.append(Span(start, end, role, row.prompt[start:end], text, keep_it))
        if iid == "detectable_format:constrained_response":
            for m in _ANSWER.finditer(row.prompt):
                spans.append(Span(m.start(), m.end(), "answer", m.group(0), m.group(1).lower()))
        wanted = kwargs.get("language") if iid == "language:response_language" else \
            "en" if iid.startswith("change_case:english") else None
        if isinstance(wanted, str):
            for start, end in _occurrences(row.prompt, language_name(wanted)):
                spans.append(Span(start, end, "language", row.prompt[start:end], wanted))
    for m in _KEEP.finditer(row.prompt):
        spans.append(Span(m.start(), m.end(), "keep", m.group(0), m.group(0), True))
    return spans + _beyond_spans(row), problems



def _beyond_spans(row: Row) -> list[Span]:
    """What the instructions beyond the paper are about (builder.trans.beyond)."""
    spans = [Span(a, b, "keep", row.prompt[a:b], row.prompt[a:b], True) for a, b in kept_numbers(row)]
    return spans + [Span(a, b, "lexical", row.prompt[a:b], row.prompt[a:b].lower()) for a, b in value_words(row)]


def _merge(spans: list[Span], problems: list[str]) -> list[Span]:
    """One span per place: the same text found for two kwargs is one span; a span inside a
    longer one (a keyword inside a kept code block) is dropped, and said so if it mattered."""
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        last = out[-1] if out else None
        if last is not None and span.start < last.end:
            same = (span.start, span.end, span.role, span.phrase) == (last.start, last.end, last.role, last.phrase)
            if not same and span.role in ("lexical", "letter"):
                problems.append(f"{span.text!r} overlaps the protected span {last.text!r}")
            continue
        out.append(span)
    return out


def _repeat_span(row: Row) -> tuple[tuple[int, int] | None, str | None]:
    """Where the request a prompt_to_repeat must equal stands in the prompt (it is a piece
    of it: the first part, or the last after an instruction to repeat it)."""
    for iid, kwargs in zip(row.instruction_id_list, row.kwargs):
        for name, what in copied_kwargs(iid).items():
            value = kwargs.get(name)
            if what == "request" and isinstance(value, str):
                at = row.prompt.find(value)
                if at >= 0 and value.strip():
                    return (at, at + len(value)), None
                return None, f"{iid} {name} is not a piece of the prompt"
    return None, None


def _cuts(prompt: str, spans: list[Span], repeat: tuple[int, int] | None, units: str) -> list[tuple[int, int]]:
    """The separators between units: line breaks (``lines``), and the whitespace around the
    request a prompt_to_repeat must equal; never inside a protected span."""
    cuts = [(m.start(), m.end()) for m in _LINE_BREAK.finditer(prompt)] if units == "lines" else []
    if repeat is not None:
        start, end = repeat
        ws_start = len(prompt[:start].rstrip())
        ws_end = end + len(prompt[end:]) - len(prompt[end:].lstrip())
        # line breaks in the whitespace around the request are part of its separators
        cuts = [c for c in cuts if c[1] <= ws_start or c[0] >= ws_end or (start <= c[0] and c[1] <= end)]
        if start > 0:
            cuts.append((ws_start, start))
        if end < len(prompt):
            cuts.append((end, ws_end))
    return sorted({c for c in cuts if not any(s.start < c[0] < s.end for s in spans)})


def _units(prompt: str, spans: list[Span], repeat: tuple[int, int] | None, how: str) -> list[Unit]:
    units: list[Unit] = []
    start = 0
    for cut_start, cut_end in [*_cuts(prompt, spans, repeat, how), (len(prompt), len(prompt))]:
        inside = repeat is not None and repeat[0] <= start and cut_start <= repeat[1]
        units.append(_unit(prompt, spans, start, cut_start, prompt[cut_start:cut_end], inside))
        start = cut_end
    return [u for u in units if u.text or u.sep]


def _unit(prompt: str, spans: list[Span], start: int, end: int, sep: str, repeat: bool) -> Unit:
    pieces, at = [], start
    for span in spans:
        if start <= span.start and span.end <= end:
            pieces.append(prompt[at:span.start])
            pieces.append(PLACEHOLDER % span.id)
            at = span.end
    pieces.append(prompt[at:end])
    text = "".join(pieces)
    plain = re.sub(r"\{\{\d+\}\}", "", text)
    return Unit(text, bool(re.search(r"[^\W\d_]", plain)), sep, repeat)


def make_plan(row: Row, units: str = "whole", dropped: list[dict] | None = None) -> TransPlan:
    """The plan of one English Trans row, cut into ``units`` (whole | lines); ``dropped``: the
    source instructions the row was prepared without (``trans.source``), kept for provenance."""
    if units not in UNITS:
        raise ValueError(f"units must be one of {UNITS}, got {units!r}")
    spans, problems = _lexical_spans(row)
    spans = _merge(spans, problems)
    for number, span in enumerate(spans, start=1):
        span.id = number
    repeat, problem = _repeat_span(row)
    if problem:
        problems.append(problem)
    return TransPlan(row.key, row.resp_lang or "src", _units(row.prompt, spans, repeat, units), spans, problems,
                     list(dropped or []))


__all__ = ["ANSWERS", "PLACEHOLDER", "PLAN_FORMAT", "UNITS", "Span", "TransPlan", "Unit", "make_plan"]
