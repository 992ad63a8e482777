"""The two scoring modes, in the ground floor so that the command line can offer them without
importing the checkers (whose package registers all 25 on import).

A mode is a ``ScoringMode`` from the edge that receives it (``score``, ``score_rows``, ``run``,
``score_folder``, ``RewardScorer``, the lm-eval hooks, ``report``, the command line) down to the
checkers: each edge calls ``ScoringMode(value)`` once, and ``str(mode)`` is what files hold."""

from __future__ import annotations

from enum import Enum

from indicifeval.core.errors import InputError


class ScoringMode(str, Enum):
    FIXED = "fixed"  # corrected semantics (default)
    PAPER = "paper"  # the authors' published checkers, made deterministic

    def __str__(self) -> str:
        return self.value

    @classmethod
    def _missing_(cls, value: object) -> ScoringMode:
        """A bad mode comes from the user: an InputError naming the field, not Enum's ValueError."""
        choices = ", ".join(m.value for m in cls)
        raise InputError(f"scoring must be one of {choices}, got {value!r}", field="scoring")


__all__ = ["ScoringMode"]
