"""Sentence counting: the corrected splitter, and a re-implementation of the authors' one.

The corrected splitter (``count_sentences``) ends a sentence at any terminator of the
language profile (danda, double danda, Urdu full stop and question mark, ``? ! .``), at a
blank line, and around list items and headings. A full stop does not end a sentence inside a
number (3.5), inside a token (www.example.org) or after a profile abbreviation (डॉ.).
A piece with no letter or digit (``***``, ``---``) is not a sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from indicifeval.text.normalize import nfc

_BLOCK_BREAK = regex.compile(r"\n[ \t\r\f\v]*\n")
_LIST_OR_HEADING = regex.compile(r"^\s*(?:[*\-•+]\s|\d+[.)]\s|#{1,6}\s)")
_HAS_WORD = regex.compile(r"[\p{L}\p{N}]")
_CLOSERS = "\"'”’»)]}*_"


@lru_cache(maxsize=64)
def _terminator_pattern(terminators: tuple[str, ...]) -> regex.Pattern:
    chars = "".join(regex.escape(t) for t in terminators) + "…"
    return regex.compile(f"[{chars}]+[{regex.escape(_CLOSERS)}]*")


@lru_cache(maxsize=64)
def _skipping_pattern(terminators: tuple[str, ...], initials: frozenset[str]) -> re.Pattern:
    """The same runs, less those the loop below would skip at once: Latin-only runs before a
    non-space, and a lone full stop after a one-letter token of ``initials`` (an initial).
    That saves a Python step per run on long answers ("क.क.क.", "A. B. C.", an "A." per
    line). A run is matched from its first character, and every condition is checked there,
    after it: a skipped run is not retried from inside, as no run starts after a terminator.
    (Literal classes only, so stdlib re, which is faster here, matches what regex does.)"""
    chars = "".join(re.escape(t) for t in terminators) + "…"
    closers, latin = re.escape(_CLOSERS), re.escape("".join(c for c in ".?!…" if c in chars))
    conditions = [
        f"(?<![{chars}].)",
        f"(?!(?<=[{latin}])[{latin}]*+(?![{chars}])[{closers}]*+(?=[^{_SPACE_CLASS}]))",
    ]
    if initials:
        letters = re.escape("".join(sorted(initials)))
        conditions += [f"(?!(?<=[{_SPACE_CLASS}][{letters}]\\.)(?![{chars}]))",
                       f"(?!(?<=\\A[{letters}]\\.)(?![{chars}]))"]
    return re.compile(f"[{chars}]" + "".join(conditions) + f"[{chars}]*[{closers}]*")


# str.isspace, as a character class (the regex module's \s lacks U+001C..U+001F).
_SPACE_CLASS = "\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_OPENING = "(\"'“‘"  # stripped from the front of the token before a full stop
_SKIP_RUNS_FROM = 10_000  # block length from which skipping is worth a pattern of its own


def _initials(block: str) -> frozenset[str]:
    """The characters of ``block`` that are one letter after NFC (a one-letter token: a full
    stop after it, before a space, is an initial; before a non-space it is inside a token)."""
    return frozenset(c for c in set(block) if len(n := nfc(c)) == 1 and n.isalpha())


# A list item or heading line inside a paragraph (as _LIST_OR_HEADING on the line alone: its
# \s never reaches past the line), to find paragraphs that have none.
_LIST_OR_HEADING_LINE = regex.compile(r"^[^\S\n]*(?:[*\-•+][^\S\n]|\d+[.)][^\S\n]|#{1,6}[^\S\n])", regex.MULTILINE)


def _has_list_line(para: str) -> bool:
    """Whether a line of ``para`` is a list item or heading, tried at each line's start (a
    search would try every character: the regex module does not skip to the next line)."""
    start = 0
    while True:
        if _LIST_OR_HEADING_LINE.match(para, start):
            return True
        start = para.find("\n", start) + 1
        if not start:
            return False


def _blocks(text: str) -> list[str]:
    """Paragraphs, with every list item and heading line as a block of its own."""
    blocks: list[str] = []
    for para in _BLOCK_BREAK.split(text):
        if not _has_list_line(para):  # plain lines: joined, as the loop below does
            joined = para.strip() if "\n" not in para else " ".join(filter(None, map(str.strip, para.split("\n"))))
            if joined:
                blocks.append(joined)
            continue
        current: list[str] = []
        for line in para.split("\n"):
            if _LIST_OR_HEADING.match(line):
                if current:
                    blocks.append(" ".join(current))
                    current = []
                blocks.append(line)
            elif line.strip():
                current.append(line.strip())
        if current:
            blocks.append(" ".join(current))
    return blocks


def split_sentences(text: str, terminators: tuple[str, ...], abbreviations: frozenset[str],
                    count_only: bool = False) -> list[str]:
    """The sentences; with ``count_only``, only the length is right: blocks without a letter
    or digit (which add no sentence, only text to the one before) are skipped, and each
    sentence is an empty string."""
    pattern = _terminator_pattern(terminators)
    longest = _longest_abbreviation(abbreviations)
    stops: dict[str, bool] = {}  # whether a full stop after this token ends a sentence
    sentences: list[str] = []
    for block in _blocks(text):
        if count_only and not _HAS_WORD.search(block):
            continue
        start = 0
        size = len(block)
        runs = pattern
        if size >= _SKIP_RUNS_FROM:
            runs = _skipping_pattern(terminators, _initials(block) if "." in block else frozenset())
        scanned = 0  # whitespace before this index has been looked for (see _LAST_SPACE)
        stripped = -1  # where the current token starts, after its opening quotes; -1: not yet known
        for m in runs.finditer(block):
            end = m.end()
            run = m.group(0)
            core = run if run == "." else run.rstrip(_CLOSERS)
            if end < size and not block[end].isspace() and not core.strip(".?!…"):
                continue  # Latin-style punctuation ends a sentence only before a space
            if core == ".":
                # (followed by a space or nothing, so not inside a number such as 3.5)
                dot = m.start()
                space = _LAST_SPACE.search(block, scanned, dot)
                if space is not None:
                    stripped = space.end(1)
                elif stripped < 0:
                    opened = _OPENERS.match(block, 0, dot)  # matches the empty string at worst
                    stripped = opened.end() if opened else 0
                scanned = dot
                word = block[stripped:dot]
                ends = stops.get(word)
                if ends is None:
                    ends = stops[word] = _full_stop_ends(word, abbreviations, longest)
                if not ends:
                    continue
            elif (core == "…" or (len(core) > 1 and core.count(".") == len(core))) and end < size:
                continue  # an ellipsis inside a line is a pause, not an end
            if count_only:  # the same test on the stretch itself: no piece is cut or stripped
                if _HAS_WORD.search(block, start, end):
                    sentences.append("")
            else:
                piece = block[start:end].strip()
                if _HAS_WORD.search(piece):
                    sentences.append(piece)
            start = end
        if count_only:
            if _HAS_WORD.search(block, start):
                sentences.append("")
            continue
        tail = block[start:].strip()
        if _HAS_WORD.search(tail):
            sentences.append(tail)
        elif tail and sentences and start > 0:
            sentences[-1] += " " + tail
    return sentences


# The token before a full stop runs back to the previous whitespace (str.isspace, which is
# exactly stdlib re's \s), without its leading opening quotes and brackets. The full stops of a
# block come in order, so each stretch is searched for whitespace once: the last whitespace
# before the full stop and after the previous one, and the openers after it (group 1). Walking
# back from every full stop made chains like "क.क.क." quadratic.
_LAST_SPACE = re.compile(f"\\s([{_OPENING}]*+)\\S*+\\Z")  # possessive: no backtracking over a run
_OPENERS = re.compile(f"[{_OPENING}]*")
# NFC composes at most this many code points into one (U+1F82 has a 4-character NFD), so a
# token of more than NFC_SHRINK * n characters is still longer than n characters after NFC.
NFC_SHRINK = 4


@lru_cache(maxsize=64)
def _longest_abbreviation(abbreviations: frozenset[str]) -> int:
    return max(map(len, abbreviations), default=0)


def _full_stop_ends(word: str, abbreviations: frozenset[str], longest: int) -> bool:
    """Whether a full stop after ``word`` (its token, without opening quotes) ends a sentence."""
    if not word:
        return True
    if len(word) > NFC_SHRINK * max(longest, 1):
        return True  # too long for an abbreviation or a single-letter initial, even after NFC
    token = nfc(word)
    if token in abbreviations or token.casefold() in abbreviations:
        return False
    # a single-letter initial ("A. K. Sharma", "ए. शर्मा"); longer initials go in the profile
    return not (len(token) == 1 and token.isalpha())


def count_sentences(text: str, terminators: tuple[str, ...], abbreviations: frozenset[str],
                    memo: dict[str, int] | None = None) -> int:
    """The number of sentences: a sum over paragraphs (no sentence spans a blank line), each
    distinct paragraph counted once (``memo``: the counts of paragraphs already seen, with the
    same terminators and abbreviations)."""
    counts: dict[str, int] = {} if memo is None else memo
    total = 0
    segments = _segments(terminators)
    for para in _BLOCK_BREAK.split(text) if "\n" in text else (text,):  # (a paragraph already, often)
        n = counts.get(para)
        if n is None:
            if segments is not None and _plain(para):
                n = len(segments.findall(para))
            else:
                n = len(split_sentences(para, terminators, abbreviations, count_only=True))
            counts[para] = n
        total += n
    return total


# A paragraph without a Latin-style stop (whose ends depend on what follows them: abbreviations,
# numbers, a pause) and without a list item or heading line is one block in which every run of
# terminators ends a sentence: its sentences are the stretches between runs that hold a letter or
# a digit, each found by one match from its first such character (no Python step per sentence).
_LATIN_STOPS = ".?!…"
_LIST_CHARS = "*-•+#)"  # a list item or heading line starts with one (a "1." needs a full stop)


def _plain(para: str) -> bool:
    for ch in _LATIN_STOPS:
        if ch in para:
            return False
    for ch in _LIST_CHARS:
        if ch in para:
            return not _has_list_line(para)
    return True


@lru_cache(maxsize=64)
def _segments(terminators: tuple[str, ...]) -> regex.Pattern | None:
    """From a word character to the next terminator (the group keeps each match one character
    long); None where a terminator is itself a letter, digit or space, which the splitter
    treats otherwise."""
    chars = "".join(terminators)
    if any(_HAS_WORD.match(c) or c.isspace() for c in chars):
        return None
    return regex.compile(f"([\\p{{L}}\\p{{N}}])[^{regex.escape(chars + _LATIN_STOPS, special_only=False)}]*")


# --- the authors' scorer: indic-nlp 0.92 sentence_split with their arguments ---------------------
# They pass FLORES codes (hin_Deva, ...) and a delimiter set of . ? ! । ॥ for every language, so
# indic-nlp never transliterates and its "non-breaking" test is a plain membership test of the
# last token in a set of Devanagari letters, Latin-letter names and five honorifics.
_PAPER_DELIMS = re.compile("[.?!\u0964\u0965\uaaf1\uaaf0\uabeb-\uabef\u1c7e\u1c7f]")
_LATIN_LETTER_NAMES = (
    "ए ऎ बी बि सी सि डी डि ई इ एफ ऎफ जी जि एच ऎच आई आइ ऐ जे जॆ के कॆ एल ऎल एम ऎम एन ऎन ओ ऒ "
    "पी पि क्यू क्यु आर एस ऎस टी टि यू यु वी वि व्ही व्हि डब्ल्यू डब्ल्यु एक्स ऎक्स वाय जेड ज़ेड "
    "एफ् ऎफ् एच् ऎच् एल् ऎल् एम् ऎम् एन् ऎन् आर् एस् ऎस् एक्स् ऎक्स् वाय् जेड् ज़ेड्"
).split()
_PAPER_NON_BREAKING = frozenset(
    _LATIN_LETTER_NAMES
    + [chr(c) for c in range(0x0904, 0x0915)]  # independent vowels ऄ..औ
    + ["\u0960", "\u0961"]  # ॠ ॡ
    + [chr(c) for c in range(0x0915, 0x093A)]  # consonants क..ह
    + ["श्री", "डॉ", "कु", "चि", "सौ"]
)


def _paper_split_paragraph(text: str) -> list[str]:
    text = text.strip()
    candidates: list[str] = []
    begin = 0
    for m in _PAPER_DELIMS.finditer(text):
        p = m.start()
        if p > 0 and text[p - 1].isnumeric():
            continue
        piece = text[begin : p + 1].strip()
        if piece:
            candidates.append(piece)
        begin = p + 1
    piece = text[begin:].strip()
    if piece:
        candidates.append(piece)

    # indic-nlp grows its buffer with `buffer = buffer + " " + sentence`, quadratic on long
    # runs of "क." pieces; the pieces are kept in a list and joined once (the same strings).
    final: list[str] = []
    buffer: list[str] = []
    bad_state = False
    for sentence in candidates:
        words = sentence.split(" ")
        if len(words) == 1 and sentence[-1] == ".":
            bad_state = True
            buffer += (" ", sentence)
        elif sentence[-1] == "." and words[-1][:-1] in _PAPER_NON_BREAKING:
            if buffer and not bad_state:
                final.append("".join(buffer))
            bad_state = True
            buffer = [sentence]
        elif bad_state:
            buffer += (" ", sentence)
            final.append("".join(buffer))
            buffer = []
            bad_state = False
        else:
            if buffer:
                final.append("".join(buffer))
            buffer = [sentence]
            bad_state = False
    if buffer:
        final.append("".join(buffer))
    return final


def split_sentences_paper(text: str) -> list[str]:
    """The authors' Indic splitter: paragraphs on the exact string "\\n\\n", indic-nlp per
    paragraph, and a first sentence ending in ':' dropped."""
    sentences: list[str] = []
    for paragraph in text.split("\n\n"):
        sentences.extend(_paper_split_paragraph(paragraph))
    if sentences and sentences[0].strip().endswith(":"):
        sentences = sentences[1:]
    return sentences


def count_sentences_paper(text: str, memo: dict[str, tuple[int, bool]] | None = None) -> int:
    """``len(split_sentences_paper(text))``, paragraph by paragraph; ``memo``: paragraph -> its
    count and whether its first sentence ends in ':' (shared by the variants of one answer)."""
    memo = {} if memo is None else memo
    total, first = 0, None
    for paragraph in text.split("\n\n"):
        seen = memo.get(paragraph)
        if seen is None:
            found = _paper_split_paragraph(paragraph)
            seen = memo[paragraph] = (len(found), bool(found) and found[0].strip().endswith(":"))
        if first is None and seen[0]:
            first = seen[1]
        total += seen[0]
    return total - 1 if first else total
