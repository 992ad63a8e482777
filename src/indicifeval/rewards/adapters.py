"""In-process rewards for the trainers that take a function: TRL's ``reward_funcs`` and verl's
``compute_score``. Both read what ``indicifeval export`` writes (and any dataset with the same
columns), score with the same checkers as ``indicifeval score``, and never raise for an answer."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from indicifeval.core.errors import Source
from indicifeval.core.modes import ScoringMode
from indicifeval.rewards.judging import Judge
from indicifeval.rewards.verdicts import RewardScorer, answer_text, legacy_think
from indicifeval.scoring.implicit import parse_implicit

# the dataset columns a TRL reward function reads (TRL passes every column as a keyword argument)
COLUMNS = ("key", "language", "subset", "instruction_id_list", "kwargs", "resp_lang")


def trl(*, reward: str = "all", scoring: ScoringMode | str = ScoringMode.FIXED, strip_reasoning: bool = True,
        data: str | Path | None = None, name: str | None = None, unknown_ids: str = "error",
        implicit: str | Sequence[str] | None = "all", judge: Judge | None = None) -> Callable[..., list[float]]:
    """A reward function with TRL's ``reward_funcs`` signature: ``(prompts, completions,
    **columns) -> list[float]``. Completions may be plain strings or conversational (lists of
    messages); the columns are those ``export --format trl`` writes (``instruction_id_list``,
    ``kwargs`` as JSON text or a list of dicts, ``language``), or ``key`` with ``data``. TRL
    logs it as ``rewards/<name>``: ``indicifeval_all`` unless ``name`` is given. An instruction
    id no checker knows is an error, or with ``unknown_ids="zero"`` not followed. The implicit
    constraints (``implicit``, all by default; None: the plain reward) read the prompt from the
    ``prompt`` column or TRL's ``prompts``; an optional ``judge`` (``runs.judge.ModelJudge``) adds
    IFBench's quality term."""
    scorer = RewardScorer(scoring, reward, strip_reasoning, data, unknown_ids=unknown_ids, implicit=implicit,
                          judge=judge)

    def reward_fn(prompts: list[Any] | None = None, completions: list[Any] | None = None,
                  **columns: Any) -> list[float]:
        given = {c: columns[c] for c in COLUMNS if columns.get(c) is not None}
        asked = columns.get("prompt") or prompts
        items = []
        for i, completion in enumerate(completions or []):
            item = {**{c: values[i] for c, values in given.items()}, "response": completion}
            prompt = answer_text(asked[i]) if asked is not None and i < len(asked) else None
            items.append({**item, "prompt": prompt} if prompt is not None else item)
        return [float(v.reward or 0.0) for v in scorer.score(items, where="reward batch")]

    reward_fn.__name__ = reward_fn.__qualname__ = name or f"indicifeval_{reward.replace('-', '_')}"
    return reward_fn


@lru_cache(maxsize=8)
def _scorer(scoring: ScoringMode | str, reward: str, strip_reasoning: bool, unknown_ids: str,
            implicit: tuple[str, ...]) -> RewardScorer:
    return RewardScorer(scoring, reward, strip_reasoning, unknown_ids=unknown_ids, implicit=implicit)


def verl_compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None, *,
                       reward: str = "all", scoring: ScoringMode | str = ScoringMode.FIXED,
                       strip_reasoning: bool = True, think: str | None = None, unknown_ids: str = "error",
                       implicit: str | Sequence[str] | None = "all") -> dict[str, float]:
    """verl's ``compute_score``: ``ground_truth`` is what ``export --format verl`` writes in
    ``reward_model.ground_truth`` (JSON text of ``{language, instruction_id_list, kwargs}``, or
    that dict). Returns ``score`` (the reward) and the four accuracies, which verl logs beside it;
    the settings come from ``custom_reward_function.reward_kwargs`` (``think: strip|keep``, their
    first spelling, is still read). The implicit constraints read the prompt from the ground
    truth's ``prompt`` (``export`` writes it) or ``extra_info["prompt"]``."""
    truth = json.loads(ground_truth) if isinstance(ground_truth, (str, bytes)) else dict(ground_truth)
    scorer = _scorer(scoring, reward, legacy_think(think, strip_reasoning), unknown_ids, parse_implicit(implicit))
    source = Source(f"ground_truth of {data_source}", None)
    if not isinstance(truth.get("prompt"), str) and isinstance(extra_info, dict):
        truth["prompt"] = answer_text(extra_info.get("prompt"))
    v = scorer.verdict(scorer.row(truth, source), solution_str, source)
    assert v.reward is not None  # a RewardScorer's verdict carries its reward
    n = len(v.strict) or 1
    return {"score": v.reward, "prompt_strict": float(v.prompt_strict), "prompt_loose": float(v.prompt_loose),
            "instruction_strict": sum(v.strict) / n, "instruction_loose": sum(v.loose) / n,
            "implicit_failed": float(bool(v.implicit))}


__all__ = ["COLUMNS", "trl", "verl_compute_score"]
