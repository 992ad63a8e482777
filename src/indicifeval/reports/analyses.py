"""What every analysis stands on: which rows count (Trans on its parallel subset), per-prompt
outcome groups, pairing over shared prompts, Δ = English − Indic and seeded bootstrap
estimates. The analyses themselves are registered units (``reports/units``).

Languages come from the benchmark's composition and the language profiles: the columns are
the Indic languages, then the others; English, the reference of Δ, is the Trans language that
the profiles score with IFEval's own text rules. A profile added in ``$INDICIFEVAL_PROFILE_PATH``
becomes a column, and joins the Indic averages if it is Indic, with no change here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources

from indicifeval.languages import composition, get_profile, indic_codes
from indicifeval.reports.loading import RunData, outcome
from indicifeval.reports.model import Estimate
from indicifeval.reports.stats import Group, bootstrap, difference, mean_of

TRANS = "trans"  # the translated subset: every language on the same prompts, so Δ is paired on it
PARALLEL_TAGS = {"correct", "parallel"}
METRIC_NAMES = {"prompt_loose": "prompt-level loose", "prompt_strict": "prompt-level strict",
                "inst_loose": "instruction-level loose", "inst_strict": "instruction-level strict"}

Outcome = Callable[[dict], tuple[int, int]]


def column_languages() -> tuple[str, ...]:
    """The paper's column order: the Indic languages, then the others (English)."""
    indic = indic_codes()
    return (*indic, *(c for c in composition().languages if c not in indic))


def reference_language() -> str | None:
    """English, the reference of Δ: the Trans language with IFEval's own text rules."""
    return next((c for c in composition().languages_of(TRANS) if get_profile(c).text_rules == "ifeval"), None)


def first(values: list[float | None]) -> float | None:
    return values[0]


class Analyses:
    """The runs of one report and how to count them; each analysis reads them from here."""

    def __init__(self, runs: list[RunData], metric: str, seed: int = 0, n_boot: int = 1000,
                 include_paper: bool = True):
        if metric not in METRIC_NAMES:
            raise ValueError(f"metric must be one of {', '.join(METRIC_NAMES)}")
        self.runs, self.metric, self.seed, self.n_boot = runs, metric, seed, n_boot
        self.include_paper = include_paper
        self.languages = column_languages()
        self.indic = indic_codes()
        self.reference = reference_language()
        self.subsets = composition().subsets
        with_trans = [r for r in runs if any(s["subset"] == TRANS for s in r.scores)]
        self.parallel = bool(with_trans) and all(self._has_parallel_tags(r) for r in with_trans)

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

    # -- row selection ------------------------------------------------------------------------
    @staticmethod
    def _has_parallel_tags(run: RunData) -> bool:
        return any(PARALLEL_TAGS <= set(run.row(s).get("tags") or ()) for s in run.scores if s["subset"] == TRANS)

    def rows(self, run: RunData, subset: str, language: str | None = None) -> list[dict]:
        rows = [s for s in run.scores if s["subset"] == subset and (language is None or s["language"] == language)]
        if subset == TRANS and self.parallel:
            rows = [s for s in rows if PARALLEL_TAGS <= set(run.row(s).get("tags") or ())]
        return rows

    def indic_rows(self, run: RunData, subset: str) -> list[dict]:
        return [s for s in self.rows(run, subset) if s["language"] in self.indic]

    def group(self, rows: list[dict], how: Outcome | None = None, keys: list | None = None) -> Group:
        how = how or (lambda s: outcome(s, self.metric))
        pairs = [how(s) for s in rows]
        kept = [(p, s["key"]) for p, s in zip(pairs, rows) if p[1] > 0]
        return Group.of([p for p, _ in kept] or [], keys=None if keys is None else tuple(k for _, k in kept))

    def paired(self, a: list[dict], b: list[dict], how: Outcome | None = None) -> tuple[Group, Group]:
        """Two groups over the prompts both have (by key), aligned for a paired bootstrap; when
        they share no prompt, independent groups over all of each."""
        by_a, by_b = {s["key"]: s for s in a}, {s["key"]: s for s in b}
        common = sorted(set(by_a) & set(by_b), key=str)
        if not common:
            return self.group(a, how), self.group(b, how)
        ga = self.group([by_a[k] for k in common], how, keys=common)
        gb = self.group([by_b[k] for k in common], how, keys=common)
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
    def delta(self, run: RunData, lang: str, how: Outcome | None = None, label: str = ""
              ) -> tuple[Estimate, Group, Group]:
        if self.reference is None:
            return Estimate(None), Group.of([]), Group.of([])
        en, xx = self.paired(self.rows(run, TRANS, self.reference), self.rows(run, TRANS, lang), how)
        if not len(en) or not len(xx):
            return Estimate(None), en, xx
        return self.estimate([en, xx], difference, f"{run.info.name}|delta|{lang}|{label}"), en, xx

    def deltas(self, run: RunData, how: Outcome | None = None, label: str = "") -> list[tuple[Estimate, list[Group]]]:
        """Per Indic language: the Δ estimate and the (English, language) groups behind it
        (empty when there is no Δ), for averaging Δ over languages or runs."""
        out = []
        for lang in self.indic:
            est, en, xx = self.delta(run, lang, how, label)
            out.append((est, [en, xx] if est.value is not None else []))
        return out

    def delta_cells(self, run: RunData, avg_label: str, how: Outcome | None = None,
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
        pairs = []
        for a in self.runs:
            for b in self.runs:
                if a is not b and not a.info.thinking and b.info.thinking and \
                        json.dumps(a.info.settings, sort_keys=True) == json.dumps(b.info.settings, sort_keys=True):
                    pairs.append((a, b))
        return sorted(pairs, key=lambda p: (p[0].info.size_b or 0, p[0].info.model))

    def paired_outcomes(self, a: RunData, b: RunData, subset: str, indic_only: bool = False
                        ) -> tuple[list[bool], list[bool]]:
        """Per-prompt (prompt-level metrics) or per-instruction outcomes of two runs on the
        items both have, for McNemar."""
        by_b = {(s["language"], s["key"]): s for s in self.rows(b, subset)}
        field = {"prompt_loose": "prompt_loose", "prompt_strict": "prompt_strict"}.get(self.metric)
        out_a, out_b = [], []
        for s in self.rows(a, subset):
            t = by_b.get((s["language"], s["key"]))
            if t is None or (indic_only and s["language"] not in self.indic):
                continue
            if field:
                out_a.append(bool(s[field]))
                out_b.append(bool(t[field]))
            else:
                f = "loose" if self.metric == "inst_loose" else "strict"
                out_a += [bool(v) for v in s[f]]
                out_b += [bool(v) for v in t[f]]
        return out_a, out_b


def mean_of_differences(values: list[float | None]) -> float | None:
    """Mean of (v[0]-v[1], v[2]-v[3], ...)."""
    diffs = [difference(values[i : i + 2]) for i in range(0, len(values), 2)]
    return mean_of(diffs)


def diff_of_means(a: list[float | None], b: list[float | None]) -> float | None:
    ma, mb = mean_of(a), mean_of(b)
    return None if ma is None or mb is None else ma - mb


def paper_tables() -> dict:
    """The paper's Tables 1 and 2 (prompt-level loose, %), shipped as data."""
    path = resources.files("indicifeval.reports").joinpath("data", "paper_tables.json")
    return json.loads(path.read_text(encoding="utf-8"))
