"""An in-process backend for tests and demos (as inspect's ``mockllm``): answers from a script
(prompt -> answer), the bundled sample's passing answers, a JSON-lines file of
``{prompt, response}``, or the prompt echoed back. No model, no network, deterministic."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from indicifeval.core.errors import InputError
from indicifeval.core.json_types import JsonObject
from indicifeval.runs.backends.base import OnResult
from indicifeval.runs.backends.options import MockOptions
from indicifeval.runs.requests import GenerationRequest, GenerationResult

Script = Mapping[str, str] | Callable[[GenerationRequest], str]


def echo(request: GenerationRequest) -> str:
    return f"Answer: {request.messages[-1]['content']}"


def load_answers(spec: str) -> dict[str, str]:
    """prompt -> answer for ``sample`` or a JSON-lines file of ``{prompt, response}``."""
    from indicifeval.dataset import read_records, sample_answers

    if spec == "sample":
        return sample_answers()
    answers: dict[str, str] = {}
    for source, record in read_records(spec):
        prompt, response = record.get("prompt"), record.get("response")
        if not isinstance(prompt, str) or not isinstance(response, str):
            raise source.error("a mock answer needs a 'prompt' and a 'response' string", "prompt")
        answers[prompt] = response
    return answers


class MockBackend:
    name = "mock"

    def __init__(self, model: str, options: MockOptions | None = None, script: Script | None = None,
                 latency_s: float = 0.0):
        self.model = model
        options = options or MockOptions()
        if script is None and options.answers != "echo":
            from indicifeval.runs.backends.mock_scripts import is_script, resolve_script

            script = resolve_script(options.answers, options.language) if is_script(options.answers) else \
                load_answers(options.answers)
        self.script = script
        self.latency_s = latency_s
        self.requests: list[GenerationRequest] = []  # what was asked, for tests

    def describe(self) -> JsonObject:
        return {"name": self.name, "chat_template_hash": None}

    def _answer(self, request: GenerationRequest) -> str:
        if self.script is None:
            return echo(request)
        if callable(self.script):
            return self.script(request)
        prompt = request.messages[-1]["content"]
        return self.script.get(prompt, echo(request))

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        for request in requests:
            self.requests.append(request)
            if self.latency_s:
                time.sleep(self.latency_s)
            text = self._answer(request)
            if not isinstance(text, str):
                raise InputError(f"the mock script answered {type(text).__name__} for {request.uid}, not text")
            words = text.split(" ")
            finish = "stop"
            if len(words) > request.settings.max_tokens:  # one "token" per word, as the loopback server
                text, finish = " ".join(words[: request.settings.max_tokens]), "length"
            on_result(GenerationResult(request.uid, text, finish, usage={"completion_tokens": len(text.split())}))
