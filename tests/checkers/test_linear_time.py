"""Checkers stay linear on degenerate answers, with exactly the old results.

(a) Each rewritten matcher is compared with the pattern it replaces (kept here as the oracle)
on generated and hand-picked adversarial strings. (b) Scaling: how CPU time grows from n to
8n characters (about 8x when linear, 64x when quadratic; asserted below 30, so the noise of a
shared machine does not matter). The scaling tests go through ``score_row`` only, so they
also run, and fail, on the code before the rewrite.
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicifeval.scoring.engine import score_row
from tests.conftest import make_row

many = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def texts(alphabet: str, pieces: tuple[str, ...] = (), max_size: int = 40):
    return st.lists(st.sampled_from(list(alphabet) + list(pieces)), max_size=max_size).map("".join)


# --- the old implementations (the oracles) ------------------------------------------------------
OLD_PLACEHOLDER = re.compile(r"\[.*?\]")
OLD_BULLETS = {
    "*": re.compile(r"^\s*\*[^\*].*$", re.MULTILINE),
    "-": re.compile(r"^\s*-.*$", re.MULTILINE),
    "•": re.compile(r"^\s*•.*$", re.MULTILINE),
}
OLD_TITLE = re.compile(r"<<[^\n]+>>")


def old_reference_postscript(marker: str, raw: bool) -> re.Pattern:
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


def old_first_word(word: str, stops: frozenset[str]) -> str:
    first = ""
    for ch in word:
        if ch in stops:
            break
        first += ch.lower()
    return first


# Whitespace as re's \s and str.isspace see it, including the odd ones (U+001C..U+001F are
# whitespace to both, U+0085 and U+2028 are line-like), newlines, CR, and the markers.
SPACES = " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000"


# --- (a) differential tests ---------------------------------------------------------------------
@many
@given(text=texts("[]\nx ", ("[[", "]]", "\r\n", "[x]")))
@example("[" * 50)
@example("[a\n]" * 5 + "[[]")
@example("][\n[]" + "[" * 10 + "\n]")
def test_placeholders_count_as_the_regex(text):
    from indicifeval.checkers.content import count_placeholders

    assert count_placeholders(text) == len(OLD_PLACEHOLDER.findall(text))


@many
@given(text=texts(SPACES + "*-•xy", ("**", "\n\n", "* ", "- ", "\r\n")))
@example("x" + "\n" * 30 + "x")
@example(" \n" * 20 + "* a")
@example("*\n" * 10)
@example("*\n\n- x\n*")
@example("\r\n" * 10 + "-")
@example("**\n*\n*")
def test_bullets_count_as_the_regexes(text):
    from indicifeval.checkers.format import _DASH_BULLET, _DOT_BULLET, _STAR_BULLET, count_bullets

    for marker, pattern in (("*", _STAR_BULLET), ("-", _DASH_BULLET), ("•", _DOT_BULLET)):
        assert count_bullets(pattern, marker, text) == len(OLD_BULLETS[marker].findall(text)), marker


@many
@given(text=texts("<>\na \r", ("<<", ">>", "<<a>>", ">>>")))
@example("<" * 40)
@example("<<a" * 10)
@example("<<>><<a>>")
@example("<<a>\n>>")
@example("<<<a>>> <<b>>\n<<c>>x>>")
def test_titles_are_the_regex_matches(text):
    from indicifeval.checkers.format import titles

    assert list(titles(text)) == OLD_TITLE.findall(text)


MARKERS = ["P.S.", "P.P.S", "p.s", "P.S", "ps", "पुनश्च", "a|b", "|x", "+s", "?s", "*s", "(p)", "p\\",
           "[p", "p{2}", "p.*s", "(?i)p", "s)", "^p", "p$", r"\bp", r"(?<=\s)p", r"(p)\1", "\\s"]


@many
@given(text=texts(SPACES + "psPS.x|+?()\\", ("p.s.", "P.P.S", "p. s.", "पुनश्च", "a|b")),
       marker=st.sampled_from(MARKERS), raw=st.booleans())
@example(text=" " * 40, marker="P.S.", raw=True)
@example(text="\n" * 40 + "x", marker="p.s", raw=True)
@example(text="  \n p", marker="^p", raw=True)
@example(text="x  p", marker=r"(?<=\s)p", raw=True)
def test_postscript_search_as_the_regex(text, marker, raw):
    from indicifeval.checkers.content import _reference_postscript

    text = text.lower()
    assert (_reference_postscript(marker, raw).search(text) is None) == (
        old_reference_postscript(marker, raw).search(text) is None
    )


@many
@given(word=texts("ab.,?!'\"*ΣΑςİ\u0301x"))
@example("ΑΣ.")
@example("İx*y")
def test_first_word_as_the_loop(word):
    from indicifeval.checkers.length import _PAPER_STRIP, _STOP_CHARS

    for stops in (_PAPER_STRIP, _PAPER_STRIP | {"*"}):
        m = _STOP_CHARS[stops].search(word)
        assert "".join(map(str.lower, word if m is None else word[: m.start()])) == old_first_word(word, stops)


# --- (b) scaling ---------------------------------------------------------------------------------
def cpu_growth(fn, make, n: int, factor: int = 8, repeat: int = 5) -> float:
    """The ratio of the best CPU times of ``fn`` on inputs of size n*factor and n. The inputs
    differ per run (``make(size, run)``), so no cache carries a result over."""

    def best(size):
        times = []
        for run in range(repeat):
            text = make(size, run)
            start = time.process_time()
            fn(text)
            times.append(time.process_time() - start)
        return max(min(times), 1e-6)

    fn(make(n, -1))  # warm up (models, compiled patterns)
    return best(factor * n) / best(n)


def degenerate(pattern: str, tail: str = "x"):
    return lambda size, run: "xyzwvu"[run % 6] + pattern * (size // len(pattern)) + tail


def scorer(iid: str, kwargs: dict, language: str, mode: str):
    row = make_row(iid, kwargs, language)
    return lambda text: score_row(row, text, mode)


# (instruction, kwargs, pattern, languages/modes, n): answers that were quadratic before.
SCALING = [
    ("detectable_content:number_placeholders", {"num_placeholders": 2}, "[", ("hi", "fixed"), 6000),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "\n", ("en", "paper"), 3000),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, " \n", ("hi", "fixed"), 3000),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "\r\n", ("hi", "paper"), 3000),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "*\n\n", ("hi", "fixed"), 3000),
    ("detectable_format:title", {}, "<", ("hi", "fixed"), 3000),
    ("detectable_format:title", {}, "<<a", ("en", "fixed"), 3000),
    ("detectable_content:postscript", {"postscript_marker": "P.S."}, " ", ("en", "fixed"), 3000),
    ("detectable_content:postscript", {"postscript_marker": "P.S"}, "\n", ("hi", "paper"), 3000),
    ("length_constraints:nth_paragraph_first_word",
     {"num_paragraphs": 1, "nth_paragraph": 1, "first_word": "क"}, "!", ("hi", "fixed"), 3000),
    ("length_constraints:number_sentences", {"num_sentences": 3, "relation": "at least"}, "क.",
     ("hi", "fixed"), 1500),
    ("length_constraints:number_sentences", {"num_sentences": 3, "relation": "at least"}, "a.",
     ("ta", "fixed"), 1500),
    # the authors' splitter grew a buffer string piece by piece ("क." is one piece each)
    ("length_constraints:number_sentences", {"num_sentences": 3, "relation": "at least"}, "क.",
     ("hi", "paper"), 15000),
]


@pytest.mark.parametrize("iid,kwargs,pattern,where,n", SCALING, ids=[f"{c[0]}-{c[2]!r}" for c in SCALING])
def test_checker_time_grows_linearly(iid, kwargs, pattern, where, n):
    language, mode = where
    ratio = cpu_growth(scorer(iid, kwargs, language, mode), degenerate(pattern), n)
    assert ratio < 30, f"{iid} on {pattern!r}: {ratio:.1f}x the time for 8x the text"

