"""Statistics as plain tables (keys and numbers): one shape that the terminal, the Markdown of a
dataset card and a side-by-side comparison all draw, so the three never disagree."""

from __future__ import annotations

from dataclasses import dataclass

from indicifeval.dataset.stats.model import DatasetStats, Lengths, SubsetStats, Verification
from indicifeval.dataset.stats.paper import FROM_KEYS, GROUPS, NOT_RECORDED

Number = int | float | None


@dataclass(frozen=True)
class StatsTable:
    """``name`` is stable (what a comparison matches on); rows are (keys, values); ``detail``:
    one more text cell per row, shown but not compared; ``compared_only``: a table too long to
    show for one dataset that a comparison needs (each value of each integer kwarg)."""

    name: str
    title: str
    key_columns: tuple[str, ...]
    value_columns: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], tuple[Number, ...]], ...]
    note: str = ""
    detail_column: str = ""
    detail: tuple[str, ...] = ()
    compared_only: bool = False
    absent_is_zero: bool = True  # a row one dataset lacks counts 0 there (not so for min/mean/max)
    compare_columns: tuple[str, ...] = ()  # the value columns a comparison shows (all when empty)


def fmt(value: Number) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def _share(n: int, total: int) -> float:
    return 100.0 * n / total if total else 0.0


def _splits(stats: DatasetStats) -> StatsTable:
    rows = [((lang, subset), (r, i)) for lang, subs in stats.splits.items() for subset, (r, i) in subs.items()]
    rows.append((("all", ""), (stats.rows, stats.instructions)))
    return StatsTable("splits", "Rows per language and subset", ("language", "subset"), ("rows", "instructions"),
                 tuple(rows))


def _verification(stats: DatasetStats) -> StatsTable:
    cols = tuple(c.replace("_", " ") for c in Verification.COLUMNS)

    def value(v: Verification, column: str) -> Number:
        if v.subset != "trans" and ("translation" in column or column.startswith("parallel")):
            return None  # Trans only: Ground prompts are not translated, and parallel is across Trans splits
        if v.subset != "trans" and column == "correct" and not v.correct:
            return None  # Ground rows are tagged only when incorrect (as the release): no count, not 0
        return getattr(v, column)

    rows = tuple(((v.language, v.subset), (v.rows, *(value(v, c) for c in Verification.COLUMNS)))
                 for v in stats.verification)
    note = "" if stats.tagged else ("no row has a verification tag (a build folder before finalize): no "
                                    "verification outcomes yet")
    return StatsTable("verification", "Verification tags per language and subset (parallel instructions: in the "
                 "parallel rows)", ("language", "subset"), ("rows", *cols), rows, note)


def _table6(stats: DatasetStats) -> list[StatsTable]:
    if not stats.ground_totals:
        return []
    rows = tuple(((t.language,), (t.generated, t.kept, _share(t.kept, t.generated) if t.generated else None))
                 for t in stats.ground_totals)
    estimated = any(t.how == FROM_KEYS for t in stats.ground_totals)
    note = ("estimate: generated is the highest key (the keys number the generated prompts from 1; a gap is a "
            "prompt dropped; prompts dropped after the last one kept are not seen)" if estimated else "")
    return [StatsTable("ground-totals", "Ground prompts generated and kept (the paper's Table 6)", ("language",),
                       ("generated", "kept", "% kept"), rows, note, "generated from",
                       tuple(t.how for t in stats.ground_totals), absent_is_zero=False)]


def _table7(stats: DatasetStats) -> list[StatsTable]:
    if not stats.trans_review:
        return []
    rows = tuple(((t.language,), (t.rows, t.correct, t.keyword_fixes)) for t in stats.trans_review)
    missing = any(t.keyword_fixes is None for t in stats.trans_review)
    note = ("correct: rows tagged correct; keyword corrections: rows whose keyword an annotator corrected in "
            "review (the prompt's keyword text or a lexical kwarg changed), counted from the review log"
            + ("; not recorded where the rows come without one" if missing else ""))
    return [StatsTable("trans-review", "Trans rows judged correct and keyword corrections (the paper's Table 7)",
                       ("language",), ("rows", "correct", "keyword corrections"), rows, note,
                       "keyword corrections from",
                       tuple(NOT_RECORDED if t.keyword_fixes is None else t.how for t in stats.trans_review),
                       absent_is_zero=False)]


def _instructions(s: SubsetStats) -> StatsTable:
    rows = tuple(((iid,), (n, _share(n, s.instructions), s.rows_with[iid], _share(s.rows_with[iid], s.rows)))
                 for iid, n in s.instruction_ids.items())
    return StatsTable(f"instructions/{s.subset}", f"{s.subset}: instructions ({s.instructions} over "
                 f"{len(s.instruction_ids)} ids)", ("instruction",), ("instructions", "%", "rows", "% of rows"), rows,
                 compare_columns=("instructions", "%"))


def _categories(s: SubsetStats) -> StatsTable:
    """The paper's Table 3 categories per language: instructions in all rows, in rows tagged
    correct and parallel ("–": no row of the language has the tag)."""
    rows = []
    for lang, cats in s.paper_categories.items():
        total = sum(a for a, _, _ in cats.values())
        rows += [((lang, c), (a, _share(a, total), b, p)) for c, (a, b, p) in cats.items()]
    return StatsTable(f"categories/{s.subset}", f"{s.subset}: instructions per category (the paper's Table 3)",
                      ("language", "category"), ("instructions", "%", "in correct rows", "in parallel rows"),
                      tuple(rows), absent_is_zero=False)


def _prefixes(s: SubsetStats) -> StatsTable:
    rows = tuple(((c,), (n, _share(n, s.instructions))) for c, n in s.categories.items())
    rows += tuple(((f"{k} per row",), (n, _share(n, s.rows))) for k, n in s.per_row.items())
    return StatsTable(f"prefixes/{s.subset}", f"{s.subset}: instructions per IFEval id prefix and per row",
                      ("prefix",), ("count", "%"), rows)


def _suites(s: SubsetStats) -> StatsTable:
    rows = tuple(((suite, category), (ids, n, _share(n, s.instructions)))
                 for suite, cats in s.suites.items() for category, (ids, n) in cats.items())
    return StatsTable(f"suites/{s.subset}", f"{s.subset}: instructions per suite and category", ("suite", "category"),
                      ("ids", "instructions", "%"), rows, compare_columns=("instructions", "%"))


def _histogram(values: dict[int, int], limit: int = 12) -> str:
    items = [f"{v}: {n}" for v, n in values.items()]
    return ", ".join(items) if len(items) <= limit else ", ".join(items[:limit]) + f", … ({len(items)} values)"


def _numeric(s: SubsetStats) -> list[StatsTable]:
    rows, detail = [], []
    for iid, kwargs in s.numeric.items():
        for name, values in kwargs.items():
            n = sum(values.values())
            mean = sum(v * c for v, c in values.items()) / n
            rows.append(((iid, name), (n, len(values), min(values), mean, max(values))))
            detail.append(_histogram(values))
    ranges = StatsTable(f"numeric/{s.subset}", f"{s.subset}: integer kwargs", ("instruction", "kwarg"),
                   ("instructions", "values", "min", "mean", "max"), tuple(rows), "",
                   "value: instructions", tuple(detail), absent_is_zero=False,
                   compare_columns=("instructions", "min", "mean", "max"))
    each = tuple(((iid, name, str(v)), (n,)) for iid, kwargs in s.numeric.items()
                 for name, hist in kwargs.items() for v, n in hist.items())
    per_value = StatsTable(f"numeric-values/{s.subset}", f"{s.subset}: integer kwarg values",
                      ("instruction", "kwarg", "value"), ("instructions",), each, compared_only=True)
    return [ranges, per_value]


def _relations(s: SubsetStats) -> StatsTable:
    rows = tuple(((iid, name, value), (n,)) for iid, kwargs in s.relations.items()
                 for name, values in kwargs.items() for value, n in values.items())
    return StatsTable(f"relations/{s.subset}", f"{s.subset}: relation values ((none): the row gives none)",
                 ("instruction", "kwarg", "value"), ("instructions",), rows)


def _tags(s: SubsetStats) -> StatsTable:
    other = "style" if s.subset == "ground" else "topic"
    rows = [(("verification", t), (n, _share(n, s.rows))) for t, n in s.verification_tags.items()]
    rows += [((other, t), (n, _share(n, s.rows))) for t, n in s.other_tags.items()]
    rows.append(((f"rows with a {other} tag", ""), (s.rows_with_other_tags, _share(s.rows_with_other_tags, s.rows))))
    if s.context_required is not None:
        rows.append((("context-required styles", ""), (s.context_required, _share(s.context_required, s.rows))))
    rows.append((("rows without tags", ""), (s.untagged_rows, _share(s.untagged_rows, s.rows))))
    rows += [(("build status", st), (n, _share(n, s.rows))) for st, n in s.statuses.items()]
    return StatsTable(f"tags/{s.subset}", f"{s.subset}: tags and statuses (rows)", ("kind", "tag"), ("rows", "%"),
                 tuple(rows))


def _resp_lang_and_lengths(s: SubsetStats) -> list[StatsTable]:
    resp = StatsTable(f"resp_lang/{s.subset}", f"{s.subset}: response language (resp_lang)", ("resp_lang",),
                 ("rows", "%"), tuple(((v,), (n, _share(n, s.rows))) for v, n in s.resp_lang.items()))

    def row(what: str, m: Lengths) -> tuple[tuple[str, ...], tuple[Number, ...]]:
        return (what,), (m.min, m.median, m.mean, m.max)

    lengths = StatsTable(f"lengths/{s.subset}", f"{s.subset}: prompt lengths (words: whitespace-separated)",
                    ("measure",), ("min", "median", "mean", "max"),
                    (row("characters", s.chars), row("words", s.words)), absent_is_zero=False)
    return [resp, lengths]


def _source(stats: DatasetStats) -> list[StatsTable]:
    src = stats.source
    if src is None:
        return []
    rows = [(("Trans rows",), (src.rows,)), (("not in the source",), (src.not_in_source,)),
            (("same instruction list",), (src.same,)), (("different list",), (src.differ,))]
    rows += [((f"dropped {i}",), (n,)) for i, n in src.dropped.items()]
    rows += [((f"added {i}",), (n,)) for i, n in src.added.items()]
    first = ", ".join(src.differing[:20]) + (f", … ({src.differ})" if src.differ > 20 else "")
    return [StatsTable("source", f"Trans instruction lists against the source {src.source}", ("",), ("rows",),
                  tuple(rows), f"differing: {first}" if src.differing else "")]


def stats_tables(stats: DatasetStats, group: str = "category") -> list[StatsTable]:
    """Every table of ``stats``, in the order they are shown; ``group``: instructions by the
    paper's categories (Table 3, the default) or by IFEval's id prefixes."""
    if group not in GROUPS:
        raise ValueError(f"group must be one of {GROUPS}, got {group!r}")
    tables = [_splits(stats), *_table7(stats), *_table6(stats), _verification(stats)]
    for s in stats.subsets.values():
        grouped = _categories(s) if group == "category" else _prefixes(s)
        tables += [_instructions(s), grouped, _suites(s), *_numeric(s), _relations(s), _tags(s),
                   *_resp_lang_and_lengths(s)]
    return tables + _source(stats)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(tables: list[StatsTable], title: str, heading: int = 2) -> str:
    """A Markdown block for a dataset card: a heading, then each table under its title."""
    lines = [f"{'#' * heading} {_cell(title)}", ""]
    for t in tables:
        if t.compared_only or (not t.rows and not t.note):
            continue
        lines += [f"{'#' * (heading + 1)} {_cell(t.title)}", ""]
        if t.rows:
            extra = (t.detail_column,) if t.detail else ()
            header = [c or " " for c in (*t.key_columns, *t.value_columns, *extra)]
            lines += ["| " + " | ".join(header) + " |",
                      "|" + "---|" * len(t.key_columns) + "---:|" * len(t.value_columns) + "---|" * len(extra)]
            for i, (keys, values) in enumerate(t.rows):
                cells = [*(_cell(k) for k in keys), *(fmt(v) for v in values)]
                cells += [_cell(t.detail[i])] if t.detail else []
                lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
        if t.note:
            lines += [_cell(t.note), ""]
    return "\n".join(lines)


__all__ = ["StatsTable", "fmt", "markdown", "stats_tables"]
