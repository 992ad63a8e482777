"""IFEval's loose variants of a response, in IFEval's order."""

from __future__ import annotations

LOOSE_LABELS = (
    "as written",
    "without *",
    "without first line",
    "without last line",
    "without first and last lines",
    "without first line and *",
    "without last line and *",
    "without first and last lines and *",
)


def loose_variants(response: str) -> list[str]:
    lines = response.split("\n")
    no_first = "\n".join(lines[1:]).strip()
    no_last = "\n".join(lines[:-1]).strip()
    no_both = "\n".join(lines[1:-1]).strip()
    return [
        response,
        response.replace("*", ""),
        no_first,
        no_last,
        no_both,
        no_first.replace("*", ""),
        no_last.replace("*", ""),
        no_both.replace("*", ""),
    ]
