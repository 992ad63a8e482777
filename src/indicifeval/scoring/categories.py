"""The paper's five instruction categories (IndicIFEval Table 3, verbatim), read from the
registry, where each ``@checker`` names its category and Table 3 row. They differ from
IFEval's id prefixes: "Keyword" holds many format-looking ids."""

from __future__ import annotations

from indicifeval.checkers import REGISTRY
from indicifeval.checkers.instructions import categories

CATEGORIES: dict[str, tuple[str, ...]] = categories()

CATEGORY_OF: dict[str, str] = {iid: spec.category_label for iid, spec in REGISTRY.items()}

# The report's sections: IFEval's ids (the paper's and those beyond it), open-instruct's RL-training
# ids, IFBench's; a row asking ids of two of the last two suites is "mixed". IFEval's ids go with
# either of the others (their own datasets ask them beside theirs), so a row's section is the one
# other suite its ids name, else IFEval's.
SECTIONS: dict[str, str] = {"ifeval": "IFEval instructions",
                            "open-instruct": "RL-training instructions (open-instruct)",
                            "ifbench": "IFBench instructions", "mixed": "Rows mixing open-instruct's and IFBench's ids"}
SECTION_OF_SUITE: dict[str, str] = {"ifeval": "ifeval", "beyond": "ifeval", "open-instruct": "open-instruct",
                                    "ifbench": "ifbench"}


def section_of(instruction_ids) -> str:
    """The report section of a row asking these ids (unknown ids count for none)."""
    found = {SECTION_OF_SUITE[REGISTRY[i].suite] for i in instruction_ids if i in REGISTRY} - {"ifeval"}
    return "ifeval" if not found else found.pop() if len(found) == 1 else "mixed"


def section_categories(section: str) -> dict[str, tuple[str, ...]]:
    """The categories of a section's own ids (every one for "mixed"), in CATEGORIES' order."""
    if section == "mixed":
        return CATEGORIES
    return {name: ids for name, ids in CATEGORIES.items()
            if SECTION_OF_SUITE[REGISTRY[ids[0]].suite] == section}
