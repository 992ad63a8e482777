"""The relation convention of an export. Ground prompts ask for "exactly N" (times a keyword
appears, sentences), and our Ground rows say so: ``relation: "exactly"``, which indicifeval's
scorer implements. The authors' lm-evaluation-harness checkers accept only "less than" and
"at least" and raise ValueError on anything else; their released rows leave the relation null,
and their checkers then draw one of the two at random. ``authors`` writes rows in that
convention: every relation they cannot read ("exactly") becomes null, as in the release. It is
lossy: their harness then scores those instructions against a random relation, not the exact
count the prompt asks for (indicifeval's fixed-mode scorer reads a missing relation as
"exactly" again, so nothing is lost for it)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from indicifeval.checkers import REGISTRY
from indicifeval.checkers.registry import PAPER_RELATIONS
from indicifeval.records import Row
from indicifeval.records.layout import RELEASE_HUB

CONVENTIONS = ("ours", "authors")
AUTHORS = "authors"
HUB_FOLDERS = {"ours": RELEASE_HUB, "authors": RELEASE_HUB + "-authors"}


def relation_kwargs() -> frozenset[str]:
    """The kwargs that hold a relation (relation, let_relation, capital_relation), from the registry."""
    return frozenset(p.name for c in REGISTRY.values() for p in c.params if p.kind == "relation")


def exact_relations(rows: Iterable[Row]) -> Counter[tuple[str, str]]:
    """(subset, instruction id) -> how many of its kwargs have a relation the authors' checkers reject."""
    names = relation_kwargs()
    found: Counter[tuple[str, str]] = Counter()
    for row in rows:
        for instruction, kwargs in zip(row.instruction_id_list, row.kwargs, strict=False):
            found[row.subset, instruction] += sum(1 for k in names if k in kwargs
                                                  and kwargs[k] not in PAPER_RELATIONS)
    return +found


def to_authors(rows: Iterable[Row]) -> list[Row]:
    """The rows in the authors' convention: a relation their checkers reject left out (null)."""
    names = relation_kwargs()
    out = []
    for row in rows:
        kwargs = tuple({k: v for k, v in kw.items() if not (k in names and v not in PAPER_RELATIONS)}
                       for kw in row.kwargs)
        out.append(replace(row, kwargs=kwargs) if kwargs != row.kwargs else row)
    return out


def convention_lines(rows: list[Row], convention: str, changed: Counter[tuple[str, str]]) -> list[str]:
    """The card's section on the relation convention of this export."""
    total = sum(changed.values())
    where = ", ".join(f"`{instruction}` {n}" for (_, instruction), n in sorted(changed.items()))
    here = f"{total} in this release: {where}" if total else "none in this release"
    lines = ["## Relation convention", ""]
    if convention == AUTHORS:
        return lines + [
            "**This export is lossy.** It follows the convention of the authors' IndicIFEval harness: their "
            "lm-evaluation-harness checkers accept only `less than` and `at least`, and raise ValueError on any "
            "other relation. Ground prompts ask for *exactly* N (keyword occurrences, sentences), which cannot be "
            f"said in that convention, so the relations `exactly` of the indicifeval release are null here "
            f"({here}), as in the released IndicIFEval rows. The authors' checkers then draw `less than` or "
            "`at least` at random for each of them, so those instructions are not scored as their prompts state. "
            "indicifeval's scorer reads a missing relation as `exactly`; for exact scoring use the indicifeval "
            "export (`build publish` without `--relation-compat`).", ""]
    return lines + [
        f"Ground prompts ask for *exactly* N (keyword occurrences, sentences), and their kwargs say so: "
        f"`relation: \"exactly\"` ({here}). indicifeval's scorer implements it (the count must "
        "equal N). The authors' IndicIFEval harness does not: its lm-evaluation-harness checkers accept only "
        "`less than` and `at least` and raise ValueError on `exactly`; the released IndicIFEval rows leave the "
        "relation null, and their checkers then draw one of the two at random. For their harness, publish with "
        "`build publish --relation-compat authors`: a lossy export in their convention (the relation null).", ""]


__all__ = ["AUTHORS", "CONVENTIONS", "HUB_FOLDERS", "convention_lines", "exact_relations", "relation_kwargs",
           "to_authors"]
