"""English verdicts of the copying and word-position ids against open-instruct's own checkers
(allenai/open-instruct, open_instruct/IFEvalG), on seeded generated answers: near misses around
each rule and degenerate answers. Needs a checkout named by $INDICIFEVAL_OPEN_INSTRUCT and the
reference's dependencies (nltk, langdetect, absl-py, immutabledict); skips, saying why, without.

NLTK's punkt data cannot be downloaded here: the reference's ``nltk.word_tokenize`` is given
NLTK's own Punkt tokenizer with the English tables that text/punkt_en.py reads (the same data).

Differences that are ours on purpose (docs/scoring.md): an empty or blank answer fails every
instruction (the reference passes some vacuously, and raises on others), and a phrase's words
are literal text (the reference puts them into a regex unescaped)."""

from __future__ import annotations

import os
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.scoring.engine import score_row
from tests.conftest import make_row

CHECKOUT = os.environ.get("INDICIFEVAL_OPEN_INSTRUCT")
IDS = ("copy:repeat_phrase", "copy:copy", "copy:copying_simple", "copy:copying_multiple", "new:copy_span_idx",
       "first_word:first_word_sent", "first_word:first_word_answer", "last_word:last_word_sent",
       "last_word:last_word_answer", "paragraphs:paragraphs", "paragraphs:paragraphs2", "keywords:start_end",
       "keywords:keyword_specific_position", "detectable_format:bigram_wrapping")
CASES_PER_ID = 1500
TARGET = 0.995


def _reference():
    if not CHECKOUT:
        pytest.skip("set INDICIFEVAL_OPEN_INSTRUCT to a checkout of allenai/open-instruct to compare with it")
    if not (Path(CHECKOUT) / "open_instruct" / "IFEvalG" / "instructions_registry.py").exists():
        pytest.skip(f"{CHECKOUT} has no open_instruct/IFEvalG/instructions_registry.py")
    for module in ("nltk", "langdetect", "absl", "immutabledict"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"the reference needs {module} (pip install {module.replace('absl', 'absl-py')})")
    sys.path.insert(0, CHECKOUT)
    try:
        from open_instruct.IFEvalG import instructions_registry
    except ImportError as exc:
        pytest.skip(f"the reference does not import here: {exc}")
    finally:
        sys.path.remove(CHECKOUT)
    _offline_punkt()
    return instructions_registry.INSTRUCTION_DICT if hasattr(instructions_registry, "INSTRUCTION_DICT") \
        else instructions_registry.FUNCTION_DICT


def _offline_punkt():
    """nltk.word_tokenize's Punkt tokenizer, built from the English tables we ship."""
    import nltk.tokenize
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    from indicifeval.text import punkt_en

    params = punkt_en._tokenizer()._params
    nltk.tokenize._get_punkt_tokenizer = lambda language="english": PunktSentenceTokenizer(params)


def reference_verdict(table, iid: str, kwargs: dict, response: str) -> bool:
    checker = table[iid](iid)
    checker.build_description(**kwargs)
    try:
        return bool(checker.check_following(response))
    except Exception:  # (the reference raises on some answers; a crash does not follow)
        return False


def our_verdict(iid: str, kwargs: dict, response: str) -> bool:
    return score_row(make_row(iid, kwargs, "en"), response, "fixed").strict[0]


# --- generated answers ---------------------------------------------------------------------------
WORDS = "the a cat dog house river bright quickly ran over under and but because today music history".split()
PHRASES = ["Look before you leap", "Still waters run deep", "Slow and steady wins the race",
           "Birds of a feather flock together", "Rome was not built in a day"]
PUNCT = [".", ",", "!", "?", "...", ";", ":", '"', "'", "”", ")", "-"]
TRICKY = ["Mr.", "Dr.", "U.S.", "e.g.", "3.5", "www.site.com", "Inc.", "Ph.D.", "A.", "However", "He", "...", "?!",
          "<<", ">>", "***", "******", "\n", "\n\n", "\n\n\n", " \n\n", "\t", "<stop>"]
DEGENERATE = ["", " ", "\n\n", ".", "!!!", "***", "******", "<<>>", "\u200b", "a", "<<a>>", "... ...",
              "a " * 2000, "." * 3000, "\n" * 500, "word\n\n" * 300]


def _sentence(rng: random.Random, first: str | None = None, last: str | None = None) -> str:
    body = [rng.choice(WORDS) for _ in range(rng.randint(1, 6))]
    if rng.random() < 0.2:
        body.insert(rng.randrange(len(body) + 1), rng.choice(TRICKY))
    if first is not None:
        body.insert(0, first + rng.choice(["", "", "", ",", ":"]))
    if last is not None:
        body.append(last)
    end = rng.choice([".", ".", ".", "!", "?", "", "...", '."', ".”", " ."])
    return " ".join(body) + end


def _text(rng: random.Random, first: str | None = None, last: str | None = None) -> str:
    sentences = []
    for _ in range(rng.randint(1, 4)):
        f = first if first is not None and rng.random() < 0.85 else None
        word = last if last is not None and rng.random() < 0.85 else None
        if f is not None and rng.random() < 0.1:
            f = f.upper() if rng.random() < 0.5 else f.capitalize()
        sentences.append(_sentence(rng, f, word))
    joiner = rng.choice([" ", " ", "\n", "\n\n", "  "])
    return joiner.join(sentences)


def _vary(rng: random.Random, phrase: str, changes: int) -> str:
    words = phrase.split()
    for _ in range(changes):
        i = rng.randrange(len(words)) if rng.random() < 0.2 else rng.randrange(1, max(2, len(words) - 1))
        words[min(i, len(words) - 1)] = rng.choice(WORDS)
    return " ".join(words)


def generate(iid: str, rng: random.Random) -> tuple[dict, str]:
    if rng.random() < 0.04:
        kwargs, _ = generate(iid, random.Random(rng.random()))
        return kwargs, rng.choice(DEGENERATE)
    if iid == "copy:repeat_phrase":
        phrase, n = rng.choice(PHRASES), rng.randint(1, 4)
        parts = [_vary(rng, phrase, rng.choice([1, 1, 1, 0, 2])) for _ in range(rng.choice([n, n, n - 1, n + 1]))]
        if rng.random() < 0.3:
            parts.insert(0, _sentence(rng))
        return {"phrase": phrase, "small_n": n}, rng.choice([". ", "\n", ", ", " "]).join(parts) + rng.choice(["", "."])
    if iid in ("copy:copy", "copy:copying_simple", "copy:copying_multiple", "new:copy_span_idx"):
        prompt = _text(rng)
        if iid == "new:copy_span_idx":
            prompt = prompt.lstrip()  # (a kwarg reaches a check stripped: the indices would shift)
            start = rng.randint(1, max(1, len(prompt) - 2))  # (the reference draws a random start for 0)
            end = rng.randint(start + 1, max(start + 1, len(prompt)))
            span = prompt[start + rng.choice([0, 0, 0, 1, -1]) : end + rng.choice([0, 0, 0, 1, -1])]
            return {"prompt_to_repeat": prompt, "n_start": start, "n_end": end}, _dress(rng, span)
        if iid == "copy:copying_multiple":
            n = rng.randint(2, 3)
            pieces = [_dress(rng, prompt) for _ in range(rng.choice([n, n, n - 1, n + 1]))]
            separator = rng.choice(["******", "******", "\n******\n", "*****", "*******"])
            return {"prompt_to_repeat": prompt, "N": n}, separator.join(pieces)
        return {"prompt_to_repeat": prompt}, _dress(rng, prompt)
    if iid.startswith("first_word:"):
        word = rng.choice(WORDS)
        return {"first_word": word}, _text(rng, first=word)
    if iid.startswith("last_word:"):
        word = rng.choice(WORDS)
        return {"last_word": word}, _text(rng, last=word)
    if iid.startswith("paragraphs:"):
        separator = rng.choice(["***", "\n***\n", " *** ", "\n\n", "\n\n\n", "\n\n\n\n", "\n \n", "\r\n\r\n"])
        pieces = [_text(rng) for _ in range(rng.choice([2, 2, 1, 3]))]
        text = separator.join(pieces)
        return {}, rng.choice(["", separator, "\n"]) + text + rng.choice(["", separator, "\n"])
    if iid == "keywords:start_end":
        word = rng.choice(WORDS)
        return {}, (rng.choice(["", '"', "*"]) + word + " " + _text(rng) + " " + rng.choice([word, word.upper(), "x"])
                    + rng.choice(["", "", ".", "!"]))
    if iid == "keywords:keyword_specific_position":
        word, n, m = rng.choice(WORDS), rng.randint(1, 3), rng.randint(1, 4)
        sentences = [_sentence(rng) for _ in range(rng.randint(1, 4))]
        i = min(n - 1 + rng.choice([0, 0, 1]), len(sentences) - 1)
        tokens = sentences[i].split()
        tokens.insert(min(m - 1 + rng.choice([0, 0, -1, 1]), len(tokens)), rng.choice([word, word, word.capitalize()]))
        sentences[i] = " ".join(tokens)
        return {"keyword": word, "n": n, "m": m}, " ".join(sentences)
    assert iid == "detectable_format:bigram_wrapping"
    tokens = [rng.choice(WORDS) for _ in range(rng.randint(1, 9))]
    out = []
    for i in range(0, len(tokens), 2):
        pair = tokens[i : i + 2]
        wrapped = "<<" + " ".join(pair) + ">>" if rng.random() < 0.9 else " ".join(pair)
        out.append(wrapped + rng.choice(["", "", "", ",", "."]))
    return {}, rng.choice([" ", " ", "\n"]).join(out)


def _dress(rng: random.Random, text: str) -> str:
    choice = rng.random()
    if choice < 0.5:
        return text
    if choice < 0.65:
        return text.upper() if rng.random() < 0.5 else text.lower()
    if choice < 0.8:
        return rng.choice(["  ", "\n", ""]) + text + rng.choice(["\n", " ", "."])
    if choice < 0.9:
        return text.replace(" ", "  ", 1)
    return "Sure: " + text


def deliberate(iid: str, kwargs: dict, response: str) -> bool:
    """A difference we make on purpose: a blank answer never follows an instruction."""
    return not response.strip()


@pytest.fixture(scope="module")
def table():
    return _reference()


@pytest.mark.parametrize("iid", IDS)
def test_english_verdicts_agree_with_open_instruct(table, iid):
    rng = random.Random(f"copy-reference-{iid}")
    tally: Counter[str] = Counter()
    undocumented = []
    for _ in range(CASES_PER_ID):
        kwargs, response = generate(iid, rng)
        ours, theirs = our_verdict(iid, kwargs, response), reference_verdict(table, iid, kwargs, response)
        tally["cases"] += 1
        tally["passing"] += theirs
        if ours != theirs:
            tally["differ"] += 1
            if not deliberate(iid, kwargs, response):
                undocumented.append((kwargs, response[:120], ours, theirs))
    agreement = 1 - tally["differ"] / tally["cases"]
    print(f"{iid}: {tally['cases']} answers ({tally['passing']} pass in the reference), agreement {agreement:.4f}, "
          f"{tally['differ'] - len(undocumented)} deliberate differences")
    assert not undocumented, undocumented[:5]
    assert tally["passing"] >= CASES_PER_ID // 20, "too few passing answers to compare"
