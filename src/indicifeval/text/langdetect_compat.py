"""langdetect as IFEval and the authors call it, made deterministic.

Both call ``langdetect.detect`` without a seed, so answers can change between runs. We keep a
private factory with seed 0 (the seed the reference English verdicts were produced with), so
no other code's use of langdetect's global state can change our verdicts.
"""

from __future__ import annotations

import threading
from functools import lru_cache

_lock = threading.Lock()


class NoFeatures(Exception):
    """langdetect found nothing to judge (``LangDetectException``)."""


@lru_cache(maxsize=1)
def _factory():
    from langdetect import detector_factory

    factory = detector_factory.DetectorFactory()
    factory.seed = 0
    factory.load_profile(detector_factory.PROFILES_DIRECTORY)
    return factory


@lru_cache(maxsize=4096)
def detect(text: str) -> str:
    """langdetect's top language for ``text``; raises NoFeatures where it would raise."""
    from langdetect.lang_detect_exception import LangDetectException

    with _lock:
        try:
            detector = _factory().create()
            detector.append(text)
            return detector.detect()
        except LangDetectException as exc:
            raise NoFeatures(str(exc)) from None
