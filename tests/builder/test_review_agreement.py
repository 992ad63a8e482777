"""Agreement coefficients for the human review: the same numbers as sklearn, statsmodels and the
krippendorff package on random and degenerate data, Gwet's AC1 by hand and on the prevalence
paradox (kappa ~0.6 where AC1 ~0.93 at 94% raw agreement), a seeded bootstrap, and the table."""

import json
import math
import warnings

import numpy as np
import pytest

from indicifeval.builder.review.agreement import (
    COEFFICIENTS,
    AgreementEstimate,
    agreement,
    agreement_table,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    raw_agreement,
)

KAPPA_FAMILY = ("cohen_kappa", "fleiss_kappa", "krippendorff_alpha")


def _dataset(seed: int, missing: bool, raters_per_item: int | None = None):
    """Raters copy a hidden true label (skewed classes) or guess; some skip items when `missing`."""
    rng = np.random.default_rng(seed)
    n_raters, n_cats, n_items = int(rng.integers(2, 6)), int(rng.integers(2, 5)), int(rng.integers(10, 201))
    cats = ["correct", "wrong", "partial", "unsure"][:n_cats]
    skew = seed % 3 == 0
    probs = np.array([0.95] + [0.05 / (n_cats - 1)] * (n_cats - 1)) if skew else rng.dirichlet(np.ones(n_cats))
    names = [f"r{j}" for j in range(n_raters)]
    accuracy = rng.uniform(0.5, 0.98, size=n_raters)
    items = []
    for _ in range(n_items):
        truth = rng.choice(n_cats, p=probs)
        raters = names
        if raters_per_item is not None:
            raters = list(rng.choice(names, size=min(raters_per_item, n_raters), replace=False))
        item: dict[str, str | None] = {}
        for j, name in enumerate(names):
            if name not in raters or (missing and rng.random() < 0.25):
                if rng.random() < 0.5:
                    item[name] = None  # absent and None both mean "did not rate"
                continue
            label = truth if rng.random() < accuracy[j] else rng.choice(n_cats, p=probs)
            item[name] = cats[label]
        items.append(item)
    return items, names, cats


def _close(ours, theirs):
    if theirs is None or (isinstance(theirs, float) and math.isnan(theirs)):
        return ours is None
    return ours is not None and math.isclose(ours, float(theirs), rel_tol=1e-9, abs_tol=1e-9)


def _sk_kappa(items, a, b):
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    both = [it for it in items if it.get(a) is not None and it.get(b) is not None]
    if len(both) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(sklearn_metrics.cohen_kappa_score([it[a] for it in both], [it[b] for it in both]))


def _sm_fleiss(items):
    """statsmodels on items with 2+ ratings, each with the same number of ratings."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    cats = sorted({v for it in items for v in it.values() if v is not None})
    rows = [[cats.index(v) for v in it.values() if v is not None] for it in items]
    rows = [r for r in rows if len(r) >= 2]
    assert len({len(r) for r in rows}) == 1
    table, _ = inter_rater.aggregate_raters(np.array(rows))
    with np.errstate(all="ignore"):
        return float(inter_rater.fleiss_kappa(table, method="fleiss"))


def _kd_alpha(items, names):
    krippendorff = pytest.importorskip("krippendorff")
    cats = sorted({v for it in items for v in it.values() if v is not None})
    data = np.array([[np.nan if it.get(n) is None else cats.index(it[n]) for it in items] for n in names], float)
    try:
        return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
    except ValueError:  # "There has to be more than one value in the domain."
        return None


@pytest.mark.parametrize("seed", range(50))
def test_matches_reference_libraries_on_random_data(seed):
    items, names, _ = _dataset(seed, missing=seed % 2 == 1)
    assert _close(cohen_kappa(items, names[0], names[-1]), _sk_kappa(items, names[0], names[-1]))
    if sum(sum(v is not None for v in it.values()) >= 2 for it in items) >= 2:
        assert _close(krippendorff_alpha(items), _kd_alpha(items, names))
    if seed % 2 == 0:  # complete data: every item has all raters
        assert _close(fleiss_kappa(items), _sm_fleiss(items))
    else:  # a fixed number of raters per item, drawn from a larger pool
        fixed, _, _ = _dataset(seed, missing=False, raters_per_item=2 + seed % 3)
        assert _close(fleiss_kappa(fixed), _sm_fleiss(fixed))


def test_default_cohen_pair_is_the_one_with_most_items_together():
    items = [{"a": "x", "b": "x", "c": "y"}] * 3 + [{"b": "y", "c": "y"}, {"b": "x", "c": "x"}]
    assert cohen_kappa(items) == cohen_kappa(items, "b", "c") == cohen_kappa(items, "c")
    assert _close(cohen_kappa(items), _sk_kappa(items, "b", "c"))
    assert cohen_kappa(items, "a", "a") is None and cohen_kappa(items, "a", "nobody") is None


def test_ac1_is_at_least_fleiss_on_skewed_data_with_equal_raters():
    """With the same raters on every item, AC1's chance term never exceeds Fleiss': sum pi_k^2 >= 1/Q."""
    for seed in range(0, 30, 3):  # the 95%-"correct" datasets
        items, _, _ = _dataset(seed, missing=False)
        k, ac1 = fleiss_kappa(items), gwet_ac1(items)
        if raw_agreement(items) < 1 and k is not None:
            assert ac1 >= k - 1e-12


def test_all_agree_on_one_category():
    items = [{"a": "correct", "b": "correct", "c": "correct"}] * 12
    names = ["a", "b", "c"]
    assert raw_agreement(items) == 1.0 and gwet_ac1(items) == 1.0
    assert cohen_kappa(items) is None and fleiss_kappa(items) is None and krippendorff_alpha(items) is None
    assert _sk_kappa(items, "a", "b") is None or math.isnan(_sk_kappa(items, "a", "b"))
    assert math.isnan(_sm_fleiss(items))
    assert _kd_alpha(items, names) is None


def test_perfect_agreement_with_several_categories():
    items = [{"a": c, "b": c} for c in ["correct"] * 18 + ["wrong"] * 2]
    for name, fn in COEFFICIENTS.items():
        assert fn(items) == pytest.approx(1.0), name
    assert _sk_kappa(items, "a", "b") == pytest.approx(1.0)
    assert _sm_fleiss(items) == pytest.approx(1.0)
    assert _kd_alpha(items, ["a", "b"]) == pytest.approx(1.0)


def test_single_item_and_single_raters():
    one = [{"a": "correct", "b": "wrong"}]
    assert raw_agreement(one) == 0.0
    assert all(COEFFICIENTS[n](one) is None for n in (*KAPPA_FAMILY, "gwet_ac1"))
    alone = [{"a": "correct"}, {"b": "wrong"}, {"c": "correct", "d": None}]
    assert all(fn(alone) is None for fn in COEFFICIENTS.values())
    assert all(fn([]) is None for fn in COEFFICIENTS.values())
    for ratings in (one, alone, []):
        for name, est in agreement(ratings, bootstrap=50).items():
            if ratings is one and name == "raw_agreement":
                assert (est.value, est.low, est.high, est.items) == (0.0, 0.0, 0.0, 1)  # one item: no spread
            else:
                assert est.value is None and est.low is None and est.high is None
    assert agreement(alone)["gwet_ac1"] == AgreementEstimate(None, None, None, 0)


def test_varying_raters_per_item_by_hand():
    items = [{"a": "x", "b": "x", "c": "x"}, {"a": "x", "b": "y"}, {"a": "y", "b": "y", "c": "y"}, {"a": "x", "b": "x"}]
    # P_i = 1, 0, 1, 1 -> 0.75; p = (6/10, 4/10) -> Pe = 0.52; kappa = 0.23 / 0.48
    assert fleiss_kappa(items) == pytest.approx(23 / 48)
    # pi = (mean(1, .5, 0, 1), ...) = (.625, .375) -> Pe = 2 * .625 * .375 = .46875; AC1 = .28125 / .53125
    assert gwet_ac1(items) == pytest.approx(9 / 17)
    assert _close(krippendorff_alpha(items), _kd_alpha(items, ["a", "b", "c"]))


def _two(both_correct, a_only, b_only, both_wrong):
    return ([{"a": "correct", "b": "correct"}] * both_correct + [{"a": "correct", "b": "wrong"}] * a_only
            + [{"a": "wrong", "b": "correct"}] * b_only + [{"a": "wrong", "b": "wrong"}] * both_wrong)


def test_ac1_hand_computed_two_by_two():
    """90 both yes, 5 + 5 split, 0 both no: po = .90; kappa's Pe = .95^2 + .05^2 = .905 -> -0.0526;
    AC1's Pe = 2 * .95 * .05 = .095 -> (.90 - .095) / .905 = 0.8895: kappa low, AC1 high."""
    items = _two(90, 5, 5, 0)
    assert cohen_kappa(items) == pytest.approx((0.90 - 0.905) / 0.095)
    assert gwet_ac1(items) == pytest.approx((0.90 - 0.095) / 0.905)
    assert _close(cohen_kappa(items), _sk_kappa(items, "a", "b"))


def test_prevalence_paradox_of_the_research_note():
    """94% raw agreement, annotator a says "correct" on 95 of 100 items: kappa ~0.6, AC1 ~0.93."""
    items = _two(89, 6, 0, 5)
    assert raw_agreement(items) == pytest.approx(0.94)
    assert sum(it["a"] == "correct" for it in items) == 95
    assert 0.55 <= cohen_kappa(items) <= 0.65
    assert 0.90 <= gwet_ac1(items) <= 0.95
    assert all(0.55 <= COEFFICIENTS[n](items) <= 0.65 for n in KAPPA_FAMILY)


def test_bootstrap_is_seeded_and_brackets_the_value():
    items, _, _ = _dataset(3, missing=True)
    first = agreement(items, bootstrap=200, seed=7)
    assert first == agreement(items, bootstrap=200, seed=7)
    assert first != agreement(items, bootstrap=200, seed=8)
    big = _two(445, 30, 0, 25)  # the paradox data, five times over
    for name, est in agreement(big, bootstrap=300).items():
        assert est.items == 500 and est.low is not None and est.high is not None, name
        assert est.low <= est.value <= est.high, name
    narrow = agreement(big, bootstrap=300, level=0.5)["gwet_ac1"]
    wide = agreement(big, bootstrap=300, level=0.99)["gwet_ac1"]
    assert wide.low <= narrow.low <= narrow.high <= wide.high
    assert agreement(big, bootstrap=10)["raw_agreement"].low is None  # fewer than 20 replicates
    with pytest.raises(ValueError):
        agreement(big, level=1.5)


def test_estimate_json_keeps_full_precision():
    data = AgreementEstimate(0.123456789012345, 0.1, None, 3).to_json()
    assert data == {"value": 0.123456789012345, "low": 0.1, "high": None, "items": 3}
    assert json.loads(json.dumps(data))["value"] == 0.123456789012345  # written and read back unrounded


def _rec(item, who, meaningful, verdict, adjudication=False):
    return {"item_id": item, "annotator": who, "answers": {"meaningful": meaningful}, "verdict": verdict,
            "adjudication": adjudication}


def test_agreement_table():
    records = [
        _rec("hi/trans/1", "asha", "yes", "correct"), _rec("hi/trans/1", "ravi", "yes", "correct"),
        _rec("hi/trans/2", "asha", "no", "incorrect"), _rec("hi/trans/2", "ravi", "yes", "incorrect"),
        _rec("hi/trans/3", "asha", "yes", "correct"),  # rated once: not in the coefficients
        _rec("hi/trans/2", "lead", "no", "correct", adjudication=True),  # left out
        _rec("ta/ground/1", "meena", "yes", "correct"), _rec("ta/ground/1", "kumar", "yes", "incorrect"),
    ]
    rows = agreement_table(records, bootstrap=30)
    assert [(r["language"], r["question"]) for r in rows] == [
        ("all", "meaningful"), ("all", "verdict"), ("hi", "meaningful"), ("hi", "verdict"),
        ("ta", "meaningful"), ("ta", "verdict")]
    by = {(r["language"], r["question"]): r for r in rows}
    assert by["hi", "verdict"]["items_rated_twice"] == 2 and by["hi", "verdict"]["annotators"] == 2
    assert by["all", "verdict"]["items_rated_twice"] == 3 and by["all", "verdict"]["annotators"] == 4
    assert by["hi", "verdict"]["raw_agreement"]["value"] == 1.0
    assert by["hi", "meaningful"]["raw_agreement"]["value"] == 0.5
    assert by["all", "verdict"]["raw_agreement"]["value"] == 2 / 3  # unrounded
    assert by["ta", "verdict"]["cohen_kappa"] == {"value": None, "low": None, "high": None, "items": 1}
    assert set(by["all", "meaningful"]) >= {"language", "question", "items_rated_twice", "annotators", *COEFFICIENTS}
    assert rows == agreement_table(records, bootstrap=30)
    # a full scale on offer changes only AC1's chance term (Q = 3, not 2)
    scaled = agreement_table(records, {"meaningful": ["yes", "no", "unsure"]}, bootstrap=30)
    old, new = by["all", "meaningful"], {(r["language"], r["question"]): r for r in scaled}["all", "meaningful"]
    assert new["gwet_ac1"]["value"] != old["gwet_ac1"]["value"]
    assert new["fleiss_kappa"] == old["fleiss_kappa"] and new["cohen_kappa"] == old["cohen_kappa"]
