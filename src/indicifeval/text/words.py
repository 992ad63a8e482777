"""Word counting: the corrected tokenizer, IFEval's English one, and the authors' Indic one."""

from __future__ import annotations

import re
import string
import sys
from array import array
from collections import Counter
from functools import lru_cache

import regex

from indicifeval.core.kernels import optional_kernel

# A word is a run of letters, combining marks, digits and joiners that starts with a letter,
# mark or digit (a run of zero-width joiners alone is no word); an apostrophe between letters
# keeps a word whole (ল'ৰা, don't); digit groups such as 1,000.50 or 12:30 are one word.
_WORD = regex.compile(
    r"\p{N}+(?:[.,:/]\p{N}+)+"
    r"|[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}\u200c\u200d]*(?:['’][\p{L}\p{M}\p{N}\u200c\u200d]+)*"
)
# IFEval counts nltk RegexpTokenizer(r"\w+") tokens; nltk >= 3.10.3 runs it on the `regex`
# engine, whose \w includes combining marks (the reference verdicts used nltk 3.10.4), and the
# zero-width joiners: fixed mode does not count a token of joiners alone.
_IFEVAL_WORD = regex.compile(r"\w+")
_IFEVAL_WORD_FIXED = regex.compile(r"[^\W\u200c\u200d]\w*")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def count_words(text: str, memo: dict[str, int] | None = None) -> int:
    return _counted(_WORD, text, memo)


def count_words_ifeval(text: str, memo: dict[str, int] | None = None, fixed: bool = False) -> int:
    return _counted(_IFEVAL_WORD_FIXED if fixed else _IFEVAL_WORD, text, memo, _ASCII_IFEVAL_WORD)


# On ASCII text both engines' \w is [A-Za-z0-9_] and there are no joiners: the stdlib engine
# finds the same words a third faster (English answers are mostly ASCII)
_ASCII_IFEVAL_WORD = re.compile(r"\w+")


def _counted(pattern: regex.Pattern, text: str, memo: dict[str, int] | None,
             ascii_pattern: re.Pattern | None = None) -> int:
    """Matches of ``pattern``, which never spans a newline: with ``memo`` (counts of lines
    already seen), a sum over lines, so a loose variant, which drops a line or two of its
    response, counts only the lines it changed. ``ascii_pattern`` finds the same matches in
    ASCII text."""
    if memo is None or "\n" not in text:
        return _matches(pattern, text, ascii_pattern)
    total = 0
    for line in text.split("\n"):
        n = memo.get(line)
        if n is None:
            n = memo[line] = _matches(pattern, line, ascii_pattern)
        total += n
    return total


def _matches(pattern: regex.Pattern, text: str, ascii_pattern: re.Pattern | None) -> int:
    """How many matches ``findall`` finds: counted by the kernel without making them (a text
    past the BMP, or without the kernel, by the pattern)."""
    if _word_runs is not None:
        kind = _RUN_KINDS.get(pattern)
        n = -1 if kind is None else _word_runs(text, _run_table(), kind)
        if n >= 0:
            return n
    return len((ascii_pattern if ascii_pattern is not None and text.isascii() else pattern).findall(text))


# The optional compiled counts (``_scripts_kernel``): word_runs counts the matches of the three
# patterns above, paper_words the authors' tokens, in one pass, none of them made
_kernel = optional_kernel("indicifeval.text._scripts_kernel")
_word_runs = getattr(_kernel, "word_runs", None)  # (None in a kernel built before it)
_class_runs = getattr(_kernel, "class_runs", None)
_RUN_KINDS = {_WORD: 0, _IFEVAL_WORD: 1, _IFEVAL_WORD_FIXED: 2}
# word_runs' table bits: the character classes the patterns are made of, as the regex engine reads them
_RUN_CLASSES = (r"\p{N}", r"[\p{L}\p{M}\p{N}]", "[\u200c\u200d]", "['’]", "[.,:/]", r"\w", r"[\p{L}\p{M}]")
LETTERS_MARKS, JOINERS = 1 << 6, 1 << 2  # bits of the table: [\p{L}\p{M}] and the zero-width (non-)joiner


def _code_points(start: int, end: int) -> str:
    """Every BMP code point from ``start`` to ``end``, in order (made faster than by ``chr``)."""
    return array("H", range(start, end)).tobytes().decode(f"utf-16-{sys.byteorder[0]}e", "surrogatepass")


@lru_cache(maxsize=1)
def _run_table() -> bytes:
    """A byte per BMP code point, bit k set where the character is in ``_RUN_CLASSES[k]``: the
    classes found by the patterns' own engine, over every code point at once (about 10 ms)."""
    # (in two parts: the last high surrogate and the first low one would decode as a pair)
    bmp = _code_points(0, 0xDC00) + _code_points(0xDC00, 0x10000)
    table = 0
    for bit, cls in enumerate(_RUN_CLASSES):
        flags = bytearray(0x10000)
        for m in regex.finditer(cls + "+", bmp):
            flags[m.start():m.end()] = b"\x01" * (m.end() - m.start())
        table |= int.from_bytes(flags, "little") << bit  # (each byte 0 or 1: no carry into the next)
    return table.to_bytes(0x10000, "little")


def letter_runs(text: str) -> list[str] | None:
    """``findall("[\\p{L}\\p{M}\\u200c\\u200d]+")`` of ``text`` from the kernel, or None where it
    is not built or the text has a character past the BMP (the caller's pattern finds them)."""
    if _class_runs is None:
        return None
    return _class_runs(text, _run_table(), LETTERS_MARKS | JOINERS)


# --- the authors' scorer: indic-nlp `trivial_tokenize`, then a filter -------------------------
# indic-nlp pads each punctuation character with re.sub(r"([...])", r" \1 "). Replacing each
# one that occurs, in turn, does the same (a replacement inserts only spaces and the character
# itself, and str.replace never looks at what it inserted) in C passes: stdlib re expands the
# template in Python per match, and str.translate looks up every character of the text.
_INDIC_PUNCT = string.punctuation + "\u0964\u0965\uaaf1\uaaf0\uabeb\uabec\uabed\uabee\uabef\u1c7e\u1c7f"
_URDU_PUNCT = string.punctuation + "\u0609\u060a\u060c\u061e\u066a\u066b\u066c\u066d\u06d4"
_PAD = {name: tuple((c, f" {c} ") for c in chars) + (("\t", " "),)
        for name, chars in (("indic", _INDIC_PUNCT), ("urdu", _URDU_PUNCT))}

_NUMBER_SEQ = regex.compile(r"([0-9]+ [,.:/] )+[0-9]+")  # (the regex engine finds it ten times faster than re)
_ASCII_DIGIT = re.compile(r"[0-9]")
_NON_WORD_CHAR = re.compile(r"[^\w\s]")  # stdlib: combining marks are not \w


def _padded(text: str, tokenizer: str) -> str:
    for old, new in _PAD["urdu" if tokenizer == "urdu" else "indic"]:
        if old in text:
            text = text.replace(old, new)
    return text


def paper_tokens(text: str, tokenizer: str) -> list[str]:
    """Tokens as indic-nlp 0.92's trivial tokenizer makes them: punctuation is padded with
    spaces, runs of spaces collapse, and only the space character separates tokens
    (newlines stay inside tokens)."""
    padded = _padded(text, tokenizer)  # tabs become spaces too
    # collapsed, stripped and split at single spaces: the runs between spaces (or the one empty token)
    tokens = [t for t in padded.split(" ") if t]
    if tokenizer != "urdu" and tokens and _ASCII_DIGIT.search(padded):
        joined = " ".join(tokens)  # the number pattern needs single spaces
        if _NUMBER_SEQ.search(joined) is not None:
            return _join_number_sequences(joined).split(" ")
    return tokens or [""]


def _join_number_sequences(s: str) -> str:
    """"1 , 000 . 50" -> "1,000.50", except (as in indic-nlp) a sequence at the very start."""
    out, prev = [], 0
    for m in _NUMBER_SEQ.finditer(s):
        if m.start() > prev:
            out.append(s[prev : m.start()])
            out.append(m.group(0).replace(" ", ""))
            prev = m.end()
    out.append(s[prev:])
    return "".join(out)


@lru_cache(maxsize=2)
def _punct_table(tokenizer: str) -> bytes:
    """A byte per BMP code point: 1 for a character the tokenizer pads, 3 for one that is also
    a word character (stdlib ``\\w``: such a token is kept)."""
    table = bytearray(0x10000)
    for ch in _URDU_PUNCT if tokenizer == "urdu" else _INDIC_PUNCT:
        table[ord(ch)] = 3 if re.match(r"\w", ch) else 1
    return bytes(table)


def count_words_paper(text: str, tokenizer: str) -> int:
    """The authors' count: tokens minus dandas (۔ for Urdu) and single non-word characters.
    The empty string and a lone newline count as words, as in the reference."""
    if _kernel is not None:
        return _kernel.paper_words(text, _punct_table(tokenizer), tokenizer != "urdu")
    return count_words_paper_python(text, tokenizer)


def count_words_paper_python(text: str, tokenizer: str) -> int:
    """``count_words_paper`` from the tokens themselves (where the kernel is not built)."""
    drop = {"۔"} if tokenizer == "urdu" else {"\u0964", "\u0965"}
    tokens = Counter(paper_tokens(text, tokenizer))  # each distinct token is judged once
    return sum(n for tok, n in tokens.items() if not (tok in drop or (len(tok) == 1 and _NON_WORD_CHAR.match(tok))))
