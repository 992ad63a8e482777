"""The instruction checkers, registered by id, by suite: IFEval's 25 (the paper's), the 8 beyond
the paper (numerals, units, romanised answers), open-instruct's RL-training ids and IFBench's.
Importing this package registers them."""

from indicifeval.checkers import (  # noqa: F401  (imported for registration)
    case,
    combination,
    content,
    format,
    ifbench,
    keywords,
    language,
    length,
    numerals,
    open_instruct,
    punctuation,
    romanized,
    startend,
)
from indicifeval.checkers.describe import DescriptionError, render_description
from indicifeval.checkers.instructions import (
    available_ids,
    categories,
    category_of,
    compatible,
    conflicts,
    copied_kwargs,
    kwarg_role,
    lexical_kwargs,
    sample_kwargs,
)
from indicifeval.checkers.registry import (
    CATEGORY_NAMES,
    KWARG_NAMES,
    PAPER_CATEGORY_NAMES,
    REGISTRY,
    ROLES,
    SUITES,
    Checker,
    KwargError,
    Param,
    clean_kwargs,
    resolve_args,
)
from indicifeval.checkers.rules import SUBSETS, Draw, Rules, ScoringMode, TextView, get_rules

INSTRUCTION_IDS: tuple[str, ...] = tuple(sorted(REGISTRY))

__all__ = [
    "CATEGORY_NAMES",
    "INSTRUCTION_IDS",
    "PAPER_CATEGORY_NAMES",
    "KWARG_NAMES",
    "REGISTRY",
    "ROLES",
    "SUBSETS",
    "SUITES",
    "Checker",
    "DescriptionError",
    "Draw",
    "KwargError",
    "Param",
    "Rules",
    "ScoringMode",
    "TextView",
    "available_ids",
    "categories",
    "category_of",
    "clean_kwargs",
    "compatible",
    "conflicts",
    "copied_kwargs",
    "get_rules",
    "kwarg_role",
    "lexical_kwargs",
    "render_description",
    "resolve_args",
    "sample_kwargs",
]
