"""Statistics as plain tables (keys and numbers): one shape that the terminal, the Markdown of a
dataset card and a side-by-side comparison all draw, so the three never disagree."""

from __future__ import annotations

from dataclasses import dataclass

from indicifeval.dataset.stats.model import DatasetStats, Lengths, SubsetStats, Verification

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
    return StatsTable("verification", "Verification outcomes (the paper's Table 7; parallel instructions: in the "
                 "parallel rows)", ("language", "subset"), ("rows", *cols), rows, note)


def _instructions(s: SubsetStats) -> StatsTable:
    rows = tuple(((iid,), (n, _share(n, s.instructions), s.rows_with[iid], _share(s.rows_with[iid], s.rows)))
                 for iid, n in s.instruction_ids.items())
    return StatsTable(f"instructions/{s.subset}", f"{s.subset}: instructions ({s.instructions} over "
                 f"{len(s.instruction_ids)} ids)", ("instruction",), ("instructions", "%", "rows", "% of rows"), rows,
                 compare_columns=("instructions", "%"))


def _categories(s: SubsetStats) -> StatsTable:
    rows = tuple(((c,), (n, _share(n, s.instructions))) for c, n in s.categories.items())
    rows += tuple(((f"{k} per row",), (n, _share(n, s.rows))) for k, n in s.per_row.items())
    return StatsTable(f"categories/{s.subset}", f"{s.subset}: instructions per category and per row", ("category",),
                 ("count", "%"), rows)


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


def stats_tables(stats: DatasetStats) -> list[StatsTable]:
    """Every table of ``stats``, in the order they are shown."""
    tables = [_splits(stats), _verification(stats)]
    for s in stats.subsets.values():
        tables += [_instructions(s), _categories(s), _suites(s), *_numeric(s), _relations(s), _tags(s),
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
