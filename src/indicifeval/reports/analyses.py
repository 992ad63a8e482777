"""The paper's analyses over a set of runs, each cell an Estimate with a bootstrap interval.

Language tables (Tables 1 and 2), disparity Δ = English − Indic (per language, per category,
per model family), keyword inclusion vs exclusion, cross-lingual English-output instructions,
thinking vs non-thinking, per-instruction accuracy, and paired comparisons between runs.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from importlib import resources

from indicifeval.languages import composition, indic_codes
from indicifeval.reports.loading import RunData, instruction_outcome, outcome
from indicifeval.reports.model import Estimate, Table
from indicifeval.reports.stats import Group, bootstrap, difference, mcnemar, mean_of
from indicifeval.scoring.categories import CATEGORIES



def column_languages() -> tuple[str, ...]:
    """The paper's column order: the Indic languages, then the others (English), then Avg."""
    return (*indic_codes(), *(c for c in composition().languages if c not in indic_codes()))


PARALLEL_TAGS = {"correct", "parallel"}
INCLUSION = {"keywords:existence", "keywords:frequency"}
EXCLUSION = {"keywords:forbidden_words"}
METRIC_NAMES = {"prompt_loose": "prompt-level loose", "prompt_strict": "prompt-level strict",
                "inst_loose": "instruction-level loose", "inst_strict": "instruction-level strict"}

Outcome = Callable[[dict], tuple[int, int]]


class Analyses:
    def __init__(self, runs: list[RunData], metric: str, seed: int = 0, n_boot: int = 1000):
        if metric not in METRIC_NAMES:
            raise ValueError(f"metric must be one of {', '.join(METRIC_NAMES)}")
        self.runs, self.metric, self.seed, self.n_boot = runs, metric, seed, n_boot
        self.parallel = False
        with_trans = [r for r in runs if any(s["subset"] == "trans" for s in r.scores)]
        self.parallel = bool(with_trans) and all(self._has_parallel_tags(r) for r in with_trans)

    # -- row selection ------------------------------------------------------------------------
    @staticmethod
    def _has_parallel_tags(run: RunData) -> bool:
        return any(PARALLEL_TAGS <= set(run.row(s).get("tags") or ()) for s in run.scores if s["subset"] == "trans")

    def _rows(self, run: RunData, subset: str, language: str | None = None) -> list[dict]:
        rows = [s for s in run.scores if s["subset"] == subset and (language is None or s["language"] == language)]
        if subset == "trans" and self.parallel:
            rows = [s for s in rows if PARALLEL_TAGS <= set(run.row(s).get("tags") or ())]
        return rows

    def _group(self, rows: list[dict], how: Outcome | None = None, keys: list | None = None) -> Group:
        how = how or (lambda s: outcome(s, self.metric))
        pairs = [how(s) for s in rows]
        kept = [(p, s["key"]) for p, s in zip(pairs, rows) if p[1] > 0]
        return Group.of([p for p, _ in kept] or [], keys=None if keys is None else tuple(k for _, k in kept))

    def _paired(self, a: list[dict], b: list[dict], how: Outcome | None = None) -> tuple[Group, Group]:
        """Two groups over the prompts both have (by key), aligned for a paired bootstrap; when
        they share no prompt, independent groups over all of each."""
        by_a, by_b = {s["key"]: s for s in a}, {s["key"]: s for s in b}
        common = sorted(set(by_a) & set(by_b), key=str)
        if not common:
            return self._group(a, how), self._group(b, how)
        ga = self._group([by_a[k] for k in common], how, keys=common)
        gb = self._group([by_b[k] for k in common], how, keys=common)
        if ga.keys != gb.keys:  # an instruction filter dropped different prompts: unpaired
            return Group(ga.passes, ga.counts), Group(gb.passes, gb.counts)
        return ga, gb

    def _estimate(self, groups: list[Group], statistic, label: str) -> Estimate:
        return bootstrap(groups, statistic, seed=self.seed, label=label, n_boot=self.n_boot)

    @property
    def subset_note(self) -> str:
        return ("Trans on the parallel subset (rows tagged correct and parallel)" if self.parallel
                else "Trans on all rows (the runs' rows carry no parallel tags)")

    # -- Tables 1 and 2 -----------------------------------------------------------------------
    def language_table(self, subset: str, paper: dict | None = None) -> Table:
        langs = [c for c in column_languages() if subset == "trans" or c != "en"]
        table = Table(f"{subset}_languages", f"IndicIFEval-{subset.capitalize()}: {METRIC_NAMES[self.metric]} "
                      f"by language (Avg over the Indic languages)", ["run", *langs, "Avg"], [])
        for run in self.runs:
            cells, groups = [], []
            for lang in langs:
                g = self._group(self._rows(run, subset, lang))
                cells.append(self._estimate([g], lambda v: v[0], f"{run.info.name}|{subset}|{lang}") if len(g) else Estimate(None))
                if lang != "en" and len(g):
                    groups.append(g)
            avg = self._estimate(groups, mean_of, f"{run.info.name}|{subset}|avg") if groups else Estimate(None)
            if any(c.value is not None for c in cells):
                table.rows.append([run.info.name, *cells, avg])
        if paper and self.metric == "prompt_loose":
            for model, values in paper["models"].items():
                table.rows.append([f"paper: {model}", *[Estimate(values[c] / 100) if c in values else Estimate(None)
                                                         for c in langs], Estimate(values["avg"] / 100)])
        notes = [self.subset_note if subset == "trans" else "Ground on all rows"]
        if paper and self.metric == "prompt_loose":
            notes.append("rows marked 'paper:' are the published numbers (no intervals)")
        table.note = "; ".join(notes) + "; 95% bootstrap intervals over prompts in the CSV/JSON"
        return table

    # -- Δ --------------------------------------------------------------------------------------
    def _delta(self, run: RunData, lang: str, how: Outcome | None = None, label: str = "") -> tuple[Estimate, Group, Group]:
        en, xx = self._paired(self._rows(run, "trans", "en"), self._rows(run, "trans", lang), how)
        if not len(en) or not len(xx):
            return Estimate(None), en, xx
        return self._estimate([en, xx], difference, f"{run.info.name}|delta|{lang}|{label}"), en, xx

    def _deltas(self, run: RunData, how: Outcome | None = None, label: str = "") -> list[tuple[Estimate, list[Group]]]:
        """Per Indic language: the Δ estimate and the (English, language) groups behind it
        (empty when there is no Δ), for averaging Δ over languages or runs."""
        out = []
        for lang in indic_codes():
            est, en, xx = self._delta(run, lang, how, label)
            out.append((est, [en, xx] if est.value is not None else []))
        return out

    def delta_language(self) -> Table:
        table = Table("delta_language", f"Disparity Δ = English − Indic ({METRIC_NAMES[self.metric]}, Trans)",
                      ["run", *indic_codes(), "Avg"], [], note=self.subset_note + "; paired over shared prompts",
                      signed=True)
        for run in self.runs:
            deltas = self._deltas(run)
            cells, pairs = [est for est, _ in deltas], [g for _, groups in deltas for g in groups]
            avg = (self._estimate(pairs, _mean_of_differences, f"{run.info.name}|delta|avg") if pairs else Estimate(None))
            if any(c.value is not None for c in cells):
                table.rows.append([run.info.name, *cells, avg])
        return table

    def delta_category(self) -> Table:
        kind = "strict" if self.metric.endswith("strict") else "loose"
        table = Table("delta_category", f"Δ by instruction category (paper Table 3; instruction-level {kind}, Trans)",
                      ["run", "category", *indic_codes(), "Avg"], [], note=self.subset_note, signed=True)
        for run in self.runs:
            for category, ids in CATEGORIES.items():
                wanted = set(ids)

                def how(s, wanted=wanted):
                    return instruction_outcome(s, self.metric, wanted)

                deltas = self._deltas(run, how, category)
                cells, pairs = [est for est, _ in deltas], [g for _, groups in deltas for g in groups]
                if any(c.value is not None for c in cells):
                    avg = self._estimate(pairs, _mean_of_differences, f"{run.info.name}|cat|{category}")
                    table.rows.append([run.info.name, category, *cells, avg])
        return table

    def delta_family(self) -> Table:
        table = Table("delta_family", f"Δ by model family (mean over the family's runs, {METRIC_NAMES[self.metric]})",
                      ["family", "runs", *indic_codes(), "Avg"], [], note=self.subset_note, signed=True)
        families: dict[str, list[RunData]] = defaultdict(list)
        for run in self.runs:
            families[run.info.family].append(run)
        for family, runs in sorted(families.items()):
            cells, all_pairs = [], []
            per_run = [self._deltas(run) for run in runs]
            for i, lang in enumerate(indic_codes()):
                pairs = [g for deltas in per_run for g in deltas[i][1]]
                all_pairs += pairs
                cells.append(self._estimate(pairs, _mean_of_differences, f"family|{family}|{lang}") if pairs else Estimate(None))
            if any(c.value is not None for c in cells):
                avg = self._estimate(all_pairs, _mean_of_differences, f"family|{family}|avg")
                table.rows.append([family, ", ".join(r.info.name for r in runs), *cells, avg])
        return table

    # -- keyword inclusion vs exclusion --------------------------------------------------------
    def keywords(self) -> Table:
        kind = "strict" if self.metric.endswith("strict") else "loose"
        table = Table("keywords", f"Keyword inclusion vs exclusion (instruction-level {kind}, Indic languages pooled)",
                      ["run", "subset", "inclusion", "exclusion", "exclusion − inclusion"], [],
                      note="inclusion: keywords:existence and keywords:frequency; exclusion: keywords:forbidden_words",
                      signed=frozenset({"exclusion − inclusion"}))
        for run in self.runs:
            for subset in ("trans", "ground"):
                rows = [s for s in self._rows(run, subset) if s["language"] != "en"]
                inc = self._group(rows, lambda s: instruction_outcome(s, self.metric, INCLUSION))
                exc = self._group(rows, lambda s: instruction_outcome(s, self.metric, EXCLUSION))
                if not len(inc) and not len(exc):
                    continue
                label = f"{run.info.name}|kw|{subset}"
                table.rows.append([
                    run.info.name, subset,
                    self._estimate([inc], lambda v: v[0], label + "|inc") if len(inc) else Estimate(None),
                    self._estimate([exc], lambda v: v[0], label + "|exc") if len(exc) else Estimate(None),
                    self._estimate([exc, inc], difference, label + "|diff") if len(inc) and len(exc) else Estimate(None),
                ])
        return table

    # -- cross-lingual: instructions that need an English answer -------------------------------
    def cross_lingual(self) -> Table:
        table = Table("cross_lingual", f"English-output instructions asked in an Indic language vs in English "
                      f"({METRIC_NAMES[self.metric]}, Trans)", ["run", "asked in Indic", "asked in English",
                                                                  "English − Indic", "prompts"], [],
                      note="rows whose answer must be in English (resp_lang en), Indic languages pooled; English on "
                           "the same prompts", signed=frozenset({"English − Indic"}))
        for run in self.runs:
            indic = [s for s in self._rows(run, "trans") if s["language"] != "en" and run.row(s).get("resp_lang") == "en"]
            if not indic:
                continue
            keys = {s["key"] for s in indic}
            english = [s for s in self._rows(run, "trans", "en") if s["key"] in keys]
            gi, ge = self._group(indic), self._group(english)
            label = f"{run.info.name}|xling"
            table.rows.append([
                run.info.name, self._estimate([gi], lambda v: v[0], label + "|i"),
                self._estimate([ge], lambda v: v[0], label + "|e") if len(ge) else Estimate(None),
                self._estimate([ge, gi], difference, label + "|d") if len(ge) else Estimate(None), len(gi),
            ])
        return table

    # -- thinking vs non-thinking --------------------------------------------------------------
    def thinking_pairs(self) -> list[tuple[RunData, RunData]]:
        """(without, with) thinking: same model and settings, thinking the only difference."""
        pairs = []
        for a in self.runs:
            for b in self.runs:
                if a is not b and not a.info.thinking and b.info.thinking and \
                        json.dumps(a.info.settings, sort_keys=True) == json.dumps(b.info.settings, sort_keys=True):
                    pairs.append((a, b))
        return sorted(pairs, key=lambda p: (p[0].info.size_b or 0, p[0].info.model))

    def thinking(self) -> Table:
        table = Table("thinking", f"Thinking vs non-thinking ({METRIC_NAMES[self.metric]}, Trans, Indic average)",
                      ["model", "size (B)", "no thinking", "thinking", "gain", "p (McNemar)", "Δ no thinking",
                       "Δ thinking", "change in Δ"], [],
                      note="pairs of runs of one model whose settings differ only in thinking; gain paired over "
                           "shared prompts; Δ = English − Indic average",
                      signed=frozenset({"gain", "Δ no thinking", "Δ thinking", "change in Δ"}))
        for off, on in self.thinking_pairs():
            offs, ons = [], []
            for lang in indic_codes():
                ga, gb = self._paired(self._rows(off, "trans", lang), self._rows(on, "trans", lang))
                if len(ga) and len(gb):
                    offs.append(ga)
                    ons.append(gb)
            if not offs:
                continue
            label = f"think|{off.info.name}|{on.info.name}"
            k = len(offs)
            acc_off = self._estimate(offs, mean_of, label + "|off")
            acc_on = self._estimate(ons, mean_of, label + "|on")
            gain = self._estimate(offs + ons, lambda v, k=k: _diff_of_means(v[k:], v[:k]), label + "|gain")
            a_out, b_out = self._paired_outcomes_all(off, on, "trans", indic_only=True)
            p = mcnemar(a_out, b_out)[2] if a_out else None
            d_off = self._avg_delta(off, label + "|doff")
            d_on = self._avg_delta(on, label + "|don")
            change = None if d_off.value is None or d_on.value is None else d_on.value - d_off.value
            table.rows.append([off.info.model, off.info.size_b, acc_off, acc_on, gain,
                               p, d_off, d_on, Estimate(change)])
        return table

    def _avg_delta(self, run: RunData, label: str) -> Estimate:
        pairs = [g for _, groups in self._deltas(run) for g in groups]
        return self._estimate(pairs, _mean_of_differences, label) if pairs else Estimate(None)

    # -- per instruction -------------------------------------------------------------------------
    def per_instruction(self) -> Table:
        from indicifeval.scoring.categories import CATEGORY_OF

        kind = "strict" if self.metric.endswith("strict") else "loose"
        ids = sorted({iid for r in self.runs for s in r.scores for iid in s["instruction_id_list"]},
                     key=lambda i: (CATEGORY_OF.get(i, ""), i))
        table = Table("per_instruction", f"Accuracy per instruction (instruction-level {kind}, all languages and "
                      f"subsets)", ["instruction", "category", *[r.info.name for r in self.runs]], [])
        for iid in ids:
            row = [iid, CATEGORY_OF.get(iid, "")]
            for run in self.runs:
                g = self._group(run.scores, lambda s, iid=iid: instruction_outcome(s, self.metric, {iid}))
                row.append(self._estimate([g], lambda v: v[0], f"{run.info.name}|inst|{iid}") if len(g) else Estimate(None))
            table.rows.append(row)
        return table

    # -- paired comparisons ----------------------------------------------------------------------
    def comparison(self) -> Table:
        base = self.runs[0]
        table = Table("comparison", f"Each run minus {base.info.name} ({METRIC_NAMES[self.metric]}), paired over "
                      f"shared prompts, with exact McNemar p-values", ["run", "subset", *column_languages(), "pooled", "p (McNemar)"],
                      [], note="cells: difference [95% CI]; p-value of the pooled McNemar test", signed=True)
        for other in self.runs[1:]:
            for subset in ("trans", "ground"):
                cells, any_value = [], False
                for lang in column_languages():
                    if subset == "ground" and lang == "en":
                        cells.append(Estimate(None))
                        continue
                    ga, gb = self._paired(self._rows(base, subset, lang), self._rows(other, subset, lang))
                    if len(ga) and len(gb):
                        est = self._estimate([gb, ga], difference, f"cmp|{other.info.name}|{subset}|{lang}")
                        any_value = any_value or est.value is not None
                    else:
                        est = Estimate(None)
                    cells.append(est)
                if not any_value:
                    continue
                a_out, b_out = self._paired_outcomes_all(base, other, subset)
                pooled = (Estimate(sum(b_out) / len(b_out) - sum(a_out) / len(a_out), n=len(a_out)) if a_out else Estimate(None))
                p = mcnemar(a_out, b_out)[2] if a_out else None
                table.rows.append([other.info.name, subset, *cells, pooled, p])
        return table

    def _paired_outcomes_all(self, a: RunData, b: RunData, subset: str, indic_only: bool = False
                             ) -> tuple[list[bool], list[bool]]:
        """Per-prompt (prompt-level metrics) or per-instruction outcomes of two runs on the
        items both have, for McNemar."""
        by_b = {(s["language"], s["key"]): s for s in self._rows(b, subset)}
        field = {"prompt_loose": "prompt_loose", "prompt_strict": "prompt_strict"}.get(self.metric)
        out_a, out_b = [], []
        for s in self._rows(a, subset):
            t = by_b.get((s["language"], s["key"]))
            if t is None or (indic_only and s["language"] == "en"):
                continue
            if field:
                out_a.append(bool(s[field]))
                out_b.append(bool(t[field]))
            else:
                f = "loose" if self.metric == "inst_loose" else "strict"
                out_a += [bool(v) for v in s[f]]
                out_b += [bool(v) for v in t[f]]
        return out_a, out_b


def _mean_of_differences(values: list[float | None]) -> float | None:
    """Mean of (v[0]-v[1], v[2]-v[3], ...)."""
    diffs = [difference(values[i : i + 2]) for i in range(0, len(values), 2)]
    return mean_of(diffs)


def _diff_of_means(a: list[float | None], b: list[float | None]) -> float | None:
    ma, mb = mean_of(a), mean_of(b)
    return None if ma is None or mb is None else ma - mb


def paper_tables() -> dict:
    """The paper's Tables 1 and 2 (prompt-level loose, %), shipped as data."""
    path = resources.files("indicifeval.reports").joinpath("data", "paper_tables.json")
    return json.loads(path.read_text(encoding="utf-8"))


def all_tables(analyses: Analyses, include_paper: bool = True, only: Iterable[str] | None = None) -> dict[str, Table]:
    paper = paper_tables() if include_paper else {}
    tables = [
        analyses.language_table("trans", paper.get("trans")),
        analyses.language_table("ground", paper.get("ground")),
        analyses.delta_language(),
        analyses.delta_category(),
        analyses.delta_family(),
        analyses.keywords(),
        analyses.cross_lingual(),
        analyses.thinking(),
        analyses.per_instruction(),
    ]
    if len(analyses.runs) > 1:
        tables.append(analyses.comparison())
    return {t.name: t for t in tables if t.rows or t.name in ("trans_languages",)}
