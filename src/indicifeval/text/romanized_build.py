"""Builds the romanised-language model (``romanized_ngrams.json``, read by text.romanized) from text
the project owns, nothing else: each profile's own sentences (``langid_check.own_texts`` and the
sentences written for the model, ``romanized.texts``), word lists and stop words, and the
bundled sample's prompts and answers (src/indicifeval/sample), romanised by text.romanize under
every scheme (ITRANS, IAST without diacritics, and three informal spellings), plus the profile's
``romanized.words``; English from the English profile and the English sample's prompts (its
answers are left for measuring). The sample's answers in Latin letters are not used (romanize
keeps Indic words only). Deterministic: the same profiles and sample give the same file, byte for
byte (``tests/text/test_romanized_model.py`` rebuilds it).

    python -m indicifeval.text.romanized_build          # rewrite the stored table
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from collections import Counter
from pathlib import Path

from indicifeval.languages import get_profile
from indicifeval.text.langid_check import list_words, own_texts
from indicifeval.text.romanize import romanize
from indicifeval.text.romanized import KINDS, LEVELS, MODEL_PATH, gram_kind, latin_words, word_grams

SAMPLE = Path(__file__).resolve().parents[1] / "sample"
LANGUAGES = ("as", "bn", "gu", "hi", "kn", "ml", "mr", "ne", "or", "pa", "sa", "ta", "te")
# languages whose script the romaniser cannot spell (Urdu's Arabic script writes few vowels): their
# romanised text is that of the class named here, and their romanized.words train it
SHARES = {"ur": "hi"}
INFORMAL_SEEDS = (0, 1, 2)
TYPED_WEIGHT = 5  # the typed words (romanized.words) count this many times: the only chat text there is
KEEP = 4  # an n-gram is kept if some class has it this often
LIMIT = 2000  # and if it is among that class's most frequent of its kind


def _sample_texts(code: str, answers: bool) -> list[str]:
    texts = []
    for path in sorted(SAMPLE.glob(f"{code}.*jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line) if line.strip() else {}
            texts += [record[k] for k in ("prompt", "response") if isinstance(record.get(k), str)
                      and (answers or k == "prompt")]
    return texts


def native_texts(code: str) -> list[str]:
    profile = get_profile(code)
    words = list_words(profile)
    texts = profile.romanized.texts if profile.romanized is not None else ()
    return [*own_texts(profile), *texts, *_sample_texts(code, answers=True), " ".join(words),
            " ".join(profile.stop_words)]


def latin_texts(code: str) -> list[str]:
    """The class's training text in Latin letters."""
    if code == "en":
        profile = get_profile("en")
        words = list_words(profile)
        return [*own_texts(profile), *_sample_texts("en", answers=False), " ".join(words),
                " ".join(profile.stop_words)]
    out = []
    for text in native_texts(code):
        out += [romanize(text, code, "itrans"), romanize(text, code, "iast")]
        out += [romanize(text, code, "informal", seed) for seed in INFORMAL_SEEDS]
    for other in (code, *sorted(k for k, v in SHARES.items() if v == code)):
        romanized = get_profile(other).romanized
        if romanized is not None:
            out += [" ".join(sorted(romanized.words))] * TYPED_WEIGHT
    return out


def build() -> dict:
    classes = [*LANGUAGES, "en"]
    counts: list[Counter[str]] = []
    for code in classes:
        found: Counter[str] = Counter()
        for text in latin_texts(code):
            for word in latin_words(text):
                found.update(word_grams(word))
        counts.append(found)
    kept: set[str] = set()
    totals = []
    for found in counts:
        by_kind: list[list[tuple[int, str]]] = [[] for _ in range(KINDS)]
        for gram, count in found.items():
            by_kind[gram_kind(gram)].append((count, gram))
        for ranked in by_kind:
            ranked.sort(key=lambda x: (-x[0], x[1]))
            kept.update(g for c, g in ranked[:LIMIT] if c >= KEEP)
        totals.append([sum(c for c, _ in ranked) for ranked in by_kind])
    grams = {g: [found[g] for found in counts] for g in sorted(kept)}
    return {"about": "character n-gram counts of romanised text per language; built by "
                     "indicifeval.text.romanized_build from the project's own text",
            "kinds": KINDS, "classes": classes, "shares": SHARES, "totals": totals,
            "grams": {g: " ".join(str(round(LEVELS * math.log2(1 + n))) for n in c) for g, c in grams.items()}}


def dumps(table: dict) -> bytes:
    """The table as stored: compact JSON, gzip-compressed without a time stamp."""
    text = json.dumps(table, ensure_ascii=True, sort_keys=True, separators=(",", ":")) + "\n"
    return gzip.compress(text.encode("ascii"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    path = Path(argv[0]) if argv else MODEL_PATH
    path.write_bytes(dumps(build()))
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
