"""The scorer as a reward for RL training: ``score_batch`` in process, ``trl(...)`` for TRL's
``GRPOTrainer``, ``verl_compute_score`` for verl; ``indicifeval serve`` puts the same behind
HTTP (NeMo Gym's verify request too), and ``indicifeval export`` writes the rows as prompts."""

from indicifeval.rewards.adapters import trl, verl_compute_score
from indicifeval.rewards.verdicts import REWARDS, RewardScorer, score_batch

__all__ = ["REWARDS", "RewardScorer", "score_batch", "trl", "verl_compute_score"]
