"""Bootstrap confidence intervals and paired tests, reproducible from a seed.

Prompts are the resampling unit (the paper reports prompt- and instruction-level accuracy
over prompts). Groups that hold the same prompts in the same order (a language's Trans rows
and English's, for the parallel subset; the same prompts in two runs) are resampled with
the same indices, so a difference is bootstrapped as a paired statistic.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from indicifeval.reports.model import Estimate

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Group:
    """Per-prompt outcomes of one cell: passes and counts (1/1 or 0/1 at prompt level; the
    number of followed and of all instructions at instruction level). ``keys`` align groups."""

    passes: np.ndarray
    counts: np.ndarray
    keys: tuple | None = None

    @classmethod
    def of(cls, pairs: Sequence[tuple[int, int]], keys: Sequence | None = None) -> Group:
        arr = np.asarray(pairs, dtype=float).reshape(-1, 2)
        return cls(arr[:, 0], arr[:, 1], tuple(keys) if keys is not None else None)

    def __len__(self) -> int:
        return len(self.passes)

    def mean(self) -> float | None:
        total = self.counts.sum()
        return float(self.passes.sum() / total) if total else None


def _rng(seed: int, label: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{seed}|{label}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def bootstrap(
    groups: Sequence[Group],
    statistic: Callable[[list[float | None]], float | None],
    *,
    seed: int,
    label: str,
    n_boot: int = 1000,
) -> Estimate:
    """``statistic`` of the groups' means, with a percentile bootstrap interval. Groups with
    equal ``keys`` are resampled together (paired); others independently."""
    point = statistic([g.mean() for g in groups])
    n = max((len(g) for g in groups), default=0)
    if point is None or n_boot <= 0 or any(len(g) == 0 for g in groups):
        return Estimate(point, None, None, n)
    rng = _rng(seed, label)
    # groups sharing keys share one index matrix
    index_for: dict[tuple | int, np.ndarray] = {}
    means = []
    for i, g in enumerate(groups):
        token = g.keys if g.keys is not None else i
        idx = index_for.get(token)
        if idx is None:
            idx = index_for[token] = rng.integers(0, len(g), size=(n_boot, len(g)))
        passes = g.passes[idx].sum(axis=1)
        counts = g.counts[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(np.where(counts > 0, passes / np.where(counts > 0, counts, 1), np.nan))
    values = []
    for b in range(n_boot):
        v = statistic([None if math.isnan(m[b]) else float(m[b]) for m in means])
        if v is not None:
            values.append(v)
    if not values:
        return Estimate(point, None, None, n)
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(values, [alpha, 1 - alpha])
    return Estimate(point, float(low), float(high), n)


def mean_of(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present and len(present) == len(values) else None


def difference(values: list[float | None]) -> float | None:
    a, b = values
    return None if a is None or b is None else a - b


def mcnemar(a: Sequence[bool], b: Sequence[bool]) -> tuple[int, int, float]:
    """Exact McNemar test on paired outcomes: (b_only_a, c_only_b, two-sided p)."""
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    n = only_a + only_b
    if n == 0:
        return only_a, only_b, 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return only_a, only_b, min(1.0, 2 * tail)
