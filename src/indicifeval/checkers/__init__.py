"""The 25 IFEval instruction checkers, registered by id. Importing this package registers them."""

from indicifeval.checkers import (  # noqa: F401  (imported for registration)
    case,
    combination,
    content,
    format,
    keywords,
    language,
    length,
    punctuation,
    startend,
)
from indicifeval.checkers.registry import KWARG_NAMES, REGISTRY, Checker, KwargError, clean_kwargs, resolve_args
from indicifeval.checkers.rules import SUBSETS, Draw, Rules, ScoringMode, TextView, get_rules

INSTRUCTION_IDS: tuple[str, ...] = tuple(sorted(REGISTRY))

__all__ = [
    "INSTRUCTION_IDS",
    "KWARG_NAMES",
    "REGISTRY",
    "SUBSETS",
    "Checker",
    "Draw",
    "KwargError",
    "Rules",
    "ScoringMode",
    "TextView",
    "clean_kwargs",
    "get_rules",
    "resolve_args",
]
