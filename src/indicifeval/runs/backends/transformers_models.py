"""What the two transformers backends (``hf`` chat models, ``seq2seq`` translators) share
about a loaded model: every token it stops at."""

from __future__ import annotations

from typing import Any

from indicifeval.runs.backends.base import BackendError


def eos_token_ids(generation_config: Any, tokenizer: Any, model: str) -> list[int]:
    """Every end-of-sequence token a transformers model stops at: its generation config's (one
    or several) and its tokenizer's."""
    eos = getattr(generation_config, "eos_token_id", None)
    ids = set(eos if isinstance(eos, (list, tuple)) else [eos] if eos is not None else [])
    if tokenizer.eos_token_id is not None:
        ids.add(tokenizer.eos_token_id)
    if not ids:
        raise BackendError(f"{model!r} defines no end-of-sequence token")
    return sorted(ids)


__all__ = ["eos_token_ids"]
