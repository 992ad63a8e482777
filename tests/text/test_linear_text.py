"""Sentence, word and first-word segmentation: linear time, exactly the old results.

The old implementations are kept here as oracles; see tests/checkers/test_linear_time.py for
how growth is measured (CPU time from n to 8n characters, asserted below 30x).
"""

from __future__ import annotations

import re
import string
import unicodedata

import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicifeval.languages import get_profile, list_languages
from indicifeval.text import sentences as S
from indicifeval.text.normalize import nfc
from indicifeval.text.paragraphs import leading_words
from tests.checkers.test_linear_time import cpu_growth, degenerate

many = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INDIC = [c for c in list_languages() if c != "en"]


# --- the old implementations ---------------------------------------------------------------------
def old_blocks(text):
    blocks = []
    for para in S._BLOCK_BREAK.split(text):
        current = []
        for line in para.split("\n"):
            if S._LIST_OR_HEADING.match(line):
                if current:
                    blocks.append(" ".join(current))
                    current = []
                blocks.append(line)
            elif line.strip():
                current.append(line.strip())
        if current:
            blocks.append(" ".join(current))
    return blocks


def old_full_stop_ends(block, dot, end, abbreviations):
    if end < len(block) and block[end].isdigit() and dot > 0 and block[dot - 1].isdigit():
        return False
    j = dot
    while j > 0 and not block[j - 1].isspace():
        j -= 1
    token = nfc(block[j:dot].lstrip("(\"'“‘"))
    if not token:
        return True
    if token in abbreviations or token.casefold() in abbreviations:
        return False
    return not (len(token) == 1 and token.isalpha())


def old_split_sentences(text, terminators, abbreviations):
    pattern = S._terminator_pattern(terminators)
    sentences = []
    for block in old_blocks(text):
        start = 0
        for m in pattern.finditer(block):
            end = m.end()
            run = m.group(0)
            if run.rstrip(S._CLOSERS) == "." and not old_full_stop_ends(block, m.start(), end, abbreviations):
                continue
            core = run.rstrip(S._CLOSERS)
            if set(core) <= {".", "?", "!", "…"} and end < len(block) and not block[end].isspace():
                continue
            if (core == "…" or (len(core) > 1 and set(core) == {"."})) and end < len(block):
                continue
            piece = block[start:end].strip()
            if S._HAS_WORD.search(piece):
                sentences.append(piece)
            start = end
        tail = block[start:].strip()
        if S._HAS_WORD.search(tail):
            sentences.append(tail)
        elif tail and sentences and start > 0:
            sentences[-1] += " " + tail
    return sentences


def old_paper_split_paragraph(text):
    text = text.strip()
    candidates, begin = [], 0
    for m in S._PAPER_DELIMS.finditer(text):
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
    final, buffer, bad_state = [], "", False
    for sentence in candidates:
        words = sentence.split(" ")
        if len(words) == 1 and sentence[-1] == ".":
            bad_state = True
            buffer = buffer + " " + sentence
        elif sentence[-1] == "." and words[-1][:-1] in S._PAPER_NON_BREAKING:
            if buffer and not bad_state:
                final.append(buffer)
            bad_state = True
            buffer = sentence
        elif bad_state:
            buffer = buffer + " " + sentence
            final.append(buffer)
            buffer = ""
            bad_state = False
        else:
            if buffer:
                final.append(buffer)
            buffer = sentence
            bad_state = False
    if buffer:
        final.append(buffer)
    return final


OLD_EDGE = regex.compile(r"^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$")
OLD_INDIC_PUNCT = re.compile("([" + re.escape(string.punctuation)
                             + "\u0964\u0965\uaaf1\uaaf0\uabeb-\uabef\u1c7e\u1c7f])")
OLD_URDU_PUNCT = re.compile(
    "([" + re.escape(string.punctuation) + "\u0609\u060a\u060c\u061e\u066a\u066b\u066c\u066d\u06d4])"
)


def old_paper_padding(text, tokenizer):
    pattern = OLD_URDU_PUNCT if tokenizer == "urdu" else OLD_INDIC_PUNCT
    return pattern.sub(r" \1 ", text.replace("\t", " "))


# --- inputs ---------------------------------------------------------------------------------------
SPACES = " \t\n\r\x0b\x0c\x1c\x85\xa0\u2028"
PIECES = (list("कखमनािीुेोंः्।॥.?!…\"'”’»)]}*_([“‘0123456789aAxप") + list(SPACES)
          + ["डॉ", "श्री", "Dr", "U.S", "e.g", "क.", "a.", "A. ", "3.5", "...", "* ", "- ", "1. ", "# ", "\n\n",
             "डॉ.", "ए. ", "ौ", "\u094d\u200d", "e\u0301", "\u2260", "((("])
sentence_texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


# --- (a) differential tests -------------------------------------------------------------------
@many
@given(text=sentence_texts, lang=st.sampled_from(INDIC + ["en"]))
@example(text="क." * 30, lang="hi")
@example(text="(((" + "डॉ. " * 3, lang="hi")
@example(text="\"“डॉ. शर्मा. (ए. क. ख.", lang="hi")
@example(text="x" * 40 + "डॉ.", lang="hi")
@example(text="ab\u0301" * 5 + ". x", lang="bn")
@example(text="A. (A. \"k.) A.. A.? bA. A.x Å. e\u0301. \u212b. क़. x", lang="hi")
@example(text="A.\nA.\nB. c. ई.पू. ई. पू. डॉ. ए. ", lang="hi")
def test_fixed_sentences_as_before(text, lang):
    p = get_profile(lang)
    expected = old_split_sentences(text, p.sentence_terminators, p.abbreviations)
    default = S._SKIP_RUNS_FROM
    try:
        for S._SKIP_RUNS_FROM in (default, 0):  # long blocks skip runs in the pattern
            assert S.split_sentences(text, p.sentence_terminators, p.abbreviations) == expected
            assert S.count_sentences(text, p.sentence_terminators, p.abbreviations) == len(expected)
    finally:
        S._SKIP_RUNS_FROM = default


def test_space_class_is_str_isspace():
    space = regex.compile(f"[{S._SPACE_CLASS}]")
    assert all((space.match(chr(c)) is not None) == chr(c).isspace() for c in range(0x110000))


def test_nfc_never_shrinks_more_than_the_bound():
    # the full-stop rule skips NFC for tokens over NFC_SHRINK * (longest abbreviation) characters
    assert max(len(unicodedata.normalize("NFD", chr(c))) for c in range(0x110000)) == S.NFC_SHRINK


def test_stdlib_space_is_str_isspace():
    space = re.compile(r"\s")
    assert all((space.match(chr(c)) is not None) == chr(c).isspace() for c in range(0x110000))


@many
@given(text=sentence_texts)
@example(text="क. " * 20)
@example(text="डॉ. श्री. क. ख. ग")
def test_paper_sentences_as_before(text):
    assert S._paper_split_paragraph(text) == old_paper_split_paragraph(text)


@many
@given(token=st.text(alphabet=st.sampled_from(list("!?.,*#>_—–-'\"“”।۔$€+=≠~^`|") + ["\u0301", "\u094d", "a", "क",
                                                                                     "\u200d", "1", "\x1c"]),
                     max_size=30))
@example("x" + "!" * 40 + "y")
@example("!!!")
@example("=\u0338क")
def test_edges_strip_as_the_regex(token):
    from indicifeval.text.paragraphs import strip_edges

    assert strip_edges(token) == OLD_EDGE.sub("", token)


@many
@given(text=st.lists(st.sampled_from(PIECES + list(string.punctuation) + ["\t", "،", "۔", "\u066b"]),
                     max_size=60).map("".join),
       tokenizer=st.sampled_from(["indic", "urdu"]))
def test_paper_word_padding_as_the_regex(text, tokenizer):
    from indicifeval.text.words import _padded

    assert _padded(text, tokenizer) == old_paper_padding(text, tokenizer)


# --- (b) scaling ----------------------------------------------------------------------------------
def fixed_count(lang):
    p = get_profile(lang)
    return lambda text: S.count_sentences(text, p.sentence_terminators, p.abbreviations)


@pytest.mark.parametrize("pattern,lang", [("क.", "hi"), ("a.", "ta"), ("ক.\"", "bn"), ("a.", "ur")])
def test_fixed_sentence_count_is_linear(pattern, lang):
    assert cpu_growth(fixed_count(lang), degenerate(pattern), 1500) < 30


def test_paper_sentence_count_is_linear():
    assert cpu_growth(S.count_sentences_paper, degenerate("क."), 15000) < 30


def test_leading_words_are_linear():
    assert cpu_growth(lambda text: leading_words(text, 1), degenerate("!", "y"), 3000) < 30
