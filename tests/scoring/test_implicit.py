"""The implicit constraints on their own: degenerate answers never crash and take time linear in
their length; the fast echo coverage equals the plain loop; honest short answers pass."""

from __future__ import annotations

import random
import time

import pytest

from indicifeval.records import Row
from indicifeval.scoring.implicit import IMPLICIT, implicit_failures, parse_implicit
from indicifeval.scoring.implicit.measures import covered_words
from indicifeval.scoring.implicit.view import word_ngrams

ROW = Row("k", "बारिश के मौसम पर एक छोटा निबंध लिखिए।", ("punctuation:no_comma",), ({},), "hi", "trans")

DEGENERATE = ["", " ", "\u200b" * 1000, "\u200c" * 5000, "\ud800", "{" * 5000 + "}" * 5000, "[" * 100_000,
              "```" * 3000, "* \n" * 20_000, "क" * 200_000, "a" * 200_000, "१" * 50_000, "\x00" * 1000,
              "🙂" * 20_000, "क्\u200c" * 30_000, '{"a": ' * 3000, "<a" * 50_000 + ">", "<a " + "x" * 200_000 + ">>",
              "1 " * 100_000, "sure " * 40, "<p></p>" * 20_000]


@pytest.mark.parametrize("answer", DEGENERATE, ids=range(len(DEGENERATE)))
def test_degenerate_answers_get_a_verdict(answer):
    failures = implicit_failures(ROW, [{}], answer)
    assert isinstance(failures, list) and all(f.startswith("implicit:") for f in failures)


def test_time_is_linear_in_the_answer():
    def cost(n: int) -> float:
        text = ("बारिश आई " * n) + ("x\u200b" * n)
        started = time.process_time()
        implicit_failures(ROW, [{}], text)
        return time.process_time() - started

    small, large = min(cost(2_000) for _ in range(3)), min(cost(40_000) for _ in range(3))
    assert large < 20 * small * 2.5 + 0.05  # 20x the input: well under quadratic


def test_echo_coverage_equals_the_plain_loop():
    def plain(grams, found, n):
        covered = [False] * n
        for i, gram in enumerate(grams):
            if gram in found:
                covered[i:i + 4] = [True] * 4
        return sum(covered) / n

    rng = random.Random(0)
    for _ in range(2000):
        words = [str(rng.randint(0, 5)) for _ in range(rng.randint(4, 40))]
        grams = word_ngrams(words, 4)
        found = {g for g in grams if rng.random() < 0.4}
        share = min(covered_words(grams, found), len(words)) / len(words)
        assert share == pytest.approx(plain(grams, found, len(words)))


def test_honest_answers_pass_and_names_parse():
    assert implicit_failures(ROW, [{}], "बारिश का मौसम सबको अच्छा लगता है। खेतों में हरियाली छा जाती है।") == []
    assert parse_implicit("all") == IMPLICIT and parse_implicit(None) == () and parse_implicit("none") == ()
    assert parse_implicit("implicit:language, no_echo") == ("language", "no_echo")
    with pytest.raises(Exception, match="unknown implicit constraint"):
        parse_implicit("speling")


EN = Row("e", "Write a short note about the rain.", ("punctuation:no_comma",), ({},), "en", "trans")


@pytest.mark.parametrize(("row", "answer", "blocked"), [
    (EN, "Sure! Here is the answer you asked for. I hope this helps!", "substance"),
    (EN, "Certainly! Below is my response. Let me know if you need anything else.", "substance"),
    (EN, "Certainly! Rain is water that falls from clouds. Let me know if you need anything else.", None),
    (EN, "Sure. The rain fell all night and the river rose by morning.", None),
    (EN, "ok", None),  # too short to call pleasantries
    (EN, "Thanks!", None),
    (ROW, "ज़रूर! यह रहा। धन्यवाद।", "substance"),
    (ROW, "ज़रूर! बारिश का मौसम सबको अच्छा लगता है।", None),
    (EN, " ".join(str(n) for n in range(40)), "not_empty"),
    (EN, "26", None),
    (EN, "<html><body><h1></h1><p></p></body></html>", "not_empty"),
    (EN, "<<Yes, this is a good explanation for a child.>>", None),
    (EN, "<p>The rain fell all night and the river rose by morning.</p>", None),
])
def test_pleasantries_numbers_and_markup(row, answer, blocked):
    failures = implicit_failures(row, [{}], answer)
    assert [f.split(":")[1] for f in failures][:1] == ([blocked] if blocked else []), failures


def test_what_rows_allow_is_remembered_within_a_bound(monkeypatch):
    """A server sent ever new prompts keeps its memory: the remembered rows are forgotten past
    their bound, and a row larger than an eighth of it is not kept."""
    from indicifeval.scoring import implicit

    monkeypatch.setattr(implicit, "_EXPECTED_BYTES", 400_000)
    monkeypatch.setattr(implicit, "_expected_bytes", 0)
    monkeypatch.setattr(implicit, "_EXPECTED", {})
    for n in range(300):
        row = Row(f"k{n}", f"prompt {n} " + "बारिश आई " * 40, ("punctuation:no_comma",), ({},), "hi", "trans")
        implicit_failures(row, [{}], "बारिश का मौसम सबको अच्छा लगता है।")
        assert implicit._expected_bytes <= 400_000
    assert 0 < len(implicit._EXPECTED) < 300
    implicit._EXPECTED.clear()
    big = Row("big", "बारिश आई " * 20_000, ("punctuation:no_comma",), ({},), "hi", "trans")
    implicit_failures(big, [{}], "बारिश का मौसम सबको अच्छा लगता है।")
    assert implicit._EXPECTED == {}


def _random_latin(seed: int, letters: str) -> str:
    rng = random.Random(seed)
    return " ".join("".join(rng.choice(letters) for _ in range(rng.randint(2, 8))) for _ in range(120))


@pytest.mark.parametrize("seed", range(12))
def test_random_latin_letters_are_not_english_though_they_hit_its_trigrams(seed):
    """26 letters string into common English trigrams (up to half of them): the words tell."""
    letters = "abcdefghijklmnopqrstuvwxyz" if seed % 2 else "etaoinshrdlucmfwypvbgkETAOINSHRD"
    failures = implicit_failures(EN, [{}], _random_latin(seed, letters))
    assert failures and failures[0].split(":")[1] in ("plausible", "language"), failures


@pytest.mark.parametrize("answer", [
    "Paris, London, Berlin, Madrid, Rome, Vienna, Prague, Warsaw, Lisbon, Dublin, Athens, Oslo, "
    "Stockholm, Helsinki, Copenhagen, Brussels, Amsterdam, Bern, Budapest, Bucharest, Sofia, Belgrade, "
    "Zagreb, Ljubljana, Bratislava, Vilnius, Riga, Tallinn, Reykjavik, Valletta, Nicosia, Luxembourg, "
    "Monaco, Andorra, Vaduz, Minsk, Kyiv, Chisinau, Tirana, Skopje, Sarajevo, Podgorica",
    "Zentrix Quorvo Blivex Trumbly Oxalix Fennigo Plumbrix Zorvane Kettlix Vamboo Drexell Yumbro Sprinzo "
    "Glorvak Nuvixa Threnby Olkarix Pimbro Quazzle Rendivo Axiflo Brontix Cyvano Delphix Ezbro Frontiq Gubbix "
    "Hexoria Inzilo Jovexa Kromby Luxadrix Mivora Novaplex Opulix Prazzo Quintor Rubixa Solvane",  # invented names
    "Rain falls from clouds when droplets grow heavy. " * 1 + "The river rose by morning and the fields "
    "were green again; farmers walked out to see the water in their furrows, and children played in "
    "the puddles along the village road until their mothers called them home for the evening meal.",
])
def test_english_names_and_prose_are_plausible(answer):
    assert not [f for f in implicit_failures(EN, [{}], answer) if f.startswith("implicit:plausible")]


@pytest.mark.parametrize("answer", [
    " ".join(f"This is sentence number {n}." for n in range(1, 40)),
    " ".join(f"यह वाक्य संख्या {n} है।" for n in range(1, 40)),
])
def test_one_sentence_numbered_is_padding(answer):
    row = EN if answer.isascii() else ROW
    failures = implicit_failures(row, [{}], answer)
    assert failures and failures[0].startswith("implicit:no_padding: pads with repeated sentences"), failures
