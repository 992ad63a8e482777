"""The paper's dataset tables from rows and what a build recorded about them:

- Table 3: instructions per category (English, Keyword, Format, Length, Language; the registry
  knows each id's), per language, over all rows and over those tagged ``correct``/``parallel``;
- Table 6: Ground prompts generated and kept per language, from a build's records, or for
  released rows estimated from the gaps in their keys (the keys number the generated prompts
  from 1, so the highest key is the number generated when the last one was kept), and said so;
- Table 7: Trans rows judged correct, and keyword corrections, per language. A keyword
  correction is a Trans row an annotator edited in review so that its prompt's keyword text or
  a kwarg of role ``lexical`` changed (``builder.release.records`` counts them from the review
  log); rows that come without a review log say "not recorded", never another count.

``PaperRecords`` carries what the rows alone cannot tell (the builder fills it in)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from indicifeval.checkers import REGISTRY
from indicifeval.checkers.registry import CATEGORY_NAMES
from indicifeval.records import Row

CORRECT, PARALLEL = "correct", "parallel"
UNKNOWN = "unknown"
GROUPS = ("category", "prefix")  # the paper's Table 3 categories (the default), or IFEval's id prefixes
FROM_RECORDS = "build records"
FROM_KEYS = "estimate: highest key"
NOT_RECORDED = "not recorded"
FROM_REVIEW_LOG = "review log"


@dataclass(frozen=True)
class PaperRecords:
    """What a build recorded for the paper's tables, per language: Ground prompts generated
    (each was given a key), and Trans rows with a keyword correction in review (present only
    where the review log was read); ``origin``: where they were read."""

    generated: dict[str, int] = field(default_factory=dict)
    keyword_fixes: dict[str, int] = field(default_factory=dict)
    origin: str = FROM_RECORDS

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> PaperRecords | None:
        if not isinstance(data, Mapping):
            return None
        return cls({str(k): int(v) for k, v in (data.get("generated") or {}).items()},
                   {str(k): int(v) for k, v in (data.get("keyword_fixes") or {}).items()},
                   str(data.get("origin") or FROM_RECORDS))


@dataclass(frozen=True)
class GroundTotals:
    """Table 6, one language: Ground prompts generated and kept (the rows here)."""

    language: str
    generated: int | None
    kept: int
    how: str  # FROM_RECORDS (or where they were read), FROM_KEYS, NOT_RECORDED


@dataclass(frozen=True)
class TransReview:
    """Table 7, one language: Trans rows, those tagged correct, keyword corrections (None: no
    review log came with the rows)."""

    language: str
    rows: int
    correct: int
    keyword_fixes: int | None
    how: str  # where the corrections were counted from, or NOT_RECORDED


def category_of(instruction_id: str) -> str:
    """The paper's category of an id (Table 3); beyond the paper, the registry's label."""
    spec = REGISTRY.get(instruction_id)
    return spec.category_label if spec is not None else UNKNOWN


def prefix_of(instruction_id: str) -> str:
    return instruction_id.split(":", 1)[0]


def _order(name: str) -> tuple[int, str]:
    return (CATEGORY_NAMES.index(name) if name in CATEGORY_NAMES else len(CATEGORY_NAMES), name)


def category_counts(rows: Sequence[Row]) -> dict[str, dict[str, tuple[int, int | None, int | None]]]:
    """language -> category -> (instructions in all rows, in rows tagged correct, in rows tagged
    parallel); a tag no row of the language carries gives None, not 0. Categories in the
    paper's order."""
    out: dict[str, dict[str, tuple[int, int | None, int | None]]] = {}
    for language in sorted({r.language for r in rows}):
        mine = [r for r in rows if r.language == language]
        counts = {tag: Counter(category_of(i) for r in mine if tag is None or tag in r.tags
                               for i in r.instruction_id_list) for tag in (None, CORRECT, PARALLEL)}
        tagged = {tag: any(tag in r.tags for r in mine) for tag in (CORRECT, PARALLEL)}
        out[language] = {name: (counts[None][name], counts[CORRECT][name] if tagged[CORRECT] else None,
                                counts[PARALLEL][name] if tagged[PARALLEL] else None)
                         for name in sorted(counts[None], key=_order)}
    return out


def _int_keys(rows: Sequence[Row]) -> list[int] | None:
    keys = []
    for row in rows:
        try:
            keys.append(int(str(row.key)))
        except ValueError:
            return None
    return keys if keys and min(keys) >= 1 else None


def ground_totals(rows: Sequence[Row], records: PaperRecords | None) -> tuple[GroundTotals, ...]:
    """Table 6 per language of the Ground rows: generated from ``records`` when they have it,
    else the highest key (an estimate: prompts generated after the last kept one are not seen)."""
    out = []
    for language in sorted({r.language for r in rows if r.subset == "ground"}):
        mine = [r for r in rows if r.subset == "ground" and r.language == language]
        if records is not None and language in records.generated:
            out.append(GroundTotals(language, records.generated[language], len(mine), records.origin))
            continue
        keys = _int_keys(mine)
        out.append(GroundTotals(language, max(keys) if keys else None, len(mine),
                                FROM_KEYS if keys else NOT_RECORDED))
    return tuple(out)


def trans_review(rows: Sequence[Row], records: PaperRecords | None) -> tuple[TransReview, ...]:
    """Table 7 per language of the Trans rows."""
    out = []
    for language in sorted({r.language for r in rows if r.subset == "trans"}):
        mine = [r for r in rows if r.subset == "trans" and r.language == language]
        fixes = records.keyword_fixes.get(language) if records is not None else None
        out.append(TransReview(language, len(mine), sum(1 for r in mine if CORRECT in r.tags), fixes,
                               NOT_RECORDED if fixes is None else FROM_REVIEW_LOG))
    return tuple(out)


__all__ = ["FROM_KEYS", "FROM_RECORDS", "FROM_REVIEW_LOG", "GROUPS", "NOT_RECORDED", "GroundTotals", "PaperRecords",
           "TransReview", "category_counts", "category_of", "ground_totals", "prefix_of", "trans_review"]
