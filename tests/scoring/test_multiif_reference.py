"""Multi-IF's own scorer (metrics.py / ifeval.py of facebookresearch/Multi-IF) against ours on the
hand-written Hindi and English conversations of tests/fixtures/multiturn: every verdict that
differs must be one that docs/scoring.md ("Multi-turn", M1-M13) names. Runs only with a local
checkout, ``INDICIFEVAL_MULTI_IF=/path/to/Multi-IF``, and its dependencies (nltk, langdetect,
pandas, scipy); skipped, saying why, otherwise. benchmarks/multiif_differential.py prints each
difference."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ENV = "INDICIFEVAL_MULTI_IF"
SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "multiif_differential.py"


@pytest.fixture(scope="module")
def report():
    root = os.environ.get(ENV)
    if not root:
        pytest.skip(f"set {ENV} to a checkout of facebookresearch/Multi-IF to compare with its scorer")
    if not (Path(root) / "metrics.py").is_file():
        pytest.skip(f"{ENV}={root} holds no metrics.py (not a Multi-IF checkout)")
    for needed in ("nltk", "langdetect", "pandas", "scipy"):
        if importlib.util.find_spec(needed) is None:
            pytest.skip(f"Multi-IF's scorer needs {needed} (pip install nltk langdetect pandas scipy)")
    spec = importlib.util.spec_from_file_location("multiif_differential", SCRIPT)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.compare(root)


def test_every_difference_is_documented(report):
    unexplained = [d for d in report["differences"] if d["why"] == "UNEXPLAINED"]
    assert not unexplained, unexplained


def test_both_languages_compared(report):
    for lang in ("hi", "en"):
        assert report["languages"][lang]["conversations"] >= 40
        assert report["languages"][lang]["verdicts"] > 400


def test_english_differs_only_by_missing_answers(report):
    """On English our checks are IFEval's: only the handling of unanswered turns differs."""
    assert set(report["languages"]["en"]["by_entry"]) <= {"M9", "M10"}
