"""The compiled NFC check never calls a text its own NFC when it is not: on every pair of the
characters that compose, reorder or decompose, on triples of the hardest of them, on random
strings of them, and on every covered character alone. It also says yes where it should (answers
in NFC), or it would be dead weight. Skipped where the kernel is not built, unless
``INDICIFEVAL_REQUIRE_KERNEL=1`` (as in CI)."""

from __future__ import annotations

import itertools
import os
import random
import sys
import unicodedata
from functools import lru_cache

import pytest

from indicifeval.text import nfc_fast
from indicifeval.text.nfc_fast import COVERED, nfc, nfc_clear, nfc_tables


@pytest.fixture(autouse=True)
def _kernel_built():
    if nfc_fast._kernel is None:
        if os.environ.get("INDICIFEVAL_REQUIRE_KERNEL"):
            pytest.fail("the compiled kernel (indicifeval.text._scripts_kernel) is not built")
        pytest.skip("the compiled kernel is not built")


def _covered(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in COVERED)


@lru_cache(maxsize=1)
def _compositions() -> list[tuple[int, int, int]]:
    """(first, second, composite) of every primary composition in Unicode."""
    out = []
    for cp in range(sys.maxunicode + 1):
        parts = unicodedata.decomposition(chr(cp)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            first, second = (int(x, 16) for x in parts)
            if unicodedata.normalize("NFC", chr(first) + chr(second)) == chr(cp):
                out.append((first, second, cp))
    return out


def test_every_composition_with_a_covered_second_half_is_in_the_table():
    table, packed = nfc_tables()
    pairs = set(memoryview(packed).cast("I"))
    flags = table[2 * 0x10000:]
    for first, second, composite in _compositions():
        if second < 0x10000 and not flags[second] & 1:
            assert first << 16 | second in pairs, (hex(first), hex(second), hex(composite))


def _hard_characters() -> list[str]:
    """Covered characters that compose, are composed, reorder or decompose, and a few plain ones."""
    out = set()
    for lo, hi in COVERED:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            if unicodedata.combining(ch) or unicodedata.decomposition(ch) or unicodedata.normalize("NFC", ch) != ch:
                out.add(ch)
    for first, second, _ in _compositions():
        if _covered(second) or _covered(first):
            out.update((chr(first), chr(second)))
    out.update(["a", " ", "\n", "\u0915", "\u093e", "\u094d", "\u200c", "\u200d", "\u0964", "\u0301", "\u0323",
                "\u0345", "\U0001f600", "\u0bbe", "\u0bc6"])
    return sorted(out)


HARD = _hard_characters()


def _sound(text: str) -> None:
    if nfc_clear(text):
        assert unicodedata.normalize("NFC", text) == text, [hex(ord(c)) for c in text]


def test_every_pair_of_hard_characters():
    for a, b in itertools.product(HARD, repeat=2):
        _sound(a + b)


def test_triples_of_the_marks_and_halves():
    halves = _halves()
    core = [c for c in HARD if _covered(ord(c)) and (unicodedata.combining(c) or c in halves)] + ["a", " "]
    for a, b, c in itertools.product(core, repeat=3):
        _sound(a + b + c)


def _halves() -> set[str]:
    return {chr(x) for first, second, _ in _compositions() for x in (first, second) if _covered(x)}


def test_random_strings_of_hard_characters():
    rng = random.Random(7)
    for _ in range(100_000):
        _sound("".join(rng.choice(HARD) for _ in range(rng.randint(2, 12))))


def test_every_covered_character_alone_and_after_a_letter():
    for lo, hi in COVERED:
        for cp in range(lo, hi + 1):
            _sound(chr(cp))
            _sound("\u0915" + chr(cp))
            _sound("a" + chr(cp) + "\u093c")


def test_it_says_yes_to_answers_in_nfc_and_nfc_stays_exact():
    from indicifeval.dataset import load_responses

    answers = [t for t in load_responses("sample").texts() if len(t) > 64 and not t.isascii()]
    said = [nfc_clear(t) for t in answers]
    assert sum(said) >= 0.8 * len(answers)
    for text, clear in zip(answers, said):
        assert clear == (clear and unicodedata.normalize("NFC", text) == text)
        assert nfc(text) == unicodedata.normalize("NFC", text)
