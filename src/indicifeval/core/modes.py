"""The two scoring modes, in the ground floor so that the command line can offer them without
importing the checkers (whose package registers all 25 on import)."""

from __future__ import annotations

from enum import Enum


class ScoringMode(str, Enum):
    FIXED = "fixed"  # corrected semantics (default)
    PAPER = "paper"  # the authors' published checkers, made deterministic

    def __str__(self) -> str:
        return self.value
