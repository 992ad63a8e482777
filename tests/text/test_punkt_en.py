"""English sentences and words: exactly NLTK's (Punkt with the English tables, then
NLTKWordTokenizer, i.e. nltk.word_tokenize), with bounded Python work per character.

The oracle is the previous implementation: NLTK's own ``PunktSentenceTokenizer.tokenize`` and
``NLTKWordTokenizer.tokenize`` per sentence. The work test counts Python-level calls (a
deterministic measure): NLTK makes tens per character on degenerate answers, we make a few
per candidate full stop, or none per character where nothing can change the answer.
"""

from __future__ import annotations

import sys

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indicifeval.text import punkt_en

many = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def nltk_word_tokenizer():
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


def old_sentences(text: str) -> list[str]:
    return punkt_en._tokenizer().tokenize(text)


def old_words(text: str) -> list[str]:
    from nltk.tokenize import NLTKWordTokenizer

    tokenizer = NLTKWordTokenizer()
    return [t for s in old_sentences(text) for t in tokenizer.tokenize(s)]


def check(text: str) -> None:
    expected = old_words(text)
    assert punkt_en.sent_tokenize_en(text) == old_sentences(text)
    assert punkt_en.count_sentences_en(text) == len(old_sentences(text))
    assert punkt_en.word_tokenize_en(text) == expected
    assert punkt_en.count_upper_words_en(text) == sum(1 for t in expected if t.isupper())


# Everything Punkt and the Treebank rules look at: sentence ends, closing and opening quotes
# and brackets (ASCII, curly, guillemets), NonWord punctuation, ASCII and other whitespace
# (U+001C..U+001F are whitespace to str but not to the regex engine), case, abbreviations,
# initials, numbers, ellipses, dashes, contractions.
PIECES = (list("aAbBzZ.?!,;:'\"()[]{}<>*-—–`«»“”‘’„ \n\t\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000…$%&@#0123456789")
          + ["Dr.", "U.S.", "e.g.", "Mr. ", "P.S. ", "A. ", "...", "--", "can", "not", "cannot", "'s ", "n't ",
             "'ll", "'RE", "gonna", "wanna ", "'tis", "'T", "IS", "\n\n", ". ", "! ", "? ", ".)", '."', ".'", "''",
             "``", "The", "NASA", "FOX", "dog", "no.", "1.", "2.5", "Jan.", "etc.", " i.e. ", "a.m.", "J. ", "Bach",
             "St.", "Inc.", ".\u00a0", "!\u2028", "(((", "!!!", "?!", ". . .", "É", "ǅ", "İ", "\x00", "\ue000"])
english = st.lists(st.sampled_from(PIECES), max_size=50).map("".join)

ADVERSARIAL = [
    "Very bad acting!!! I promise.", "(Sent1.) Sent2.", "He said \"Stop.\" Then he left.", "x!!!!!!!!! y",
    "a.\u00a0 \nb. C", "!\u00a0x", "!  ", " . x", ".x. y", "A. B. C. D.", "\n\n!" * 20, "P.S. \n" * 20,
    "x" + "!" * 200 + "a.a.a.a.a y", "!" * 50 + "\u00a0" + "?" * 50 + " Z", "(((!" * 30 + " X",
    "“Quote.” Next.", "It's. IT'S. Don't! DON'T? cannot CANNOT gimme 'tis", "1. 2. 3. Go.", "\x1c.\x1c x. y",
    '"' * 9 + ". " + "'" * 9, "Mr. Smith went to Washington D.C. He arrived.", "a,\n\nb:" * 5, "--. --! x",
    ". " * 30, "...A... B... c.", "e.g. \"x\" (y) [z] {w} <v>.",
]


@many
@given(text=english)
def test_the_same_sentences_and_words_as_nltk(text):
    check(text)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_the_same_on_any_text(text):
    check(text)


@pytest.mark.parametrize("text", ADVERSARIAL)
def test_the_same_on_adversarial_text(text):
    check(text)


@pytest.mark.parametrize("pattern", ["A. ", "\n\n!", "!", "P.S. \n", "[", "(((!", "Dr. X. ", "a. b? c! ", "“x.” "])
def test_the_same_on_long_degenerate_text(pattern):
    check("x" + pattern * (4000 // len(pattern)) + "x")


def test_the_mirrored_tokenizer_is_nltks(nltk_word_tokenizer):
    # If NLTK changes its patterns, the batch path is not used (tokens stay NLTK's, only slower).
    assert punkt_en._batch_table(nltk_word_tokenizer) is not None


def test_separators_are_inert():
    for sep in punkt_en._SEPARATORS:
        assert not sep.isspace() and not sep.isupper()
        assert regex.match(r"[\w\s\d]", sep) is None and regex.match(r"(?i)[\w\s\d]", sep) is None


def test_any_separator_or_none(monkeypatch):
    sentences = ["It's \x00 CAN'T.", "\"A\" b."]
    tokenizer = punkt_en._word_tokenizer()
    expected = [tokenizer.tokenize(s) for s in sentences]
    assert punkt_en._tokenize_batch(sentences) == expected  # the second separator
    monkeypatch.setattr(punkt_en, "_SEPARATORS", "\x00")
    assert punkt_en._tokenize_batch(sentences) == expected  # none left: one by one
    assert punkt_en._tokenize_batch([]) == []


# --- work per character --------------------------------------------------------------------------
def python_calls(fn, text: str) -> int:
    """Python and builtin function calls while ``fn(text)`` runs (deterministic)."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        fn(text)
    finally:
        sys.setprofile(None)
    return count


# (pattern, most calls per character for sentences, for capital words). A candidate full stop
# alone in its space-free stretch costs about a dozen calls (NLTK: about a hundred, and as
# many per sentence for words); stretches of candidates ("!!!") and answers without capitals
# cost a constant.
WORK = [
    ("A. ", 5, 6), ("\n\n!", 5, 0.01), ("P.S. \n", 5, 6), ("Dr. X. ", 5, 6), ("a. b? c! ", 5, 0.01),
    ("THE END. ", 5, 6), ("!", 0.05, 0.01), ("(((!", 0.05, 0.01), ("[", 0.05, 0.01),
]


@pytest.mark.parametrize("pattern,sentence_calls,capital_calls", WORK)
def test_python_work_per_character_is_bounded(pattern, sentence_calls, capital_calls):
    punkt_en.count_sentences_en("Warm up. Now.")

    def capitals(text):
        if hasattr(punkt_en, "count_upper_words_en"):
            return punkt_en.count_upper_words_en(text)
        return sum(1 for t in punkt_en.word_tokenize_en(text) if t.isupper())  # before the rewrite

    for name, fn, bound in (("sentences", punkt_en.count_sentences_en, sentence_calls),
                            ("capital words", capitals, capital_calls)):
        small, large = (f"{tag}{pattern * (size // len(pattern))}{tag}" for tag, size in (("x", 3000), ("y", 24000)))
        calls_small, calls_large = python_calls(fn, small), python_calls(fn, large)
        assert calls_large < 30 * max(calls_small, 1), name
        assert calls_large / len(large) <= bound, f"{name}: {calls_large / len(large):.2f} calls per character"


def test_punkt_loads_without_nltks_whole_package_and_nltk_still_imports():
    """English sentence counting needs two NLTK modules, not the package's __init__ (which
    imports scipy and scikit-learn where installed); a later `import nltk` still works."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from indicifeval.text.punkt_en import count_sentences_en\n"
            "assert count_sentences_en('Mr. Smith came. He left!') == 2\n"
            "assert not [m for m in sys.modules if m.startswith('nltk')]\n"
            "assert 'scipy' not in sys.modules and 'sklearn' not in sys.modules\n"
            "assert 'http.client' not in sys.modules and 'ssl' not in sys.modules\n"
            "import nltk, nltk.tokenize\n"
            "assert nltk.tokenize.punkt is sys.modules['nltk.tokenize.punkt']\n"
            "assert count_sentences_en('One. Two.') == 2\n"
            "assert callable(nltk.word_tokenize)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_punkt_loaded_without_its_training_modules_splits_as_nltk_loaded_whole():
    """The Punkt and word tokenizer loaded beside stand-ins for the modules they only train,
    save or give offsets with split every text as NLTK's own, loaded whole in the same
    process afterwards; the stand-ins refuse to be used."""
    import json
    import subprocess

    texts = ADVERSARIAL + ["".join(PIECES[i::7]) for i in range(7)] + ["".join(reversed(PIECES))]
    code = ("import json, sys\n"
            "from collections import defaultdict\n"
            "from indicifeval.text import punkt_en\n"
            "texts = json.loads(sys.stdin.read())\n"
            "ours = [punkt_en._tokenizer().tokenize(t) for t in texts]\n"
            "words = [punkt_en._word_tokenizer().tokenize(t) for t in texts]\n"
            "assert punkt_en.nltk_module('nltk.tokenize.punkt').pathsec._indicifeval_stub\n"
            "try:\n"
            "    punkt_en.nltk_module('nltk.tokenize.punkt').FreqDist()\n"
            "except RuntimeError:\n"
            "    pass\n"
            "else:\n"
            "    raise AssertionError('a stand-in was usable')\n"
            "import nltk\n"
            "from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer\n"
            "from punkt.data import english\n"
            "params = PunktParameters()\n"
            "params.abbrev_types = set(english.ABBREV_TYPES)\n"
            "params.collocations = {tuple(c) for c in english.COLLOCATIONS}\n"
            "params.sent_starters = set(english.SENT_STARTERS)\n"
            "params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)\n"
            "assert not getattr(nltk.tokenize.punkt.pathsec, '_indicifeval_stub', False)\n"
            "assert ours == [PunktSentenceTokenizer(params).tokenize(t) for t in texts]\n"
            "assert words == [nltk.tokenize.NLTKWordTokenizer().tokenize(t) for t in texts]\n")
    subprocess.run([sys.executable, "-c", code], input=json.dumps(texts), text=True, check=True)


# Capitals beside what the tokenizer splits at: contractions ("Cannot", "'Tis", "In't"),
# apostrophes, word boundaries (a circled capital is no letter), titlecase, marks.
_CAPITAL_PIECES = ["I", "A", "NASA", "U.S.", "The", "Cannot", "D'ye", "'Tis", "'T", "In't", "DON'T", "Don't",
                   "Gimme", "Wanna", "GONNA", "more'n", "Mr.", "B's", "'S", "N'T", "ǅ", "ǅA", "ǈa", "Ⅷ", "Ⅷx",
                   "Ⓐ", "Ⓐgimme", "ⓐ", "Aⓐⓑ", "Aªa", "ª", "A\u0301bc", "Ab\u0301c", "ẞ", "Éa", "1A", "_Ab",
                   "is", "can", "not", "lemme", " ", " ", ". ", "\n", "\"", "'", "(", "’", "«"]


@many
@given(st.lists(st.sampled_from(_CAPITAL_PIECES), max_size=30).map("".join))
def test_all_capital_tokens_are_counted_where_the_capitals_may_make_one(text):
    check(text)


def test_capitals_remembered_by_sentence_stay_right_past_the_bound(monkeypatch):
    """The all-capitals count of each sentence is remembered (a response's loose variants share
    its sentences) within a bound: past it, the counts are the same."""
    texts = ["I met NASA staff. The U.S. team said OK. We left.", "A cat sat. I saw IT happen! Then NASA called.",
             "No capitals here at all.", "WE WON. I cheered. We left."]
    expected = [sum(1 for t in punkt_en.word_tokenize_en(x) if t.isupper()) for x in texts]
    monkeypatch.setattr(punkt_en, "_CAPITALS_KEPT", 2)
    monkeypatch.setattr(punkt_en, "_capitals_of", {})
    assert [punkt_en.count_upper_words_en(x) for x in texts * 3] == expected * 3
    assert len(punkt_en._capitals_of) <= 2 + 3
