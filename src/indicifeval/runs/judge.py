"""The LLM judge of ``rewards.judging``, through the backends every other model call uses: its
prompt in the answer's language (each profile's ``judge`` template), its replies kept in a
content-addressed log (``runs.resumable.fill``), so the same answer to the same prompt is never
judged twice, across batches and restarts. A batch that takes longer than ``timeout_s`` is
left to finish in the background (its replies still land in the log) and its answers keep
their verifiable reward, said so."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import regex

from indicifeval.core.log import JsonlLog
from indicifeval.languages import get_profile
from indicifeval.languages.profile import UnknownLanguageError
from indicifeval.records import Generation
from indicifeval.rewards.judging import JudgeItem, JudgeScore
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.requests import SamplingSettings
from indicifeval.runs.resumable import Filled, Job, content_hash, fill

_NUMBER = regex.compile(r"(?<!\d)(10|[1-9])(?!\d)")
JUDGE_SETTINGS = SamplingSettings(temperature=0.0, max_tokens=32)  # a number is all it needs to say
MAX_ANSWER_CHARS = 8000  # what the judge reads of a long answer


@lru_cache(maxsize=64)
def judge_template(language: str) -> str:
    """The profile's judge prompt (``{prompt}``, ``{answer}``), English's where it has none."""
    for code in (language, "en"):
        try:
            source = get_profile(code).source
        except UnknownLanguageError:
            continue
        template = json.loads(Path(source).read_text(encoding="utf-8")).get("judge") if source else None
        if isinstance(template, str) and "{answer}" in template:
            return template
    raise UnknownLanguageError(f"no judge prompt for {language!r} (nor English's)")


def judge_prompt(item: JudgeItem) -> str:
    return judge_template(item.language).replace("{prompt}", item.prompt).replace(
        "{answer}", item.answer[:MAX_ANSWER_CHARS])


def parse_score(reply: str) -> int | None:
    """The first whole number from 1 to 10 in the reply."""
    found = _NUMBER.search(reply)
    return int(found.group(1)) if found else None


class ModelJudge:
    """A ``rewards.judging.Judge`` asking ``spec`` (an OpenAI-compatible server, vLLM, ...)."""

    def __init__(self, spec: ModelSpec, cache: str | Path, timeout_s: float = 60.0):
        self.spec = spec if spec.settings is not None else replace(spec, settings=JUDGE_SETTINGS)
        self.log = JsonlLog(cache)
        self.timeout_s = timeout_s
        self._lock = threading.Lock()  # one fill at a time writes the log

    def __call__(self, items: Sequence[JudgeItem]) -> list[JudgeScore]:
        texts = [judge_prompt(item) for item in items]
        jobs = [Job(self.spec.request(content_hash(self.spec.key, text), text),
                    content_hash(self.spec.key, text)) for text in texts]
        done: dict[str, Filled] = {}
        failure: list[BaseException] = []

        def work() -> None:
            try:
                with self._lock:
                    done["filled"] = fill(self.log, jobs, self.spec.open, shared=True)
            except Exception as exc:  # reported below, never raised into training
                failure.append(exc)

        worker = threading.Thread(target=work, name="indicifeval-judge", daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        if worker.is_alive():
            return [JudgeScore(None, f"no judge score (timed out after {self.timeout_s:g} s): the verifiable reward")
                    ] * len(items)
        if failure or "filled" not in done:
            why = type(failure[0]).__name__ if failure else "no answer"
            return [JudgeScore(None, f"no judge score ({why}): the verifiable reward")] * len(items)
        return [self._score(done["filled"].answers.get(job.uid)) for job in jobs]

    @staticmethod
    def _score(answer: Generation | None) -> JudgeScore:
        if answer is None or answer.error is not None:
            return JudgeScore(None, "no judge score (the judge failed): the verifiable reward")
        score = parse_score(answer.answer if answer.answer is not None else answer.output)
        if score is None:
            return JudgeScore(None, "no judge score (no number from 1 to 10 in its reply): the verifiable reward")
        return JudgeScore(score, f"judge: {score}/10")


__all__ = ["JUDGE_SETTINGS", "ModelJudge", "judge_prompt", "judge_template", "parse_score"]
