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
