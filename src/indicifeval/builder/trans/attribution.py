"""Where a Trans build's English prompts come from, for the dataset card: the IndicIFEval
authors' localised prompts (AI4Bharat/IndicIFEval, ``verified_dataset-en.jsonl``, the hub's
``en`` split: 490 of IFEval's 541, some localised, "President of the United States" → "Prime
Minister of India"), and how many of them differ from google-research IFEval's prompt of the
same key.

IFEval's prompts are not bundled, so the count is computed when IFEval's ``input_data.jsonl``
is given (``build finalize --ifeval``), else taken from ``authors_source.json`` beside this
module, which says how it was computed, when the build's source is the authors' (the same
(key, prompt) pairs: its fingerprint); another source gets no count."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from indicifeval.core.jsonl import read_jsonl
from indicifeval.records import Row

RECORDED = "authors_source.json"


@cache
def recorded() -> dict[str, Any]:
    """The recorded facts about the authors' English source (``authors_source.json``)."""
    text = resources.files("indicifeval.builder.trans").joinpath(RECORDED).read_text(encoding="utf-8")
    return dict(json.loads(text))


def fingerprint(pairs: Iterable[tuple[str, str]]) -> str:
    """sha256 of (key, prompt) pairs, in key order: the same prompts whatever file holds them."""
    ordered = sorted(((str(k), p) for k, p in pairs), key=lambda kp: (len(kp[0]), kp[0]))
    return hashlib.sha256(json.dumps(ordered, ensure_ascii=False).encode("utf-8")).hexdigest()


def ifeval_prompts(path: str | Path) -> dict[str, str]:
    """key -> prompt of IFEval's ``input_data.jsonl``."""
    return {str(record["key"]): str(record["prompt"]) for _, record in read_jsonl(path)}


def differing(source: Iterable[Row], ifeval: dict[str, str]) -> tuple[int, int]:
    """(prompts of ``source`` whose text is not IFEval's prompt of the same key, exactly, a key
    IFEval lacks included; prompts of ``source``)."""
    rows = list(source)
    return sum(1 for r in rows if ifeval.get(str(r.key)) != r.prompt), len(rows)


def attribution(source: list[Row], ifeval: str | Path | None = None) -> dict[str, Any]:
    """What the card says of a Trans build's English source: whether it is the authors'
    localised prompts, how many prompts, and how many differ from IFEval's (computed from
    ``ifeval`` when given, else recorded for the authors' source, else None) and how that was
    found."""
    facts = recorded()
    authors = fingerprint((r.key, r.prompt) for r in source) == facts["fingerprint"]
    out: dict[str, Any] = {"authors": authors, "prompts": len(source), "differ_from_ifeval": None, "how": None}
    if ifeval is not None:
        prompts = ifeval_prompts(ifeval)
        out["differ_from_ifeval"] = differing(source, prompts)[0]
        out["how"] = (f"computed at finalize: each prompt compared exactly with IFEval's of the same key "
                      f"({len(prompts)} prompts given)")
    elif authors:
        out["differ_from_ifeval"] = facts["differ_from_ifeval"]
        out["how"] = f"recorded ({facts['how']})"
    return out


__all__ = ["RECORDED", "attribution", "differing", "fingerprint", "ifeval_prompts", "recorded"]
