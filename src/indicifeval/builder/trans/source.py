"""The English rows as a Trans build uses them: the instruction lists the release has.

``instructions="release"`` (the default) drops what the released splits leave out
(``dataset/release_lists.py``: the English-case rows' ``language:response_language``) and says
so in each row's provenance; ``"source"`` keeps the source's lists as they are."""

from __future__ import annotations

from indicifeval.dataset.release_lists import release_instructions
from indicifeval.records import Row

INSTRUCTION_LISTS = ("release", "source")


def prepare(rows: list[Row], policy: str) -> tuple[list[Row], dict[str, list[dict]]]:
    """The rows under ``policy`` (release | source) and, by key, what each was prepared without."""
    if policy not in INSTRUCTION_LISTS:
        raise ValueError(f"instructions must be one of {INSTRUCTION_LISTS}, got {policy!r}")
    if policy == "source":
        return rows, {}
    out, dropped = [], {}
    for row in rows:
        prepared, gone = release_instructions(row)
        out.append(prepared)
        if gone:
            dropped[str(row.key)] = gone
    return out, dropped


__all__ = ["INSTRUCTION_LISTS", "prepare"]
