"""Bootstrap confidence intervals and paired tests, reproducible from a seed.

Prompts are the resampling unit (the paper reports prompt- and instruction-level accuracy
over prompts). Groups that hold the same prompts in the same order (a language's Trans rows
and English's, for the parallel subset; the same prompts in two runs) are resampled with
the same indices, so a difference is bootstrapped as a paired statistic.

Vectorised: the statistic is applied once to arrays holding every resample's group means (the
statistics here are plain arithmetic, so numpy computes them in the same order and gets the
same floats); a statistic that cannot take arrays is called once per resample instead. The
indices come from the same seeded generator in the same order as before, so the intervals are
those the per-resample loop gave.
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


def _whole(values: np.ndarray) -> bool:
    return bool(np.all(values >= 0) and np.all(values == np.floor(values)))


def _column_sums(columns: list[np.ndarray], idx: np.ndarray) -> list[np.ndarray]:
    """Each column's sum in every resample (a row of ``idx``), from as few gathers as can be:
    whole non-negative columns are packed side by side into 63-bit words, each wide enough
    for its largest sum, so one gather and one sum give several columns' sums at once (the
    integer sums are exact, as the float sums of whole numbers were)."""
    n = idx.shape[1]
    sums: list[np.ndarray | None] = [None] * len(columns)
    words: list[tuple[np.ndarray, list[tuple[int, int, int]]]] = []  # word, [(column, shift, bits)]
    fields: list[tuple[int, int, int]] = []
    word, shift = np.zeros(len(columns[0]), dtype=np.int64), 0
    for k, col in enumerate(columns):
        top = float(col.max()) * n if len(col) else 0.0
        if not _whole(col) or top >= 2.0**62:
            sums[k] = col[idx].sum(axis=1)
            continue
        bits = max(1, int(top).bit_length())
        if shift + bits > 63:
            words.append((word, fields))
            word, fields, shift = np.zeros(len(col), dtype=np.int64), [], 0
        word |= col.astype(np.int64) << shift
        fields.append((k, shift, bits))
        shift += bits
    if fields:
        words.append((word, fields))
    for word, fields in words:
        total = word[idx].sum(axis=1)
        for k, at, bits in fields:
            sums[k] = ((total >> at) & ((1 << bits) - 1)).astype(float)
    return sums  # type: ignore[return-value]


def _resampled_means(members: list[Group], idx: np.ndarray) -> list[np.ndarray]:
    """The mean of each group (all drawn with ``idx``) in every resample; NaN where a
    resample holds no count."""
    n = idx.shape[1]
    columns: list[np.ndarray] = []
    slots: list[tuple[int, int | None]] = []
    for g in members:
        unit = bool(np.all(g.counts == 1))  # prompt level: every resample counts n
        slots.append((len(columns), None if unit else len(columns) + 1))
        columns += [g.passes] if unit else [g.passes, g.counts]
    sums = _column_sums(columns, idx)
    out = []
    for g, (p, c) in zip(members, slots):
        if c is None:
            out.append(sums[p] / n)
        elif bool(np.all(g.counts > 0)):
            out.append(sums[p] / sums[c])
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                counts = sums[c]
                out.append(np.where(counts > 0, sums[p] / np.where(counts > 0, counts, 1), np.nan))
    return out


def _vectorised(statistic: Callable, means: list[np.ndarray], n_boot: int) -> np.ndarray | None:
    """``statistic`` of every resample at once, or None when it does not take arrays. Only
    tried where no mean is missing (or the statistic says it handles NaN as None), so a
    statistic that skips missing values is never given NaN instead of None."""
    if not getattr(statistic, "nan_is_none", False) and any(bool(np.isnan(m).any()) for m in means):
        return None
    try:
        with np.errstate(all="ignore"):
            out = statistic(means)
    except (TypeError, ValueError, IndexError, AttributeError):
        return None
    if isinstance(out, np.ndarray) and out.shape == (n_boot,) and out.dtype.kind == "f":
        return out
    return None


def _per_resample(statistic: Callable, means: list[np.ndarray], n_boot: int) -> np.ndarray:
    values = []
    for b in range(n_boot):
        v = statistic([None if math.isnan(m[b]) else float(m[b]) for m in means])
        if v is not None:
            values.append(v)
    return np.asarray(values, dtype=float)


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
    # groups sharing keys share one index matrix, drawn in the order the groups come
    members: dict[tuple | int, list[int]] = {}
    for i, g in enumerate(groups):
        members.setdefault(g.keys if g.keys is not None else i, []).append(i)
    means: list = [None] * len(groups)
    for which in members.values():
        n_token = len(groups[which[0]])
        idx = rng.integers(0, n_token, size=(n_boot, n_token))
        for i, m in zip(which, _resampled_means([groups[i] for i in which], idx)):
            means[i] = m
    values = _vectorised(statistic, means, n_boot)
    if values is None:
        values = _per_resample(statistic, means, n_boot)
    values = values[~np.isnan(values)]
    if not len(values):
        return Estimate(point, None, None, n)
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(values, [alpha, 1 - alpha])
    return Estimate(point, float(low), float(high), n)


def _arrays(values: Sequence) -> bool:
    return bool(values) and isinstance(values[0], np.ndarray)


def _sum(values: Sequence):
    """Left to right, as Python's ``sum`` adds (the same floats for arrays and scalars)."""
    total = values[0] + 0.0
    for v in values[1:]:
        total = total + v
    return total


def nan_is_none(statistic: Callable) -> Callable:
    """Mark a statistic whose array form gives NaN exactly where its scalar form gives None."""
    statistic.nan_is_none = True  # type: ignore[attr-defined]
    return statistic


@nan_is_none
def mean_of(values: Sequence):
    """The mean, or None when a value is missing (NaN in every resample that misses one)."""
    if _arrays(values):
        return _sum(values) / len(values)
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present and len(present) == len(values) else None


@nan_is_none
def difference(values: Sequence):
    a, b = values
    return None if a is None or b is None else a - b


def mcnemar(a: Sequence[bool] | np.ndarray, b: Sequence[bool] | np.ndarray) -> tuple[int, int, float]:
    """Exact McNemar test on paired outcomes: (b_only_a, c_only_b, two-sided p)."""
    size = min(len(a), len(b))
    x, y = np.asarray(a[:size], dtype=bool), np.asarray(b[:size], dtype=bool)
    only_a, only_b = int(np.count_nonzero(x & ~y)), int(np.count_nonzero(y & ~x))
    n = only_a + only_b
    if n == 0:
        return only_a, only_b, 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return only_a, only_b, min(1.0, 2 * tail)
