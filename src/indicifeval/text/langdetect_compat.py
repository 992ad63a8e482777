"""langdetect as IFEval and the authors call it, made deterministic.

Both call ``langdetect.detect`` without a seed, so answers can change between runs. We keep a
private factory with seed 0 (the seed the reference English verdicts were produced with), so
no other code's use of langdetect's global state can change our verdicts.

Detection runs through :mod:`indicifeval.text.langdetect_fast`, which reproduces langdetect
1.0.9's ``Detector`` exactly (same profiles, normalisation, random stream and arithmetic) at a
fraction of the cost; ``tests/text/test_langdetect_fast.py`` checks it against langdetect.
"""

from __future__ import annotations

from functools import lru_cache

from indicifeval.text.langdetect_fast import NoFeatures, detect_language, knows, other_languages

__all__ = ["NoFeatures", "detect", "knows", "other_languages"]


_CACHED_UP_TO = 20_000  # characters: loose variants of ordinary answers repeat; huge ones are not kept


@lru_cache(maxsize=2048)
def _detect_cached(text: str) -> str:
    return detect_language(text)


def detect(text: str) -> str:
    """langdetect's top language for ``text``; raises NoFeatures where it would raise. Short
    texts are cached (a response and its loose variants often coincide); long ones are not,
    so the cache never holds more than a few tens of megabytes."""
    if len(text) > _CACHED_UP_TO:
        return detect_language(text)
    return _detect_cached(text)
