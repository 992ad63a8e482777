"""``dataset_stats``: the paper's dataset tables (Table 3's categories, Table 6's Ground totals,
Table 7's Trans review counts; ``paper.py``), the verification tags and the parallel subset, the
instruction and constraint distributions, from any rows, released or built."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from indicifeval.checkers import REGISTRY, SUBSETS
from indicifeval.checkers.instructions import categories
from indicifeval.checkers.registry import SUITES
from indicifeval.dataset.rows import load_rows
from indicifeval.dataset.stats.model import (
    CONTEXT_REQUIRED_STYLES,
    CORRECT,
    GOLD_PROMPT,
    GOLD_TRANSLATION,
    INCORRECT,
    MISSING,
    PARALLEL,
    SILVER_PROMPT,
    SILVER_TRANSLATION,
    VERIFICATION_TAGS,
    DatasetStats,
    Lengths,
    SourceComparison,
    SubsetStats,
    Verification,
)
from indicifeval.dataset.stats.paper import PaperRecords, category_counts, ground_totals, trans_review
from indicifeval.records import Row


def ranked(counter: Counter) -> dict:
    """Most first, then by name: the same order on every run."""
    return dict(sorted(counter.items(), key=lambda item: (-item[1], str(item[0]))))


def _by_name(counter: Counter) -> dict:
    return dict(sorted(counter.items(), key=lambda item: item[0]))


def _params(kind: str) -> dict[str, tuple[str, ...]]:
    """instruction id -> the names of its kwargs of one kind (int, relation)."""
    return {iid: tuple(p.name for p in spec.params if p.kind == kind) for iid, spec in REGISTRY.items()}


def _kwarg_tables(rows: Sequence[Row]) -> tuple[dict, dict]:
    """(numeric, relations): each integer kwarg's values, each relation kwarg's values (MISSING
    where the instruction takes one and the row gives none), per instruction id."""
    ints, relations = _params("int"), _params("relation")
    numeric: dict[str, dict[str, Counter]] = {}
    rel: dict[str, dict[str, Counter]] = {}
    for row in rows:
        for iid, kwargs in zip(row.instruction_id_list, row.kwargs):
            for name in ints.get(iid, ()):
                if name in kwargs:
                    numeric.setdefault(iid, {}).setdefault(name, Counter())[kwargs[name]] += 1
            for name in relations.get(iid, ()):
                rel.setdefault(iid, {}).setdefault(name, Counter())[kwargs.get(name, MISSING)] += 1
    return ({iid: {k: _by_name(c) for k, c in sorted(kws.items())} for iid, kws in sorted(numeric.items())},
            {iid: {k: ranked(c) for k, c in sorted(kws.items())} for iid, kws in sorted(rel.items())})


def _suites(ids: Counter) -> dict[str, dict[str, tuple[int, int]]]:
    """suite -> category label -> (ids asked, instructions), in the registry's order of suites and
    categories (``checkers.instructions.categories``); ids it lacks under "unknown"."""
    out: dict[str, dict[str, list[int]]] = {}
    for label, members in categories().items():
        for iid in members:
            if ids[iid]:
                cell = out.setdefault(REGISTRY[iid].suite, {}).setdefault(label, [0, 0])
                cell[0] += 1
                cell[1] += ids[iid]
    unknown = [iid for iid in ids if iid not in REGISTRY]
    if unknown:
        out["unknown"] = {"unknown": [len(unknown), sum(ids[i] for i in unknown)]}
    order = {s: i for i, s in enumerate(SUITES)}
    return {suite: {c: (v[0], v[1]) for c, v in cats.items()}
            for suite, cats in sorted(out.items(), key=lambda kv: order.get(kv[0], len(order)))}


def subset_stats(subset: str, rows: Sequence[Row], statuses: Sequence[str | None] = ()) -> SubsetStats:
    ids = Counter(i for r in rows for i in r.instruction_id_list)
    tags = Counter(t for r in rows for t in dict.fromkeys(r.tags))
    verification = Counter({t: n for t, n in tags.items() if t in VERIFICATION_TAGS})
    other = Counter({t: n for t, n in tags.items() if t not in VERIFICATION_TAGS})
    numeric, relations = _kwarg_tables(rows)
    context = None
    if subset == "ground":
        context = sum(1 for r in rows if any(t in CONTEXT_REQUIRED_STYLES for t in r.tags))
    return SubsetStats(
        subset=subset,
        languages=tuple(sorted({r.language for r in rows})),
        rows=len(rows),
        instructions=sum(ids.values()),
        instruction_ids=ranked(ids),
        rows_with=ranked(Counter(i for r in rows for i in set(r.instruction_id_list))),
        categories=ranked(Counter(i.split(":", 1)[0] for r in rows for i in r.instruction_id_list)),
        per_row=_by_name(Counter(len(r.instruction_id_list) for r in rows)),
        numeric=numeric,
        relations=relations,
        resp_lang=ranked(Counter(r.resp_lang or MISSING for r in rows)),
        verification_tags={t: verification[t] for t in VERIFICATION_TAGS if verification[t]},
        other_tags=ranked(other),
        rows_with_other_tags=sum(1 for r in rows if any(t not in VERIFICATION_TAGS for t in r.tags)),
        untagged_rows=sum(1 for r in rows if not r.tags),
        context_required=context,
        chars=Lengths.of(len(r.prompt) for r in rows),
        words=Lengths.of(len(r.prompt.split()) for r in rows),
        statuses=ranked(Counter(s for s in statuses if s is not None)),
        suites=_suites(ids),
        paper_categories=category_counts(rows),
    )


def verification(language: str, subset: str, rows: Sequence[Row]) -> Verification:
    def n(tag: str) -> int:
        return sum(1 for r in rows if tag in r.tags)

    parallel = [r for r in rows if PARALLEL in r.tags]
    return Verification(language, subset, len(rows), n(CORRECT), n(INCORRECT), n(GOLD_TRANSLATION),
                        n(SILVER_TRANSLATION), n(GOLD_PROMPT), n(SILVER_PROMPT), len(parallel),
                        sum(len(r.instruction_id_list) for r in parallel),
                        sum(1 for r in parallel if CORRECT in r.tags))


def source_comparison(rows: Sequence[Row], source_rows: Iterable[Row], name: str) -> SourceComparison:
    """Each Trans row's instruction list against its English row's (same key, as text)."""
    index = {str(r.key): r for r in source_rows}
    trans = [r for r in rows if r.subset == "trans"]
    dropped: Counter = Counter()
    added: Counter = Counter()
    same, differing, missing = 0, [], 0
    for row in trans:
        src = index.get(str(row.key))
        if src is None:
            missing += 1
            continue
        if src.instruction_id_list == row.instruction_id_list:
            same += 1
            continue
        differing.append(str(row.id))
        mine, theirs = Counter(row.instruction_id_list), Counter(src.instruction_id_list)
        dropped += theirs - mine
        added += mine - theirs
    return SourceComparison(name, len(trans), missing, same, len(differing), ranked(dropped), ranked(added),
                            tuple(differing))


def dataset_stats(data: Sequence[Row] | Sequence[dict], *, name: str = "<rows>", kind: str = "memory",
                  statuses: Sequence[str | None] = (), source: Sequence[Row] | None = None,
                  source_name: str | Path = "<source>", records: PaperRecords | None = None) -> DatasetStats:
    """The statistics of ``data`` (parsed rows, or row dicts that ``load_rows`` parses); ``statuses``:
    each row's build status, in row order, where it has one; ``source``: the English rows a Trans
    split was translated from, to compare instruction lists with (``load_stats`` reads files);
    ``records``: what the build recorded for Tables 6 and 7 (without them, Table 6 is estimated
    from the keys and Table 7's keyword corrections are not recorded)."""
    rows: list[Row] = [r for r in data if isinstance(r, Row)]
    if len(rows) != len(data):
        rows = load_rows(data)
    status_of = list(statuses) + [None] * (len(rows) - len(statuses))
    splits: dict[str, dict[str, tuple[int, int]]] = {}
    by_split: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        by_split.setdefault((row.language, row.subset), []).append(row)
    order = {s: i for i, s in enumerate(SUBSETS)}
    keys = sorted(by_split, key=lambda k: (k[0], order.get(k[1], len(order)), k[1]))
    for lang, subset in keys:
        group = by_split[lang, subset]
        splits.setdefault(lang, {})[subset] = (len(group), sum(len(r.instruction_id_list) for r in group))
    subsets = {}
    for subset in sorted({r.subset for r in rows}, key=lambda s: (order.get(s, len(order)), s)):
        picked = [i for i, r in enumerate(rows) if r.subset == subset]
        subsets[subset] = subset_stats(subset, [rows[i] for i in picked], [status_of[i] for i in picked])
    return DatasetStats(
        name=str(name), kind=kind, rows=len(rows), instructions=sum(len(r.instruction_id_list) for r in rows),
        splits=splits,
        verification=tuple(verification(lang, subset, by_split[lang, subset]) for lang, subset in keys),
        subsets=subsets,
        tagged=any(t in VERIFICATION_TAGS for r in rows for t in r.tags),
        has_statuses=any(s is not None for s in status_of),
        source=source_comparison(rows, source, str(source_name)) if source is not None else None,
        trans_lists={str(r.id): r.instruction_id_list for r in rows if r.subset == "trans"},
        ground_totals=ground_totals(rows, records),
        trans_review=trans_review(rows, records),
    )


__all__ = ["dataset_stats", "ranked", "source_comparison", "subset_stats", "verification"]
