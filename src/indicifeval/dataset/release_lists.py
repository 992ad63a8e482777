"""The instruction lists the released Trans splits have, against the English source's.

The English source (the authors' ``verified_dataset-en.jsonl``, the hub's ``en`` split) gives
its 39 English-case rows ("respond in English, in capital letters") a
``language:response_language`` (``en``) beside the ``change_case:english_*`` instruction that
already demands English. The released Indic splits drop it, so their instruction counts (743
for ne, not 782) and instruction-level scores are the hub's. A Trans build makes its lists so
(``build trans --instructions release``) and the validator accepts that difference from the
source as a warning: one rule, here."""

from __future__ import annotations

from dataclasses import replace

from indicifeval.records import Row

DROP_REASON = ("English-case row: change_case:english_* already asks for an English answer; the released "
               "Trans splits leave out this language:response_language (en)")


def english_case(row: Row) -> bool:
    return any(iid.startswith("change_case:english") for iid in row.instruction_id_list)


def release_instructions(row: Row) -> tuple[Row, list[dict]]:
    """``row`` with the instructions the release leaves out removed, and what was removed
    (instruction id, its kwargs without the unused ones, why)."""
    if not english_case(row):
        return row, []
    keep, dropped = [], []
    for iid, kwargs in zip(row.instruction_id_list, row.kwargs):
        if iid == "language:response_language" and kwargs.get("language") == "en":
            used = {k: v for k, v in kwargs.items() if v is not None}
            dropped.append({"instruction_id": iid, "kwargs": used, "why": DROP_REASON})
        else:
            keep.append((iid, kwargs))
    if not dropped:
        return row, []
    return replace(row, instruction_id_list=tuple(i for i, _ in keep), kwargs=tuple(k for _, k in keep)), dropped


__all__ = ["DROP_REASON", "english_case", "release_instructions"]
