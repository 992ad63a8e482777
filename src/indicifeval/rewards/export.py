"""Benchmark rows (or any rows the validator accepts, such as a Ground build) as the prompt
datasets RL frameworks read, each with what the reward needs to score an answer to it:

- ``trl``: ``train.parquet`` (and ``test.parquet``) that ``datasets.load_dataset(DIR)`` reads as
  a dataset with splits, with ``prompt`` (chat messages) and the columns ``rewards.trl`` reads;
- ``verl``: the same files in verl's RL schema (``data_source``, ``prompt``, ``ability``,
  ``reward_model.ground_truth``, ``extra_info``), read by ``rewards.verl_compute_score``;
- ``nemo-gym``: ``train.jsonl`` (and ``test.jsonl``) of NeMo Gym instruction-following
  examples, whose fields its verify request carries (``indicifeval serve`` answers them);
- ``openrlhf``: ``train.jsonl`` (and ``test.jsonl``) with ``input`` (the prompt text) and
  ``label`` (the ground truth as JSON text), OpenRLHF's default ``--data.input_key`` and the
  ``--data.label_key label`` its reward function (``rewards.openrlhf``) reads.

Rows also in ``exclude`` (the same language, subset and key, or the same prompt text) are left
out, so a model is never trained on what it is evaluated on; ``holdout`` puts that share of
the rows in a test split, chosen by a hash of (seed, row), so the split does not depend on
the rows' order. All files of an export replace earlier ones together."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.core.files import StagedFiles
from indicifeval.dataset.writers import parquet_bytes
from indicifeval.records import Row
from indicifeval.text.normalize import collapse, nfc

FORMATS = ("trl", "verl", "nemo-gym", "openrlhf")
JSONL = ("nemo-gym", "openrlhf")
DATA_SOURCE = "indicifeval"
ABILITY = "instruction_following"


def _kwargs(row: Row) -> list[dict[str, Any]]:
    return [{k: v for k, v in kw.items() if v is not None} for kw in row.kwargs]


def ground_truth(row: Row) -> dict[str, Any]:
    """What scoring an answer to the row needs (``RewardScorer.row`` reads it back), the prompt
    and the language the answer must be in included, for the implicit constraints."""
    return {"key": row.key, "language": row.language, "subset": row.subset,
            "instruction_id_list": list(row.instruction_id_list), "kwargs": _kwargs(row), "prompt": row.prompt,
            "resp_lang": row.resp_lang or "src"}


def _messages(row: Row) -> list[dict[str, str]]:
    return [{"role": "user", "content": row.prompt}]


def trl_record(row: Row) -> dict[str, Any]:
    return {"prompt": _messages(row), "key": str(row.key), "language": row.language, "subset": row.subset,
            "instruction_id_list": list(row.instruction_id_list),
            "kwargs": json.dumps(_kwargs(row), ensure_ascii=False), "resp_lang": row.resp_lang or "src"}


def verl_record(row: Row, index: int, split: str) -> dict[str, Any]:
    return {"data_source": DATA_SOURCE, "prompt": _messages(row), "ability": ABILITY,
            "reward_model": {"style": "rule", "ground_truth": json.dumps(ground_truth(row), ensure_ascii=False)},
            "extra_info": {"split": split, "index": index, "key": str(row.key), "language": row.language,
                           "subset": row.subset}}


def nemo_gym_record(row: Row) -> dict[str, Any]:
    return {"responses_create_params": {"input": _messages(row)}, "id": str(row.key),
            "instruction_id_list": list(row.instruction_id_list), "kwargs": _kwargs(row), "prompt": row.prompt,
            "language": row.language, "subset": row.subset, "resp_lang": row.resp_lang or "src"}


def openrlhf_record(row: Row) -> dict[str, Any]:
    return {"input": row.prompt, "label": json.dumps(ground_truth(row), ensure_ascii=False)}


def _prompt_key(row: Row) -> str:
    return collapse(nfc(row.prompt)).strip()


def exclusion(rows: Iterable[Row], exclude: Iterable[Row]) -> list[Row]:
    """The rows not in ``exclude`` (by language, subset and key, or by prompt text)."""
    ids, prompts = set(), set()
    for row in exclude:
        ids.add(row.id)
        prompts.add(_prompt_key(row))
    return [r for r in rows if r.id not in ids and _prompt_key(r) not in prompts]


def keep_classes(rows: list[Row], keeps: Iterable[tuple[str, str | Path]]) -> tuple[list[Row], dict[str, int]]:
    """The rows that a profile (``rewards.profile``, each checked to be of these rows) puts in
    a class of ``keeps`` ((class, profile) pairs; a row is kept when any pair keeps it), and
    counts: ``kept``, ``other`` (profiled, in no kept class), ``unprofiled`` (in no profile,
    left out)."""
    from indicifeval.rewards.profile import CLASSES, profile_of

    wanted: dict[str, set[str]] = {}
    for cls, path in keeps:
        if cls not in CLASSES:
            raise InputError(f"--keep CLASS must be one of {', '.join(CLASSES)}, got {cls!r}", field="keep")
        wanted.setdefault(str(path), set()).add(cls)
    profiles = [(profile_of(path, rows), classes) for path, classes in wanted.items()]
    kept, unprofiled = [], 0
    for row in rows:
        found = [(p, classes) for profile, classes in profiles if (p := profile.get(row.id)) is not None]
        if not found:
            unprofiled += 1
        elif any(p.cls in classes for p, classes in found):
            kept.append(row)
    return kept, {"kept": len(kept), "other": len(rows) - len(kept) - unprofiled, "unprofiled": unprofiled}


def split_of(row: Row, holdout: float, seed: int) -> str:
    if holdout <= 0:
        return "train"
    digest = hashlib.sha256(json.dumps([seed, str(row.id)]).encode("utf-8")).digest()
    return "test" if int.from_bytes(digest[:8], "big") / 2**64 < holdout else "train"


def export_rows(rows: list[Row], fmt: str, out: str | Path, *, exclude: Iterable[Row] = (), holdout: float = 0.0,
                seed: int = 0) -> dict[str, int]:
    """Write ``rows`` in ``fmt`` into ``out``; returns the rows per split and those excluded."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}", field="format")
    if not 0 <= holdout < 1:
        raise InputError(f"--holdout must be a share from 0 to below 1, got {holdout}", field="holdout")
    before = len(rows)
    if not rows:
        raise InputError("no rows to export", field="data")
    rows = exclusion(rows, exclude)
    if not rows:
        raise InputError(f"no rows left to export: all {before} are in the excluded data", field="exclude")
    splits: dict[str, list[Row]] = {"train": [], "test": []}
    for row in rows:
        splits[split_of(row, holdout, seed)].append(row)
    with StagedFiles(out) as staged:
        for split, members in splits.items():
            if not members:
                continue
            if fmt in JSONL:
                record = nemo_gym_record if fmt == "nemo-gym" else openrlhf_record
                text = "".join(json.dumps(record(r), ensure_ascii=False) + "\n" for r in members)
                staged.write_text(f"{split}.jsonl", text)
            else:
                records = [trl_record(r) if fmt == "trl" else verl_record(r, i, split) for i, r in enumerate(members)]
                staged.write_bytes(f"{split}.parquet", parquet_bytes(records))
    for split, members in splits.items():  # no stale split of an earlier export is left beside this one
        if not members:
            Path(out, f"{split}.{'jsonl' if fmt in JSONL else 'parquet'}").unlink(missing_ok=True)
    return {"train": len(splits["train"]), "test": len(splits["test"]), "excluded": before - len(rows)}


__all__ = ["FORMATS", "export_rows", "ground_truth", "keep_classes", "nemo_gym_record", "openrlhf_record", "split_of",
           "trl_record", "verl_record"]
