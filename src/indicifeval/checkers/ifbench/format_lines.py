"""IFBench format:* line layouts: stairs of indentation, a list with a given marker, one word a
line, sentences then bullets, bullets with sub-bullets, no whitespace at all.

English follows IFBench's checks (docs/scoring.md lists the corrections). Indic answers are read
by lines as a reader sees them: blank lines are no lines, a bullet is a '*' that starts a line
(not a bold '**'), a word is a token with a letter, mark or digit, sentences are the profile's."""

from __future__ import annotations

import re
import string

import regex

from indicifeval.checkers.registry import Param, checker
from indicifeval.checkers.rules import Rules, TextView

_SUITE = "ifbench"
_SHOWN = 40
_DELETE_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)
_HAS_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]")
# a '*' bullet: a star that starts the line, not a bold '**', with something after it
_STAR_BULLET = regex.compile(r"[^\S\n]*\*(?!\*)[^\S\n]*\S")
_DASH_ITEM = regex.compile(r"[^\S\n]*-[^\S\n]*\S")


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _show(line: str) -> str:
    line = line.strip()
    return repr(line[:_SHOWN] + ("…" if len(line) > _SHOWN else ""))


# -- stairs ------------------------------------------------------------------------------------------
def _indent(line: str) -> int:
    """Leading whitespace as columns: a tab to the next multiple of 4, any other space one."""
    width = 0
    for ch in line:
        if ch == "\t":
            width += 4 - width % 4
        elif ch.isspace():
            width += 1
        else:
            break
    return width


@checker("format:line_indent", category="Format", table_row=241, fixed_only=True, suite=_SUITE,
         conflicts=("format:no_whitespace",))
def line_indent(view: TextView, args: dict, rules: Rules):
    lines = [line for line in view.text.split("\n") if line.strip()]
    if rules.ifeval:
        # IFBench's check (leading spaces, each line more than the one before), with every blank
        # line dropped: its loop removed blank lines from the list it walked, and so kept the
        # second of two together, as a line of no indentation
        widths = [len(line) - len(line.lstrip(" ")) for line in lines]
    else:
        if len(lines) < 2:
            return False, f"{_n(len(lines), 'line')}, needed stairs of at least 2"
        widths = [_indent(line) for line in lines]
    for i in range(1, len(lines)):
        if widths[i] <= widths[i - 1]:
            return False, (f"line {i + 1} is indented {widths[i]}, not more than line {i} ({widths[i - 1]}): "
                           f"{_show(lines[i])}")
    return True, f"{_n(len(lines), 'line')}, each indented more than the one before"


# -- a list with a given marker ----------------------------------------------------------------------
_SEPARATORS = ("...", "SEPARATOR", "!?!?", "-")  # IFBench's


@checker(
    "format:list",
    # the marker the description quotes: a Trans pipeline carries it as the prompt shows it
    Param("sep", "str", role="copy_of_prompt", copy_of="phrase", lexical=True,
          sample=lambda rng, p, drawn: rng.choice(_SEPARATORS)),
    category="Format", table_row=242, fixed_only=True, suite=_SUITE,
)
def marked_list(view: TextView, args: dict, rules: Rules):
    sep = args["sep"]
    if not sep:
        return False, "no marker given to use instead of bullet points"
    if rules.ifeval:
        n = view.text.count(sep)  # IFBench counts the marker anywhere (re.findall of it, escaped)
        return n >= 2, f"{n} × {sep!r}, needed at least 2"
    # as IFBench's docstring says: markers that start a line, each an item in place of a bullet
    from indicifeval.text.normalize import nfc

    marker = nfc(sep)
    n = sum(1 for line in view.nfc.split("\n") if line.lstrip().startswith(marker))
    return n >= 2, f"{_n(n, 'line')} starting with {sep!r}, needed at least 2"


# -- one word a line ---------------------------------------------------------------------------------
@checker("format:newline", category="Format", table_row=243, fixed_only=True, suite=_SUITE,
         conflicts=("format:no_whitespace",))
def newline(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        # IFBench's check: without ASCII punctuation, as many non-empty lines as words
        value = view.text.translate(_DELETE_ASCII_PUNCTUATION).strip()
        lines = sum(1 for line in value.split("\n") if line)
        words = len(value.split())
        return lines == words, f"{_n(words, 'word')} on {_n(lines, 'line')}, needed one word a line"
    words = 0
    for i, line in enumerate(view.nfc.split("\n")):
        tokens = [t for t in line.split() if _HAS_WORD.search(t)]
        if len(tokens) > 1:
            return False, f"line {i + 1} has {len(tokens)} words: {_show(line)}"
        words += len(tokens)
    return words > 0, f"{_n(words, 'word')}, one a line" if words else "no word"


# -- sentences, then bullets ---------------------------------------------------------------------------
def _no_bullets_bullets_reference(text: str):
    """IFBench's check: lines until the first '*' line hold at least 2 Punkt sentences, then only
    '*' lines, at least 2. Its loop counted the sentences of each line and failed a line after a
    line without any (a blank one); so only the line before the first bullet may be blank, and
    the count is needed only up to 2 (a line with text holds at least one sentence)."""
    from indicifeval.text.punkt_en import sent_tokenize_en

    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip().startswith("*")), None)
    if first is None:
        return False, "no '*' bullet point"
    sentences = 0
    for i, line in enumerate(lines[:first]):
        if i and not lines[i - 1].strip():
            return False, f"line {i + 1} follows a blank line before the bullets: {_show(line)}"
        if sentences < 2:
            sentences += len(sent_tokenize_en(line.strip()))
    if sentences < 2:
        return False, f"{_n(sentences, 'sentence')} before the first bullet, needed at least 2"
    for i in range(first + 1, len(lines)):
        if not lines[i].strip().startswith("*"):
            return False, f"line {i + 1} after the bullets is no '*' bullet: {_show(lines[i])}"
    bullets = len(lines) - first
    return bullets >= 2, f"at least 2 sentences, then {_n(bullets, 'bullet')} (needed at least 2)"


@checker("format:no_bullets_bullets", category="Format", table_row=244, fixed_only=True, suite=_SUITE,
         conflicts=("format:no_whitespace", "format:sub-bullets"))
def no_bullets_bullets(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        return _no_bullets_bullets_reference(view.text)
    prose: list[str] = []
    sentences = bullets = 0
    for i, line in enumerate(view.nfc.split("\n")):
        if not line.strip():
            continue
        if _STAR_BULLET.match(line):
            if not bullets:
                sentences = rules.count_sentences("\n".join(prose))
                if sentences < 2:
                    return False, f"{_n(sentences, 'sentence')} before the first bullet, needed at least 2"
            bullets += 1
        elif not bullets:
            prose.append(line)
        elif not line[0].isspace():  # (an indented line goes on the bullet above it)
            return False, f"line {i + 1} after the bullets is no '*' bullet: {_show(line)}"
    if not bullets:
        return False, "no '*' bullet point"
    return bullets >= 2, f"{_n(sentences, 'sentence')}, then {_n(bullets, 'bullet')} (needed at least 2)"


# -- bullets with sub-bullets ----------------------------------------------------------------------------
@checker("format:sub-bullets", category="Format", table_row=251, fixed_only=True, suite=_SUITE,
         conflicts=("format:no_whitespace",))
def sub_bullets(view: TextView, args: dict, rules: Rules):
    if rules.ifeval:
        # IFBench's check: every piece of the answer after a '*' holds a '-'
        pieces = view.text.split("*")
        for i, piece in enumerate(pieces[1:], 1):
            if "-" not in piece:
                return False, f"no '-' after '*' number {i}: {_show('*' + piece)}"
        return True, f"a '-' after each '*' ({len(pieces) - 1})"
    bullets, pending = 0, ""  # the bullet still waiting for a sub-bullet
    for line in view.nfc.split("\n"):
        if _STAR_BULLET.match(line):
            if pending:
                return False, f"bullet {bullets} has no '-' sub-bullet: {_show(pending)}"
            bullets, pending = bullets + 1, line
        elif pending and _DASH_ITEM.match(line):
            pending = ""
    if pending:
        return False, f"bullet {bullets} has no '-' sub-bullet: {_show(pending)}"
    if not bullets:
        return False, "no '*' bullet point"
    return True, f"each of {_n(bullets, 'bullet')} has a '-' sub-bullet"


# -- no whitespace -----------------------------------------------------------------------------------------
_WHITESPACE = re.compile(r"\s")  # (stdlib re's \s is str.isspace)


@checker("format:no_whitespace", category="Format", table_row=245, fixed_only=True, suite=_SUITE)
def no_whitespace(view: TextView, args: dict, rules: Rules):
    m = _WHITESPACE.search(view.text)
    if m is not None:
        return False, f"whitespace {m.group(0)!r} at character {m.start() + 1}"
    return True, f"no whitespace in {len(view.text)} characters"
