"""The paper's five instruction categories (IndicIFEval Table 3, verbatim), read from the
registry, where each ``@checker`` names its category and Table 3 row. They differ from
IFEval's id prefixes: "Keyword" holds many format-looking ids."""

from __future__ import annotations

from indicifeval.checkers import REGISTRY
from indicifeval.checkers.instructions import categories

CATEGORIES: dict[str, tuple[str, ...]] = categories()

CATEGORY_OF: dict[str, str] = {iid: spec.category_label for iid, spec in REGISTRY.items()}
