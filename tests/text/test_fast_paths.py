"""The faster paths of language identification and keyword search give what the plain
algorithms they replace give: each is checked here against that algorithm, written out."""

from __future__ import annotations

import sys
import unicodedata
from array import array
from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from indicifeval.text.langdetect_ngrams import word_grams_python

# Letters with odd case behaviour, spaces, tabs, sentence ends and marks, mixed with any text.
_ODD = "ǅǆǉſKİıßẞΣσςͅϐβ\u0301\u093c\u0900 \t\n.!?\"'()*#-:aAbZ।িকক্ষহিंदी"
_TEXT = st.text(alphabet=st.one_of(st.sampled_from(_ODD), st.characters(blacklist_categories=("Cs",))), max_size=120)


def _voting_words_reference(text: str) -> list[str]:
    """The voting words as first written: one match at a time, looking back for the name test."""
    from indicifeval.text.langid_words import _ANY_UPPER, _SENTENCE_END, _WORD

    if _ANY_UPPER.search(text) is None:
        return _WORD.findall(text)
    found: list[tuple[str, bool]] = []
    for m in _WORD.finditer(text):
        w = m.group(0)
        name = False
        if w[0].isupper():
            if len(w) > 1 and w.isupper():
                continue
            i = m.start() - 1
            while i >= 0 and text[i] in " \t":
                i -= 1
            name = i >= 0 and text[i] not in _SENTENCE_END
        found.append((w, name))
    out, last = [], len(found) - 1
    for k, (w, name) in enumerate(found):
        if name:
            continue
        before = (k >= 1 and found[k - 1][1]) or (k >= 2 and found[k - 2][1] and not found[k - 1][1])
        after = (k < last and found[k + 1][1]) or (k + 1 < last and found[k + 2][1] and not found[k + 1][1])
        if not (before and after):
            out.append(w)
    return out


@pytest.mark.parametrize("text", [
    "The Lord of the Rings is long. SELECT it ON time", "and I went to Paris with Anna and Bob of York",
    "I", "  Hello", "x. Y z A b C d E", "मैं iPhone पर Google खोलता हूँ", "ǅemal\tǅemal ǅ", "A\tB\t c",
])
def test_voting_words_match_the_match_by_match_reference(text):
    from indicifeval.text.langid_words import _unicode_voting_words, voting_words

    assert voting_words(text) == _voting_words_reference(text) == _unicode_voting_words(text)


@settings(max_examples=600)
@given(st.one_of(_TEXT, st.text(alphabet=st.characters(max_codepoint=127), max_size=120),
                 st.text(alphabet=st.sampled_from("aZbY .!\t\n,:'\"(-"), max_size=60)))
def test_voting_words_match_the_reference_on_any_text(text):
    from indicifeval.text.langid_words import _unicode_voting_words, voting_words

    assert voting_words(text) == _voting_words_reference(text) == _unicode_voting_words(text)


def _script_counts_reference(text: str, sample: int = 600) -> Counter:
    from indicifeval.text.scripts import _is_mark, script_of

    if len(text) > sample:
        text = text[:: -(-len(text) // sample)]
    counts: Counter = Counter()
    for ch, n in Counter(text).items():
        if ch.isalpha() or _is_mark(ch):
            script = script_of(ch)
            if script is not None:
                counts[script] += n
    return counts


def _script_kernels():
    """The script counts with the compiled kernel (where built; required where CI says so) and
    without it."""
    import os

    from indicifeval.text import scripts

    kernels = [None]
    try:
        from indicifeval.text import _scripts_kernel
    except ImportError:
        if os.environ.get("INDICIFEVAL_REQUIRE_KERNEL"):
            pytest.fail("the compiled kernel (indicifeval.text._scripts_kernel) is not built")
    else:
        kernels.append(_scripts_kernel)
    return scripts, kernels


@settings(max_examples=400)
@given(st.one_of(_TEXT, st.text(alphabet=st.characters(max_codepoint=127), max_size=900),
                 st.text(alphabet=st.characters(max_codepoint=0x0DFF), min_size=600, max_size=2000)))
def test_script_counts_match_the_reference_in_value_and_order(text):
    scripts, kernels = _script_kernels()
    expected = list(_script_counts_reference(text).items())
    for kernel in kernels:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(scripts, "_kernel", kernel)
            assert list(scripts.script_counts(text).items()) == expected, kernel


def test_script_counts_of_every_code_point_match_the_reference():
    scripts, kernels = _script_kernels()
    every = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]
    for kernel in kernels[1:]:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(scripts, "_kernel", kernel)
            differ = [hex(ord(ch)) for ch in every if scripts.script_counts(ch) != _script_counts_reference(ch)]
        assert differ == []


def test_strip_controls_removes_exactly_what_the_category_pattern_did():
    from indicifeval.text.normalize import _CONTROLS

    categories = regex.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cs}\p{Co}]")
    differ = [hex(c) for c in range(sys.maxunicode + 1)
              if bool(categories.match(chr(c))) != bool(_CONTROLS.match(chr(c)))]
    assert differ == []
    assert all(unicodedata.category(chr(c)) in ("Cc", "Cs", "Co")
               for c in range(sys.maxunicode + 1) if _CONTROLS.match(chr(c)))


@settings(max_examples=400)
@given(st.text(alphabet=st.sampled_from(_ODD + "कखगक्ष12"), min_size=1, max_size=4), _TEXT)
def test_an_uncased_literal_absent_from_the_text_matches_no_ifeval_pattern(word, text):
    from indicifeval.checkers.rules import _ifeval_bounded_regex, _ifeval_regex, _plain_uncased

    if _plain_uncased(word) and word not in text:
        for raw in (True, False):
            assert _ifeval_regex(word, raw).search(text) is None
            assert _ifeval_bounded_regex(word, raw).search(text) is None


def test_no_character_folds_onto_an_uncased_one():
    """What _plain_uncased relies on: under re.IGNORECASE a pattern character c matches a text
    character d where d's lower case is c's (or the two are one of re's extra case pairs); for
    a c without case, no other d has c as its lower case, and no extra pair holds it."""
    from re._casefix import _EXTRA_CASES

    from indicifeval.checkers.rules import _plain_uncased

    onto = [hex(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF
            and chr(c).lower() != chr(c) and _plain_uncased(chr(c).lower()[0])]
    assert onto == []
    extra = [hex(c) for key, values in _EXTRA_CASES.items() for c in (key, *values) if _plain_uncased(chr(c))]
    assert extra == []


def _word_grams_reference(word: str, trailing: bool, lookup):
    """One character at a time, as NGram reads it (the way words with capitals still go)."""
    from indicifeval.text.langdetect_ngrams import grams_by_character

    return grams_by_character(" " + word + " " if trailing else " " + word, lookup)


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("abcxyzABéèकखि्ংআ" + "ǅſ"), min_size=1, max_size=12), st.booleans())
def test_word_grams_match_the_character_by_character_reference(word, trailing):
    from indicifeval.text.langdetect_fast import _model
    from indicifeval.text.langdetect_ngrams import word_grams, word_grams_python

    lookup = _model()._grams.__getitem__
    assert word_grams(word, trailing, lookup) == _word_grams_reference(word, trailing, lookup)
    assert word_grams_python(word, trailing, lookup) == _word_grams_reference(word, trailing, lookup)


def _langdetect_kernel():
    import os

    try:
        from indicifeval.text import _langdetect_kernel
    except ImportError:
        if os.environ.get("INDICIFEVAL_REQUIRE_KERNEL"):
            pytest.fail("the compiled kernel (indicifeval.text._langdetect_kernel) is not built")
        pytest.skip("the compiled kernel is not built")
    return _langdetect_kernel


# Letters whose case Python and the n-grams read oddly, marks, letters past the BMP, Latin-1
_GRAM_LETTERS = "abcxyzABéèÅकखि्ংআǅſΣİẞᾈⅫ\u0345\U0001d400\U00010400\U0001f600ΩΩ"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(_GRAM_LETTERS), min_size=1, max_size=12), min_size=1, max_size=8),
       st.booleans())
def test_the_kernels_word_grams_are_the_pythons(words, trailing):
    """The kernel's word_grams, given the GramTable itself (a fresh one: every n-gram a miss
    the first time, its __missing__ asked from C) or a function, gives the same vectors and
    mask as the Python version, and fills the table as it does."""
    from indicifeval.text.langdetect_fast import _model
    from indicifeval.text.langdetect_ngrams import GramTable

    kernel = _langdetect_kernel()
    model = _model()
    table, python = (GramTable(model._profiles, model.n_langs, packed=True) for _ in range(2))
    for _ in range(2):  # misses, then hits
        for word in words:
            expected = word_grams_python(word, trailing, python.__getitem__)
            assert kernel.word_grams(word, trailing, table) == expected
            assert kernel.word_grams(word, trailing, python.__getitem__) == expected
        assert table == python


def test_the_kernels_word_grams_take_masks_past_64_bits_and_refuse_bad_entries():
    kernel = _langdetect_kernel()
    entries = {" a": ((1.0,), 1 << 70), "a": ((2.0,), 3), "a ": None, " a ": ((3.0,), 4)}
    assert kernel.word_grams("a", True, entries) == word_grams_python("a", True, entries.__getitem__)
    assert kernel.word_grams("a", True, entries) == (((2.0,), (1.0,), (3.0,)), (1 << 70) | 7)
    with pytest.raises(KeyError):
        kernel.word_grams("b", False, entries)
    with pytest.raises(TypeError, match="entry"):
        kernel.word_grams("a", False, {" a": 5, "a": None})
    with pytest.raises(ZeroDivisionError):
        kernel.word_grams("a", False, lambda gram: 1 / 0)


def test_gram_vectors_match_the_profile_by_profile_reference():
    from indicifeval.text.langdetect_fast import _model

    model = _model()
    grams = ["a", " a", "th", "the", "क", " क", "कि", "ক্ষ", "zzq", " ß", "ñ", "\u0e01", "の", "є "]
    for gram in grams + sorted(model._profiles[0][0])[:300]:
        vector, mask = [0.0] * model.n_langs, 0
        known = any(gram in freq for freq, _ in model._profiles)
        for index, (freq, n_words) in enumerate(model._profiles):
            count = freq.get(gram)
            if count is not None:
                vector[index] = 1.0 * count / n_words[len(gram) - 1]
                if vector[index]:
                    mask |= 1 << index
        expected = (vector, mask or 1 << model.n_langs) if known else None
        found = model._grams[gram]
        if found is not None and isinstance(found[0], bytes):  # packed for the compiled estimation
            found = (list(array("d", found[0])), found[1])
        assert found == expected, gram



def test_the_kernels_gram_entries_are_the_pythons():
    """Every n-gram of a few profiles and some no profile has: the kernel's entry (packed and
    as a list) is the Python version's, double for double; odd inputs go back to Python."""
    from indicifeval.text.langdetect_fast import _model
    from indicifeval.text.langdetect_ngrams import GramTable

    kernel = _langdetect_kernel()
    model = _model()
    grams = {"a", " a", "th", "the", "क", " क", "कि", "ক্ষ", "zzq", " ß", "ñ", "\u0e01", "の", "є ", " ", "  ", "x"}
    for freq, _ in model._profiles[::6]:
        grams.update(freq)
    for packed in (True, False):
        table = GramTable(model._profiles, model.n_langs, packed=packed)
        table["a"]  # (its index by first letter made)
        assert table._by_first is not None
        for gram in sorted(grams):
            having = table._by_first.get(gram[gram[0] == " " and len(gram) > 1], ())
            assert kernel.gram_entry(gram, having, model.n_langs, packed) == table.entry_python(gram, having), gram
    odd = ((0, {"ab": 2.5}, [1, 4]),)
    assert kernel.gram_entry("ab", odd, 3, True) is NotImplemented
    assert kernel.gram_entry("ab", ((0, {"ab": None}, [1, 4]),), 3, True) is NotImplemented
    assert kernel.gram_entry("ab", ((5, {"ab": 1}, [1, 4]),), 3, True) is NotImplemented
    assert kernel.gram_entry("abc", ((0, {"abc": 1}, [1, 4]),), 3, True) is NotImplemented
    assert kernel.gram_entry("ab", ((0, {"ab": 1}, [1, 4]),), 70, True) is NotImplemented
    assert kernel.gram_entry("ab", ((1, {"ab": 0}, [1, 4]),), 3, False) == ([0.0, 0.0, 0.0], 1 << 3)
    with pytest.raises(ZeroDivisionError):
        kernel.gram_entry("ab", ((0, {"ab": 1}, [1, 0]),), 3, True)
    table = GramTable([({"ab": 2.5}, [1, 4])], 1)  # a count Python divides its own way
    assert table["ab"] == ([0.625], 1)


_COMPOSING = ("aeiouAEOUnNcCsSzZ\u0300\u0301\u0302\u0308\u0323\u0327\u0328\u031b\u0345\u05b0\u05b4"
              "\u1100\u1161\u11a8\uac00\u0915\u093c\u093e\u094d\u0928\u09c7\u09be\u09d7\u0b47\u0b3e\u0b56"
              "\u0bc6\u0bbe\u0bd7\u0cc6\u0cc2\u0cd5\u0d46\u0d3e\u0d57\u0dd9\u0dcf\u0ddf\u1025\u102e\u0f71\u0f72")


@settings(max_examples=500)
@given(st.text(alphabet=st.sampled_from(_COMPOSING), max_size=30))
def test_every_start_of_an_nfc_text_is_nfc(text):
    """What langid's CLD2 sample relies on: the first characters of an NFC text need no
    normalising again."""
    text = unicodedata.normalize("NFC", text)
    for k in range(len(text) + 1):
        assert unicodedata.is_normalized("NFC", text[:k]), (text, k)


_PHRASE_TEXT = st.text(alphabet=st.sampled_from("ab कि\"'“”*_ \t\n\u3000\x1cA.,"), max_size=300)


@settings(max_examples=500)
@given(_PHRASE_TEXT, st.text(alphabet=st.sampled_from("ab कि\"'*_ A."), max_size=12))
def test_collapsed_start_and_end_read_from_the_ends_as_from_the_whole(text, phrase):
    from indicifeval.checkers.rules import TextView, get_rules
    from indicifeval.core.modes import ScoringMode
    from indicifeval.text.normalize import collapse

    rules = get_rules("hi", "trans", ScoringMode.FIXED)
    target = collapse(phrase)
    strip = "\"'“”*_ \t\n"
    whole = TextView(text, rules).collapsed
    assert TextView(text, rules).collapsed_starts_with(target) == whole.startswith(target)
    if target:
        assert TextView(text, rules).collapsed_ends_with(target, strip) == whole.strip(strip).endswith(target)


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("ab कि*-—•., \n\t#"), max_size=200), st.integers(0, 4))
def test_leading_words_read_from_the_start_as_from_all_tokens(paragraph, n):
    from indicifeval.text.normalize import match_key
    from indicifeval.text.paragraphs import leading_words, strip_edges

    every = [match_key(w) for w in map(strip_edges, paragraph.split()) if w]
    expected = every[:n] if n else every  # (n = 0: no count is reached)
    assert leading_words(paragraph, n) == expected


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("pPsS. \n\t\u00a0x"), max_size=40), st.sampled_from(["P.S.", "P.P.S"]),
       st.booleans())
def test_postscript_without_p_dot_is_what_the_full_search_finds(text, marker, paper):
    from indicifeval.checkers.content import _reference_postscript, postscript
    from indicifeval.checkers.rules import TextView, get_rules
    from indicifeval.core.modes import ScoringMode

    rules = get_rules("en", "trans", ScoringMode.PAPER if paper else ScoringMode.FIXED)
    found, _ = postscript(TextView(text, rules), {"postscript_marker": marker}, rules)
    assert found == (_reference_postscript(marker, rules.paper).search(text.lower()) is not None)
