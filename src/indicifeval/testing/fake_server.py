"""A loopback OpenAI-compatible chat server for tests, benchmarks and demos.

It answers ``POST /v1/chat/completions`` (and ``GET /v1/models``) over HTTP/1.1 keep-alive,
from a table of prompt -> answer (e.g. the bundled sample's responses) or an echo, and can
misbehave on purpose: 429 with Retry-After, 500, answers slower than the client's timeout,
dropped connections, malformed JSON. Faults are planned deterministically per prompt and
attempt, and never hit the same prompt more than ``max_faults_per_prompt`` times, so a client
that retries enough always finishes. With ``--spoil`` it answers worse than its table (a share
of the answers cut short), so that a demo's two runs differ.

    python -m indicifeval.testing.fake_server --port 8000 --answers sample --spoil 0.3
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from indicifeval.dataset import sample_answers
from indicifeval.testing.loopback import LoopbackServer

FAULTS = ("429", "500", "slow", "drop", "malformed")


@dataclass
class FaultPlan:
    rate: float = 0.0
    kinds: tuple[str, ...] = FAULTS
    max_faults_per_prompt: int = 2
    retry_after_s: float = 0.05
    slow_s: float = 2.0
    seed: int = 0

    def fault_for(self, prompt: str, attempt: int) -> str | None:
        if attempt >= self.max_faults_per_prompt or self.rate <= 0:
            return None
        rng = random.Random(f"{self.seed}|{attempt}|{hashlib.sha1(prompt.encode()).hexdigest()}")
        return rng.choice(self.kinds) if rng.random() < self.rate else None


@dataclass
class ServerConfig:
    answers: dict[str, str] = field(default_factory=dict)  # prompt -> answer
    latency_s: float = 0.0
    reasoning: str = "none"  # none | separate (reasoning_content) | inline (<think>) | unterminated
    faults: FaultPlan = field(default_factory=FaultPlan)
    api_key: str | None = None  # if set, requests must carry "Authorization: Bearer <key>"
    # request body -> answer; overrides ``answers`` (e.g. different quality per model or thinking)
    answer_fn: Callable[[dict], str] | None = None
    # request body -> (status, raw response body), or None for the normal answer: broken servers
    # (an empty choice, null content, a lone surrogate, a huge body, an error that echoes the key)
    raw_fn: Callable[[dict], tuple[int, bytes] | None] | None = None
    # the share of prompts whose answer is spoilt (``spoilt``): a model of its own, for a demo whose
    # two runs should differ; which prompts, by a hash of each, is the same every run
    spoil: float = 0.0


def spoilt(prompt: str, answer: str, rate: float) -> str:
    """``answer``, or for a ``rate`` share of prompts (chosen by the prompt's hash, the same
    every run) its first half, as a model stopped short gives it: what asked for length, an
    ending, sections or JSON then fails, what asked for a first word or no commas still passes."""
    if rate <= 0 or int(hashlib.sha1(prompt.encode("utf-8")).hexdigest()[:8], 16) >= rate * 0x1_0000_0000:
        return answer
    words = answer.split(" ")
    return " ".join(words[: max(1, len(words) // 2)])


def default_answer(prompt: str) -> str:
    return f"Answer: {prompt[:60]}"


class FakeOpenAIServer(LoopbackServer):
    """Run it in a background thread: ``with FakeOpenAIServer(config) as server: server.url``."""

    name = "fake-openai"
    backlog = 1024

    def __init__(self, config: ServerConfig | None = None, host: str = "127.0.0.1", port: int = 0):
        self.config = config or ServerConfig()
        super().__init__(host, port)
        self.attempts: Counter[str] = Counter()  # prompt -> requests seen
        self.faults_served: Counter[str] = Counter()
        self.requests = 0
        self.seen_auth: set[str] = set()
        self.seen_bodies: list[dict] = []

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    # -- HTTP ---------------------------------------------------------------------------------
    @staticmethod
    def _send(writer, status: int, payload: bytes, extra: dict | None = None) -> None:
        reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
                  429: "Too Many Requests", 500: "Internal Server Error"}.get(status, "OK")
        head = [f"HTTP/1.1 {status} {reason}", "Content-Type: application/json",
                f"Content-Length: {len(payload)}", "Connection: keep-alive"]
        head += [f"{k}: {v}" for k, v in (extra or {}).items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)

    async def _respond(self, method, path, headers, body, writer) -> bool:
        cfg = self.config
        started = time.monotonic()
        if cfg.api_key is not None and headers.get("authorization") != f"Bearer {cfg.api_key}":
            self._send(writer, 401, b'{"error": {"message": "bad api key"}}')
            await writer.drain()
            return True
        self.seen_auth.add(headers.get("authorization", ""))
        path = path.split("?", 1)[0]
        if method == "GET" and path.rstrip("/").endswith("/stats"):  # for a benchmark: the server's own cost
            self._send(writer, 200, json.dumps({"requests": self.requests, "cpu_s": time.process_time()}).encode())
            await writer.drain()
            return True
        if method == "GET" and path.rstrip("/").endswith("/models"):
            self._send(writer, 200,
                       json.dumps({"object": "list", "data": [{"id": "fake", "object": "model"}]}).encode())
            await writer.drain()
            return True
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            self._send(writer, 404, b'{"error": {"message": "not found"}}')
            await writer.drain()
            return True
        try:
            request = json.loads(body)
            messages = request["messages"]
            prompt = messages[-1]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            self._send(writer, 400, b'{"error": {"message": "bad request"}}')
            await writer.drain()
            return True
        with self._lock:
            attempt = self.attempts[prompt]
            self.attempts[prompt] += 1
            self.requests += 1
            if len(self.seen_bodies) < 10000:
                self.seen_bodies.append(request)
        fault = cfg.faults.fault_for(prompt, attempt)
        if fault:
            with self._lock:
                self.faults_served[fault] += 1
        # the answer is made while the latency runs, as a real server's is: the latency is the
        # server's whole time, so the fake's own CPU (a fake translation) is not added to it
        reply: tuple[int, bytes, dict | None] | None = None  # None: the connection is dropped
        if fault == "429":
            reply = 429, b'{"error": {"message": "rate limited"}}', {"Retry-After": f"{cfg.faults.retry_after_s}"}
        elif fault == "500":
            reply = 500, b'{"error": {"message": "boom"}}', None
        elif fault == "malformed":
            reply = 200, b'{"id": "x", "choices": [{"message": {"content": "trunc', None
        elif fault != "drop":
            raw = cfg.raw_fn(request) if cfg.raw_fn is not None and fault != "slow" else None
            reply = (raw[0], raw[1], None) if raw is not None else (200, self._completion(request, prompt), None)
        wait = cfg.latency_s - (time.monotonic() - started) if cfg.latency_s else 0.0
        if fault == "slow":
            wait += cfg.faults.slow_s
        if wait > 0:
            await asyncio.sleep(wait)
        if reply is None:
            writer.transport.abort()
            return False
        self._send(writer, *reply)
        await writer.drain()
        return True

    def _completion(self, request: dict, prompt: str) -> bytes:
        cfg = self.config
        answer = cfg.answer_fn(request) if cfg.answer_fn else cfg.answers.get(prompt, default_answer(prompt))
        answer = spoilt(prompt, answer, cfg.spoil)
        max_tokens = request.get("max_tokens") or request.get("max_completion_tokens")
        finish = "stop"
        words = answer.split(" ")
        if max_tokens is not None and len(words) > max_tokens:  # one "token" per word here
            answer, finish = " ".join(words[:max_tokens]), "length"
        message: dict = {"role": "assistant", "content": answer}
        thinking = (request.get("chat_template_kwargs") or {}).get("enable_thinking", True)
        if cfg.reasoning == "separate" and thinking:
            message["reasoning_content"] = f"Thinking about: {prompt[:40]}"
        elif cfg.reasoning == "inline" and thinking:
            message["content"] = f"<think>Thinking about: {prompt[:40]}</think>\n\n{answer}"
        elif cfg.reasoning == "unterminated" and thinking:
            message["content"], finish = f"<think>Thinking about: {prompt[:40]} and more", "length"
        asked, said = len(prompt.split()), len(message["content"].split())  # one "token" per word
        payload = {
            "id": f"chatcmpl-{self.requests}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": asked, "completion_tokens": said, "total_tokens": asked + said},
        }
        return json.dumps(payload, ensure_ascii=False).encode("utf-8")


class ServerProcess:
    """The fake server in a process of its own (``python -m indicifeval.testing.fake_server``
    with ``args``), as a real server is: a benchmark's client then shares no interpreter lock
    with it. ``with ServerProcess(["--latency", "0.05"]) as server: server.url, server.stats()``."""

    def __init__(self, args: list[str]):
        self.args = args
        self.url = ""
        self._proc: subprocess.Popen | None = None

    def __enter__(self) -> ServerProcess:
        self._proc = subprocess.Popen([sys.executable, "-m", "indicifeval.testing.fake_server", "--port", "0",
                                       *self.args], stdout=subprocess.PIPE, text=True)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()  # printed once the port is bound
        if not line.startswith("serving on "):
            self.__exit__()
            raise RuntimeError(f"the fake server did not start: {line!r}")
        self.url = line.split()[-1]
        return self

    def stats(self) -> dict:
        """Requests answered so far and the server process's CPU seconds."""
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never a proxy
        with direct.open(self.url + "/stats", timeout=10) as response:
            return json.loads(response.read())

    def __exit__(self, *exc: object) -> None:
        if self._proc is not None:
            self._proc.terminate()
            self._proc.wait(10)
            self._proc = None


def script_answers(name: str, language: str | None = None) -> Callable[[dict], str]:
    """A request body -> the answer of a mock script (``fake-translator``, ``fake-prompt-writer``,
    ``NAME:RATE``): the same deterministic answers the build pipelines' mock engine gives."""
    from indicifeval.runs.backends.mock_scripts import resolve_script
    from indicifeval.runs.requests import GenerationRequest, SamplingSettings

    script, settings = resolve_script(name, language), SamplingSettings()
    return lambda body: script(GenerationRequest("", body["messages"], settings))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A loopback OpenAI-compatible server for tests and demos.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0: a free port (printed once bound)")
    parser.add_argument("--answers", default="sample",
                        help="echo, sample, or a mock script: fake-translator[:RATE] (with --lang), fake-prompt-writer")
    parser.add_argument("--lang", help="the fake translator's target language")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--reasoning", choices=["none", "separate", "inline", "unterminated"], default="none")
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--spoil", type=float, default=0.0,
                        help="the share of answers cut to their first half (by a hash of the prompt, the same every "
                        "run), so that this server scores below the answers it was given")
    args = parser.parse_args(argv)
    if not 0 <= args.spoil <= 1:
        parser.error("--spoil is a share, from 0 to 1")
    answers, answer_fn = {}, None
    if args.answers == "sample":
        answers = sample_answers()
    elif args.answers != "echo":
        answer_fn = script_answers(args.answers, args.lang)
    config = ServerConfig(answers=answers, latency_s=args.latency, reasoning=args.reasoning,
                          faults=FaultPlan(rate=args.fault_rate), answer_fn=answer_fn, spoil=args.spoil)
    server = FakeOpenAIServer(config, args.host, args.port)
    server.start()  # bound: the port (a free one for --port 0) is known now, and printed for a waiting client
    print(f"serving on {server.url}", flush=True)
    assert server._thread is not None
    server._thread.join()


if __name__ == "__main__":
    main()


__all__ = ["FAULTS", "FakeOpenAIServer", "FaultPlan", "ServerConfig", "ServerProcess", "sample_answers",
           "script_answers", "spoilt"]
