"""The statistics on constructed data with known answers."""

import math
import random

import numpy as np
import pytest

from indicifeval.reports.stats import Group, bootstrap, difference, mcnemar, mean_of


def test_mcnemar_matches_hand_computation():
    # 8 prompts only A passes, 2 only B passes: p = 2 * (C(10,0)+C(10,1)+C(10,2)) / 2^10
    a = [True] * 8 + [False] * 2 + [True] * 5 + [False] * 3
    b = [False] * 8 + [True] * 2 + [True] * 5 + [False] * 3
    only_a, only_b, p = mcnemar(a, b)
    assert (only_a, only_b) == (8, 2)
    assert p == pytest.approx(2 * (1 + 10 + 45) / 1024)
    assert mcnemar([True, False], [True, False])[2] == 1.0
    assert mcnemar([True] * 3, [False] * 3)[2] == pytest.approx(0.25)


def test_point_estimates():
    g = Group.of([(1, 1)] * 7 + [(0, 1)] * 3)
    assert g.mean() == 0.7
    inst = Group.of([(2, 3), (1, 1), (0, 2)])  # micro-average: 3 of 6
    assert inst.mean() == 0.5
    est = bootstrap([g, Group.of([(1, 1)] * 4 + [(0, 1)] * 6)], difference, seed=0, label="d")
    assert est.value == pytest.approx(0.3)
    assert mean_of([0.2, 0.4]) == pytest.approx(0.3) and mean_of([0.2, None]) is None


def test_reproducible_and_seed_dependent():
    g = Group.of([(random.Random(i).random() < 0.6, 1) for i in range(100)])
    a = bootstrap([g], lambda v: v[0], seed=1, label="x")
    b = bootstrap([g], lambda v: v[0], seed=1, label="x")
    c = bootstrap([g], lambda v: v[0], seed=2, label="x")
    assert (a.low, a.high) == (b.low, b.high)
    assert (a.low, a.high) != (c.low, c.high)


def test_interval_covers_the_truth_in_most_seeded_simulations():
    truth, n, sims, covered = 0.7, 150, 200, 0
    rng = np.random.default_rng(123)
    for i in range(sims):
        outcomes = rng.random(n) < truth
        g = Group.of([(int(x), 1) for x in outcomes])
        est = bootstrap([g], lambda v: v[0], seed=i, label="coverage", n_boot=400)
        covered += est.low <= truth <= est.high
    assert covered / sims >= 0.9, covered / sims


def test_delta_interval_covers_the_truth():
    # English 0.8, Indic 0.6 on the same 321 prompts (the paper's parallel subset; paired and
    # correlated): true Δ = 0.2
    rng = np.random.default_rng(7)
    sims, covered, n = 150, 0, 321
    for i in range(sims):
        u = rng.random(n)
        en = (u < 0.8).astype(int)
        hi = (u < 0.6).astype(int)  # nested: Indic passes imply English passes
        keys = tuple(range(n))
        est = bootstrap([Group.of([(x, 1) for x in en], keys), Group.of([(x, 1) for x in hi], keys)], difference,
                        seed=i, label="delta", n_boot=1000)
        covered += est.low <= 0.2 <= est.high
    assert covered / sims >= 0.9


def test_paired_intervals_are_tighter_for_correlated_outcomes():
    rng = np.random.default_rng(3)
    u = rng.random(300)
    en, hi = (u < 0.8).astype(int), (u < 0.6).astype(int)
    keys = tuple(range(300))
    paired = bootstrap([Group.of([(x, 1) for x in en], keys), Group.of([(x, 1) for x in hi], keys)], difference,
                       seed=0, label="p")
    unpaired = bootstrap([Group.of([(x, 1) for x in en]), Group.of([(x, 1) for x in hi])], difference,
                         seed=0, label="p")
    assert paired.value == unpaired.value
    assert (paired.high - paired.low) < (unpaired.high - unpaired.low)


def test_empty_groups_give_no_interval():
    est = bootstrap([Group.of([])], lambda v: v[0], seed=0, label="e")
    assert est.value is None and est.low is None
    assert not math.isnan(bootstrap([Group.of([(1, 1)])], lambda v: v[0], seed=0, label="one").value)


# -- the vectorised bootstrap gives the intervals of the per-resample loop --------------------------
def _loop_bootstrap(groups, statistic, *, seed, label, n_boot=1000):
    """The bootstrap as it was before it was vectorised: float sums, the statistic called once per
    resample; the reference the vectorised one must match exactly."""
    from indicifeval.reports.stats import CONFIDENCE, _rng

    point = statistic([g.mean() for g in groups])
    n = max((len(g) for g in groups), default=0)
    if point is None or n_boot <= 0 or any(len(g) == 0 for g in groups):
        return point, None, None, n
    rng = _rng(seed, label)
    index_for, means = {}, []
    for i, g in enumerate(groups):
        token = g.keys if g.keys is not None else i
        idx = index_for.get(token)
        if idx is None:
            idx = index_for[token] = rng.integers(0, len(g), size=(n_boot, len(g)))
        passes, counts = g.passes[idx].sum(axis=1), g.counts[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(np.where(counts > 0, passes / np.where(counts > 0, counts, 1), np.nan))
    values = [v for b in range(n_boot)
              if (v := statistic([None if math.isnan(m[b]) else float(m[b]) for m in means])) is not None]
    if not values:
        return point, None, None, n
    low, high = np.quantile(values, [(1 - CONFIDENCE) / 2, 1 - (1 - CONFIDENCE) / 2])
    return point, float(low), float(high), n


def _random_groups(rng: random.Random, kind: str) -> list[Group]:
    n = rng.randint(1, 60)
    keys = tuple(range(n))
    def one(with_keys: bool) -> Group:
        if kind == "prompt":
            pairs = [(int(rng.random() < 0.6), 1) for _ in range(n)]
        elif kind == "inst":
            pairs = [(k, c) for c in (rng.randint(1, 4) for _ in range(n)) for k in [rng.randint(0, c)]]
        elif kind == "zeros":  # rows that count nothing: some resamples have no mean
            pairs = [(0, 0) if rng.random() < 0.7 else (1, 1) for _ in range(n)]
        else:  # fractions: summed as floats
            pairs = [(rng.random(), 1.5) for _ in range(n)]
        return Group.of(pairs, keys if with_keys else None)
    return [one(with_keys=rng.random() < 0.7) for _ in range(rng.choice((1, 2, 2, 4, 6)))]


def _skip_missing(values):  # a statistic of its own: skips what is missing, and cannot take arrays
    present = [v for v in values if v is not None]
    return max(present) - min(present) if present else None


@pytest.mark.parametrize("kind", ["prompt", "inst", "zeros", "fractions"])
def test_vectorised_bootstrap_matches_the_per_resample_loop(kind):
    from indicifeval.reports.analyses import first, mean_of_differences

    rng = random.Random(kind)
    for trial in range(25):
        groups = _random_groups(rng, kind)
        statistics = [first, mean_of, _skip_missing, lambda v: sum(x for x in v if x is not None)]
        if len(groups) % 2 == 0:
            statistics += [mean_of_differences, difference if len(groups) == 2 else mean_of_differences]
        for statistic in statistics:
            new = bootstrap(groups, statistic, seed=trial, label=kind, n_boot=300)
            assert (new.value, new.low, new.high, new.n) == _loop_bootstrap(groups, statistic, seed=trial, label=kind,
                                                                             n_boot=300), (kind, trial, statistic)


def test_a_statistic_that_skips_missing_values_never_sees_nan():
    """A statistic that drops None (the loop's missing mean) is called per resample when some
    resample has no mean, never given NaN for it."""
    g = Group.of([(0, 0)] * 9 + [(1, 1)])  # most resamples count nothing
    seen = []

    def spy(values):
        seen.append(values)
        present = [v for v in values if v is not None]
        return sum(present) / len(present) if present else None

    bootstrap([g, g], spy, seed=0, label="x", n_boot=50)
    assert all(isinstance(v, list) for v in seen) and any(None in v for v in seen)
