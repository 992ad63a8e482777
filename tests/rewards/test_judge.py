"""The optional LLM judge (IFBench's quality term) against the loopback OpenAI-compatible
server: prompts in the answer's language, replies cached by content (never asked twice), a
failure or timeout leaves the verifiable reward with a reason, a hack is never paid for."""

from __future__ import annotations

import pytest

from indicifeval.rewards import score_batch
from indicifeval.rewards.judging import JudgeItem, JudgeScore, judged_reward
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.judge import ModelJudge, judge_prompt, parse_score
from indicifeval.testing.fake_server import FakeOpenAIServer, FaultPlan, ServerConfig

HONEST = {"language": "hi", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}],
          "prompt": "मानसून के बारे में तीन वाक्य लिखिए। अल्पविराम का प्रयोग न करें।",
          "response": "मानसून जून में आता है। किसान खुश होते हैं। नदियाँ भर जाती हैं।"}
HACK = {**HONEST, "response": "मानसून मानसून मानसून मानसून मानसून मानसून मानसून मानसून मानसून मानसून मानसून"}


def _judge(server, tmp_path, timeout_s=30.0):
    spec = ModelSpec.of("openai", "judge-model", {"base_url": server.url, "max_retries": 0})
    return ModelJudge(spec, tmp_path / "judge.jsonl", timeout_s=timeout_s)


def test_the_judges_score_moves_the_reward_a_little_and_is_asked_once(tmp_path):
    bodies = []

    def answer(body):
        bodies.append(body)
        return "8"

    with FakeOpenAIServer(ServerConfig(answer_fn=answer)) as server:
        judge = _judge(server, tmp_path)
        first = score_batch([HONEST, HACK], judge=judge)
        again = score_batch([HONEST], judge=judge)
    assert first[0].reward == pytest.approx(0.9 + 0.1 * 7 / 9) and first[0].judge == "judge: 8/10"
    assert first[1].reward == 0.0 and first[1].judge is None  # a hack is not judged: the judge cannot pay for it
    assert again[0].reward == first[0].reward
    assert len(bodies) == 1  # the second batch read the cache
    asked = bodies[0]["messages"][-1]["content"]
    assert asked.startswith("आप हिंदी में") and HONEST["response"] in asked  # the judge's prompt in the answer's language


@pytest.mark.parametrize("fault", ["500", "malformed"])
def test_a_failing_judge_leaves_the_verifiable_reward_with_a_reason(tmp_path, fault):
    faults = FaultPlan(rate=1.0, kinds=(fault,), max_faults_per_prompt=99)
    config = ServerConfig(answer_fn=lambda body: "9", faults=faults)
    with FakeOpenAIServer(config) as server:
        verdict = score_batch([HONEST], judge=_judge(server, tmp_path))[0]
    assert verdict.reward == 1.0 and verdict.judge.startswith("no judge score")


def test_a_slow_judge_times_out_and_training_goes_on(tmp_path):
    config = ServerConfig(answer_fn=lambda body: "9", latency_s=3.0)
    with FakeOpenAIServer(config) as server:
        verdict = score_batch([HONEST], judge=_judge(server, tmp_path, timeout_s=0.3))[0]
    assert verdict.reward == 1.0 and "timed out" in verdict.judge


def test_scores_and_prompts():
    assert [parse_score(r) for r in ("8", "Score: 10/10", "३", "none", "7.", "100")] == [8, 10, None, None, 7, None]
    assert judged_reward(0.0, JudgeScore(10, "")) == 0.0
    assert judged_reward(1.0, JudgeScore(None, "")) == 1.0
    assert judged_reward(1.0, JudgeScore(1, "")) == pytest.approx(0.9)
    for language in ("as", "bn", "en", "gu", "hi", "kn", "ml", "mr", "ne", "or", "pa", "sa", "ta", "te", "ur"):
        text = judge_prompt(JudgeItem("P-P", "A-A", language))
        assert "P-P" in text and "A-A" in text and "1" in text and "10" in text
