"""A server that cannot be reached at all (nothing listens on the port, or no resolver knows the
host) is one line naming the URL within seconds, for `run` and for the build pipelines' openai
and sarvam engines; a 5xx or a 429 is still retried with backoff, and so is a server that
answered before and then refuses (a restart)."""

from __future__ import annotations

import socket
import time

import pytest

from indicifeval.cli import main
from indicifeval.runs.backends import BackendError
from indicifeval.runs.backends.openai_http import OpenAIBackend
from indicifeval.runs.backends.options import OpenAIOptions
from indicifeval.runs.backends.pool import Unreachable
from indicifeval.runs.requests import GenerationRequest, SamplingSettings
from indicifeval.testing.fake_server import FakeOpenAIServer, FaultPlan, ServerConfig

KEY = "sk-test-0123456789abcdef"
SLOW = {"backoff_base_s": 5.0, "backoff_max_s": 60.0, "max_retries": 8}  # as a user has it: retries would take minutes


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed: refused until someone binds it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def requests(n: int = 8) -> list[GenerationRequest]:
    return [GenerationRequest(f"r{i}", [{"role": "user", "content": f"hello {i}"}], SamplingSettings())
            for i in range(n)]


@pytest.mark.parametrize("url", [f"http://127.0.0.1:{closed_port()}/v1",  # the lean HTTP/1.1 client
                                 f"https://127.0.0.1:{closed_port()}/v1",  # aiohttp
                                 "http://no-such-host.invalid/v1", "https://no-such-host.invalid/v1"])
def test_an_unreachable_server_fails_at_once_naming_the_url(url):
    backend = OpenAIBackend("m", OpenAIOptions(base_url=url, concurrency=4, **SLOW))
    started = time.monotonic()
    with pytest.raises(Unreachable) as err:
        backend.generate(requests(), lambda result: None)
    assert time.monotonic() - started < 10
    message = str(err.value)
    assert message.startswith(f"cannot reach {url}: ") and "\n" not in message, message
    assert ("connection refused" in message) if "127.0.0.1" in url else ("no-such-host.invalid is not known" in message)


def test_5xx_and_429_are_still_retried_with_backoff():
    faults = FaultPlan(rate=1.0, kinds=("500", "429"), max_faults_per_prompt=2, retry_after_s=0.01)
    results = []
    with FakeOpenAIServer(ServerConfig(faults=faults)) as server:
        backend = OpenAIBackend("m", OpenAIOptions(base_url=server.url, backoff_base_s=0.01, max_retries=4))
        backend.generate(requests(6), results.append)
        served = dict(server.faults_served)
    assert sum(served.values()) == 12 and set(served) <= {"500", "429"}
    assert len(results) == 6 and all(r.error is None and r.attempts == 3 for r in results)


def test_a_server_that_answered_before_is_retried_when_it_refuses():
    """A restart between two requests is not a wrong URL: the usual retries, then the usual error."""
    port = closed_port()
    backend = OpenAIBackend("m", OpenAIOptions(base_url=f"http://127.0.0.1:{port}/v1", backoff_base_s=0.01,
                                               max_retries=2))
    backend._reached = True  # as after a first answer
    with pytest.raises(BackendError) as err:
        backend.generate(requests(1), lambda result: None)
    assert not isinstance(err.value, Unreachable) and "gave up after 3 attempts" in str(err.value)


def test_run_with_a_wrong_base_url_is_one_line_and_leaves_no_folder(tmp_path, capsys):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    started = time.monotonic()
    assert main(["run", "--backend", "openai", "--base-url", url, "--model", "m", "--data", "sample",
                 "--languages", "hi", "--out", str(tmp_path / "run")]) == 1
    assert time.monotonic() - started < 10
    err = capsys.readouterr().err
    assert err == f"error: cannot reach {url}: connection refused; is the server running, and is --base-url right?\n"
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("engine", [["--backend", "openai", "--model", "m", "--base-url", "http://127.0.0.1:{port}/v1"],
                                    ["--backend", "sarvam", "--model", "sarvam-translate:v1", "--base-url",
                                     "http://127.0.0.1:{port}"]])
def test_a_build_with_a_wrong_base_url_is_one_line(tmp_path, capsys, monkeypatch, engine):
    monkeypatch.setenv("SARVAM_API_KEY", KEY)
    argv = [a.format(port=closed_port()) for a in engine]
    started = time.monotonic()
    assert main(["build", "trans", str(tmp_path / "b"), "--lang", "hi", "--source", "sample", *argv, "--quiet"]) == 1
    assert time.monotonic() - started < 10
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: cannot reach {argv[-1]}: connection refused") and "\n" not in err, err
    assert KEY not in err


def test_the_sarvam_engine_fails_at_once_on_an_unknown_host(monkeypatch):
    monkeypatch.setenv("SARVAM_API_KEY", KEY)
    from indicifeval.runs.backends.sarvam import SarvamOptions, SarvamTranslator

    engine = SarvamTranslator("sarvam-translate:v1", SarvamOptions(base_url="https://no-such-host.invalid",
                                                                   target_language="hi", **SLOW))
    started = time.monotonic()
    with pytest.raises(Unreachable, match=r"^cannot reach https://no-such-host.invalid: the host no-such-host"):
        engine.generate(requests(3), lambda result: None)
    assert time.monotonic() - started < 10
