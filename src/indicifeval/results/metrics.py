"""The exported metrics, computed one way for the export and for ``results verify``: per
language and subset, prompt- and instruction-level accuracy, strict and loose, over every
prompt and every sample, with a percentile bootstrap interval.

With several samples per prompt the point is the mean over samples (every prompt has all of
them: the pooled share of passes equals the mean of the per-sample shares); the interval
resamples prompts, each with all its samples (a cluster bootstrap over prompts), so it
reflects both the prompts drawn and the samples' spread within each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from indicifeval.reports.stats import CONFIDENCE, Group, bootstrap, mean_of

# (id, level, mode, display name)
METRICS = (("prompt_level_strict_acc", "prompt", "strict", "prompt-level strict accuracy"),
           ("prompt_level_loose_acc", "prompt", "loose", "prompt-level loose accuracy"),
           ("inst_level_strict_acc", "instruction", "strict", "instruction-level strict accuracy"),
           ("inst_level_loose_acc", "instruction", "loose", "instruction-level loose accuracy"))
N_BOOT, BOOT_SEED = 1000, 0
CI_METHOD = (f"percentile bootstrap over prompts, each resampled with all its samples ({N_BOOT} resamples, "
             f"seed {BOOT_SEED})")


@dataclass(frozen=True)
class Verdicts:
    """One sample of one prompt, as the metrics count it."""

    language: str
    subset: str
    key: str  # the row's key as text
    sample: int
    strict: tuple[bool, ...]
    loose: tuple[bool, ...]


@dataclass(frozen=True)
class Result:
    result_id: str
    language: str
    subset: str
    metric: str
    score: float
    low: float | None
    high: float | None
    prompts: int
    answers: int  # prompts × samples
    samples: int


def result_id(language: str, subset: str, metric: str) -> str:
    return f"{language}/{subset}/{metric}"


def instance_score(verdicts: Verdicts, level: str, mode: str) -> tuple[float, bool]:
    """One sample's score for a metric: 1/0 at prompt level, the share of its instructions
    followed at instruction level; correct when every instruction is followed."""
    values = verdicts.strict if mode == "strict" else verdicts.loose
    correct = all(values)
    if level == "prompt":
        return (1.0 if correct else 0.0), correct
    return (sum(values) / len(values) if values else 0.0), correct


def compute(items: Iterable[Verdicts], n_boot: int = N_BOOT) -> dict[str, Result]:
    """Every language × subset × metric result of ``items``, keyed by result id. Prompts are
    taken in the order of their keys, so the interval does not depend on the order of lines."""
    cells: dict[tuple[str, str], dict[str, list[Verdicts]]] = {}
    for item in items:
        cells.setdefault((item.language, item.subset), {}).setdefault(item.key, []).append(item)
    out: dict[str, Result] = {}
    for (language, subset), prompts in sorted(cells.items()):
        keys = sorted(prompts)
        samples = max(len(prompts[k]) for k in keys)
        for metric, level, mode, _ in METRICS:
            pairs = []
            for key in keys:
                passes = counts = 0
                for v in prompts[key]:
                    values = v.strict if mode == "strict" else v.loose
                    if level == "prompt":
                        passes, counts = passes + all(values), counts + 1
                    else:
                        passes, counts = passes + sum(values), counts + len(values)
                pairs.append((passes, counts))
            total = sum(c for _, c in pairs)
            score = sum(p for p, _ in pairs) / total if total else 0.0
            rid = result_id(language, subset, metric)
            estimate = bootstrap([Group.of(pairs)], mean_of, seed=BOOT_SEED, label=rid, n_boot=n_boot)
            out[rid] = Result(rid, language, subset, metric, score, estimate.low, estimate.high, len(keys),
                              sum(len(prompts[k]) for k in keys), samples)
    return out


__all__ = ["BOOT_SEED", "CI_METHOD", "CONFIDENCE", "METRICS", "N_BOOT", "Result", "Verdicts", "compute",
           "instance_score", "result_id"]
