"""What a build folder recorded for the paper's Tables 6 and 7, which rows alone cannot tell:

- Ground prompts generated: the requests the rows stage gave keys to (``ground/requests.jsonl``,
  one key each, from 1), kept or not;
- keyword corrections: Trans rows whose keyword an annotator corrected in review. A row counts
  once when the review log (``review/review.sqlite``'s edits) shows it edited, and the row
  before its first edit and after its last differ in the prompt's text or in a kwarg whose
  role is ``lexical`` (keywords, forbidden words, first word, end phrase, postscript marker,
  section splitter...): an edit undone later is no correction. Without a review log the count
  is not recorded (None), never 0.

``stats`` reads them for a build folder, ``finalize`` writes them into release.json (its
``paper_records``) so a release and its card show them too; with them, where each Trans
build's English prompts come from (``trans_source``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from indicifeval.builder.project import BuildFolder
from indicifeval.builder.review.store import ReviewStore
from indicifeval.builder.trans.attribution import attribution
from indicifeval.checkers import REGISTRY, lexical_kwargs
from indicifeval.core.jsonl import read_jsonl
from indicifeval.dataset.stats import PaperRecords
from indicifeval.records.layout import GROUND_REQUESTS, RELEASE_INFO, REVIEW_DB, TRANS_SOURCE


def _lexical(record: Mapping[str, Any]) -> tuple[str, tuple[tuple[str, str, str], ...]]:
    """A row record's prompt and its lexical kwargs' values, as text."""
    ids = record.get("instruction_id_list") or []
    kwargs = record.get("kwargs") or []
    values = []
    for iid, kw in zip(ids, kwargs):
        names = lexical_kwargs(iid) if iid in REGISTRY else ()
        values += [(str(iid), name, str((kw or {}).get(name))) for name in names]
    return str(record.get("prompt", "")), tuple(values)


def keyword_corrected(edits: Iterable[Mapping[str, Any]]) -> bool:
    """Whether one row's edits (oldest first) left its keyword text changed."""
    found = list(edits)
    return bool(found) and _lexical(found[0]["before"]) != _lexical(found[-1]["after"])


def keyword_fixes(folder: str | Path) -> dict[tuple[str, str], int] | None:
    """(language, subset) -> rows with a keyword correction, every split under review counted
    (0 where none); None when the folder has no review log."""
    folder = Path(folder)
    if not (folder / REVIEW_DB).is_file():
        return None
    store = ReviewStore(folder, read_only=True)
    try:
        splits = {item.id: (item.row.language, item.row.subset) for item in store.items()}
        by_item: dict[str, list[dict[str, Any]]] = {}
        for edit in store.edits():
            by_item.setdefault(str(edit["item_id"]), []).append(edit)
    finally:
        store.close()
    counts: Counter[tuple[str, str]] = Counter(dict.fromkeys(splits.values(), 0))
    for item_id, edits in by_item.items():
        if item_id in splits and keyword_corrected(edits):
            counts[splits[item_id]] += 1
    return dict(counts)


def ground_generated(folder: str | Path) -> int | None:
    """Ground prompts the build generated (each request keyed, kept or not); None before the
    requests stage."""
    path = Path(folder) / GROUND_REQUESTS
    return sum(1 for _ in read_jsonl(path)) if path.is_file() else None


def build_records(folder: str | Path, origin: str = "build records") -> PaperRecords:
    """A build folder's records for Tables 6 and 7 (its own language)."""
    language = BuildFolder(folder).language
    generated = ground_generated(folder)
    fixes = keyword_fixes(folder)
    trans = {lang: n for (lang, subset), n in (fixes or {}).items() if subset == "trans"}
    return PaperRecords({language: generated} if generated is not None else {}, trans, origin)


def trans_source(folder: str | Path, ifeval: str | Path | None = None) -> dict[str, Any] | None:
    """The attribution of a Trans build's English source (``trans.attribution``), with the
    differences from IFEval computed from ``ifeval`` (its input_data.jsonl) when given; None
    when the folder has no Trans source."""
    from indicifeval.dataset.validation.loading import read_source

    path = Path(folder) / TRANS_SOURCE
    return attribution(read_source(path), ifeval) if path.is_file() else None


def merged(records: Iterable[PaperRecords], origin: str = RELEASE_INFO) -> PaperRecords:
    """Several builds' records as one (each language comes from one build per subset)."""
    generated: dict[str, int] = {}
    fixes: dict[str, int] = {}
    for r in records:
        generated.update(r.generated)
        fixes.update(r.keyword_fixes)
    return PaperRecords(generated, fixes, origin)


__all__ = ["build_records", "ground_generated", "keyword_corrected", "keyword_fixes", "merged", "trans_source"]
