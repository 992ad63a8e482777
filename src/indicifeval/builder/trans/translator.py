"""Who translates: any backend of the one registry, bound to the target language.

Chat backends (``openai``, ``hf``, ``vllm``, ``mock``) get a system turn naming the target
language (a template in ``prompts.json``, or the text given) and the text as the user turn.
Translation APIs and sequence-to-sequence models (``sarvam``, ``seq2seq``) are made for one
target language and read the text from the user turn. ``hf`` given an encoder-decoder model is
``seq2seq``. The mock backend's ``fake[:RATE]`` is the fake translator."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path

from indicifeval.runs.backends.mock_scripts import named_fake
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.requests import SamplingSettings

DEFAULT_PROMPT = "sarvam-translate"
TRANSLATION_SETTINGS = SamplingSettings(max_tokens=2048)  # greedy; the longest unit a translation may be


@lru_cache(maxsize=1)
def system_prompts() -> dict[str, str]:
    data = json.loads(resources.files("indicifeval.builder.trans").joinpath("prompts.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def is_seq2seq_model(model: str) -> bool:
    """Whether ``model`` (a folder, or a hub id already in the local cache) is an
    encoder-decoder translation model (M2M100, NLLB, IndicTrans2, Marian, T5): then ``hf``
    translates with it as ``seq2seq`` does, with the target-language token, not a chat prompt."""
    config = Path(model) / "config.json"
    if not config.is_file():
        try:
            from huggingface_hub import try_to_load_from_cache
        except ImportError:
            return False
        cached = try_to_load_from_cache(model, "config.json")
        if not isinstance(cached, str):
            return False
        config = Path(cached)
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(data.get("is_encoder_decoder")) if isinstance(data, dict) else False


def translator(model: ModelSpec, language: str) -> ModelSpec:
    """``model`` as the translator into ``language``: greedy with room for a long unit unless its
    settings say otherwise; ``hf`` with an encoder-decoder model is ``seq2seq``; a chat backend
    gets the default system turn unless one is given; the mock's ``fake[:RATE]`` is the fake
    translator; then bound to the language."""
    if model.settings is None:
        model = replace(model, settings=TRANSLATION_SETTINGS)
    if model.backend == "hf" and is_seq2seq_model(model.model):
        defaults = type(model.options)().values()
        given = {k: v for k, v in model.options.values().items() if v != defaults.get(k)}
        model = ModelSpec.of("seq2seq", model.model, given, settings=model.settings, language=language)
    if model.chat and model.system is None:
        model = replace(model, system=DEFAULT_PROMPT)
    if not model.chat:
        model = replace(model, system=None)
    if model.backend == "mock":
        values = model.options.values()
        values["answers"] = named_fake(str(values.get("answers") or ""), "fake-translator")
        model = replace(model, options=type(model.options).from_mapping(values))
    return model.bound(language, system_prompts())


__all__ = ["DEFAULT_PROMPT", "TRANSLATION_SETTINGS", "is_seq2seq_model", "system_prompts", "translator"]
