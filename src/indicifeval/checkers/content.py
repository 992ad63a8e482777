"""detectable_content:* — placeholders and postscripts."""

from __future__ import annotations

import re

import regex

from indicifeval.checkers.registry import Param, checker, int_default
from indicifeval.checkers.rules import Rules, TextView
from indicifeval.core.caches import bounded_cache


def count_placeholders(text: str) -> int:
    r"""``len(re.findall(r"\[.*?\]", text))`` in one pass. The regex is retried from every
    '[' (quadratic on "[[[["); but a match from a '[' ends at the first ']' after it on the
    same line, and when a newline (or the end) comes first, no '[' before it can match."""
    n, i = 0, text.find("[")
    close = newline = -1  # the next ']' and newline after i, once looked up (stale when < i)
    while i != -1:
        if close < i:
            close = text.find("]", i + 1)
            if close == -1:
                break
        if newline < i:
            newline = text.find("\n", i + 1)
            if newline == -1:
                newline = len(text)
        if close < newline:
            n += 1
            i = text.find("[", close + 1)
        else:
            i = text.find("[", newline + 1)
    return n


@checker(
    "detectable_content:number_placeholders",
    Param("num_placeholders", "int", paper_default=int_default("num_placeholders", 1, 4)),
    category="Format", table_row=18,
)
def number_placeholders(view: TextView, args: dict, rules: Rules):
    n = count_placeholders(view.text)
    return n >= args["num_placeholders"], f"{n} [placeholders], needed at least {args['num_placeholders']}"


_OWN_MARKERS = ("P.P.S", "P.S.")


def _reference_source(marker: str, raw: bool) -> str:
    """IFEval's pattern (the authors': the marker used as a regular expression)."""
    if marker == "P.P.S":
        return r"\s*p\.\s?p\.\s?s.*$"
    if marker == "P.S.":
        return r"\s*p\.\s?s\..*$"
    body = marker.lower()
    if raw:
        try:
            re.compile(r"\s*" + body + r".*$", re.MULTILINE)
            return r"\s*" + body + r".*$"
        except re.error:
            pass
    return r"\s*" + re.escape(body) + r".*$"


# A search for \s*B is retried at every position of a whitespace run (quadratic on runs of
# spaces or newlines). It finds a match iff one starts where the run starts: \s* can still
# stop anywhere in the run, and B itself reads the same string wherever the search began.
# So the search may skip positions preceded by whitespace, which the lookbehind does.
_RUN_START = r"(?<!\s)"


@bounded_cache(maxsize=1024)
def _reference_postscript(marker: str, raw: bool) -> re.Pattern:
    source = _reference_source(marker, raw)
    try:
        return re.compile(_RUN_START + source, re.MULTILINE)
    except re.error:  # not expected: the prefix is a whole atom before a valid pattern
        return re.compile(source, re.MULTILINE)


@bounded_cache(maxsize=1024)
def _fixed_postscript(marker: str) -> regex.Pattern:
    # The marker, literally (dots optional, any spacing between its parts), at the start of a
    # line after optional markdown emphasis, with something written after it.
    parts = [p for p in regex.split(r"[\s.]+", marker.strip().casefold()) if p]
    body = r"[\s.]*".join(regex.escape(p) for p in parts)
    return regex.compile(r"^[ \t>*_#]*" + body + r"(?![\p{L}\p{M}\p{N}])\.?[^\n]*\S", regex.MULTILINE)


@checker(
    "detectable_content:postscript",
    Param("postscript_marker", "str", role="lexical",
          paper_default=lambda d, p: d.choice("postscript_marker", p.default_postscript_markers)),
    category="Keyword", table_row=5,
)
def postscript(view: TextView, args: dict, rules: Rules):
    marker = args["postscript_marker"]
    if rules.paper or rules.ifeval:
        text = view.lower
        # IFEval's two own markers' patterns read "p." first: a text without it needs no search
        found = (marker not in _OWN_MARKERS or "p." in text) and \
            _reference_postscript(marker, rules.paper).search(text) is not None
    else:
        found = bool(marker.strip()) and _fixed_postscript(marker).search(view.matchable) is not None
    return found, (f"postscript starting {marker!r} found" if found else f"no postscript starting {marker!r}")
