"""An optional quality term from an LLM judge, as IFBench trains with one: the verifiable reward
moved a little by a judge's 1-10 score of the answer. The reward layer only defines what a judge
is (a function of a batch of ``JudgeItem``s); ``runs.judge.ModelJudge`` asks a model through the
backends, caching every reply. A judge that fails or times out leaves the verifiable reward as
it was, with the reason: training never stops for it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class JudgeItem:
    prompt: str
    answer: str
    language: str  # the language the judge's prompt is written in: the answer's


@dataclass(frozen=True)
class JudgeScore:
    """A judge's 1-10 score, or None with why there is none (a failure, a timeout, no number)."""

    score: int | None
    note: str


Judge = Callable[[Sequence[JudgeItem]], list[JudgeScore]]
DEFAULT_WEIGHT = 0.1


def judged_reward(reward: float, score: JudgeScore, weight: float = DEFAULT_WEIGHT) -> float:
    """``reward`` with the judge's share: ``(1 - weight) * reward + weight * quality`` where
    quality is the score scaled to 0..1. Only an answer the verifier rewards is judged (a zero
    stays zero: the judge cannot pay for a hack); no score leaves the reward as it was."""
    if reward <= 0 or score.score is None:
        return reward
    quality = (min(max(score.score, 1), 10) - 1) / 9
    return (1 - weight) * reward + weight * quality


__all__ = ["DEFAULT_WEIGHT", "Judge", "JudgeItem", "JudgeScore", "judged_reward"]
