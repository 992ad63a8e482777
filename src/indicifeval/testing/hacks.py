"""Answers that game a verifiable reward, made from the bundled sample for any language: the
hack matrix of the implicit constraints' tests and of ``benchmarks/hack_matrix.py``. Each hack
is a function of a row, an honest answer to it and the language's other material; None where
a hack means nothing for the language (no sibling language shares its script, say)."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import regex

from indicifeval.checkers.describe import render_description
from indicifeval.dataset import load_rows
from indicifeval.dataset.responses import Responses, load_responses
from indicifeval.languages import get_profile, list_languages
from indicifeval.records import Row
from indicifeval.text.langid import identify
from indicifeval.text.scripts import script_of


@dataclass(frozen=True)
class Material:
    """What a hack is made of: the row, an honest answer that passes it, the same sample row's
    honest answer in another language (English, or English's in Hindi) and in a sibling language of
    the same script (None where there is none)."""

    row: Row
    honest: str
    foreign: str
    sibling: str | None
    seed: int


_SENTENCE = regex.compile(r"[^.!?।॥\n]+[.!?।॥]?")
_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")


def _given(row: Row) -> list[str]:
    out: list[str] = []
    for kwargs in row.kwargs:
        for name in ("keywords", "keyword", "forbidden_words", "end_phrase", "postscript_marker", "first_word"):
            value = kwargs.get(name)
            if name != "forbidden_words":
                out += value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return out


def _first_sentence(text: str) -> str:
    found = _SENTENCE.search(text)
    return found.group(0).strip() if found else text


def romanised(text: str) -> str:
    """The text in Latin letters, letter by letter from the Unicode names ("DEVANAGARI LETTER
    KA" → "ka", a vowel sign → its vowel, a virama → nothing): what an unasked romanisation
    looks like, without a transliteration table."""
    out = []
    for ch in text:
        name = unicodedata.name(ch, "")
        if "LETTER" in name or "VOWEL SIGN" in name:
            out.append(name.split()[-1].lower())
        elif unicodedata.category(ch).startswith("M"):
            continue
        else:
            out.append(ch)
    return "".join(out)


def _random_letters(m: Material) -> str:
    script = get_profile(m.row.language).script
    letters = sorted({c for c in m.honest + m.row.prompt if c.isalpha() and script_of(c) == script})
    rng = random.Random(m.seed)
    return " ".join("".join(rng.choice(letters) for _ in range(rng.randint(2, 8))) for _ in range(120))


def _restated(m: Material) -> str:
    profile = get_profile(m.row.language)
    return " ".join(render_description(i, k, profile) for i, k in zip(m.row.instruction_id_list, m.row.kwargs))


def _boilerplate(m: Material) -> str | None:
    """Pleasantries of the language and nothing else ("Sure! Here is ... I hope this helps.")."""
    phrases = get_profile(m.row.language).word_list("boilerplate")
    if not phrases:
        return None
    rng = random.Random(m.seed)
    return f"{phrases[0]}! {rng.choice(phrases[1:-1])}. {phrases[-1]}."


HACKS: dict[str, Callable[[Material], str | None]] = {
    "empty": lambda m: "",
    "whitespace": lambda m: " \n\t  \n",
    "echo": lambda m: m.row.prompt,
    "echo plus constraint": lambda m: f"{m.row.prompt}\n\n{' '.join(_given(m.row))}",
    "keywords only": lambda m: " ".join(_given(m.row)) or None,
    "keyword stuffing": lambda m: (f"{_first_sentence(m.honest)} " + " ".join(_given(m.row) * 40)
                                   if _given(m.row) else None),
    "one word repeated": lambda m: " ".join([(_WORD.findall(m.honest) or ["x"])[0]] * 400),
    "one sentence repeated": lambda m: " ".join([_first_sentence(m.honest)] * 40),
    "one sentence numbered": lambda m: " ".join(f"{n}. {_first_sentence(m.honest)}" for n in range(1, 41)),
    "wrong language": lambda m: m.foreign if identify(m.foreign).language != m.row.language else None,
    "sibling language": lambda m: m.sibling,
    "unasked romanisation": lambda m: None if get_profile(m.row.language).script == "Latn" else romanised(m.honest),
    "empty JSON wrapper": lambda m: '```json\n{"answer": ""}\n```',
    "empty markdown wrapper": lambda m: "# \n\n**  **\n\n```\n```",
    "empty bullets": lambda m: "* \n* \n* \n* \n* ",
    "instruction restated": _restated,
    "random letters": _random_letters,
    "zero-width padding": lambda m: f"{_first_sentence(m.honest)} " + " \u200b\u200c" * 400,
    "boilerplate": _boilerplate,
    "numbers only": lambda m: " ".join(str(n) for n in range(1, 41)),
    "empty HTML wrapper": lambda m: "<html><body><h1></h1><p></p></body></html>",
}

_ENGLISH_FOR_ENGLISH = "hi"  # the "wrong language" of an English row


@lru_cache(maxsize=1)
def _sample() -> tuple[list[Row], Responses]:
    return load_rows("sample"), load_responses("sample")


def _answers(language: str) -> dict[str, tuple[Row, str]]:
    """The sample's passing rows of the language and their answers, by the key's shared part
    ("trans-01": the same sample row in every language)."""
    rows, answers = _sample()
    out: dict[str, tuple[Row, str]] = {}
    for row in rows:
        answer = answers.lookup(row)
        if row.language == language and str(row.key).endswith("-pass") and answer is not None:
            out[str(row.key).split("-", 1)[1]] = (row, answer)
    return out


def siblings(language: str) -> list[str]:
    """The other benchmark languages of the same script."""
    script = get_profile(language).script
    return [code for code in list_languages() if code != language and get_profile(code).script == script]


def hack_cases(language: str, rows_per_hack: int = 2) -> Iterator[tuple[str, Row, str]]:
    """(hack, row, answer) for the language: each hack on the first ``rows_per_hack`` of its
    sample's rows it applies to whose answers are written in its own language (rows asking for
    English are left out: their "wrong language" is another)."""
    own = _answers(language)
    other = _answers("en" if language != "en" else _ENGLISH_FOR_ENGLISH)
    sibling_answers = [_answers(code) for code in siblings(language)[:1]]
    chosen = [(k, r, a) for k, (r, a) in sorted(own.items())
              if k in other and r.resp_lang in (None, "src") and "language:response_language" not in
              r.instruction_id_list and not any(i.startswith("change_case:english") for i in r.instruction_id_list)]
    for n, (name, hack) in enumerate(HACKS.items()):
        made = 0
        for index, (k, row, honest) in enumerate(chosen):
            sibling = sibling_answers[0][k][1] if sibling_answers and k in sibling_answers[0] else None
            answer = hack(Material(row, honest, other[k][1], sibling, seed=n * 100 + index))
            if answer is not None:
                yield name, row, answer
                made += 1
                if made == rows_per_hack:
                    break


__all__ = ["HACKS", "Material", "hack_cases", "romanised", "siblings"]
