"""The reward for OpenRLHF (checked against openrlhf 0.11.2, ``openrlhf/utils/agent.py``), both
ways its ``--reward.remote_url`` (``--remote_rm_url`` in older releases) takes one:

- a Python file: OpenRLHF loads the file named by the URL (it ends in ``.py``) with
  ``importlib.util.spec_from_file_location`` and calls its ``reward_func(queries, prompts,
  labels)``. This module is such a file: point the URL at ``python -m
  indicifeval.rewards.openrlhf`` (it prints its own path). For other settings, a two-line file
  of your own: ``from indicifeval.rewards.openrlhf import make_reward_func`` and
  ``reward_func = make_reward_func(reward="fraction")``;
- an HTTP URL: OpenRLHF POSTs ``{"query": [...], "prompts": [...], "labels": [...]}`` and reads
  ``rewards``, ``scores`` and ``extra_logs`` from the JSON answer; ``openrlhf_rewards`` makes
  that answer (the server's route calls it).

``queries`` are the decoded prompt and response together (special tokens kept), ``prompts`` the
prompt as the policy saw it (chat template applied), ``labels`` what ``--data.label_key`` names:
``indicifeval export --format openrlhf`` writes the ground truth (JSON text) as ``label``. The
answer is the query after its prompt, less the end-of-turn tokens it ends with; the implicit
constraints read the prompt from the label (``export`` writes the row's own)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from indicifeval.core.errors import InputError, Source
from indicifeval.core.modes import ScoringMode
from indicifeval.records import RowScore
from indicifeval.rewards.verdicts import RewardScorer

# end-of-turn and end-of-text tokens a decode with skip_special_tokens=False leaves after an answer
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>", "<|end|>", "<|return|>",
              "<end_of_turn>", "<eos>", "</s>", "<｜end▁of▁sentence｜>", "[/INST]")


def answer_of(query: str, prompt: Any, end_tokens: Sequence[str] = END_TOKENS) -> str:
    """The response in ``query`` (prompt + response as OpenRLHF decodes it): what follows the
    prompt (its last occurrence; the whole query when the prompt is not in it), less the end
    tokens (and the white space before them) it ends with."""
    text = query
    if isinstance(prompt, str) and prompt:
        if query.startswith(prompt):
            text = query[len(prompt):]
        elif prompt in query:
            text = query[query.rindex(prompt) + len(prompt):]
    while True:
        bare = text.rstrip()
        token = next((t for t in end_tokens if t and bare.endswith(t)), None)
        if token is None:
            return text
        text = bare[:-len(token)]


def _truth(label: Any, where: Source) -> dict:
    if isinstance(label, dict):
        return label
    if isinstance(label, (str, bytes)):
        try:
            truth = json.loads(label)
        except json.JSONDecodeError as exc:
            raise where.error(f"the label is not JSON ({exc.msg}); export --format openrlhf writes the ground "
                              "truth as label (train with --data.label_key label)", "labels") from None
        if isinstance(truth, dict):
            return truth
    raise where.error("the label must be the ground truth (JSON text of {language, instruction_id_list, kwargs, "
                      "...}, as export --format openrlhf writes it); is --data.label_key label set?", "labels")


def verdicts(scorer: RewardScorer, queries: Sequence[Any], prompts: Sequence[Any] | None, labels: Sequence[Any],
             end_tokens: Sequence[str] = END_TOKENS) -> list[RowScore]:
    """The verdict on each query's answer, by its label."""
    if isinstance(queries, str) or isinstance(labels, str):
        raise InputError("query and labels must be lists (one per answer)", field="query")
    if len(labels) != len(queries) or (prompts is not None and len(prompts) != len(queries)):
        raise InputError(f"{len(queries)} queries but {len(labels)} labels" + (
            f" and {len(prompts)} prompts" if prompts is not None else ""), field="labels")
    out = []
    for i, query in enumerate(queries):
        where = Source("OpenRLHF reward batch", i + 1)
        if not isinstance(query, str):
            raise where.error(f"a query is text, got {type(query).__name__}", "query")
        truth = _truth(labels[i], where)
        asked = prompts[i] if prompts is not None else None
        answer = answer_of(query, asked, end_tokens)
        out.append(scorer.verdict(scorer.row(truth, where), answer, where))
    return out


def _logs(scores: list[RowScore]) -> dict[str, list[float]]:
    return {"indicifeval_prompt_strict": [float(v.prompt_strict) for v in scores],
            "indicifeval_instruction_strict": [sum(v.strict) / (len(v.strict) or 1) for v in scores],
            "indicifeval_implicit_failed": [float(bool(v.implicit)) for v in scores]}


def openrlhf_rewards(scorer: RewardScorer, body: Any) -> dict[str, Any]:
    """The answer to OpenRLHF's remote reward request ``{query, prompts, labels}``: ``rewards``
    and ``scores`` (the same: indicifeval's rewards lie in [0, 1], as its dynamic filtering
    wants) and ``extra_logs`` (lists beside them), plain JSON. A malformed request (no labels,
    a label that is no ground truth) is an ``InputError`` naming the field."""
    if not isinstance(body, dict):
        raise InputError("the request must be a JSON object {query, prompts, labels}", field="body")
    queries, labels = body.get("query"), body.get("labels")
    if not isinstance(queries, list):
        raise InputError("the request has no query (a list of prompt + response texts)", field="query")
    if not isinstance(labels, list):
        raise InputError("the request has no labels: start OpenRLHF with --data.label_key label on rows of "
                         "indicifeval export --format openrlhf", field="labels")
    prompts = body.get("prompts")
    scores = verdicts(scorer, queries, prompts if isinstance(prompts, list) else None, labels)
    rewards = [float(v.reward or 0.0) for v in scores]
    return {"rewards": rewards, "scores": rewards, "extra_logs": _logs(scores)}


def make_reward_func(*, reward: str = "all", scoring: ScoringMode | str = ScoringMode.FIXED,
                     strip_reasoning: bool = True, unknown_ids: str = "error",
                     implicit: str | Sequence[str] | None = "all",
                     end_tokens: Sequence[str] = END_TOKENS) -> Callable[..., dict[str, Any]]:
    """A ``reward_func(queries, prompts, labels, **kwargs)`` for OpenRLHF's reward file, under
    these settings. It returns ``rewards``, ``scores`` and ``extra_logs`` as torch tensors (as
    OpenRLHF's examples do; lists where torch is absent)."""
    scorer = RewardScorer(scoring, reward, strip_reasoning, unknown_ids=unknown_ids, implicit=implicit)

    def reward_func(queries: Sequence[str], prompts: Sequence[Any], labels: Sequence[Any],
                    **kwargs: Any) -> dict[str, Any]:
        scores = verdicts(scorer, list(queries), list(prompts) if prompts is not None else None, list(labels),
                          end_tokens)
        rewards = [float(v.reward or 0.0) for v in scores]
        logs: dict[str, Any] = _logs(scores)
        try:
            import torch
        except ImportError:
            return {"rewards": rewards, "scores": rewards, "extra_logs": logs}
        tensor = torch.tensor(rewards, dtype=torch.float)
        return {"rewards": tensor, "scores": tensor.clone(),
                "extra_logs": {k: torch.tensor(v, dtype=torch.float) for k, v in logs.items()}}

    return reward_func


reward_func = make_reward_func()  # what OpenRLHF calls when --reward.remote_url names this file

__all__ = ["END_TOKENS", "answer_of", "make_reward_func", "openrlhf_rewards", "reward_func", "verdicts"]

if __name__ == "__main__":  # python -m indicifeval.rewards.openrlhf: the path for --reward.remote_url
    print(__file__)
