"""Word counting (§2.6 examples for the authors' tokenizer)."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.text.words import count_words, count_words_ifeval, count_words_paper


@pytest.mark.parametrize(
    "text,expected",
    [
        ("किताबें पढ़ो।", 2),
        ("पंक्ति एक\nपंक्ति दो\nपंक्ति तीन", 6),
        ("पंक्ति एक \n पंक्ति दो", 4),
        ("", 0),
        ("राम-श्याम आए, और गए!", 5),
        ("मूल्य 1,000.50 रुपये 12:30 बजे", 5),
        ("یہ کتاب ہے۔ کیا یہ؟ ہاں، یہ ہے", 8),
        ("ল'ৰাটোৱে কিতাপ পঢ়িছে।", 3),
        ("வணக்கம் நண்பர்களே, எப்படி இருக்கிறீர்கள்?", 4),
        ("ਸਤ ਸ੍ਰੀ ਅਕਾਲ ਜੀ", 4),
        ("Hello world, it's me.", 4),
        ("***", 0),
    ],
)
def test_fixed_word_counts(text, expected):
    assert count_words(text) == expected


@pytest.mark.parametrize(
    "text,tokenizer,expected",
    [
        ("किताबें पढ़ो।", "indic", 2),
        ("पंक्ति एक\nपंक्ति दो\nपंक्ति तीन", "indic", 4),
        ("पंक्ति एक \n पंक्ति दो", "indic", 5),
        ("", "indic", 1),
        ("शब्द \n", "indic", 2),
        ("राम-श्याम आए, और गए!", "indic", 5),
        ("मूल्य 1,000.50 रुपये 12 : 30 बजे", "indic", 5),
        ("یہ کتاب ہے۔ کیا یہ؟ ہاں، یہ ہے", "urdu", 8),
    ],
)
def test_paper_word_counts_match_reference(text, tokenizer, expected):
    assert count_words_paper(text, tokenizer) == expected


def test_ifeval_words_use_regex_engine():
    # nltk >= 3.10.3 semantics: matras do not break words
    assert count_words_ifeval("किताबें पढ़ना") == 2
    assert count_words_ifeval("Hello, world!") == 2


_LINE_PIECES = st.sampled_from(["ab", " ", "\n", "\n\n", "1", ".", ",", "2", "'", "’", "क", "ि", "\u200c", "*", "-",
                                ":", "/", "\r", "\u2028", "x'y"])


@given(st.lists(st.lists(_LINE_PIECES, max_size=30).map("".join), min_size=1, max_size=4))
def test_counts_summed_over_lines_with_a_shared_memo_are_the_counts(texts):
    """A response's loose variants share a memo of line counts (checkers.rules): each text's
    count is its count alone, for the corrected and IFEval's tokenizers."""
    fixed: dict = {}
    ifeval: dict = {}
    for text in texts:
        assert count_words(text, fixed) == count_words(text)
        assert count_words_ifeval(text, ifeval) == count_words_ifeval(text)


# The compiled paper count against the tokens it stands for: spaces, tabs, newlines, every kind
# of punctuation the two tokenizers pad (the word character "_" among them), dandas, digits that
# may or may not form sequences, letters, marks, symbols, a non-breaking space and an emoji.
_PAPER_ALPHABET = list(" \t\n\r.,;:!?-_()[]\"'*/#@।॥۔،؟क ा ्a1२०9©—…\u00a0\u200c😀ab")
# and one of digits and the marks that join them ("1 , 000" is one token, not at the very start)
_NUMBERS_ALPHABET = list("0123456789 ,.:/ \t\na_-")


@settings(max_examples=6000)
@given(st.one_of(st.lists(st.sampled_from(_PAPER_ALPHABET), max_size=25).map("".join),
                 st.lists(st.sampled_from(_NUMBERS_ALPHABET), max_size=30).map("".join)),
       st.sampled_from(["indic", "urdu"]))
def test_compiled_paper_count_is_the_tokens_count(text, tokenizer):
    from indicifeval.text import words

    if words._kernel is None:
        if os.environ.get("INDICIFEVAL_REQUIRE_KERNEL"):
            pytest.fail("the compiled kernel (indicifeval.text._scripts_kernel) is not built")
        pytest.skip("the compiled kernel is not built")
    assert words.count_words_paper(text, tokenizer) == words.count_words_paper_python(text, tokenizer)


@settings(max_examples=2000)
@given(st.text(alphabet=st.characters(max_codepoint=127)), st.booleans())
def test_ascii_ifeval_words_are_the_regex_engines(text, fixed):
    import regex

    from indicifeval.text.words import count_words_ifeval

    pattern = regex.compile(r"[^\W\u200c\u200d]\w*" if fixed else r"\w+")
    assert count_words_ifeval(text, None, fixed) == len(pattern.findall(text))
    assert count_words_ifeval(text, {}, fixed) == sum(len(pattern.findall(line)) for line in text.split("\n"))


def _word_runs_kernel():
    from indicifeval.text import words

    if words._word_runs is None:
        if os.environ.get("INDICIFEVAL_REQUIRE_KERNEL"):
            pytest.fail("the compiled kernel (indicifeval.text._scripts_kernel) is not built")
        pytest.skip("the compiled kernel is not built")
    return words


# Digits of several scripts and other numbers (½, Ⅻ, ²), the separators, apostrophes, joiners,
# letters, marks (alone too), underscores, spaces and punctuation, and letters past the BMP
_RUN_ALPHABET = list("0१٣৫½Ⅻ²a zéकि्ংஅ_.,:/'’\u200c\u200d-!\n\t\u0301\u00a0") + ["\U0001d400", "\U0001f600"]


@settings(max_examples=5000)
@given(st.one_of(st.lists(st.sampled_from(_RUN_ALPHABET), max_size=30).map("".join), st.text(max_size=40)))
def test_compiled_word_counts_are_the_patterns(text):
    """The kernel's count of each word pattern is findall's, line by line and whole; a text past
    the BMP is counted by the pattern."""
    words = _word_runs_kernel()
    for pattern, kind in words._RUN_KINDS.items():
        n = words._word_runs(text, words._run_table(), kind)
        expected = len(pattern.findall(text))
        assert n == (-1 if any(ord(c) > 0xFFFF for c in text) else expected), (pattern.pattern, text)
        assert words._matches(pattern, text, None) == expected
    assert words.count_words(text, {}) == sum(len(words._WORD.findall(line)) for line in text.split("\n"))


def test_the_word_runs_table_is_the_regex_engines_classes_at_every_code_point():
    import regex

    words = _word_runs_kernel()
    table = words._run_table()
    for bit, cls in enumerate(words._RUN_CLASSES):
        pattern = regex.compile(cls)
        wrong = [hex(c) for c in range(0x10000) if bool(table[c] >> bit & 1) != bool(pattern.fullmatch(chr(c)))]
        assert wrong == [], cls


@settings(max_examples=3000)
@given(st.one_of(st.lists(st.sampled_from(_RUN_ALPHABET), max_size=30).map("".join), st.text(max_size=40)))
def test_compiled_letter_runs_are_the_voting_words_pattern(text):
    """Language identification's words of a text without capitals, from the kernel: the
    pattern's matches, in order; a text past the BMP is left to the pattern."""
    from indicifeval.text.langid_words import _WORD

    words = _word_runs_kernel()
    runs = words.letter_runs(text)
    assert runs == (None if any(ord(c) > 0xFFFF for c in text) else _WORD.findall(text))
