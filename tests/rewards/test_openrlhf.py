"""OpenRLHF's two reward hooks, driven by the installed openrlhf's own single-turn executor
(``openrlhf.utils.agent.SingleTurnAgentExecutor``): it loads ``rewards/openrlhf.py`` as a reward
file, or POSTs to a loopback server answering with ``openrlhf_rewards``, on the rows ``export
--format openrlhf`` writes; a character tokenizer and a scripted engine stand in for the model,
so the query it decodes is the chat-templated prompt, the answer and an end token. The rewards
must equal ``score_batch`` on the same answers."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from types import SimpleNamespace

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.rewards import RewardScorer, score_batch
from indicifeval.rewards import openrlhf as ours
from indicifeval.rewards.openrlhf import answer_of, make_reward_func, openrlhf_rewards
from tests.rewards.test_rewards_api import _responses

TEMPLATE = "<|im_start|>user\n{}<|im_end|>\n<|im_start|>assistant\n"


def _exported(tmp_path, languages="hi,ta,en,ur"):
    assert main(["export", "sample", "--format", "openrlhf", "--out", str(tmp_path / "out"),
                 "--languages", languages]) == 0
    lines = (tmp_path / "out" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(x) for x in lines]


def _expected(records, answers, **settings):
    items = [{**json.loads(r["label"]), "response": a} for r, a in zip(records, answers)]
    return [v.reward for v in score_batch(items, **settings)]


def _answers(records):
    responses = _responses("sample")
    return [responses[json.loads(r["label"])["key"]] for r in records]


def test_export_writes_input_and_label(tmp_path):
    records = _exported(tmp_path, "bn")
    assert records and set(records[0]) == {"input", "label"}
    truth = json.loads(records[0]["label"])
    assert truth["prompt"] == records[0]["input"] and truth["language"] == "bn"
    assert {"instruction_id_list", "kwargs", "resp_lang"} <= set(truth)


def test_answer_is_the_query_after_the_prompt_less_end_tokens():
    prompt = TEMPLATE.format("q")
    assert answer_of(prompt + "an answer \n<|im_end|>\n", prompt) == "an answer \n"
    assert answer_of("x" + prompt + "a</s><eos>", prompt) == "a"
    assert answer_of("no prompt here", "other") == "no prompt here"


def test_reward_func_and_request_equal_score_batch(tmp_path):
    records = _exported(tmp_path)
    answers = _answers(records)
    prompts = [TEMPLATE.format(r["input"]) for r in records]
    queries = [p + a + "<|im_end|>" for p, a in zip(prompts, answers)]
    labels = [r["label"] for r in records]
    expected = _expected(records, answers)
    assert 0 < sum(expected) < len(expected)
    got = make_reward_func()(queries, prompts, labels)
    assert [float(x) for x in got["rewards"]] == expected
    assert set(got["extra_logs"]) == {"indicifeval_prompt_strict", "indicifeval_instruction_strict",
                                      "indicifeval_implicit_failed"}
    answer = openrlhf_rewards(RewardScorer(reward="fraction", implicit=None),
                              {"query": queries, "prompts": prompts, "labels": labels})
    assert answer["rewards"] == answer["scores"] == _expected(records, answers, reward="fraction", implicit=None)
    json.dumps(answer)  # plain JSON
    with pytest.raises(InputError, match="label_key"):
        openrlhf_rewards(RewardScorer(), {"query": queries, "prompts": prompts})
    with pytest.raises(InputError, match="labels"):
        openrlhf_rewards(RewardScorer(), {"query": queries[:1], "prompts": prompts[:1], "labels": [""]})


# --- the installed OpenRLHF's executor -------------------------------------------------------

class _Tokenizer:
    """One token per character: a decode gives back exactly what was encoded."""

    def __call__(self, text, add_special_tokens=False, return_tensors=None):
        import torch

        return {"input_ids": torch.tensor([[ord(c) for c in text]])}

    def decode(self, ids, skip_special_tokens=False):
        return "".join(chr(i) for i in ids)


class _Engine:
    """Answers the rollouts' prompts in turn (two rows may share a prompt)."""

    def __init__(self, prompts, answers):
        self.turns = list(zip(prompts, answers))

    async def generate(self, token_ids, sampling_params, multi_modal_data=None):
        prompt, answer = self.turns.pop(0)
        assert "".join(chr(i) for i in token_ids) == prompt
        text = answer + "<|im_end|>"
        out = SimpleNamespace(token_ids=[ord(c) for c in text], text=text, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[out])


def _rollouts(executor, records, answers):
    prompts = [TEMPLATE.format(r["input"]) for r in records]
    engine = _Engine(prompts, answers)
    params = SimpleNamespace(max_tokens=None, logprobs=None)

    async def run():
        return [await executor.execute(p, r["label"], params, 1 << 20, _Tokenizer(), engine)
                for p, r in zip(prompts, records)]

    return asyncio.run(run())


def test_openrlhf_loads_this_module_as_its_reward_file(tmp_path):
    pytest.importorskip("torch", reason="OpenRLHF needs torch (the CPU build is enough)")
    agent = pytest.importorskip("openrlhf.utils.agent", reason="needs openrlhf: pip install --no-deps openrlhf "
                                "(and pylatexenc, sympy), as .ci/run does")
    records = _exported(tmp_path)
    answers = _answers(records)
    executor = agent.SingleTurnAgentExecutor(ours.__file__)
    assert executor.reward_func is not None and executor.reward_func is not ours.reward_func  # loaded from the file
    outputs = _rollouts(executor, records, answers)
    assert [float(o["reward"][0]) for o in outputs] == _expected(records, answers)
    assert [float(o["scores"][0]) for o in outputs] == _expected(records, answers)
    assert "indicifeval_implicit_failed" in outputs[0]["extra_logs"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_openrlhf_posts_its_remote_reward_request(tmp_path):
    pytest.importorskip("torch", reason="OpenRLHF needs torch (the CPU build is enough)")
    agent = pytest.importorskip("openrlhf.utils.agent", reason="needs openrlhf: pip install --no-deps openrlhf "
                                "(and pylatexenc, sympy), as .ci/run does")
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    scorer = RewardScorer(reward="fraction")
    seen = []

    async def route(request: Request) -> JSONResponse:
        body = await request.json()
        seen.append(body)
        return JSONResponse(openrlhf_rewards(scorer, body))

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=[Route("/openrlhf", route, methods=["POST"])]),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "the loopback server did not start"
            time.sleep(0.05)
        records = _exported(tmp_path, "bn,mr")[:12]
        answers = _answers(records)
        outputs = _rollouts(agent.SingleTurnAgentExecutor(f"http://127.0.0.1:{port}/openrlhf"), records, answers)
    finally:
        server.should_exit = True
        thread.join(10)
    assert set(seen[0]) == {"query", "prompts", "labels"}
    assert [o["reward"][0] for o in outputs] == _expected(records, answers, reward="fraction")
