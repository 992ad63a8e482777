"""Build folders' state as plain rows, for a page or a table to show: each stage with its
counts, the validator's findings, the review's progress and its agreement. Reading them here
keeps the build report (``reports/build_report``) to drawing, and the review's store to the
build layer."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from indicifeval.builder.project import BuildFolder
from indicifeval.builder.review.store import ReviewStore
from indicifeval.core.jsonl import read_jsonl
from indicifeval.records.layout import GROUND_VALIDATION, REVIEW_AGREEMENT, REVIEW_DB, TRANS_VALIDATION

VALIDATIONS = (TRANS_VALIDATION, GROUND_VALIDATION)
COEFFICIENTS = ("raw_agreement", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1")


def open_builds(folders: Sequence[str | Path]) -> list[BuildFolder]:
    """Each folder as a build, or a clear error for one that is not a build folder."""
    builds = [BuildFolder(f) for f in folders]
    for build in builds:
        build.manifest()
    return builds


def build_names(folders: Sequence[str | Path]) -> list[str]:
    """Each build by its folder's name (``hi-ground``), or by the path as given where two folders
    share a name: two builds of one language (Trans and Ground) must not both read ``hi``."""
    names = [Path(f).name or str(f) for f in folders]
    return [str(f) if names.count(n) > 1 else n for f, n in zip(folders, names)]


def stage_rows(builds: list[BuildFolder], names: list[str]) -> list[tuple[str, str, str, str, dict[str, Any], str]]:
    """(build, language, stage, status, counts, note) for each stage of each build; the note
    ends with the stage's warnings (a plan the corpus could not fill)."""
    return [(name, build.language, row["stage"], row["status"], row["counts"],
             "; ".join(n for n in (row["note"], *row.get("warnings", ())) if n))
            for build, name in zip(builds, names) for row in build.status_rows()]


def finding_rows(builds: list[BuildFolder], names: list[str]) -> list[tuple[str, str, str, str, str, int]]:
    """(build, language, subset, check, severity, findings) for each build, from its own
    validation files (Trans's and Ground's), counted by subset, check and severity."""
    rows = []
    for build, name in zip(builds, names):
        tally: Counter[tuple[str, str, str]] = Counter()
        for file in VALIDATIONS:
            path = build.folder / file
            if path.is_file():
                for _, f in read_jsonl(path):
                    tally[str(f.get("subset")), str(f.get("check")), str(f.get("severity"))] += 1
        rows += [(name, build.language, subset, check, severity, n)
                 for (subset, check, severity), n in sorted(tally.items())]
    return rows


def review_rows(builds: list[BuildFolder], names: list[str]) -> list[tuple[str, str, str, int, int]]:
    """(build, language, annotator, items assigned, items done) for each build under review."""
    rows = []
    for build, name in zip(builds, names):
        if not (build.folder / REVIEW_DB).is_file():
            continue
        store = ReviewStore(build.folder, read_only=True)
        try:
            progress = store.progress()
        finally:
            store.close()
        rows += [(name, build.language, annotator, assigned, done) for annotator, (assigned, done) in progress.items()]
    return rows


def agreement_rows(builds: list[BuildFolder], names: list[str]
                   ) -> list[tuple[str, str, str, int, list[dict[str, Any]]]]:
    """(build, language, question, items rated twice, the estimate of each of ``COEFFICIENTS``:
    value, low, high, each possibly None) for each row of each build's agreement file."""
    rows = []
    for build, name in zip(builds, names):
        path = build.folder / REVIEW_AGREEMENT
        if not path.is_file():
            continue
        for row in json.loads(path.read_text(encoding="utf-8")).get("rows", []):
            rows.append((name, row["language"], row["question"], row.get("items_rated_twice", 0),
                         [row.get(c) or {} for c in COEFFICIENTS]))
    return rows


__all__ = ["COEFFICIENTS", "VALIDATIONS", "agreement_rows", "build_names", "finding_rows", "open_builds",
           "review_rows", "stage_rows"]
