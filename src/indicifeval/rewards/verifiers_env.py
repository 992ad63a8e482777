"""The reward as a Prime Intellect ``verifiers`` taskset (checked against verifiers 0.4.0, whose
stack is ``verifiers.v1``: a ``Taskset`` loads ``Task`` s, each scoring a rollout's trace with
its ``@vf.reward`` methods; the environment around it, ``SingleAgentEnv`` by default, runs the
model). In Python: ``load_taskset(data=...)`` or ``load_environment(data=...)``. verifiers finds
a taskset by a top-level module name (its id; a dotted name is not looked up), so importing this
module registers it as ``indicifeval_verifiers`` too, the id its configs carry; its ``__all__``
names one ``Taskset`` subclass, as verifiers asks. (``vf eval`` in a fresh process cannot import
that name: there, a one-line package of your own re-exporting ``IndicIFTaskset`` is the id.)

``data`` is what ``indicifeval export --format openrlhf`` writes (a folder, or its
``train.jsonl``/``test.jsonl``: each line ``input`` and ``label``, the ground truth as JSON), or
any rows ``indicifeval`` reads (``sample``, ``hub``, a file or folder of rows). Each task's
reward, ``indicifeval``, is the scorer's reward for the model's last reply (the reasoning
stripped first, the implicit constraints read against the prompt); the metric
``indicifeval_verdict`` logs the strict prompt and instruction accuracies and whether an
implicit constraint failed. The settings are the task config's (``--env.taskset.task.reward
fraction``, ``implicit none``...). Needs ``pip install 'indicifeval[verifiers]'`` (Python 3.11+)."""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import verifiers.v1 as vf

from indicifeval.core.errors import InputError, Source
from indicifeval.records import RowScore
from indicifeval.rewards.export import ground_truth
from indicifeval.rewards.verdicts import RewardScorer, answer_text

TASKSET_ID = "indicifeval_verifiers"  # the taskset's id: verifiers imports it as a top-level module
sys.modules.setdefault(TASKSET_ID, sys.modules[__name__])


@lru_cache(maxsize=8)
def _scorer(scoring: str, reward: str, strip_reasoning: bool, unknown_ids: str, implicit: str) -> RewardScorer:
    return RewardScorer(scoring, reward, strip_reasoning, unknown_ids=unknown_ids,
                        implicit=None if implicit == "none" else [x.strip() for x in implicit.split(",")])


class IndicIFData(vf.TaskData):
    ground_truth: str
    """The ground truth as JSON text: ``{key, language, subset, instruction_id_list, kwargs, prompt,
    resp_lang}``, as ``export`` writes it."""


class IndicIFTaskConfig(vf.TaskConfig):
    reward_kind: str = "all"
    """The reward: all (1 when every instruction is followed), fraction, or loose-fraction."""
    scoring: str = "fixed"
    """The checker set: fixed, or paper."""
    implicit: str = "all"
    """The implicit constraints: all, none (the plain reward), or names joined by commas."""
    strip_reasoning: bool = True
    unknown_ids: str = "error"


class IndicIFTask(vf.Task[IndicIFData, vf.State, IndicIFTaskConfig]):
    @property
    def key(self) -> str:
        truth = json.loads(self.data.ground_truth)
        return f"{truth.get('language')}/{truth.get('subset')}/{truth.get('key')}"

    def verdict(self, trace: Any) -> RowScore:
        c = self.config
        scorer = _scorer(c.scoring, c.reward_kind, c.strip_reasoning, c.unknown_ids, c.implicit)
        truth = json.loads(self.data.ground_truth)
        where = Source(f"verifiers task {self.key}", None)
        if not isinstance(truth.get("prompt"), str):
            truth["prompt"] = self.data.prompt_text
        return scorer.verdict(scorer.row(truth, where), reply(trace), where)

    @vf.reward
    async def indicifeval(self, trace: vf.Trace) -> float:
        return float(self.verdict(trace).reward or 0.0)

    @vf.metric
    async def indicifeval_verdict(self, trace: vf.Trace) -> dict[str, float]:
        v = self.verdict(trace)
        return {"prompt_strict": float(v.prompt_strict), "instruction_strict": sum(v.strict) / (len(v.strict) or 1),
                "implicit_failed": float(bool(v.implicit))}


def reply(trace: Any) -> str:
    """The model's answer in a trace: the root agent's reply, else its last sampled assistant
    message, as sent (``Trace.last_reply`` strips it, and white space can be what an
    instruction asks about)."""
    if getattr(trace, "root_reply", None) is not None:
        return str(trace.root_reply)
    messages = trace.assistant_messages
    if not messages:
        return ""
    return answer_text({"content": messages[-1].content}) or ""


class IndicIFTasksetConfig(vf.TasksetConfig):
    id: str = TASKSET_ID
    data: str = "sample"
    """An export --format openrlhf folder or JSONL file, or rows indicifeval reads."""
    split: str = "train"
    """The export's split to read (a folder): train or test."""
    task: IndicIFTaskConfig = IndicIFTaskConfig()


def truths(data: str | Path, split: str = "train") -> list[dict[str, Any]]:
    """The ground truths of ``data`` (see the module's doc)."""
    path = Path(data)
    if path.is_dir() and (path / f"{split}.jsonl").is_file():
        path = path / f"{split}.jsonl"
    if path.is_file() and path.suffix == ".jsonl":
        first = path.read_text(encoding="utf-8").lstrip().split("\n", 1)[0]
        if first and "label" in json.loads(first):
            lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
            return [json.loads(json.loads(x)["label"]) for x in lines]
    from indicifeval.dataset import load_rows

    return [ground_truth(row) for row in load_rows(data)]


class IndicIFTaskset(vf.Taskset[IndicIFTask, IndicIFTasksetConfig]):
    def load(self) -> list[IndicIFTask]:
        found = truths(self.config.data, self.config.split)
        if not found:
            raise InputError(f"no rows in {self.config.data}", field="data")
        return [IndicIFTask(IndicIFData(idx=i, prompt=t["prompt"], ground_truth=json.dumps(t, ensure_ascii=False)),
                            self.config.task) for i, t in enumerate(found)]


def load_taskset(data: str | Path = "sample", split: str = "train", **task: Any) -> IndicIFTaskset:
    """The taskset over ``data``; ``task`` sets ``IndicIFTaskConfig`` (``reward_kind``,
    ``implicit``...)."""
    return IndicIFTaskset(IndicIFTasksetConfig(data=str(data), split=split, task=IndicIFTaskConfig(**task)))


def load_environment(data: str | Path = "sample", split: str = "train", **task: Any) -> Any:
    """The environment verifiers builds for the taskset (its ``SingleAgentEnv``)."""
    taskset = IndicIFTasksetConfig(data=str(data), split=split, task=IndicIFTaskConfig(**task))
    config = vf.SingleAgentEnvConfig(taskset=taskset)
    return vf.load_environment(config)


__all__ = ["IndicIFData", "IndicIFTask", "IndicIFTaskConfig", "IndicIFTaskset", "IndicIFTasksetConfig",
           "load_environment", "load_taskset", "reply", "truths"]
