"""The reward as a Prime Intellect verifiers taskset, with the installed verifiers: the
environment verifiers builds (``SingleAgentEnv``) over the rows ``export --format openrlhf``
writes; each task scores a trace of the sample's answer through its own scoring
(``Task.score``), and the rewards equal ``score_batch`` on the same answers."""

from __future__ import annotations

import asyncio
import json

import pytest

vf = pytest.importorskip("verifiers.v1", reason="needs verifiers (Python 3.11+): pip install "
                         "'indicifeval[verifiers]', as .ci/run does")

from verifiers.v1.graph import MessageNode  # noqa: E402
from verifiers.v1.types import AssistantMessage, UserMessage  # noqa: E402

from indicifeval.cli import main  # noqa: E402
from indicifeval.rewards import score_batch  # noqa: E402
from indicifeval.rewards.verifiers_env import load_environment, load_taskset  # noqa: E402
from tests.rewards.test_rewards_api import _responses  # noqa: E402


def _trace(task, answer):
    return vf.Trace(agent=vf.AgentInfo(config=vf.AgentConfig()), task=vf.TraceTask(type="IndicIFTask", data=task.data),
                    nodes=[MessageNode(parent=None, message=UserMessage(content=task.data.prompt), sampled=False),
                           MessageNode(parent=0, message=AssistantMessage(content=answer), sampled=True)])


def _score(tasks, answers):
    async def run():
        traces = [_trace(t, a) for t, a in zip(tasks, answers)]
        await asyncio.gather(*(t.score(tr) for t, tr in zip(tasks, traces)))
        return traces

    return asyncio.run(run())


def test_environment_over_exported_rows_scores_as_score_batch(tmp_path):
    assert main(["export", "sample", "--format", "openrlhf", "--out", str(tmp_path), "--languages", "hi,ta,en,or"]) == 0
    env = load_environment(tmp_path)
    assert type(env).__name__ == "SingleAgentEnv"
    tasks = list(env.taskset)
    labels = [json.loads(x)["label"] for x in (tmp_path / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(tasks) == len(labels) and tasks[0].data.ground_truth == labels[0]
    responses = _responses("sample")
    truths = [json.loads(t.data.ground_truth) for t in tasks]
    answers = [responses[t["key"]] for t in truths]
    expected = [v.reward for v in score_batch([{**t, "response": a} for t, a in zip(truths, answers)])]
    assert 0 < sum(expected) < len(expected)
    traces = _score(tasks, answers)
    assert [tr.reward for tr in traces] == expected
    assert [tr.rewards["indicifeval"].score for tr in traces] == expected
    assert set(traces[0].metrics) == {"prompt_strict", "instruction_strict", "implicit_failed"}
    echo = _score(tasks[:1], [tasks[0].data.prompt])[0]  # an echo of the prompt: an implicit constraint fails
    assert echo.reward == 0.0 and echo.metrics["implicit_failed"] == 1.0


def test_task_settings_reach_the_scorer():
    tasks = list(load_taskset("sample-beyond", reward_kind="fraction", implicit="none"))[:20]
    responses = _responses("sample-beyond")
    truths = [json.loads(t.data.ground_truth) for t in tasks]
    answers = [responses[t["key"]] for t in truths]
    expected = [v.reward for v in score_batch([{**t, "response": a} for t, a in zip(truths, answers)],
                                              reward="fraction", implicit=None)]
    assert [tr.reward for tr in _score(tasks, answers)] == expected
