"""What every analysis stands on: which rows count (Trans on its parallel subset), per-prompt
outcome groups, pairing over shared prompts, Δ = English − Indic and seeded bootstrap
estimates. The analyses themselves are registered units (``reports/units``).

Rows are selected as positions in a run's arrays (:class:`Rows`), never copied, and the
selections, alignments and Δ a table asks for are kept for the next table that asks again.

Languages come from the benchmark's composition and the language profiles: the columns are
the Indic languages, then the others; English, the reference of Δ, is the Trans language that
the profiles score with IFEval's own text rules. A profile added in ``$INDICIFEVAL_PROFILE_PATH``
becomes a column, and joins the Indic averages if it is Indic, with no change here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources

import numpy as np

from indicifeval.languages import composition, get_profile, indic_codes
from indicifeval.reports.model import Estimate
from indicifeval.reports.rundata import PARALLEL_TAGS, RunData
from indicifeval.reports.stats import Group, bootstrap, difference, mean_of, nan_is_none
from indicifeval.scoring.categories import CATEGORIES, section_categories

TRANS = "trans"  # the translated subset: every language on the same prompts, so Δ is paired on it
METRIC_NAMES = {"prompt_loose": "prompt-level loose", "prompt_strict": "prompt-level strict",
                "inst_loose": "instruction-level loose", "inst_strict": "instruction-level strict"}
# Which outcome a group counts: the report's metric (None), or its instruction-level kind over
# these instruction ids only (a category, the keyword instructions, one id).
Outcome = frozenset[str] | None

__all__ = ["METRIC_NAMES", "PARALLEL_TAGS", "TRANS", "Analyses", "Outcome", "Rows", "column_languages",
           "diff_of_means", "first", "mean_of_differences", "paper_tables", "reference_language"]


def column_languages() -> tuple[str, ...]:
    """The paper's column order: the Indic languages, then the others (English)."""
    indic = indic_codes()
    return (*indic, *(c for c in composition().languages if c not in indic))


def reference_language() -> str | None:
    """English, the reference of Δ: the Trans language with IFEval's own text rules."""
    return next((c for c in composition().languages_of(TRANS) if get_profile(c).text_rules == "ifeval"), None)


@nan_is_none
def first(values):
    return values[0]


class Rows:
    """Some rows of one run, by position in file order."""

    __slots__ = ("positions", "run")

    def __init__(self, run: RunData, positions: np.ndarray):
        self.run, self.positions = run, positions

    def __len__(self) -> int:
        return len(self.positions)

    def keys(self) -> list:
        return [self.run.keys[i] for i in self.positions]

    def where(self, keep: np.ndarray | Iterable[bool]) -> Rows:
        return Rows(self.run, self.positions[np.asarray(list(keep) if not isinstance(keep, np.ndarray) else keep,
                                                        dtype=bool)])


class Analyses:
    """The runs of one report and how to count them; each analysis reads them from here.
    With a ``section`` (a report of several suites: ``scoring.categories.SECTIONS``), only the
    rows of that section count."""

    def __init__(self, runs: list[RunData], metric: str, seed: int = 0, n_boot: int = 1000,
                 include_paper: bool = True, section: str | None = None):
        if metric not in METRIC_NAMES:
            raise ValueError(f"metric must be one of {', '.join(METRIC_NAMES)}")
        self.runs, self.metric, self.seed, self.n_boot = runs, metric, seed, n_boot
        self.include_paper = include_paper
        self.section = section
        self.categories = CATEGORIES if section is None else section_categories(section)
        self.languages = column_languages()
        self.indic = indic_codes()
        self.reference = reference_language()
        self.subsets = composition().subsets
        with_trans = [r for r in runs if TRANS in r.subsets]
        self.parallel = bool(with_trans) and all(r.has_parallel_trans for r in with_trans)
        self._cache: dict = {}

    @property
    def metric_name(self) -> str:
        return METRIC_NAMES[self.metric]

    @property
    def kind(self) -> str:
        """The instruction-level metric's kind: strict or loose."""
        return "strict" if self.metric.endswith("strict") else "loose"

    def languages_of(self, subset: str) -> list[str]:
        """The languages a subset has, in column order."""
        return [c for c in self.languages if subset in composition().subsets_of(c)]

    def _cached(self, token, make):
        found = self._cache.get(token)
        if found is None:
            found = self._cache[token] = make()
        return found

    # -- row selection ------------------------------------------------------------------------
    def rows(self, run: RunData, subset: str, language: str | None = None) -> Rows:
        def make() -> Rows:
            positions = run.positions(subset, language)
            if subset == TRANS and self.parallel:
                positions = positions[run.parallel[positions]]
            return Rows(run, self._in_section(run, positions))

        return self._cached(("rows", id(run), subset, language), make)

    def indic_rows(self, run: RunData, subset: str) -> Rows:
        def make() -> Rows:
            rows = self.rows(run, subset)
            return rows.where(np.fromiter((run.language[i] in self.indic for i in rows.positions), bool,
                                          len(rows)))

        return self._cached(("indic", id(run), subset), make)

    def all_rows(self, run: RunData) -> Rows:
        """Every row of the run: both subsets, every language, the parallel filter not applied."""
        return self._cached(("all", id(run)), lambda: Rows(run, self._in_section(run, np.arange(len(run)))))

    def _in_section(self, run: RunData, positions: np.ndarray) -> np.ndarray:
        return positions if self.section is None else positions[run.section[positions] == self.section]

    def instruction_ids(self, run: RunData) -> set[str]:
        """The instruction ids the counted rows of ``run`` list."""
        if self.section is None:
            return run.instruction_ids()
        rows, codes, _ = run.pairs["loose"]
        kept = np.unique(codes[np.isin(rows, self.all_rows(run).positions)])
        return {run.vocabulary.ids[i] for i in kept.tolist()}

    def group(self, rows: Rows, how: Outcome = None, keys: bool = False, metric: str | None = None) -> Group:
        """The rows' outcomes (rows that count nothing left out) under the report's metric or
        ``metric``; ``keys`` aligns the group."""
        passes, counts = rows.run.outcomes(metric or self.metric, how)
        p, c = passes[rows.positions].astype(float), counts[rows.positions].astype(float)
        kept = c > 0
        if not kept.all():
            p, c = p[kept], c[kept]
        if rows.run.samples > 1:
            return _pooled_samples(rows.run, rows.positions[kept], p, c, keys)
        aligned = tuple(rows.run.keys[i] for i in rows.positions[kept]) if keys else None
        return Group(p, c, aligned)

    def _aligned(self, a: Rows, b: Rows) -> tuple[Rows, Rows] | None:
        """The prompts both have (by key, the last row of a key counting), in key order."""
        if a.run.samples > 1 or b.run.samples > 1:  # every sample of a shared prompt, a prompt's together
            all_a, all_b = _positions_by_key(a), _positions_by_key(b)
            shared = sorted(set(all_a) & set(all_b), key=str)
            if not shared:
                return None
            return (Rows(a.run, np.array([i for k in shared for i in all_a[k]], dtype=np.int64)),
                    Rows(b.run, np.array([i for k in shared for i in all_b[k]], dtype=np.int64)))
        by_a = dict(zip(a.keys(), a.positions.tolist()))
        by_b = dict(zip(b.keys(), b.positions.tolist()))
        common = sorted(set(by_a) & set(by_b), key=str)
        if not common:
            return None
        return (Rows(a.run, np.array([by_a[k] for k in common], dtype=np.int64)),
                Rows(b.run, np.array([by_b[k] for k in common], dtype=np.int64)))

    def paired(self, a: Rows, b: Rows, how: Outcome = None) -> tuple[Group, Group]:
        """Two groups over the prompts both have (by key), aligned for a paired bootstrap; when
        they share no prompt, independent groups over all of each."""
        # the selections are kept with their alignment, so their ids cannot be reused meanwhile
        _, _, aligned = self._cached(("aligned", id(a), id(b)), lambda: (a, b, self._aligned(a, b)))
        if aligned is None:
            return self.group(a, how), self.group(b, how)
        ga, gb = self.group(aligned[0], how, keys=True), self.group(aligned[1], how, keys=True)
        if ga.keys != gb.keys:  # an instruction filter dropped different prompts: unpaired
            return Group(ga.passes, ga.counts), Group(gb.passes, gb.counts)
        return ga, gb

    def estimate(self, groups: list[Group], statistic, label: str) -> Estimate:
        return bootstrap(groups, statistic, seed=self.seed, label=label, n_boot=self.n_boot)

    @property
    def subset_note(self) -> str:
        return ("Trans on the parallel subset (rows tagged correct and parallel)" if self.parallel
                else "Trans on all rows (the runs' rows carry no parallel tags)")

    # -- Δ = English − Indic --------------------------------------------------------------------
    def delta(self, run: RunData, lang: str, how: Outcome = None, label: str = ""
              ) -> tuple[Estimate, Group, Group]:
        if self.reference is None:
            return Estimate(None), Group.of([]), Group.of([])
        en, xx = self.paired(self.rows(run, TRANS, self.reference), self.rows(run, TRANS, lang), how)
        if not len(en) or not len(xx):
            return Estimate(None), en, xx
        return self.estimate([en, xx], difference, f"{run.info.name}|delta|{lang}|{label}"), en, xx

    def deltas(self, run: RunData, how: Outcome = None, label: str = "") -> list[tuple[Estimate, list[Group]]]:
        """Per Indic language: the Δ estimate and the (English, language) groups behind it
        (empty when there is no Δ), for averaging Δ over languages or runs."""
        def make() -> list[tuple[Estimate, list[Group]]]:
            out = []
            for lang in self.indic:
                est, en, xx = self.delta(run, lang, how, label)
                out.append((est, [en, xx] if est.value is not None else []))
            return out

        return self._cached(("deltas", id(run), how, label), make)

    def delta_cells(self, run: RunData, avg_label: str, how: Outcome = None,
                    label: str = "") -> tuple[list[Estimate], Estimate] | None:
        """The Δ per Indic language and their average (``avg_label`` seeds its bootstrap), or
        None when the run has no Δ at all."""
        deltas = self.deltas(run, how, label)
        cells, pairs = [est for est, _ in deltas], [g for _, groups in deltas for g in groups]
        if not any(c.value is not None for c in cells):
            return None
        return cells, self.estimate(pairs, mean_of_differences, avg_label) if pairs else Estimate(None)

    def avg_delta(self, run: RunData, label: str) -> Estimate:
        pairs = [g for _, groups in self.deltas(run) for g in groups]
        return self.estimate(pairs, mean_of_differences, label) if pairs else Estimate(None)

    # -- pairs of runs ---------------------------------------------------------------------------
    def thinking_pairs(self) -> list[tuple[RunData, RunData]]:
        """(without, with) thinking: same model and settings, thinking the only difference."""
        def make() -> list[tuple[RunData, RunData]]:
            settings = {id(r): json.dumps(r.info.settings, sort_keys=True) for r in self.runs}
            pairs = [(a, b) for a in self.runs for b in self.runs
                     if a is not b and not a.info.thinking and b.info.thinking and settings[id(a)] == settings[id(b)]]
            return sorted(pairs, key=lambda p: (p[0].info.size_b or 0, p[0].info.model))

        return self._cached(("thinking pairs",), make)

    def paired_outcomes(self, a: RunData, b: RunData, subset: str, indic_only: bool = False
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Per-prompt (prompt-level metrics) or per-instruction outcomes of two runs on the
        items both have, for McNemar."""
        rows_b = self.rows(b, subset)
        by_b = {(b.language[i], b.keys[i]): i for i in rows_b.positions.tolist()}
        pa, pb = [], []
        for i in self.rows(a, subset).positions.tolist():
            j = by_b.get((a.language[i], a.keys[i]))
            if j is None or (indic_only and a.language[i] not in self.indic):
                continue
            pa.append(i)
            pb.append(j)
        ia, ib = np.asarray(pa, dtype=np.int64), np.asarray(pb, dtype=np.int64)
        if self.metric.startswith("prompt"):
            return a.prompt[self.kind][ia], b.prompt[self.kind][ib]
        return a.verdicts_of(self.kind, ia), b.verdicts_of(self.kind, ib)


def _positions_by_key(rows: Rows) -> dict:
    out: dict = {}
    for key, i in zip(rows.keys(), rows.positions.tolist()):
        out.setdefault(key, []).append(i)
    return out


def _pooled_samples(run: RunData, positions: np.ndarray, p: np.ndarray, c: np.ndarray, keys: bool) -> Group:
    """A run with several samples per prompt: one group member per prompt (language and key), its
    passes and counts summed over its samples, so the mean is the mean over samples and the
    bootstrap resamples prompts with all their samples (``scoring.samples`` has the two-level
    estimator the report's samples table and the run's summary use)."""
    index: dict = {}
    members = np.fromiter((index.setdefault((run.language[i], run.keys[i]), len(index)) for i in positions.tolist()),
                          dtype=np.int64, count=len(positions))
    passes = np.bincount(members, weights=p, minlength=len(index))
    counts = np.bincount(members, weights=c, minlength=len(index))
    return Group(passes, counts, tuple(key for _, key in index) if keys else None)


@nan_is_none
def mean_of_differences(values):
    """Mean of (v[0]-v[1], v[2]-v[3], ...)."""
    diffs = [difference(values[i : i + 2]) for i in range(0, len(values), 2)]
    return mean_of(diffs)


@nan_is_none
def diff_of_means(a, b):
    ma, mb = mean_of(a), mean_of(b)
    return None if ma is None or mb is None else ma - mb


def paper_tables() -> dict:
    """The paper's Tables 1 and 2 (prompt-level loose, %), shipped as data."""
    path = resources.files("indicifeval.reports").joinpath("data", "paper_tables.json")
    return json.loads(path.read_text(encoding="utf-8"))
