"""Inter-annotator agreement for the human review of dataset rows.

Several coefficients, each with a bootstrap interval, because one alone misleads: when ~95% of
items are "correct", Cohen's kappa is low (~0.6) at 94% raw agreement while Gwet's AC1 is ~0.93
(the prevalence paradox). Ratings are one mapping per item, annotator -> nominal category; an
annotator missing from an item (or mapped to None) did not rate it.

Chance-corrected coefficients (Cohen, Fleiss, Krippendorff, Gwet) return None when undefined:
fewer than 2 items enter, or expected agreement is 1 (every rating in one category — sklearn and
statsmodels give nan there, the krippendorff package raises). AC1 stays defined with one category
(it is then the raw agreement, 1.0 when all agree). Raw agreement needs one item with 2+ ratings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from indicifeval.builder.review.items import OVERRIDE

Ratings = Sequence[Mapping[str, str | None]]

_ONE = 1.0 - 1e-12  # expected agreement at or above this counts as 1: the coefficient is undefined


@dataclass(frozen=True)
class AgreementEstimate:
    """A coefficient with its percentile bootstrap interval; None where undefined."""

    value: float | None
    low: float | None
    high: float | None
    items: int

    def to_json(self) -> dict:
        """Full precision: rounding is for the screen and the card, not for the file others compute from."""
        r = lambda x: None if x is None else float(x)
        return {"value": r(self.value), "low": r(self.low), "high": r(self.high), "items": self.items}


@dataclass(frozen=True)
class _Coded:
    """Ratings as arrays, so that bootstrap replicates are row selections and not re-parsing."""

    annotators: list[str]
    categories: list[str]
    codes: np.ndarray  # items x annotators: category index, -1 where not rated
    counts: np.ndarray  # items x categories: how many ratings of each category

    def take(self, idx: np.ndarray) -> _Coded:
        return _Coded(self.annotators, self.categories, self.codes[idx], self.counts[idx])


def _code(ratings: Ratings, scale: Sequence[str] = ()) -> _Coded:
    """`scale` names categories on offer that may go unused; only AC1's Q depends on them."""
    annotators = sorted({a for item in ratings for a, v in item.items() if v is not None})
    seen = {str(v) for item in ratings for v in item.values() if v is not None}
    categories = sorted(seen | {str(c) for c in scale})
    col = {a: j for j, a in enumerate(annotators)}
    cat = {c: k for k, c in enumerate(categories)}
    codes = np.full((len(ratings), len(annotators)), -1, dtype=np.int64)
    for i, item in enumerate(ratings):
        for a, v in item.items():
            if v is not None:
                codes[i, col[a]] = cat[str(v)]
    counts = np.zeros((len(ratings), len(categories)), dtype=np.float64)
    for k in range(len(categories)):
        counts[:, k] = (codes == k).sum(axis=1)
    return _Coded(annotators, categories, codes, counts)


def _pairable(d: _Coded) -> tuple[np.ndarray, np.ndarray]:
    """Counts and rating totals of the items with 2+ ratings: the only ones that show agreement."""
    m = d.counts.sum(axis=1)
    keep = m >= 2
    return d.counts[keep], m[keep]


def _per_item(c: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Each item's share of agreeing rater pairs."""
    return (c * (c - 1)).sum(axis=1) / (m * (m - 1))


def _raw(d: _Coded) -> float | None:
    c, m = _pairable(d)
    return float(_per_item(c, m).mean()) if len(m) else None


def _chance_corrected(observed: float, expected: float) -> float | None:
    return None if expected >= _ONE else float((observed - expected) / (1.0 - expected))


def _fleiss(d: _Coded) -> float | None:
    c, m = _pairable(d)
    if len(m) < 2:
        return None
    p = c.sum(axis=0) / c.sum()
    return _chance_corrected(float(_per_item(c, m).mean()), float((p**2).sum()))


def _alpha(d: _Coded) -> float | None:
    c, m = _pairable(d)
    if len(m) < 2:
        return None
    n_c = c.sum(axis=0)
    n = n_c.sum()
    expected = n * n - (n_c**2).sum()  # sum over c != k of n_c n_k
    if expected <= 0:
        return None
    matched = (c * (c - 1) / (m - 1)[:, None]).sum()  # the diagonal of the coincidence matrix
    return float(1.0 - (n - 1) * (n - matched) / expected)


def _ac1(d: _Coded) -> float | None:
    c, m = _pairable(d)
    if len(m) < 2:
        return None
    q = len(d.categories)
    pi = (c / m[:, None]).mean(axis=0)
    expected = float((pi * (1 - pi)).sum() / (q - 1)) if q >= 2 else 0.0
    return _chance_corrected(float(_per_item(c, m).mean()), expected)


def _pair(d: _Coded, a: str | None, b: str | None) -> tuple[int, int] | None:
    """Column indices of the two annotators; unnamed ones are those who rated most items together."""
    idx = {name: j for j, name in enumerate(d.annotators)}
    if (a is not None and a not in idx) or (b is not None and b not in idx):
        return None
    if a is not None and b is not None:
        return (idx[a], idx[b]) if a != b else None
    rated = (d.codes >= 0).astype(np.int64)
    joint = rated.T @ rated
    np.fill_diagonal(joint, -1)
    named = a if a is not None else b
    if named is not None:
        j = idx[named]
        other = int(np.argmax(joint[j]))
        return None if joint[j, other] <= 0 else (j, other)
    if joint.size == 0 or joint.max() <= 0:
        return None
    first, second = np.unravel_index(int(np.argmax(joint)), joint.shape)  # row-major: ties go to sorted names
    return int(first), int(second)


def _cohen(d: _Coded, pair: tuple[int, int] | None) -> float | None:
    if pair is None:
        return None
    x, y = d.codes[:, pair[0]], d.codes[:, pair[1]]
    both = (x >= 0) & (y >= 0)
    n = int(both.sum())
    if n < 2:
        return None
    k = len(d.categories)
    table = np.bincount(x[both] * k + y[both], minlength=k * k).reshape(k, k) / n
    expected = float(table.sum(axis=1) @ table.sum(axis=0))
    return _chance_corrected(float(np.trace(table)), expected)


def _cohen_items(d: _Coded, pair: tuple[int, int] | None) -> int:
    return 0 if pair is None else int(((d.codes[:, pair[0]] >= 0) & (d.codes[:, pair[1]] >= 0)).sum())


def raw_agreement(ratings: Ratings) -> float | None:
    """Mean over items with 2+ ratings of the share of rater pairs that agree; no chance correction."""
    return _raw(_code(ratings))


def cohen_kappa(ratings: Ratings, a: str | None = None, b: str | None = None) -> float | None:
    """Cohen's kappa for two annotators on the items both rated (default: the pair with most such items)."""
    d = _code(ratings)
    return _cohen(d, _pair(d, a, b))


def fleiss_kappa(ratings: Ratings) -> float | None:
    """Fleiss' kappa over items with 2+ ratings, each item's agreement taken with its own number of
    raters and category shares from all their ratings; statsmodels' value when raters per item are equal."""
    return _fleiss(_code(ratings))


def krippendorff_alpha(ratings: Ratings) -> float | None:
    """Krippendorff's alpha, nominal, from the coincidence matrix; missing ratings allowed."""
    return _alpha(_code(ratings))


def gwet_ac1(ratings: Ratings) -> float | None:
    """Gwet's AC1 for several raters (Gwet 2008) over items with 2+ ratings: chance agreement
    sum_k pi_k (1 - pi_k) / (Q - 1), Q the categories seen, so it stays stable under skewed prevalence."""
    return _ac1(_code(ratings))


COEFFICIENTS: dict[str, Callable[..., float | None]] = {
    "raw_agreement": raw_agreement, "cohen_kappa": cohen_kappa, "fleiss_kappa": fleiss_kappa,
    "krippendorff_alpha": krippendorff_alpha, "gwet_ac1": gwet_ac1,
}


def agreement(ratings: Ratings, *, bootstrap: int = 1000, seed: int = 0, level: float = 0.95
              ) -> dict[str, AgreementEstimate]:
    """Every coefficient with a percentile bootstrap interval from resampling items (seeded, so the
    same input gives the same output). Cohen's pair is fixed from the full data so replicates measure
    the same thing; replicates where a coefficient is undefined are skipped, and the interval is None
    with fewer than 20 defined ones."""
    return _agreement(_code(ratings), bootstrap=bootstrap, seed=seed, level=level)


def _agreement(d: _Coded, *, bootstrap: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, AgreementEstimate]:
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")
    pair = _pair(d, None, None)
    fns: dict[str, Callable[[_Coded], float | None]] = {
        "raw_agreement": _raw, "cohen_kappa": lambda x: _cohen(x, pair), "fleiss_kappa": _fleiss,
        "krippendorff_alpha": _alpha, "gwet_ac1": _ac1,
    }
    pairable = int((d.counts.sum(axis=1) >= 2).sum())
    items = {name: pairable for name in fns} | {"cohen_kappa": _cohen_items(d, pair)}
    values = {name: fn(d) for name, fn in fns.items()}
    reps: dict[str, list[float]] = {name: [] for name in fns}
    n = len(d.codes)
    if n and bootstrap > 0:
        rng = np.random.Generator(np.random.PCG64(seed))
        for idx in rng.integers(0, n, size=(bootstrap, n)):
            sample = d.take(idx)
            for name, fn in fns.items():
                if values[name] is not None and (v := fn(sample)) is not None:
                    reps[name].append(v)
    tail = (1 - level) / 2
    out = {}
    for name in COEFFICIENTS:
        low = high = None
        if len(reps[name]) >= 20:
            low, high = (float(q) for q in np.quantile(reps[name], [tail, 1 - tail]))
        out[name] = AgreementEstimate(values[name], low, high, items[name])
    return out


def agreement_table(verdict_records: Iterable[dict], questions: Mapping[str, Sequence[str]] | None = None,
                    **kw: Any) -> list[dict]:
    """One row per (language, question) with every coefficient, plus an "all" language pooling them.

    Questions are those found in the records' answers, plus "verdict" (the validation override is
    not a question: it is left out). Adjudication records are left
    out (they settle disagreements, they are not a rating); a later record by the same annotator on the
    same item replaces an earlier one. `questions` (question -> its allowed answers) gives each question's
    full scale, which AC1's chance term counts even where an answer went unused; `kw` goes to `agreement`."""
    grouped: dict[tuple[str, str], dict[str, dict[str, str | None]]] = {}
    scales = questions or {}
    names = {"verdict"}
    for rec in verdict_records:
        if rec.get("adjudication"):
            continue
        item, annotator = str(rec["item_id"]), str(rec["annotator"])
        answers = dict(rec.get("answers") or {})
        answers.pop(OVERRIDE, None)
        names |= set(answers)
        answers["verdict"] = rec.get("verdict")
        for question, answer in answers.items():
            label = None if answer is None else str(answer)
            for language in (item.split("/")[0], "all"):
                grouped.setdefault((language, question), {}).setdefault(item, {})[annotator] = label
    languages = sorted({lang for lang, _ in grouped} | ({"all"} if grouped else set()))
    rows = []
    for language in languages:
        for question in sorted(names):
            ratings = list(grouped.get((language, question), {}).values())
            rated = [r for r in ratings if sum(v is not None for v in r.values()) >= 2]
            annotators = {a for r in ratings for a, v in r.items() if v is not None}
            row: dict[str, Any] = {"language": language, "question": question,
                                   "items_rated_twice": len(rated), "annotators": len(annotators)}
            estimates = _agreement(_code(ratings, scales.get(question, ())), **kw)
            row |= {name: est.to_json() for name, est in estimates.items()}
            rows.append(row)
    return rows
