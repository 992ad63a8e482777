"""A tiny random chat model, built once per test session (needs torch, transformers, tokenizers)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory):
    pytest.importorskip("torch", reason="needs torch (the CPU build is enough: pip install torch, as .ci/run does)")
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    from tests.runs.tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-model"))
