"""The leaderboard's numbers: one entry per model, its accuracy per subset × language ×
strict/loose at prompt and instruction level with 95% intervals, the Indic average, the
English–Indic Δ, which models are not significantly apart, and where each model's answers came
from. ``reports.leaderboard_page`` draws them; ``indicifeval leaderboard`` writes both.

A model is a model identity (a run manifest's ``model``: backend, model, output-affecting
options, sampling settings, system turn, chat template). Runs of one identity merge into one
entry when they answer different prompts (a run per subset or per language); two runs that
both answer one prompt (and sample) are refused, naming them: repeat samples with
``run --samples N``, not with a second folder. Rows are those the report counts (Trans on its
parallel subset where rows carry the tags: ``Analyses.rows``), and the statistics are the
report's (``Analyses.estimate``, ``mean_of``, ``mean_of_differences``), so a one-sample run
shows the report's numbers.

Samples: a prompt's outcome is the sum over its samples (passes and counts), so every value is
the mean over samples. Intervals are a cluster bootstrap over prompts, each prompt drawn with
all its samples (resampling the first stage only, the scheme Davison & Hinkley 1997, §2.4 and
§3.8, recommend for two-stage data: it carries the variation between samples, within a prompt,
into the interval without counting it twice). With one sample it is the report's bootstrap
over prompts.

Significance: for every pair of models and each Avg column (per subset, strict and loose, both
levels) a paired bootstrap of the difference of their Indic averages over the prompts both
answered (per language, the same resampled prompts for both); "not significantly different"
when its 95% interval holds 0. The page marks adjacent models by these in the current sort.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from indicifeval._version import __version__
from indicifeval.core.errors import InputError
from indicifeval.core.folders import read_manifest
from indicifeval.languages import composition, get_profile
from indicifeval.records.scores import read_scores
from indicifeval.reports.analyses import (
    TRANS,
    Analyses,
    diff_of_means,
    first,
    mean_of_differences,
    paper_tables,
    reference_language,
)
from indicifeval.reports.model import Estimate
from indicifeval.reports.rundata import RunData
from indicifeval.reports.stats import CONFIDENCE, Group, mean_of, nan_is_none

FORMAT = 1
LEVELS = ("prompt", "inst")  # prompt-level (the default) and instruction-level accuracy
KINDS = ("strict", "loose")
AVG, DELTA = "avg", "delta"
DEFAULT_SORT = f"{TRANS}|{AVG}|loose"  # the paper's headline: Trans, Indic average, prompt-level loose
SECRET = re.compile(r"api_?key|access_?key|secret|passw(or)?d|authori[sz]ation|cookie|bearer|(^|_)token$", re.I)
LOCAL_PATH = re.compile(r"^(/|~|[A-Za-z]:[\\/]|\\\\)")


def column_id(subset: str, language: str, kind: str) -> str:
    return f"{subset}|{language}|{kind}"


@dataclass
class Model:
    """One leaderboard entry: the runs of one model identity."""

    label: str
    runs: list[RunData]
    manifest: dict


def _identity(run: RunData, manifest: dict) -> str:
    model = manifest.get("model")
    if isinstance(model, dict) and model:
        return json.dumps(model, sort_keys=True, default=str)
    return f"folder:{Path(run.info.folder).resolve()}"  # a score folder: its own entry


def group_models(runs: list[RunData]) -> list[Model]:
    """Runs by model identity, in the order first seen; labelled by model (+ thinking), with the
    first run's folder name where two entries would share a label."""
    models: dict[str, Model] = {}
    for run in runs:
        manifest = read_manifest(run.info.folder) or {}
        found = models.setdefault(_identity(run, manifest), Model("", [], manifest))
        if any(Path(r.info.folder).resolve() == Path(run.info.folder).resolve() for r in found.runs):
            raise InputError("given twice", run.info.folder)
        found.runs.append(run)
    for m in models.values():
        info = m.runs[0].info
        m.label = info.model.rstrip("/").split("/")[-1] + ("" if info.thinking is None else
                                                           " (thinking)" if info.thinking else " (no thinking)")
    labels = [m.label for m in models.values()]
    for m in models.values():
        if labels.count(m.label) > 1:
            m.label += f" [{Path(m.runs[0].info.folder).name}]"
    return list(models.values())


class ModelCells:
    """Each model's per-prompt outcomes per subset and language, summed over samples and over
    the merged runs, as groups aligned by key (``stats.Group``)."""

    def __init__(self, ctx: Analyses):
        self.ctx = ctx
        self._index: dict = {}

    def _cell(self, model: Model, subset: str, language: str):
        token = (id(model), subset, language)
        found = self._index.get(token)
        if found is not None:
            return found
        seen: dict[tuple, tuple[int, int]] = {}
        for r, run in enumerate(model.runs):
            rows = self.ctx.rows(run, subset, language)
            own = {(key, s): (r, i) for key, s, i in zip(rows.keys(), run.sample[rows.positions].tolist(),
                                                         rows.positions.tolist())}  # the last row of a key counts
            clash = seen.keys() & own.keys()
            if clash:
                key, s = sorted(clash, key=str)[0]
                other = model.runs[seen[(key, s)][0]].info.folder
                raise InputError(f"answers {subset} {language} prompt {key!r} (sample {s}) that {other} answers "
                                 f"too, with the same model identity ({model.label}): pass one of them, or repeat "
                                 f"samples with `indicifeval run --samples N` in one folder", run.info.folder)
            seen.update(own)
        keys = sorted({k for k, _ in seen}, key=str)
        slot = {k: j for j, k in enumerate(keys)}
        parts = []
        for r, run in enumerate(model.runs):
            mine = [(slot[k], i) for (k, _), (rr, i) in seen.items() if rr == r]
            if mine:
                slots, positions = zip(*mine)
                parts.append((run, np.asarray(positions, dtype=np.int64), np.asarray(slots, dtype=np.int64)))
        samples = max(Counter(k for k, _ in seen).values(), default=0)
        found = self._index[token] = (keys, parts, samples)
        return found

    def group(self, model: Model, subset: str, language: str, metric: str) -> Group:
        keys, parts, _ = self._cell(model, subset, language)
        passes, counts = np.zeros(len(keys)), np.zeros(len(keys))
        for run, positions, slots in parts:
            p, c = run.outcomes(metric)
            np.add.at(passes, slots, p[positions])
            np.add.at(counts, slots, c[positions])
        kept = counts > 0
        return Group(passes[kept], counts[kept], tuple(k for k, keep in zip(keys, kept) if keep))

    def samples(self, model: Model) -> int:
        """The most samples any prompt of the model has."""
        return max([self._cell(model, s, lang)[2] for s in self.ctx.subsets for lang in self.ctx.languages_of(s)]
                   or [0])


def shared(a: Group, b: Group) -> tuple[Group, Group]:
    """The two groups on the prompts both have, in the same order (paired)."""
    common = set(a.keys or ()) & set(b.keys or ())

    def keep(g: Group) -> Group:
        mask = np.fromiter((k in common for k in g.keys or ()), bool, len(g))
        return Group(g.passes[mask], g.counts[mask], tuple(k for k, m in zip(g.keys or (), mask) if m))

    return keep(a), keep(b)


def _cell(est: Estimate) -> list | None:
    return None if est.value is None else [est.value, est.low, est.high, est.n]


def model_cells(ctx: Analyses, cells: ModelCells, model: Model) -> dict[str, dict[str, list | None]]:
    """level -> column id -> [value, low, high, n] (fractions), or None where there is no value."""
    out: dict[str, dict[str, list | None]] = {}
    for level in LEVELS:
        values: dict[str, list | None] = {}
        out[level] = values
        for kind in KINDS:
            metric = f"{level}_{kind}"
            label = f"{model.label}|{metric}"
            for subset in ctx.subsets:
                indic = []
                for lang in ctx.languages_of(subset):
                    g = cells.group(model, subset, lang, metric)
                    if len(g):
                        values[column_id(subset, lang, kind)] = _cell(ctx.estimate([g], first,
                                                                                   f"{label}|{subset}|{lang}"))
                        if lang in ctx.indic:
                            indic.append(g)
                if indic:
                    values[column_id(subset, AVG, kind)] = _cell(ctx.estimate(indic, mean_of,
                                                                              f"{label}|{subset}|avg"))
            pairs = []
            if ctx.reference is not None and TRANS in ctx.subsets:
                en = cells.group(model, TRANS, ctx.reference, metric)
                for lang in ctx.indic:
                    xx = cells.group(model, TRANS, lang, metric)
                    a, b = shared(en, xx)
                    if not len(a):  # no prompt in common (the bundled sample): unpaired, as the report's Δ
                        a, b = Group(en.passes, en.counts), Group(xx.passes, xx.counts)
                    if len(a) and len(b):
                        pairs += [a, b]
            if pairs:  # the paper's Δ: English minus the Indic languages, paired on the shared prompts
                values[column_id(TRANS, DELTA, kind)] = _cell(ctx.estimate(pairs, mean_of_differences,
                                                                           f"{label}|delta"))
    return out


def _gap(k: int):
    @nan_is_none
    def statistic(values):
        return diff_of_means(values[:k], values[k:])

    return statistic


def significance(ctx: Analyses, cells: ModelCells, models: list[Model]) -> dict[str, dict[str, dict[str, list]]]:
    """level -> Avg column -> "i|j" (model positions, i < j) -> [difference, low, high,
    significant]: the paired bootstrap of model i's Indic average minus model j's."""
    out: dict[str, dict[str, dict[str, list]]] = {}
    for level in LEVELS:
        out[level] = {}
        for kind in KINDS:
            metric = f"{level}_{kind}"
            for subset in ctx.subsets:
                found = out[level][column_id(subset, AVG, kind)] = {}
                langs = [lang for lang in ctx.languages_of(subset) if lang in ctx.indic]
                for (i, a), (j, b) in combinations(enumerate(models), 2):
                    left, right = [], []
                    for lang in langs:
                        ga, gb = shared(cells.group(a, subset, lang, metric), cells.group(b, subset, lang, metric))
                        if len(ga):
                            left.append(ga)
                            right.append(gb)
                    if not left:
                        continue
                    est = ctx.estimate([*left, *right], _gap(len(left)),
                                       f"pair|{a.label}|{b.label}|{metric}|{subset}")
                    if est.value is None:
                        continue
                    apart = est.low is not None and est.high is not None and (est.low > 0 or est.high < 0)
                    found[f"{i}|{j}"] = [est.value, est.low, est.high, apart]
    return out


def _clean(value: Any) -> Any:
    """Provenance as it may be published: no secrets (keys that name one are left out) and no
    local paths (an absolute path is cut to its last part)."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if not SECRET.search(str(k))}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, str) and LOCAL_PATH.match(value):
        return "…/" + re.split(r"[\\/]", value.rstrip("/\\"))[-1]
    return value


def _scorer_version(run: RunData) -> str | None:
    path = Path(run.source.get("folder", run.info.folder)) / run.source.get("scores", "")
    first_line = next(read_scores(path), None) if path.is_file() else None
    return None if first_line is None else first_line.version


def provenance(model: Model, samples: int) -> dict[str, Any]:
    """What the page shows of a model on click: its identity, backend, sampling settings, the
    manifest's ``provenance``, the scorer, and the runs it merges."""
    m, info = model.manifest, model.runs[0].info
    return _clean({
        "model": info.model, "identity": m.get("model"), "backend": m.get("backend") or info.backend,
        "samples": samples, "manifest_samples": m.get("samples", 1), "provenance": m.get("provenance") or {},
        "data": m.get("data"), "scoring": info.scoring, "scorer_version": _scorer_version(model.runs[0]),
        "indicifeval_version": m.get("indicifeval_version"), "finished_at": m.get("finished_at"),
        "runs": [Path(r.info.folder).name for r in model.runs],
    })


def paper_entries() -> list[dict[str, Any]]:
    """The paper's Tables 1–2 (prompt-level loose, greedy): reported, not re-run; Δ = English
    minus the Indic average, as the paper computes it."""
    tables = paper_tables()
    entries: dict[str, dict] = {}
    for subset in ("trans", "ground"):
        for name, values in (tables.get(subset) or {}).get("models", {}).items():
            entry = entries.setdefault(name, {"label": name, "kind": "paper", "cells": {"prompt": {}, "inst": {}},
                                              "provenance": {"model": name, "source": tables.get("source"),
                                                             "note": tables.get("_doc")}})
            cells = entry["cells"]["prompt"]
            for lang, v in values.items():
                cells[column_id(subset, AVG if lang == "avg" else lang, "loose")] = [v / 100, None, None, None]
            reference = reference_language()
            if subset == TRANS and reference in values and "avg" in values:
                cells[column_id(TRANS, DELTA, "loose")] = [(values[reference] - values["avg"]) / 100, None, None, None]
    return list(entries.values())


def language_labels(codes) -> list[dict[str, str]]:
    out = []
    for code in codes:
        p = get_profile(code)
        out.append({"code": code, "name": p.name, "native": p.native_name, "script": p.script})
    return out


def leaderboard(runs: list[RunData], *, seed: int = 0, n_boot: int = 1000, paper_rows: bool = False,
                pairs: bool = True) -> dict[str, Any]:
    """The leaderboard's data (the page embeds it; ``leaderboard.json`` is the same)."""
    ctx = Analyses(runs, "prompt_loose", seed=seed, n_boot=n_boot)
    models = group_models(runs)
    cells = ModelCells(ctx)
    entries: list[dict[str, Any]] = []
    for model in models:
        samples = cells.samples(model)
        entries.append({"label": model.label, "kind": "run", "model": model.runs[0].info.model,
                        "samples": samples, "cells": model_cells(ctx, cells, model),
                        "provenance": provenance(model, samples)})
    if paper_rows:
        entries += paper_entries()
    subsets = [s for s in ctx.subsets if any(k.startswith(f"{s}|") for e in entries for k in e["cells"]["prompt"])]
    columns = []
    for subset in subsets:
        for lang in ctx.languages_of(subset):
            columns.append({"subset": subset, "language": lang})
        columns.append({"subset": subset, "language": AVG})
        if subset == TRANS and ctx.reference is not None:
            columns.append({"subset": subset, "language": DELTA})
    return {
        "format_version": FORMAT, "tool": "leaderboard", "indicifeval_version": __version__,
        "scale": "fraction", "confidence": CONFIDENCE, "seed": seed, "n_boot": n_boot,
        "default_sort": DEFAULT_SORT if TRANS in subsets else column_id(subsets[0] if subsets else "", AVG, "loose"),
        "subsets": [{"id": s, "title": composition().titles.get(s, s)} for s in subsets],
        "languages": language_labels(ctx.languages), "indic": list(ctx.indic), "reference": ctx.reference,
        "kinds": list(KINDS), "levels": list(LEVELS), "columns": columns,
        "notes": {"trans": ctx.subset_note, "interval": INTERVAL_NOTE, "pairs": PAIRS_NOTE, "delta": DELTA_NOTE,
                  "paper": PAPER_NOTE},
        "models": entries,
        "pairs": significance(ctx, cells, models) if pairs else {},
    }


INTERVAL_NOTE = (f"{round(CONFIDENCE * 100)}% bootstrap intervals over prompts; a model with several samples per "
                 "prompt is the mean over samples, and its prompts are resampled with all their samples")
PAIRS_NOTE = ("≈ marks a model not significantly different from the one above it in the current order: a paired "
              "bootstrap over the prompts both answered, of the difference of their Indic averages, whose 95% "
              "interval holds 0; computed for the Avg columns only")
DELTA_NOTE = "Δ = English − the Indic languages (mean of the per-language differences on the shared Trans prompts)"
PAPER_NOTE = ("reported, not re-run: the paper's Tables 1–2 (prompt-level loose, greedy decoding), as published; no "
              "intervals")

__all__ = ["DEFAULT_SORT", "KINDS", "LEVELS", "ModelCells", "Model", "column_id", "group_models", "leaderboard",
           "model_cells", "paper_entries", "provenance", "significance"]
