"""detectable_format:* — bullets, fixed answers, highlights, sections, JSON, titles."""

from __future__ import annotations

import json
import re

import regex

from indicifeval.checkers.registry import Param, all_but, checker, int_default
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.core.caches import bounded_cache
from indicifeval.text.normalize import collapse

# IFEval's bullet patterns are r"^\s*\*[^\*].*$", r"^\s*-.*$" (and ours r"^\s*•.*$"), counted
# with findall. Their ^\s* spans newlines, so a failed try is retried from every line start in
# the same whitespace run: quadratic on blank lines. Every try from inside one run reaches the
# same first non-space character, so all of them fail or succeed alike (and \s* backtracking
# only lands on whitespace, never on the bullet), and no line starts again before the next
# newline. The patterns below consume the run and the rest of its line when the bullet is not
# there, so findall moves past them; group 1 is IFEval's match, at the same place and of the
# same length, so the count is the same and so is where the next try starts.
_STAR_BULLET = re.compile(r"^\s*(?:(\*[^\*].*$)|.*)", re.MULTILINE)
_DASH_BULLET = re.compile(r"^\s*(?:(-.*$)|.*)", re.MULTILINE)
_DOT_BULLET = re.compile(r"^\s*(?:(•.*$)|.*)", re.MULTILINE)


def count_bullets(pattern: re.Pattern, marker: str, text: str) -> int:
    if marker not in text:
        return 0
    found = pattern.findall(text)
    return len(found) - found.count("")


@checker(
    "detectable_format:number_bullet_lists",
    Param("num_bullets", "int", paper_default=int_default("num_bullets", 1, 5)),
    category="Format", table_row=20,
)
def number_bullet_lists(view: TextView, args: dict, rules: Rules):
    n = count_bullets(_STAR_BULLET, "*", view.text) + count_bullets(_DASH_BULLET, "-", view.text)
    if rules.indic_fixed:
        n += count_bullets(_DOT_BULLET, "•", view.text)
    return n == args["num_bullets"], f"{n} bullet points, needed exactly {args['num_bullets']}"


@checker("detectable_format:constrained_response", category="Keyword", table_row=6, conflicts=all_but())
def constrained_response(view: TextView, args: dict, rules: Rules):
    options = rules.constrained_responses
    if rules.indic_fixed:
        hit = next((o for o in options if collapse(o) in view.collapsed), None)
    else:
        stripped = view.text.strip()
        hit = next((o for o in options if o in stripped), None)
    if hit is None:
        return False, "none of the allowed answers: " + " / ".join(options)
    return True, f"contains {hit!r}"


_SINGLE_HIGHLIGHT = re.compile(r"\*[^\n\*]*\*")
_DOUBLE_HIGHLIGHT = re.compile(r"\*\*[^\n\*]*\*\*")


@checker(
    "detectable_format:number_highlighted_sections",
    Param("num_highlights", "int", paper_default=int_default("num_highlights", 1, 4)),
    category="Format", table_row=21,
)
def number_highlighted_sections(view: TextView, args: dict, rules: Rules):
    n = sum(1 for h in _SINGLE_HIGHLIGHT.findall(view.text) if h.strip("*").strip())
    n += sum(1 for h in _DOUBLE_HIGHLIGHT.findall(view.text) if h[2:-2].strip())
    return n >= args["num_highlights"], f"{n} highlighted sections, needed at least {args['num_highlights']}"


@bounded_cache(maxsize=1024)
def _section_pattern(splitter: str, mode: str) -> re.Pattern | regex.Pattern:
    if mode == "raw":
        try:
            return re.compile(r"\s?" + splitter + r"\s?\d+\s?")
        except re.error:
            mode = "escaped"
    if mode == "escaped":
        return re.compile(r"\s?" + re.escape(splitter) + r"\s?\d+\s?")
    # fixed Indic: the splitter at a line start (after markdown), then a number in any script
    return regex.compile(r"^[ \t#*_>]*" + regex.escape(splitter) + r"[ \t]*\p{Nd}+", regex.MULTILINE)


@checker(
    "detectable_format:multiple_sections",
    Param("section_spliter", "str", role="lexical",
          paper_default=lambda d, p: d.choice("section_spliter", p.default_section_splitters)),
    Param("num_sections", "int", paper_default=int_default("num_sections", 1, 5)),
    category="Keyword", table_row=7,
    conflicts=("detectable_format:number_highlighted_sections",),
)
def multiple_sections(view: TextView, args: dict, rules: Rules):
    splitter = args["section_spliter"]
    if rules.indic_fixed:  # on the NFC form, as the splitter (a prompt's word) is written
        n = len(_section_pattern(splitter, "line").findall(view.nfc)) if splitter else 0
    else:
        n = len(_section_pattern(splitter, "raw" if rules.paper else "escaped").split(view.text)) - 1
    needed = args["num_sections"]
    return n >= needed, f"{n} sections marked {splitter!r} + number, needed at least {needed}"


@checker(
    "detectable_format:json_format",
    category="Format", table_row=19,
    conflicts=all_but("keywords:existence", "keywords:forbidden_words"),
)
def json_format(view: TextView, args: dict, rules: Rules):
    value = (
        view.text.strip()
        .removeprefix("```json")
        .removeprefix("```Json")
        .removeprefix("```JSON")
        .removeprefix("```")
        .removesuffix("```")
        .strip()
    )
    try:
        json.loads(value)
    except ValueError as exc:
        return False, f"not valid JSON ({exc.__class__.__name__}: {str(exc)[:60]})"
    except RecursionError:
        return False, "not valid JSON (nested too deeply)"
    return True, "valid JSON"


def titles(text: str):
    r"""The matches of ``re.findall(r"<<[^\n]+>>", text)``, in one pass. Per line, a match
    runs from the first "<<" to the last ">>" (at least one character between), and there is
    at most one: the regex retried every "<<" of a line without ">>" (quadratic on "<<<<")."""
    i = text.find("<<")
    while i != -1:
        line_end = text.find("\n", i)
        if line_end == -1:
            line_end = len(text)
        close = text.rfind(">>", i + 3, line_end)
        if close != -1:
            yield text[i : close + 2]
        i = text.find("<<", line_end)


@checker("detectable_format:title", category="Keyword", table_row=8)
def title(view: TextView, args: dict, rules: Rules):
    for t in titles(view.text):
        if t.lstrip("<").rstrip(">").strip():
            return True, f"title {t[:60]!r}"
    return False, "no <<title>>"
