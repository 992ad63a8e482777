"""The implicit constraints' compiled kernel against their Python counts: the same invisible
characters, words, most common word, repeated 4-grams, echo coverage, lines and letter
trigrams on random text made of what answers and hacks are made of (Indic letters and marks,
joiners inside and outside words, format characters, blank letters, apostrophes, line breaks,
bullets, characters beyond the BMP, letters whose lower case is longer), and the same
verdicts on the bundled sample and the hack matrix. Skipped where the kernel is not built,
unless ``INDICIFEVAL_REQUIRE_KERNEL=1`` (as in CI)."""

from __future__ import annotations

import os
import random

import pytest
import regex

from indicifeval.scoring import implicit
from indicifeval.scoring.implicit import chars, measures, plausible
from indicifeval.scoring.implicit.chars import INVISIBLE
from indicifeval.scoring.implicit.compared import Compared
from indicifeval.scoring.implicit.view import AnswerView

if chars.kernel is None:
    if os.environ.get("INDICIFEVAL_REQUIRE_KERNEL"):
        pytest.fail("the compiled kernel (indicifeval.scoring.implicit._kernel) is not built", pytrace=False)
    pytest.skip("the compiled kernel is not built here", allow_module_level=True)

KERNEL = chars.kernel
PIECES = ["क", "ख", "म", "ा", "ि", "्", "\u200c", "\u200d", "\u200b", "\ufeff", "\u2060", "\u3164", "\u2800",
          "\u115f", "'", "’", "a", "B", "İ", "Σ", "ß", "ക", "ൽ", "ന്\u200d", "্য", "ক", "১", "7", " ", " ", " ", "\n",
          "\n", "\t", "\r", "\u2028", "\u00a0", ".", "।", "-", "* ", "1. ", "🙂", "𝐀", "𐌰", "\ud800", "{", "\"", "```"]
WORDS = ["बारिश", "आई", "खेत", "हरे", "the", "rain", "মেঘ", "ಮಳೆ", "'", "x"]


def _text(rng: random.Random, n: int) -> str:
    if rng.random() < 0.5:  # words and line breaks: repeats, echoes and bullets
        out = [rng.choice(WORDS) + rng.choice(["", "", " ", "\n", "\n- ", "\u200c", "."]) for _ in range(n)]
        return " ".join(out)
    return "".join(rng.choice(PIECES) for _ in range(n))


@pytest.fixture
def python_counts(monkeypatch):
    """Run a block with the kernel turned off."""
    def off():
        monkeypatch.setattr(chars, "kernel", None)
        monkeypatch.setattr(measures, "kernel", None)

    def on():
        monkeypatch.setattr(chars, "kernel", KERNEL)
        monkeypatch.setattr(measures, "kernel", KERNEL)
    return off, on


def test_invisible_characters_match_the_expression():
    rng = random.Random(0)
    for _ in range(3000):
        text = _text(rng, rng.randint(0, 60))
        count, kept = KERNEL.invisible(text, chars.class_table())
        assert (count, kept) == (sum(1 for _ in INVISIBLE.finditer(text)), INVISIBLE.sub("", text)), repr(text)


def test_counts_match_python():
    rng = random.Random(1)
    for _ in range(1500):
        answer = _text(rng, rng.randint(0, 80))
        prompt = _text(rng, rng.randint(0, 40))
        given = tuple(rng.sample(WORDS, rng.randint(0, 3)))
        compared = Compared((prompt,), (_text(rng, 10),), (prompt + " " + answer[: rng.randint(0, 40)],),
                            given, given[:1])
        view = AnswerView(answer)
        assert measures.measure(view, compared) == measures.measure_python(view, compared), repr(answer)


def test_echoes_are_found_by_both():
    rng = random.Random(2)
    found = 0
    for _ in range(300):
        prompt = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 30)))
        answer = " ".join([prompt] * rng.randint(1, 3) + [_text(rng, rng.randint(0, 20))])
        compared = Compared((prompt,), (), (prompt,), (), ())
        view = AnswerView(answer)
        theirs = measures.measure_python(view, compared)
        assert measures.measure(view, compared) == theirs
        found += theirs.own_covered > 0 and theirs.whole_found > 0
    assert found > 200


def test_letter_trigrams_match_python(python_counts):
    off, on = python_counts
    rng = random.Random(3)
    known = plausible.known_trigrams("hi")
    assert known is not None
    for _ in range(1000):
        view = AnswerView(_text(rng, rng.randint(0, 120)))
        fast = measures.trigram_counts(view, 80, "Deva", known)
        off()
        slow = measures.trigram_counts(view, 80, "Deva", known)
        on()
        assert fast == slow, repr(view.raw)


def test_bullets_are_the_lines_one_by_one():
    line = regex.compile(r"^\s*(?:[*\-+•●◦▪–]|\d{1,3}[.)])(?:\s+|$)(.*)$")
    rng = random.Random(4)
    for _ in range(3000):
        text = _text(rng, rng.randint(0, 60))
        expected = [m.group(1).strip().lower() for m in map(line.match, AnswerView(text).text.split("\n")) if m]
        assert AnswerView(text).bullets == expected, repr(text)


def test_verdicts_match_python_on_the_sample_and_the_hacks(python_counts):
    from indicifeval.dataset import load_rows
    from indicifeval.dataset.responses import load_responses
    from indicifeval.dataset.rows import SAMPLES
    from indicifeval.scoring.engine import resolve_row
    from indicifeval.testing.hacks import hack_cases

    cases = []
    for name in SAMPLES:
        answers = load_responses(name)
        cases += [(row, answers.lookup(row)) for row in load_rows(name)]
    cases += [(row, answer) for language in ("hi", "ta", "en") for _, row, answer in hack_cases(language)]
    off, on = python_counts
    fast = [implicit.implicit_failures(row, resolve_row(row, "fixed"), answer) for row, answer in cases]
    implicit._EXPECTED.clear()
    off()
    slow = [implicit.implicit_failures(row, resolve_row(row, "fixed"), answer) for row, answer in cases]
    on()
    assert fast == slow and any(fast) and not all(fast)


@pytest.mark.parametrize("text", ["\u200c" * 200_000, "a " * 300_000, "\n" * 300_000, "क्" * 200_000, "🙂" * 100_000])
def test_degenerate_texts(text):
    view = AnswerView(text)
    compared = Compared(("a a a a a",), (), ("a a a a a",), ("a",), ("a",))
    assert measures.measure(view, compared) == measures.measure_python(view, compared)
