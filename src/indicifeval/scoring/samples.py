"""Metrics of a run with several samples per prompt (``run --samples k``): the one estimator
the run's ``summary.json`` and the report's tables use.

Each metric is the mean over samples: the share of all (prompt, sample) verdicts that pass
(instruction level: of all their instructions), which, every sample being complete, is the
mean of the k per-sample metrics. Its 95% interval is a two-level percentile bootstrap: each
resample draws the prompts with replacement, then, within each drawn prompt, k of its samples
with replacement, so the interval carries both the choice of prompts and the model's own
randomness (resampling both levels slightly widens the interval: it errs on the cautious
side). The indices come from a generator seeded by ``seed`` and the cell's label, so the same
scores give the same intervals.

Beside the mean, two prompt-level (strict) pass@k-style figures: "all k followed" (the share of
prompts whose every sample passes: how reliably the model follows) and "any of k" (the share
with at least one passing sample); their intervals resample prompts. A missing or failed
sample counts as not followed."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from indicifeval.records.scores import RowScore

CONFIDENCE = 0.95
N_BOOT = 1000
METRICS = ("prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc")
PASS_AT_K = ("all_k_followed", "any_of_k")
ESTIMATOR = ("mean over samples; 95% two-level percentile bootstrap (prompts, then samples within each prompt); "
             "all_k_followed / any_of_k: prompt-level strict, prompts resampled")
_CHUNK = 50  # resamples drawn at once (memory: chunk × prompts × k)


def rng(seed: int, label: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{seed}|samples|{label}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


@dataclass(frozen=True)
class SampleGrid:
    """Per prompt (rows) and sample (columns): passes and counts of one metric; a sample with
    no verdict has count 0 (prompt level: counts are 1 for every sample, missing or not)."""

    passes: np.ndarray  # (prompts, k)
    counts: np.ndarray  # (prompts, k)

    def mean(self) -> float | None:
        total = self.counts.sum()
        return float(self.passes.sum() / total) if total else None


def grid_of(prompt: np.ndarray, sample: np.ndarray, passes: np.ndarray, counts: np.ndarray, k: int,
            n_prompts: int) -> SampleGrid:
    """A grid from per-line arrays: each line's prompt index, sample number, passes and counts
    (a prompt-level metric's counts are 1 for every cell, answered or not)."""
    grid = SampleGrid(np.zeros((n_prompts, k)), np.zeros((n_prompts, k)))
    ok = (sample >= 0) & (sample < k)
    grid.passes[prompt[ok], sample[ok]] = passes[ok]
    grid.counts[prompt[ok], sample[ok]] = counts[ok]
    return grid


def grids(scores: Iterable[RowScore], k: int) -> tuple[list[tuple], dict[str, SampleGrid]]:
    """The prompts (language, subset, key), in first-seen order, and each metric's grid."""
    prompts: dict[tuple, int] = {}
    cells: list[tuple[int, int, RowScore]] = []
    for s in scores:
        uid = (s.language, s.subset, str(s.key))
        i = prompts.setdefault(uid, len(prompts))
        if 0 <= s.sample < k:
            cells.append((i, s.sample, s))
    n = len(prompts)
    out = {m: SampleGrid(np.zeros((n, k)), np.zeros((n, k)) if m.startswith("inst") else np.ones((n, k)))
           for m in METRICS}
    for i, j, s in cells:
        out["prompt_level_strict_acc"].passes[i, j] = s.prompt_strict
        out["prompt_level_loose_acc"].passes[i, j] = s.prompt_loose
        out["inst_level_strict_acc"].passes[i, j] = sum(map(bool, s.strict))
        out["inst_level_strict_acc"].counts[i, j] = len(s.strict)
        out["inst_level_loose_acc"].passes[i, j] = sum(map(bool, s.loose))
        out["inst_level_loose_acc"].counts[i, j] = len(s.loose)
    return list(prompts), out


def two_level(grid: SampleGrid, *, seed: int, label: str, n_boot: int = N_BOOT) -> tuple[float | None, float | None]:
    """The 95% interval of the grid's mean: prompts resampled, then samples within each prompt."""
    n, k = grid.passes.shape
    if n == 0 or n_boot <= 0 or not grid.counts.sum():
        return None, None
    gen = rng(seed, label)
    values = []
    for start in range(0, n_boot, _CHUNK):
        b = min(_CHUNK, n_boot - start)
        rows = gen.integers(0, n, size=(b, n))
        cols = gen.integers(0, k, size=(b, n, k))
        passes = grid.passes[rows[..., None], cols].sum(axis=(1, 2))
        counts = grid.counts[rows[..., None], cols].sum(axis=(1, 2))
        with np.errstate(invalid="ignore", divide="ignore"):
            values.append(np.where(counts > 0, passes / np.where(counts > 0, counts, 1), np.nan))
    found = np.concatenate(values)
    found = found[~np.isnan(found)]
    if not len(found):
        return None, None
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(found, [alpha, 1 - alpha])
    return float(low), float(high)


def over_prompts(per_prompt: np.ndarray, *, seed: int, label: str, n_boot: int = N_BOOT
                 ) -> tuple[float | None, float | None]:
    """The 95% interval of a per-prompt share (prompts resampled)."""
    n = len(per_prompt)
    if n == 0 or n_boot <= 0:
        return None, None
    idx = rng(seed, label).integers(0, n, size=(n_boot, n))
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(per_prompt[idx].mean(axis=1), [alpha, 1 - alpha])
    return float(low), float(high)


def _estimate(value: float | None, interval: tuple[float | None, float | None]) -> dict:
    return {"value": value, "low": interval[0], "high": interval[1]}


def pass_at_k(grid: SampleGrid) -> dict[str, np.ndarray]:
    """Per prompt: whether all k samples passed, and whether any did (of a prompt-level grid)."""
    followed = grid.passes > 0
    return {"all_k_followed": followed.all(axis=1).astype(float), "any_of_k": followed.any(axis=1).astype(float)}


def estimates(scores: list[RowScore], k: int, *, seed: int = 0, label: str = "", n_boot: int = N_BOOT) -> dict:
    """Each metric's mean over samples with its two-level interval, all/any of k, and the counts."""
    prompts, found = grids(scores, k)
    out: dict = {}
    for metric, grid in found.items():
        out[metric] = _estimate(grid.mean(), two_level(grid, seed=seed, label=f"{label}|{metric}", n_boot=n_boot))
    for name, per_prompt in pass_at_k(found["prompt_level_strict_acc"]).items():
        value = float(per_prompt.mean()) if len(per_prompt) else None
        out[name] = _estimate(value, over_prompts(per_prompt, seed=seed, label=f"{label}|{name}", n_boot=n_boot))
    out["prompts"] = len(prompts)
    return out


def summarize_samples(scores: list[RowScore], k: int, *, seed: int = 0, n_boot: int = N_BOOT) -> dict:
    """The ``samples`` block of a run's summary: overall, per language, per subset and per
    language/subset cell."""
    def split(key) -> dict[str, list[RowScore]]:
        groups: dict[str, list[RowScore]] = {}
        for s in scores:
            groups.setdefault(key(s), []).append(s)
        return dict(sorted(groups.items()))

    def block(groups: dict[str, list[RowScore]], name: str) -> dict:
        return {g: estimates(rows, k, seed=seed, label=f"{name}|{g}", n_boot=n_boot) for g, rows in groups.items()}

    return {
        "k": k, "estimator": ESTIMATOR, "confidence": CONFIDENCE, "seed": seed, "n_boot": n_boot,
        "overall": estimates(scores, k, seed=seed, label="overall", n_boot=n_boot),
        "per_language": block(split(lambda s: s.language), "language"),
        "per_subset": block(split(lambda s: s.subset), "subset"),
        "per_language_subset": block(split(lambda s: f"{s.language}/{s.subset}"), "cell"),
    }


__all__ = ["ESTIMATOR", "METRICS", "PASS_AT_K", "SampleGrid", "estimates", "grid_of", "grids", "over_prompts",
           "pass_at_k",
           "summarize_samples", "two_level"]
