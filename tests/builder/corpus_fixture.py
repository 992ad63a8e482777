"""A corpus for the Ground pipeline tests when ../shared's real one is absent: documents of one
to three paragraphs of two to five sentences, made (seeded) from the words of the bundled
sample's rows in the language, ended with the language's own full stop."""

from __future__ import annotations

import json
import random
from pathlib import Path

from indicifeval.dataset import load_rows
from indicifeval.languages import get_profile
from indicifeval.text.words import words
from tests.conftest import SHARED


def synthetic_corpus(path: Path, language: str, documents: int = 600, seed: int = 0) -> Path:
    rng = random.Random(seed)
    vocab = sorted({w for r in load_rows("sample") if r.language == language for w in words(r.prompt)
                    if not w.isascii() and not w.isdigit()})
    stop = get_profile(language).sentence_terminators[0]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(documents):
            paragraphs = []
            for _ in range(rng.choice((1, 1, 2, 3))):
                sentences = [" ".join(rng.choices(vocab, k=rng.randint(5, 12))) + stop
                             for _ in range(rng.randint(2, 5))]
                paragraphs.append(" ".join(sentences))
            fh.write(json.dumps({"doc_id": f"{language}-{i:05d}", "text": "\n\n".join(paragraphs)},
                                ensure_ascii=False) + "\n")
    return path


def corpus_path(language: str, folder: Path) -> str:
    """The real corpus of ../shared when there is one, else a synthetic one in ``folder``."""
    real = SHARED / "data" / "indic-corpus" / f"{language}.jsonl"
    if real.is_file():
        return str(real)
    path = folder / f"synthetic-{language}.jsonl"
    return str(path if path.is_file() else synthetic_corpus(path, language))
