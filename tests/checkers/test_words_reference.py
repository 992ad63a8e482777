"""IFBench's words:* ids in English against the reference implementation (allenai/IFBench), from
a local checkout named by INDICIFEVAL_IFBENCH; skipped, saying why, without it or without the
reference's own dependencies (nltk, emoji, syllapy, immutabledict).

NLTK's Punkt and tagger data cannot be downloaded here: the reference's ``nltk.sent_tokenize`` and
``nltk.word_tokenize`` are given ``text.punkt_en``'s (NLTK's algorithm on the same tables, checked
against NLTK in tests/text/test_punkt_en.py). words:start_verb is compared only where NLTK's
averaged-perceptron tagger data is installed, and even then not asserted: our English rule
reads a verb lexicon on purpose (docs/scoring.md), and the agreement is printed.

Two comparisons: verdicts on seeded generated answers (plain, near the threshold, degenerate), and
the reference's own verdicts on its shipped sample answers (data/sample_output.jsonl with
eval/eval_results_strict.jsonl and _loose.jsonl), strict and loose."""

from __future__ import annotations

import importlib
import json
import os
import random
import string
import sys
import types
from pathlib import Path

import pytest

from indicifeval.checkers import REGISTRY, TextView, clean_kwargs, get_rules, resolve_args
from indicifeval.scoring.engine import score_row
from indicifeval.text.punkt_en import sent_tokenize_en, word_tokenize_en
from tests.conftest import make_row

CHECKOUT = os.environ.get("INDICIFEVAL_IFBENCH")
IDS = sorted(i for i, spec in REGISTRY.items() if spec.suite == "ifbench" and i.startswith("words:"))
EXACT = [i for i in IDS if i != "words:start_verb"]
SEEDS = 1000  # generated answers per id


def _tagger_available() -> bool:
    try:
        import nltk

        nltk.data.find("taggers/averaged_perceptron_tagger_eng/")
        return True
    except (LookupError, ImportError):
        return False


@pytest.fixture(scope="module")
def reference():
    """The reference's instructions module, its NLTK calls answered by ours (restored after)."""
    if not CHECKOUT:
        pytest.skip("set INDICIFEVAL_IFBENCH to a checkout of allenai/IFBench to compare with the reference")
    if not (Path(CHECKOUT) / "ifbench" / "instructions.py").is_file():
        pytest.skip(f"INDICIFEVAL_IFBENCH={CHECKOUT} has no ifbench/instructions.py")
    for module in ("nltk", "emoji", "syllapy", "immutabledict"):
        try:
            importlib.import_module(module)
        except ImportError:
            pytest.skip(f"the reference needs {module} (pip install {module})")
    sys.path.insert(0, CHECKOUT)
    saved = {name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] == "ifbench"}
    try:
        ref = importlib.import_module("ifbench.instructions")
        util = importlib.import_module("ifbench.instructions_util")
        registry = importlib.import_module("ifbench.instructions_registry")
    except Exception as exc:  # noqa: BLE001  (any import failure of a third-party checkout is a skip)
        sys.path.remove(CHECKOUT)
        sys.modules.update(saved)
        pytest.skip(f"the reference does not import: {exc.__class__.__name__}: {exc}")
    import nltk

    ours = types.SimpleNamespace(sent_tokenize=sent_tokenize_en, word_tokenize=word_tokenize_en, pos_tag=nltk.pos_tag)
    before = ref.nltk, util.nltk
    ref.nltk = util.nltk = ours
    yield registry.INSTRUCTION_DICT
    ref.nltk, util.nltk = before
    sys.path.remove(CHECKOUT)
    for name in [n for n in sys.modules if n.split(".")[0] == "ifbench"]:
        del sys.modules[name]
    sys.modules.update(saved)


def _reference_verdict(table, iid: str, kwargs: dict, text: str) -> bool:
    checker = table[iid](iid)
    checker.build_description(**kwargs)
    return bool(checker.check_following(text))


def _our_verdict(iid: str, kwargs: dict, text: str) -> bool:
    rules = get_rules("en", "trans", "fixed")
    args = resolve_args(iid, clean_kwargs(iid, kwargs), rules, None)  # type: ignore[arg-type]
    return REGISTRY[iid].fn(TextView(text, rules), args, rules)[0]


# -- generated English answers ------------------------------------------------------------------------
WORDS = ("apple bread cat dog egg fish goat hat ice jam kite lamp moon nest owl pig queen rat sun tree urn van "
         "wolf xray yak zebra level radar civic kayak refer stats rotor madam tenet racecar strength sky rhythm "
         "crypt twelve spring build imagine consider run running ran explore the a an of I is was prime three "
         "seven eleven don't it's well-known U.S. Dr. e.g. 42 3.5 café naïve Ωmega — … “quoted” 'single'").split()
PUNCT = [".", ",", "!", "?", ";", ":", "...", "'", '"', "(", ")", "-", "*", "**", "#", "\n", "\n\n", " "]
DEGENERATE = ["a", ".", "...", "\n\n", "!!! ???", "a.", "A b. B c.", "\u200b", "x" * 200, "level", "I.",
              "12 34", "**bold**", "- item\n- item", "“Hi.” “Hi.”", "e.g. this. this", "Mr. Smith went. went"]


def _noise(rng: random.Random, n: int) -> str:
    out = []
    for _ in range(n):
        out.append(rng.choice(WORDS) if rng.random() < 0.75 else rng.choice(PUNCT))
        out.append(rng.choice([" ", " ", " ", "", "\n"]))
    return "".join(out)


def _alphabet(rng: random.Random) -> str:
    start = rng.randrange(26)
    words = [string.ascii_lowercase[(start + i) % 26] + rng.choice(["ble", "rk", "ot", "", "x's", "e"])
             for i in range(rng.randint(1, 30))]
    if rng.random() < 0.5:
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(w.capitalize() if rng.random() < 0.3 else w for w in words) + rng.choice(["", ".", "!", " 9"])


def _chain(rng: random.Random) -> str:
    """Sentences that chain (last word first), sometimes broken; paragraphs that close on a word."""
    word = rng.choice(WORDS[:30])
    sentences = []
    for _ in range(rng.randint(1, 6)):
        middle = " ".join(rng.choice(WORDS[:40]) for _ in range(rng.randint(0, 4)))
        nxt = rng.choice(WORDS[:30]) if rng.random() < 0.85 else rng.choice(WORDS)
        sentences.append(f"{word.capitalize() if rng.random() < 0.5 else word} {middle} {nxt}{rng.choice('.!?')}")
        word = nxt if rng.random() < 0.9 else rng.choice(WORDS)
    return rng.choice([" ", "\n", "\n\n"]).join(sentences)


def _generated(iid: str, kwargs: dict, rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.1:
        return rng.choice(DEGENERATE)
    if iid == "words:alphabet" and kind < 0.7:
        return _alphabet(rng)
    if iid in ("words:last_first", "words:paragraph_last_first") and kind < 0.7:
        return _chain(rng)
    if iid == "words:palindrome" and kind < 0.7:
        pals = ["level", "radar", "civic", "kayak", "refer", "racecar", "madam", "rotor", "stats", "tenet"]
        words = [rng.choice(pals) for _ in range(rng.randint(8, 12))] + rng.sample(WORDS, rng.randint(0, 5))
        rng.shuffle(words)
        return " ".join(w.capitalize() + "," if rng.random() < 0.2 else w for w in words)
    if iid == "words:keywords_specific_position" and kind < 0.7:
        n, m, kw = kwargs["n"], kwargs["m"], kwargs["keyword"]
        sentences = [[rng.choice(WORDS[:40]) for _ in range(rng.randint(1, 5))] for _ in range(n + rng.randint(-1, 1))]
        if len(sentences) >= n:
            target = sentences[n - 1]
            target[m - 1 : m] = [rng.choice([kw, kw.upper(), kw + "'s", "(" + kw, "the"])]
        return " ".join(" ".join(w).capitalize() + rng.choice([".", "!", "?"]) for w in sentences if w)
    if iid == "words:words_position" and kind < 0.7:
        kw = kwargs["keyword"]
        middle = " ".join(rng.choice(WORDS[:40]) for _ in range(rng.randint(0, 5)))
        first = rng.choice(["The", "I", "A,", "Hello"])
        return f"{first} {rng.choice([kw, kw.title(), 'moon'])} {middle} {rng.choice([kw, 'apple'])} end" + rng.choice(
            ["", ".", "!", " !", "...", ")", " end."])
    if iid == "words:vowel" and kind < 0.7:
        return " ".join(rng.choice(["cat", "dog", "sky", "hat", "log", "bit", "run", "sun", "gym", "fly"])
                        for _ in range(rng.randint(1, 8))) + rng.choice(["", ".", "\nmore"])
    return _noise(rng, rng.randint(1, 25))


def _kwargs(iid: str, rng: random.Random) -> dict:
    if iid == "words:repeats":
        return {"small_n": rng.randint(1, 3)}
    if iid == "words:keywords_specific_position":
        return {"keyword": rng.choice(["apple", "moon", "dog"]), "n": rng.randint(1, 3), "m": rng.randint(1, 3)}
    if iid == "words:words_position":
        return {"keyword": rng.choice(["apple", "moon", "dog"])}
    return {}


def _agreement(reference, iid: str) -> tuple[int, int, list]:
    """(answers compared, answers the reference passes, disagreements)."""
    rng = random.Random(f"words-reference-{iid}")
    compared, passed, misses = 0, 0, []
    for _ in range(SEEDS):
        kwargs = _kwargs(iid, rng)
        text = _generated(iid, kwargs, rng)
        if not text.strip():
            continue  # (both scorers fail a blank answer before asking the checker)
        theirs = _reference_verdict(reference, iid, kwargs, text)
        compared, passed = compared + 1, passed + theirs
        if _our_verdict(iid, kwargs, text) != theirs:
            misses.append((text[:80], kwargs, theirs))
    return compared, passed, misses


@pytest.mark.parametrize("iid", EXACT)
def test_generated_answers_agree_with_the_reference(reference, iid):
    total, passed, misses = _agreement(reference, iid)
    print(f"{iid}: {total - len(misses)}/{total} agree ({passed} followed by the reference's verdict)")
    assert not misses, misses[:5]


def test_start_verb_agreement_is_reported(reference):
    if not _tagger_available():
        pytest.skip("NLTK's averaged_perceptron_tagger_eng data is not installed: the reference cannot tag")
    total, _, misses = _agreement(reference, "words:start_verb")
    print(f"words:start_verb: {total - len(misses)}/{total} agree (a lexicon, not a tagger: see docs/scoring.md)")


# -- the reference's verdicts on its sample answers ---------------------------------------------------
def _shipped(name: str) -> list[dict]:
    with (Path(CHECKOUT or "") / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_shipped_verdicts_agree(reference):
    kwargs_of = {}
    for row in _shipped("data/IFBench_test.jsonl"):
        kwargs_of[row["prompt"].strip()] = dict(zip(row["instruction_id_list"], row["kwargs"]))
    strict, loose = _shipped("eval/eval_results_strict.jsonl"), _shipped("eval/eval_results_loose.jsonl")
    compared, wrong = 0, []
    for s, lo in zip(strict, loose):
        for index, iid in enumerate(s["instruction_id_list"]):
            if iid not in EXACT:
                continue
            kwargs = {k: v for k, v in kwargs_of[s["prompt"].strip()][iid].items() if v is not None}
            got = score_row(make_row(iid, kwargs, "en"), s["response"], "fixed")
            want = (s["follow_instruction_list"][index], lo["follow_instruction_list"][index])
            compared += 1
            if (got.strict[0], got.loose[0]) != want:
                wrong.append((iid, want, got.explanations[0]))
    print(f"shipped verdicts: {compared - len(wrong)}/{compared} agree (strict and loose)")
    assert compared >= 50 and not wrong, wrong
