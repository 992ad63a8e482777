"""A run's model as the tests name it: ``spec("m", "openai", {"base_url": url}, thinking=True)``."""

from typing import Any

from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.requests import SamplingSettings


def spec(model: str, backend: str, options: dict[str, Any] | None = None, *, system_prompt: str | None = None,
         **settings: Any) -> ModelSpec:
    return ModelSpec.of(backend, model, options, settings=SamplingSettings(**settings), system=system_prompt)
