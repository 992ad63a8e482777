"""Named scripts for the mock backend (a small registry, as inspect's ``mockllm`` takes custom
outputs): deterministic stand-ins that answer like a translator or a prompt-writing LLM, for
demos and tests of the build pipelines. ``--mock-answers fake-translator:0.1`` names one; the
pipelines map their ``fake[:RATE]`` to theirs. No pipeline imports test code for them."""

from __future__ import annotations

from collections.abc import Callable

from indicifeval.core.errors import InputError
from indicifeval.runs.requests import GenerationRequest

ScriptFn = Callable[[GenerationRequest], str]
Factory = Callable[[float, str | None], ScriptFn]  # (rate, target language) -> script
SCRIPTS: dict[str, Factory] = {}


def mock_script(name: str) -> Callable[[Factory], Factory]:
    def register(factory: Factory) -> Factory:
        SCRIPTS[name] = factory
        return factory

    return register


@mock_script("fake-translator")
def _translator(rate: float, language: str | None) -> ScriptFn:
    from indicifeval.languages import get_profile
    from indicifeval.runs.backends.fake_translator import FakeTranslator

    if language is None:
        raise InputError("the fake translator needs the target language (build trans gives it)", field="mock_answers")
    translator = FakeTranslator(get_profile(language).default_letters, mangle=rate)
    return lambda request: translator(request.messages[-1]["content"])


@mock_script("fake-prompt-writer")
def _prompt_writer(rate: float, language: str | None) -> ScriptFn:
    from indicifeval.runs.backends.fake_prompt_writer import FakePromptWriter

    writer = FakePromptWriter(rate)
    return lambda request: writer(request.messages[-1]["content"])


@mock_script("noisy-sample")
def _noisy_sample(rate: float, language: str | None) -> ScriptFn:
    """The bundled sample's passing answers, each spoilt (the prompt echoed back) with
    probability RATE, drawn from the request's seed and prompt: a sampled model, whose repeated
    samples (``run --samples``, another seed each) differ."""
    import hashlib

    from indicifeval.dataset import sample_answers

    answers = sample_answers()

    def answer(request: GenerationRequest) -> str:
        prompt = request.messages[-1]["content"]
        digest = hashlib.sha256(f"{request.settings.seed}|{prompt}".encode()).digest()
        spoilt = int.from_bytes(digest[:8], "little") / 2**64 < rate
        return f"Answer: {prompt}" if spoilt or prompt not in answers else answers[prompt]

    return answer


def is_script(spec: str) -> bool:
    return spec.partition(":")[0] in SCRIPTS


def named_fake(answers: str, script: str) -> str:
    """A build pipeline's ``fake[:RATE]`` as the named script it means there (``fake:0.1`` in
    ``build trans`` is ``fake-translator:0.1``); anything else as it is."""
    name, sep, rate = answers.partition(":")
    return f"{script}{sep}{rate}" if name == "fake" else answers


def resolve_script(spec: str, language: str | None = None) -> ScriptFn:
    """``NAME[:RATE]`` -> the named script (RATE: the share of answers it spoils, 0 to 1)."""
    name, _, rate_text = spec.partition(":")
    if name not in SCRIPTS:
        raise InputError(f"no mock script {name!r}; the scripts are {', '.join(sorted(SCRIPTS))}",
                         field="mock_answers")
    try:
        rate = float(rate_text or 0)
    except ValueError:
        raise InputError(f"the rate of {name} must be a number from 0 to 1, got {rate_text!r}",
                         field="mock_answers") from None
    if not 0 <= rate <= 1:
        raise InputError(f"the rate of {name} must be from 0 to 1, got {rate}", field="mock_answers")
    return SCRIPTS[name](rate, language)


__all__ = ["SCRIPTS", "is_script", "mock_script", "named_fake", "resolve_script"]
