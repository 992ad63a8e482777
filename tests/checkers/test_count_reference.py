"""English verdicts of IFBench's count:, ratio: and repeat: ids against the reference scorer.

Runs only with a local IFBench checkout: ``INDICIFEVAL_IFBENCH=/path/to/IFBench`` (and its
dependencies: nltk, emoji, syllapy, immutabledict, absl-py). NLTK data cannot be downloaded here,
so where punkt or the stop words are absent the reference gets NLTK's own Punkt with the English
tables of the ``punkt`` wheel (what tests/text/test_punkt_en.py holds ours to) and, for stop words,
our English profile's list (then only the counting is compared, not the list).

Two comparisons: seeded generated answers (plain, near the thresholds, degenerate), strict and
loose; and IFBench's shipped answers (data/sample_output.jsonl) against its shipped verdicts
(eval/eval_results_strict.jsonl, _loose.jsonl). Each id must agree with the reference on at least
99.5% of the generated answers, apart from the documented corrections (``corrected``); the shipped
verdicts come from an older version of the reference (see ``SHIPPED_AGREEMENT``)."""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.scoring.engine import score_row
from tests.conftest import make_row

CHECKOUT = os.environ.get("INDICIFEVAL_IFBENCH")
if not CHECKOUT or not Path(CHECKOUT, "ifbench", "instructions.py").exists():
    pytest.skip("set INDICIFEVAL_IFBENCH to a checkout of allenai/IFBench to compare with it", allow_module_level=True)
for _dependency in ("nltk", "emoji", "syllapy", "immutabledict", "absl"):
    pytest.importorskip(_dependency, reason=f"the IFBench reference needs {_dependency}")

IDS = ("count:conjunctions", "count:keywords_multiple", "count:numbers", "count:person_names", "count:pronouns",
       "count:punctuation", "count:unique_word_count", "count:word_count_range", "count:words_japanese",
       "ratio:overlap", "ratio:sentence_balance", "ratio:sentence_type", "ratio:sentence_words", "ratio:stop_words",
       "repeat:repeat_change", "repeat:repeat_simple", "repeat:repeat_span")
AGREEMENT = 0.995
# IFBench's shipped verdicts predate its own switch from a regular-expression sentence splitter to
# Punkt (its commit "Replace regexes with NLTK sent_tokenize", December 2025): a sentence ending in
# ." is one of the two answers they judge otherwise than the current reference does
SHIPPED_AGREEMENT = 0.98
PER_ID = 120  # generated answers per id


@pytest.fixture(scope="module")
def reference():
    """IFBench's registry, with NLTK data it lacks stood in for (see the module docstring)."""
    sys.path.insert(0, CHECKOUT)
    try:
        registry = importlib.import_module("ifbench.instructions_registry")
        util = importlib.import_module("ifbench.instructions_util")
        module = importlib.import_module("ifbench.instructions")
    finally:
        sys.path.remove(CHECKOUT)
    import nltk

    patched = []
    try:
        nltk.sent_tokenize("A test. Another one.")
    except LookupError:
        from nltk.tokenize import NLTKWordTokenizer

        from indicifeval.text.punkt_en import _tokenizer

        punkt, words = _tokenizer(), NLTKWordTokenizer()
        patched += [(util, "split_into_sentences", lambda text: punkt.tokenize(text)),
                    (module.nltk, "word_tokenize",
                     lambda text: [t for s in punkt.tokenize(text) for t in words.tokenize(s)])]
    try:
        nltk.corpus.stopwords.words("english")
    except LookupError:
        from indicifeval.languages import get_profile

        listed = list(get_profile("en").stop_words)
        patched.append((util, "count_stopwords",
                        lambda text: sum(1 for t in util.nltk.tokenize.RegexpTokenizer(r"\w+").tokenize(text)
                                         if t.lower() in listed)))
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patched]
    for owner, name, value in patched:
        setattr(owner, name, value)
    yield registry.INSTRUCTION_DICT
    for owner, name, value in saved:
        setattr(owner, name, value)


def _reference_verdicts(classes, iid: str, kwargs: dict, response: str) -> tuple[bool, bool]:
    """evaluation_lib's strict and loose verdicts of one instruction."""
    def check(text: str) -> bool:
        instruction = classes[iid](iid)
        instruction.build_description(**{k: v for k, v in kwargs.items() if v is not None})
        try:
            return bool(text.strip()) and bool(instruction.check_following(text))
        except Exception:  # (the reference crashes on a few inputs; a crash is not a pass)
            return False

    lines = response.split("\n")
    cut = ["\n".join(lines[1:]).strip(), "\n".join(lines[:-1]).strip(), "\n".join(lines[1:-1]).strip()]
    variants = [response, response.replace("*", ""), *cut, *(c.replace("*", "") for c in cut)]
    strict = check(response)
    return strict, strict or any(check(v) for v in variants[1:])


def _ours(iid: str, kwargs: dict, response: str) -> tuple[bool, bool]:
    s = score_row(make_row(iid, kwargs, "en"), response, "fixed")
    return s.strict[0], s.loose[0]


def corrected(iid: str, kwargs: dict, response: str) -> bool:
    """Documented corrections of reference bugs (docs/scoring.md): repeat:repeat_change passes
    the request itself again when only its spacing differs (the first word is unchanged)."""
    if iid == "repeat:repeat_change":
        request = kwargs["prompt_to_repeat"]
        return response != request and response.split()[:1] == request.split()[:1]
    return False


# --- generated answers ----------------------------------------------------------------------------
WORDS = ("the river runs and the city sleeps but nobody knows why so yet for nor or it is she he they we "
         "you I me my our their this that these those who what which all some none each both either "
         "Dr. Smith U.S. data model weights value test answer light rain garden").split()
NAMES = ("Emma Liam Sophia Jackson Olivia Noah Ava Lucas Mia Ethan Grace Lily Leo Zoe David Ryan Stella "
         "emma grace Graceful Liam's").split()
JAPANESE = ("日本", "ですね", "カタカナ", "漢字", "こんにちは", "東京")
PIECES = (",", ".", "!", "?", ";", ":", "?!", "!?", "‽", "\n", "\n\n", "*", "**", " - ", "/", "'", '"', "3.5",
          "1,000", "12:30", "42", "2024", "٣", "e\u0301", "\u200b", "🙂", "(", ")", "—", "and,", "And", "she/her")
DEGENERATE = ("", " ", "\n\n", ".", "?!", "...", "\u200b", "🙂🙂🙂", "a" * 3000, "日本語 " * 50, "x" * 50 + "?!",
              "The end.", "Why? " * 10, "!!!", "1 2 3 4 5", "नमस्ते दुनिया।")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS + NAMES) for _ in range(rng.randint(2, 9))]
    for _ in range(rng.randint(0, 2)):
        words.insert(rng.randint(0, len(words)), rng.choice(PIECES + JAPANESE))
    return " ".join(words).strip() + rng.choice((".", ".", "?", "!", "", "?!", '."'))


def answer(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(DEGENERATE)
    sentences = [_sentence(rng) for _ in range(rng.randint(1, 8))]
    return "".join(s + rng.choice((" ", " ", "\n", "\n\n")) for s in sentences).strip()


REQUESTS = ("Write a python program to implement a simple JPEG compression algorithm without any errors.",
            "explain the context, code and theory behind the paper Identifying Candidate Spaces for Advert.",
            "Is it easier to urbanize a jungle or to urbanize a desert?", "Describe eternal asteroid made of astatines")


def _trigram_share(text: str, reference: str) -> int:
    mine = {text[i:i + 3] for i in range(len(text) - 2)}
    theirs = {reference[i:i + 3] for i in range(len(reference) - 2)}
    return round(100 * len(mine & theirs) / len(mine)) if mine else 0


def case(iid: str, rng: random.Random) -> tuple[dict, str]:  # noqa: C901 (one branch per id)
    text = answer(rng)
    if iid == "count:word_count_range":
        n = len(text.split())
        low = max(0, n + rng.randint(-3, 2))
        return {"min_words": low, "max_words": low + rng.randint(0, 4)}, text
    if iid == "count:unique_word_count":
        return {"N": max(0, len(set(text.lower().split())) + rng.randint(-2, 2))}, text
    if iid == "count:conjunctions":
        return {"small_n": rng.randint(1, 5)}, text
    if iid == "count:person_names":
        return {"N": rng.randint(1, 4)}, text
    if iid == "count:pronouns":
        return {"N": rng.randint(1, 12)}, text
    if iid == "count:numbers":
        return {"N": rng.randint(0, 5)}, text
    if iid in ("count:punctuation", "ratio:sentence_type", "ratio:sentence_balance", "ratio:sentence_words"):
        if iid == "ratio:sentence_words" and rng.random() < 0.4:
            text = " ".join(rng.choice(("Cats nap.", "Dogs run.", "Owls see.", "Bees hum!", "Why me?"))
                            for _ in range(3))
        return {}, text
    if iid == "ratio:stop_words":
        return {"percentage": rng.randint(5, 90)}, text
    if iid == "count:words_japanese":
        n = rng.randint(1, 5)
        words = text.split()
        if rng.random() < 0.6:
            words = [rng.choice(JAPANESE) if (i + 1) % n == 0 and rng.random() < 0.9 else w
                     for i, w in enumerate(words)]
        return {"N": n}, " ".join(words)
    if iid == "count:keywords_multiple":
        keywords = rng.sample(["river", "light", "rain", "garden", "data", "model", "cat"], 5)
        parts = [k for k, times in zip(keywords, (1, 2, 3, 5, 7)) for _ in range(times + rng.choice((0, 0, 0, -1, 1)))]
        parts += text.split()
        rng.shuffle(parts)
        return {f"keyword{i}": k for i, k in enumerate(keywords, 1)}, " ".join(parts)
    request = rng.choice(REQUESTS)
    if iid == "ratio:overlap":
        start = rng.randint(0, len(request) // 2)
        text = request[start:start + rng.randint(5, 60)] + (" " + text if rng.random() < 0.5 else "")
        share = _trigram_share(text, request)
        return {"reference_text": request, "percentage": max(0, share + rng.randint(-3, 3))}, text
    if iid == "repeat:repeat_change":
        first, rest = request.split(" ", 1)
        text = rng.choice((f"Create {rest}", f"{first} {rest}", f"{first}  {rest}", f"Please {rest} ", f"Make {rest}!",
                           f"{rest}", f"Build {rest}\nAnd more.", request + " "))
        return {"prompt_to_repeat": request}, text
    if iid == "repeat:repeat_simple":
        sentence = "Only output this sentence here, ignore all other requests."
        return {}, rng.choice((sentence, sentence.upper(), f"  {sentence}\n", sentence[:-1], f"**{sentence}**",
                               f"Sure!\n{sentence}", sentence.replace("here", "there"), text))
    start = rng.randint(0, len(request) - 5)
    end = start + rng.randint(1, 30)
    span = request[start:end + 1]
    text = rng.choice((span, span.upper(), f" {span} ", span[:-1], span + "x", f"Here:\n{span}", text))
    return {"prompt_to_repeat": request, "n_start": start, "n_end": end}, text


@pytest.mark.parametrize("iid", IDS)
def test_generated_english_answers_agree(reference, iid):
    rng = random.Random(f"count-reference|{iid}")
    tally: Counter[str] = Counter()
    wrong = []
    for _ in range(PER_ID):
        kwargs, text = case(iid, rng)
        ours, theirs = _ours(iid, kwargs, text), _reference_verdicts(reference, iid, kwargs, text)
        for kind, a, b in (("strict", ours[0], theirs[0]), ("loose", ours[1], theirs[1])):
            tally["cases"] += 1
            if a == b:
                tally["agree"] += 1
            elif corrected(iid, kwargs, text):
                tally["corrected"] += 1
            else:
                wrong.append((kind, a, b, kwargs, text[:120]))
    share = (tally["agree"] + tally["corrected"]) / tally["cases"]
    print(f"{iid}: {tally['agree']}/{tally['cases']} agree, {tally['corrected']} documented corrections")
    assert share >= AGREEMENT and len(wrong) <= tally["cases"] * (1 - AGREEMENT), wrong[:5]


def _shipped(name: str) -> list[dict]:
    with Path(CHECKOUT, *name.split("/")).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_shipped_answers_get_the_shipped_verdicts(reference):
    rows = {r["prompt"]: r for r in _shipped("data/IFBench_test.jsonl")}
    answers = {r["prompt"]: r["response"] for r in _shipped("data/sample_output.jsonl")}
    tally: Counter[str] = Counter()
    wrong = []
    for kind, name in (("strict", "eval/eval_results_strict.jsonl"), ("loose", "eval/eval_results_loose.jsonl")):
        for result in _shipped(name):
            row, text = rows.get(result["prompt"]), answers.get(result["prompt"])
            if row is None or text is None:
                continue
            verdicts = result["follow_instruction_list"]
            for iid, kwargs, verdict in zip(row["instruction_id_list"], row["kwargs"], verdicts):
                if iid not in IDS:
                    continue
                kwargs = {k: v for k, v in kwargs.items() if v is not None}
                ours = _ours(iid, kwargs, text)[kind == "loose"]
                tally[kind] += 1
                if ours == verdict:
                    tally[kind + " agree"] += 1
                elif not corrected(iid, kwargs, text):
                    wrong.append((kind, iid, ours, verdict, text[:100]))
    print(f"shipped verdicts: strict {tally['strict agree']}/{tally['strict']}, "
          f"loose {tally['loose agree']}/{tally['loose']}")
    assert tally["strict"] > 100
    assert len(wrong) <= (tally["strict"] + tally["loose"]) * (1 - SHIPPED_AGREEMENT), wrong[:5]
