"""The OpenAI-compatible backend against a loopback server with injected faults."""

import json

import pytest

from indicifeval.cli import main
from indicifeval.runs.backends import BackendError
from indicifeval.runs.backends.openai_http import OpenAIBackend, build_payload, parse_retry_after
from indicifeval.runs.backends.options import OpenAIOptions
from indicifeval.runs.requests import GenerationRequest, SamplingSettings
from indicifeval.runs.runner import DataOptions, run
from indicifeval.testing.fake_server import FakeOpenAIServer, FaultPlan, ServerConfig, sample_answers
from tests.runs.specs import spec

FAST = {"timeout_s": 0.5, "backoff_base_s": 0.01, "max_retries": 6}


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_run_completes_through_every_fault(tmp_path):
    answers = sample_answers()
    faults = FaultPlan(rate=0.5, max_faults_per_prompt=3, slow_s=1.0, retry_after_s=0.02)
    with FakeOpenAIServer(ServerConfig(answers=answers, faults=faults)) as server:
        outcome = run(spec("m", "openai", {"base_url": server.url, "concurrency": 8, **FAST}), tmp_path,
                      DataOptions(source="sample"))
        served = dict(server.faults_served)
    assert set(served) == {"429", "500", "slow", "drop", "malformed"}  # every fault was exercised
    gens = _lines(tmp_path / "generations.jsonl")
    assert len(gens) == len({g["uid"] for g in gens}) == outcome.result.summary["overall"]["prompts"] == 416
    prompts = {json.loads(line)["key"]: json.loads(line)["prompt"]
               for line in (tmp_path / "rows.jsonl").read_text(encoding="utf-8").splitlines()}
    for g in gens:  # every item is the server's answer to its own prompt
        assert g["answer"] == answers[prompts[g["key"]]].strip()
        assert g["finish_reason"] == "stop" and g["attempts"] >= 1
    assert max(g["attempts"] for g in gens) > 1


def test_retry_after_is_honoured():
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after("0.5") == 0.5
    assert parse_retry_after(None) is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past
    faults = FaultPlan(rate=1.0, kinds=("429",), max_faults_per_prompt=1, retry_after_s=0.3)
    with FakeOpenAIServer(ServerConfig(faults=faults)) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url, backoff_base_s=10.0, backoff_max_s=10.0,
                                                   timeout_s=5))
        results = []
        import time

        start = time.monotonic()
        backend.generate([GenerationRequest("a", [{"role": "user", "content": "hi"}], SamplingSettings())],
                         results.append)
        elapsed = time.monotonic() - start
    assert results[0].attempts == 2
    assert 0.25 < elapsed < 5  # waited Retry-After (0.3 s), not the 10 s backoff


def test_gives_up_and_keeps_finished_items(tmp_path):
    faults = FaultPlan(rate=1.0, kinds=("500",), max_faults_per_prompt=100)
    with FakeOpenAIServer(ServerConfig(faults=faults)) as server:
        with pytest.raises(BackendError, match="gave up"):
            run(spec("m", "openai", {"base_url": server.url, "concurrency": 2, "timeout_s": 1, "backoff_base_s": 0.001,
                                 "max_retries": 2}), tmp_path, DataOptions(source="sample", languages="hi"))
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["status"] == "generating"


def test_client_errors_are_not_retried():
    with FakeOpenAIServer(ServerConfig(api_key="secret")) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url, api_key_env="NO_SUCH_ENV_VAR"))
        with pytest.raises(BackendError, match="HTTP 401"):
            backend.generate([GenerationRequest("a", [{"role": "user", "content": "hi"}])], lambda r: None)
        assert server.requests == 0


def test_reasoning_content_and_length(tmp_path):
    with FakeOpenAIServer(ServerConfig(answers=sample_answers(), reasoning="separate")) as server:
        run(spec("m", "openai", {"base_url": server.url, **FAST}, max_tokens=5, thinking=True), tmp_path,
            DataOptions(source="sample", languages="hi"))
        body = server.seen_bodies[0]
    assert body["chat_template_kwargs"] == {"enable_thinking": True} and body["max_tokens"] == 5
    assert body["temperature"] == 0.0 and body["seed"] == 0
    gens = _lines(tmp_path / "generations.jsonl")
    assert all(g["reasoning"].startswith("Thinking about") for g in gens)
    assert all("Thinking" not in g["answer"] for g in gens)
    assert all(g["finish_reason"] == "length" and g["truncated"] for g in gens)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["run"]["truncated"] == {"hi": len(gens)}


def test_unterminated_reasoning_is_an_empty_flagged_answer(tmp_path):
    with FakeOpenAIServer(ServerConfig(reasoning="unterminated")) as server:
        outcome = run(spec("m", "openai", {"base_url": server.url, **FAST}, thinking=True), tmp_path,
                      DataOptions(source="sample", languages="ta", limit=3))
    gens = _lines(tmp_path / "generations.jsonl")
    assert all(g["answer"] == "" and g["reasoning_unterminated"] for g in gens)
    assert outcome.result.summary["run"]["reasoning_unterminated"] == len(gens)
    assert outcome.result.summary["overall"]["prompt_level_loose_acc"] == 0


def test_inline_think_is_not_scored(tmp_path):
    with FakeOpenAIServer(ServerConfig(answers=sample_answers(), reasoning="inline")) as server:
        run(spec("m", "openai", {"base_url": server.url, **FAST}), tmp_path,
            DataOptions(source="sample", languages="en"))
    gens = _lines(tmp_path / "generations.jsonl")
    assert all(g["output"].startswith("<think>") and not g["answer"].startswith("<think>") for g in gens)


def test_cli_run_and_api_key_never_written(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MY_KEY", "sk-very-secret")
    with FakeOpenAIServer(ServerConfig(answers=sample_answers(), api_key="sk-very-secret")) as server:
        argv = ["run", "--backend", "openai", "--base-url", server.url, "--model", "M", "--data", "sample",
                "--languages", "hi,en", "--api-key-env", "MY_KEY", "--out", str(tmp_path), "--quiet"]
        assert main(argv) == 0
        assert server.seen_auth == {"Bearer sk-very-secret"}
    for path in tmp_path.iterdir():
        assert "sk-very-secret" not in path.read_text(encoding="utf-8")
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["model"]["model"] == "M" and manifest["model"]["settings"]["max_tokens"] == 1280
    assert manifest["data"]["source"] == "sample" and manifest["status"] == "complete"
    assert manifest["indicifeval_version"] and manifest["started_at"] and manifest["finished_at"]
    assert (tmp_path / "scores.jsonl").exists() and (tmp_path / "summary.json").exists()


def test_payload():
    cfg = spec("m", "openai", {"base_url": "http://x"}, thinking=False, system_prompt="Be brief.")
    req = cfg.request("u", "नमस्ते")
    payload = build_payload("m", req)
    assert payload["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "नमस्ते"}]
    assert payload["chat_template_kwargs"] == {"enable_thinking": False}
    plain = spec("m", "openai", {"base_url": "http://x"}).request("u", "नमस्ते")
    assert "chat_template_kwargs" not in build_payload("m", plain)


def test_each_request_is_sent_with_its_own_settings():
    """One backend, requests with different settings (translate, then judge): each body says
    its own."""
    with FakeOpenAIServer(ServerConfig()) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url))
        requests = [GenerationRequest("a", [{"role": "user", "content": "translate"}], SamplingSettings(max_tokens=9)),
                    GenerationRequest("b", [{"role": "user", "content": "judge"}],
                                      SamplingSettings(max_tokens=3, temperature=0.5, thinking=True,
                                                       gen_kwargs={"top_k": 5}))]
        backend.generate(requests, lambda r: None)
        bodies = {b["messages"][-1]["content"]: b for b in server.seen_bodies}
    assert bodies["translate"]["max_tokens"] == 9 and "chat_template_kwargs" not in bodies["translate"]
    assert bodies["judge"]["max_tokens"] == 3 and bodies["judge"]["temperature"] == 0.5
    assert bodies["judge"]["top_k"] == 5 and bodies["judge"]["chat_template_kwargs"] == {"enable_thinking": True}


def test_the_server_spoils_the_same_share_of_answers_every_run():
    """--spoil: a demo's served model that differs from the answers it was given."""
    from indicifeval.testing.fake_server import spoilt

    answers = sample_answers()
    cut = [p for p, a in answers.items() if spoilt(p, a, 0.3) != a]
    assert 0.2 < len(cut) / len(answers) < 0.4
    assert all(spoilt(p, a, 0.0) == a for p, a in answers.items())
    prompt = cut[0]
    assert answers[prompt].startswith(spoilt(prompt, answers[prompt], 0.3))
    with FakeOpenAIServer(ServerConfig(answers=answers, spoil=0.3)) as server:
        results = []
        OpenAIBackend("m", OpenAIOptions(base_url=server.url)).generate(
            [GenerationRequest("a", [{"role": "user", "content": prompt}], SamplingSettings())], results.append)
    assert results[0].output == spoilt(prompt, answers[prompt], 0.3) != answers[prompt]
