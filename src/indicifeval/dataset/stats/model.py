"""The shapes of dataset statistics: plain counts, exact, so that two datasets (our build and a
release) can be compared table by table, and written as JSON at full precision."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from indicifeval.dataset.stats.paper import GroundTotals, TransReview

STATS_FORMAT = 1

# The release's verification tags (the dataset card of ai4bharat/IndicIFEval; finalize writes the
# same): every other tag is a topic tag (Trans) or the generation style (Ground).
CORRECT, INCORRECT, PARALLEL = "correct", "incorrect", "parallel"
GOLD_TRANSLATION, SILVER_TRANSLATION = "gold translation", "silver translation"
GOLD_PROMPT, SILVER_PROMPT = "gold prompt", "silver prompt"
VERIFICATION_TAGS = (CORRECT, INCORRECT, GOLD_TRANSLATION, SILVER_TRANSLATION, GOLD_PROMPT, SILVER_PROMPT, PARALLEL)
# The Ground styles whose prompt holds the context itself: those marked context_required in
# builder/ground/templates.json (the authors' three; the dataset layer cannot read the builder's
# files, and tests check the two agree).
CONTEXT_REQUIRED_STYLES = ("Summarization", "Formal Rewrite", "Informal Rewrite")
MISSING = "(none)"  # a relation or resp_lang a row does not give


@dataclass(frozen=True)
class Lengths:
    """min / median / mean / max of one measure over a subset's prompts."""

    min: int
    median: float
    mean: float
    max: int

    @classmethod
    def of(cls, values: Iterable[int]) -> Lengths:
        items = list(values)
        if not items:
            return cls(0, 0.0, 0.0, 0)
        return cls(min(items), float(statistics.median(items)), statistics.fmean(items), max(items))


@dataclass(frozen=True)
class Verification:
    """One language and subset by its verification tags: the annotators' verdicts, the
    gold/silver tiers, and the parallel subset (rows, and the instructions they hold). The
    paper's Table 7 (correct, keyword corrections) is ``TransReview``."""

    language: str
    subset: str
    rows: int
    correct: int
    incorrect: int
    gold_translation: int
    silver_translation: int
    gold_prompt: int
    silver_prompt: int
    parallel: int
    parallel_instructions: int
    parallel_correct: int  # parallel rows also tagged correct (the release: all of them)

    COLUMNS = ("correct", "incorrect", "gold_translation", "silver_translation", "gold_prompt", "silver_prompt",
               "parallel", "parallel_instructions")


@dataclass(frozen=True)
class SourceComparison:
    """Trans rows against the English rows they were translated from, by key: which keep the
    source's instruction list, and what the others dropped or added."""

    source: str
    rows: int  # Trans rows looked at
    not_in_source: int
    same: int
    differ: int
    dropped: dict[str, int]  # instruction id -> times the rows lack it against their source row
    added: dict[str, int]
    differing: tuple[str, ...]  # row ids, in row order

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "differing": list(self.differing)}


@dataclass(frozen=True)
class SubsetStats:
    """The distributions of one subset over all its languages."""

    subset: str
    languages: tuple[str, ...]
    rows: int
    instructions: int
    instruction_ids: dict[str, int]  # id -> instructions, most first
    rows_with: dict[str, int]  # id -> rows that hold it at least once
    categories: dict[str, int]  # IFEval's prefix (the part of the id before ':') -> instructions
    per_row: dict[int, int]  # instructions in a row -> rows
    numeric: dict[str, dict[str, dict[int, int]]]  # id -> integer kwarg -> value -> instructions
    relations: dict[str, dict[str, dict[str, int]]]  # id -> relation kwarg -> value (or MISSING) -> instructions
    resp_lang: dict[str, int]
    verification_tags: dict[str, int]  # tag -> rows
    other_tags: dict[str, int]  # topic tags (Trans) or styles (Ground) -> rows
    rows_with_other_tags: int
    untagged_rows: int
    context_required: int | None  # Ground: rows whose style needs the context
    chars: Lengths
    words: Lengths  # whitespace-separated tokens
    statuses: dict[str, int] = field(default_factory=dict)  # build status -> rows (rows that have one)
    # suite (ifeval, beyond, open-instruct, ifbench) -> its categories as the report labels them
    # ("IFBench Format") -> (ids, instructions); in the registry's order
    suites: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    # the paper's Table 3: language -> category -> (instructions in all rows, in rows tagged
    # correct, in rows tagged parallel; None where no row of the language has that tag)
    paper_categories: dict[str, dict[str, tuple[int, int | None, int | None]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["languages"] = list(self.languages)
        out["per_row"] = {str(k): v for k, v in self.per_row.items()}
        out["numeric"] = {i: {k: {str(v): n for v, n in values.items()} for k, values in kws.items()}
                          for i, kws in self.numeric.items()}
        out["suites"] = {suite: {c: {"ids": ids, "instructions": n} for c, (ids, n) in cats.items()}
                         for suite, cats in self.suites.items()}
        out["paper_categories"] = {lang: {c: {"instructions": a, "correct": b, "parallel": p}
                                          for c, (a, b, p) in cats.items()}
                                   for lang, cats in self.paper_categories.items()}
        return out


@dataclass(frozen=True)
class DatasetStats:
    """Everything ``indicifeval stats`` shows about one dataset; ``to_json``; its tables are
    ``stats_tables`` (``markdown`` writes them), and ``compare`` (in ``dataset.stats``) puts two
    of them side by side."""

    name: str
    kind: str  # rows | release | build | hub | sample | memory
    rows: int
    instructions: int
    splits: dict[str, dict[str, tuple[int, int]]]  # language -> subset -> (rows, instructions)
    verification: tuple[Verification, ...]
    subsets: dict[str, SubsetStats]
    tagged: bool  # whether any row has a verification tag (a build folder's rows have none before finalize)
    has_statuses: bool
    source: SourceComparison | None = None
    ground_totals: tuple[GroundTotals, ...] = ()  # the paper's Table 6
    trans_review: tuple[TransReview, ...] = ()  # the paper's Table 7
    # Trans row id -> its instruction ids: what a comparison matches key by key (not in the JSON)
    trans_lists: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON, versioned, nothing rounded."""
        return {"format_version": STATS_FORMAT, **self.body()}

    def body(self) -> dict[str, Any]:
        return {
            "name": self.name, "kind": self.kind, "rows": self.rows, "instructions": self.instructions,
            "tagged": self.tagged, "has_statuses": self.has_statuses,
            "splits": {lang: {s: {"rows": r, "instructions": i} for s, (r, i) in subs.items()}
                       for lang, subs in self.splits.items()},
            "verification": [asdict(v) for v in self.verification],
            "subsets": {name: s.to_json() for name, s in self.subsets.items()},
            "source": self.source.to_json() if self.source is not None else None,
            "ground_totals": [asdict(t) for t in self.ground_totals],
            "trans_review": [asdict(t) for t in self.trans_review],
        }


__all__ = ["CONTEXT_REQUIRED_STYLES", "MISSING", "STATS_FORMAT", "VERIFICATION_TAGS", "DatasetStats", "Lengths",
           "SourceComparison", "SubsetStats", "Verification"]
