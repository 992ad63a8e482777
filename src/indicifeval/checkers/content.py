"""detectable_content:* — placeholders and postscripts."""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from indicifeval.checkers.registry import Param, checker, int_default
from indicifeval.checkers.rules import Rules, TextView

_PLACEHOLDER = re.compile(r"\[.*?\]")


@checker(
    "detectable_content:number_placeholders",
    Param("num_placeholders", "int", paper_default=int_default("num_placeholders", 1, 4)),
)
def number_placeholders(view: TextView, args: dict, rules: Rules):
    n = len(_PLACEHOLDER.findall(view.text))
    return n >= args["num_placeholders"], f"{n} [placeholders], needed at least {args['num_placeholders']}"


@lru_cache(maxsize=1024)
def _reference_postscript(marker: str, raw: bool) -> re.Pattern:
    if marker == "P.P.S":
        return re.compile(r"\s*p\.\s?p\.\s?s.*$", re.MULTILINE)
    if marker == "P.S.":
        return re.compile(r"\s*p\.\s?s\..*$", re.MULTILINE)
    body = marker.lower()
    if raw:
        try:
            return re.compile(r"\s*" + body + r".*$", re.MULTILINE)
        except re.error:
            pass
    return re.compile(r"\s*" + re.escape(body) + r".*$", re.MULTILINE)


@lru_cache(maxsize=1024)
def _fixed_postscript(marker: str) -> regex.Pattern:
    # The marker, literally (dots optional, any spacing between its parts), at the start of a
    # line after optional markdown emphasis, with something written after it.
    parts = [p for p in regex.split(r"[\s.]+", marker.strip().casefold()) if p]
    body = r"[\s.]*".join(regex.escape(p) for p in parts)
    return regex.compile(r"^[ \t>*_#]*" + body + r"(?![\p{L}\p{M}\p{N}])\.?[^\n]*\S", regex.MULTILINE)


@checker(
    "detectable_content:postscript",
    Param("postscript_marker", "str", paper_default=lambda d, p: d.choice("postscript_marker", p.default_postscript_markers)),
)
def postscript(view: TextView, args: dict, rules: Rules):
    marker = args["postscript_marker"]
    if rules.paper or rules.ifeval:
        found = _reference_postscript(marker, rules.paper).search(view.lower) is not None
    else:
        found = bool(marker.strip()) and _fixed_postscript(marker).search(view.matchable) is not None
    return found, (f"postscript starting {marker!r} found" if found else f"no postscript starting {marker!r}")
