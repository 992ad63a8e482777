"""The OpenAI-compatible backend's two transports (the lean client for http://, aiohttp for
https://) give the same answers through every fault; each answer reaches ``on_result`` once
(through the journal thread), and an error there stops new requests but hands on those in
flight; the fake server's own process."""

from __future__ import annotations

import pytest

from indicifeval.core.errors import OutputError
from indicifeval.runs.backends import BackendError, openai_http
from indicifeval.runs.backends.openai_http import OpenAIBackend
from indicifeval.runs.backends.options import OpenAIOptions
from indicifeval.runs.requests import GenerationRequest, SamplingSettings
from indicifeval.testing.fake_server import FakeOpenAIServer, FaultPlan, ServerConfig, ServerProcess

FAST = {"timeout_s": 0.3, "backoff_base_s": 0.01, "max_retries": 6}
REQUESTS = [GenerationRequest(f"r{i}", [{"role": "system", "content": "Translate."},
                                        {"role": "user", "content": f"prompt {i} ünïcode हिन्दी"}],
                              SamplingSettings(max_tokens=64)) for i in range(40)]


@pytest.mark.parametrize("lean", [True, False], ids=["http1", "aiohttp"])
def test_both_transports_answer_through_every_fault(monkeypatch, lean):
    if not lean:
        monkeypatch.setattr(openai_http, "LEAN_SCHEMES", ())
    faults = FaultPlan(rate=0.5, max_faults_per_prompt=2, slow_s=0.6, retry_after_s=0.01)
    with FakeOpenAIServer(ServerConfig(faults=faults)) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url + "?x=1", concurrency=8, **FAST))
        results = []
        backend.generate(REQUESTS, results.append)
        served = dict(server.faults_served)
        bodies = list(server.seen_bodies)
    assert set(served) == {"429", "500", "slow", "drop", "malformed"}
    assert sorted(r.uid for r in results) == sorted(r.uid for r in REQUESTS)  # each once
    by_uid = {r.uid: r for r in results}
    for request in REQUESTS:
        assert by_uid[request.uid].output == f"Answer: {request.messages[-1]['content']}"
        assert by_uid[request.uid].error is None
    assert any(b["messages"] == REQUESTS[0].messages for b in bodies)  # sent as given, non-ASCII included
    assert all(b["max_tokens"] == 64 and b["model"] == "m" for b in bodies)


def test_an_error_while_journalling_stops_the_run_after_the_answers_in_hand(monkeypatch):
    handed: list[str] = []

    def on_result(result) -> None:
        handed.append(result.uid)
        if len(handed) == 3:
            raise OutputError("disk full")

    with FakeOpenAIServer(ServerConfig(latency_s=0.01)) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url, concurrency=2, **FAST))
        with pytest.raises(OutputError, match="disk full"):
            backend.generate(REQUESTS, on_result)
        asked = server.requests
    assert len(handed) == len(set(handed)) >= 3
    assert asked == len(handed) < len(REQUESTS)  # every answer paid for was handed on; no more were asked


def test_the_server_in_its_own_process_answers_as_a_mock_script_and_counts():
    with ServerProcess(["--answers", "fake-translator", "--lang", "hi"]) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url, concurrency=4, **FAST))
        results = []
        backend.generate(REQUESTS[:5], results.append)
        stats = server.stats()
    assert stats["requests"] == 5 and stats["cpu_s"] > 0
    assert all(r.output and not any("a" <= ch <= "z" for ch in r.output) for r in results)  # all spelt in Devanagari


def test_a_redirect_is_the_callers_mistake_not_a_retry():
    with FakeOpenAIServer(ServerConfig(raw_fn=lambda body: (307, b"moved"))) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url, **FAST))
        with pytest.raises(BackendError, match="HTTP 307 \\(a redirect"):
            backend.generate(REQUESTS[:1], lambda r: None)
        assert server.requests == 1


def test_a_path_with_spaces_and_non_ascii_is_sent_percent_encoded():
    seen = []
    with FakeOpenAIServer(ServerConfig()) as server:
        original = server._respond

        async def spy(method, path, headers, body, writer):
            seen.append(path)
            return await original(method, path, headers, body, writer)

        server._respond = spy
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url + "/a b/é?x=1 2", **FAST))
        results = []
        backend.generate(REQUESTS[:1], results.append)
    assert seen == ["/v1/a%20b/%C3%A9/chat/completions?x=1%202"] and results[0].error is None
