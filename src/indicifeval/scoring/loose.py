"""IFEval's loose variants of a response, in IFEval's order."""

from __future__ import annotations

from indicifeval.text.variants import LOOSE_CUTS

LOOSE_LABELS = tuple(cut.label for cut in LOOSE_CUTS)


def loose_variants(response: str) -> list[str]:
    return [cut.apply(response) for cut in LOOSE_CUTS]
