"""Hugging Face transformers, in this process: batched ``generate`` with left padding.

Slower than vLLM but needs nothing beyond torch and transformers, runs on CPU, and is
deterministic with greedy decoding (the default). The prompt is the model's own chat template
(``enable_thinking`` passed to it when ``--thinking`` is given; templates that do not use the
variable ignore it). A local model folder is loaded without touching the network.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from indicifeval.core.json_types import JsonObject
from indicifeval.runs.backends.base import (
    BackendError,
    MissingDependency,
    OnResult,
    batches,
    sampling_kwargs,
)
from indicifeval.runs.backends.options import HFOptions
from indicifeval.runs.backends.transformers_models import eos_token_ids
from indicifeval.runs.requests import GenerationRequest, GenerationResult, SamplingSettings, text_hash

DTYPES = ("auto", "bfloat16", "float16", "float32")


def _version_tuple(version: str) -> tuple[int, int]:
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return (parts + [0, 0])[0], (parts + [0, 0])[1]


class HFBackend:
    name = "hf"

    def __init__(self, model: str, options: HFOptions):
        device, dtype, trust_remote_code = options.device, options.dtype, options.trust_remote_code
        try:
            import torch
            import transformers
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError:
            raise MissingDependency("hf", "torch and transformers", "hf") from None
        if dtype not in DTYPES:
            raise BackendError(f"unknown dtype {dtype!r}; choose from {', '.join(DTYPES)}")
        self.model_name = model
        self.batch_size = max(1, int(options.batch_size))
        self._torch = torch

        use_cuda = torch.cuda.is_available()
        if device == "auto":
            device = "cuda" if use_cuda else "cpu"
        self.device = device
        if dtype == "auto":
            # the checkpoint's own dtype on a GPU; float32 on CPU, where half precision is slow
            torch_dtype: Any = "auto" if device.startswith("cuda") else torch.float32
        else:
            torch_dtype = getattr(torch, dtype)

        local = os.path.isdir(model)
        common = {"trust_remote_code": trust_remote_code}
        if local:
            common["local_files_only"] = True
        try:
            tokenizer = AutoTokenizer.from_pretrained(model, **common)
        except (OSError, ValueError) as exc:
            raise BackendError(f"cannot load the tokenizer of {model!r}: {exc}") from None
        if not getattr(tokenizer, "chat_template", None):
            raise BackendError(f"{model!r} has no chat template; the hf backend needs a chat model")
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        self.tokenizer = tokenizer

        dtype_key = "dtype" if _version_tuple(transformers.__version__) >= (4, 56) else "torch_dtype"
        model_kwargs: dict[str, Any] = dict(common, **{dtype_key: torch_dtype})
        device_map = None
        if self.device == "cuda" and use_cuda and _has_accelerate():
            device_map = "auto"  # spread a large model over every visible GPU
            model_kwargs["device_map"] = device_map
        try:
            loaded: Any = AutoModelForCausalLM.from_pretrained(model, **model_kwargs)
        except (OSError, ValueError) as exc:
            raise BackendError(f"cannot load the model {model!r}: {exc}") from None
        if device_map is None:
            loaded = loaded.to(self.device)
        loaded.eval()
        self.model = loaded

        self.eos_token_ids = eos_token_ids(loaded.generation_config, tokenizer, model)

    # ------------------------------------------------------------------------------------
    def describe(self) -> JsonObject:
        return {
            "name": self.name,
            "device": str(self.model.device),
            "dtype": str(self.model.dtype).removeprefix("torch."),
            "batch_size": self.batch_size,
            "chat_template_hash": text_hash(self.tokenizer.chat_template),
        }

    def render_prompt(self, messages: list[dict], settings: SamplingSettings | None = None) -> str:
        """The prompt text the model sees: its chat template with the generation prompt."""
        extra = (settings or SamplingSettings()).chat_template_kwargs
        return str(self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False, **extra))

    def _generation_kwargs(self, settings: SamplingSettings) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "max_new_tokens": settings.max_tokens,
            "eos_token_id": self.eos_token_ids,
            "pad_token_id": self.tokenizer.pad_token_id,
        }
        kwargs.update(sampling_kwargs(settings))
        return kwargs

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        """Batches of up to ``batch_size`` requests that share their settings, in order."""
        for batch in batches(requests, self.batch_size):
            self._generate_batch(batch, on_result)

    def _generate_batch(self, batch: list[GenerationRequest], on_result: OnResult) -> None:
        torch = self._torch
        settings = batch[0].settings
        gen_kwargs = self._generation_kwargs(settings)
        prompts = [self.render_prompt(r.messages, settings) for r in batch]
        started = time.monotonic()
        # the template already holds the special tokens (bos); do not add them twice
        enc = self.tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        enc = {k: v.to(self.model.device) for k, v in enc.items()}
        if settings.temperature != 0:
            torch.manual_seed(settings.seed)  # the same batch samples the same way
        try:
            with torch.inference_mode():
                out = self.model.generate(**enc, **gen_kwargs)
        except (RuntimeError, ValueError, TypeError) as exc:
            raise BackendError(
                f"generation failed ({exc.__class__.__name__}: {exc}); finished items are kept, "
                "run again to resume (a smaller --batch-size may help)"
            ) from None
        latency = time.monotonic() - started
        prompt_len = enc["input_ids"].shape[1]
        new_tokens = out[:, prompt_len:].tolist()
        prompt_counts = enc["attention_mask"].sum(dim=1).tolist()
        for request, tokens, n_prompt in zip(batch, new_tokens, prompt_counts):
            on_result(self._result(request.uid, tokens, int(n_prompt), latency, settings.max_tokens))

    def _result(self, uid: str, tokens: list[int], n_prompt: int, latency: float, max_tokens: int) -> GenerationResult:
        stop = next((i for i, t in enumerate(tokens) if t in self.eos_token_ids), None)
        if stop is None:
            produced = tokens  # no EOS: every position is a real token (no padding after it)
            finish = "length" if len(tokens) >= max_tokens else "stop"
        else:
            produced = tokens[: stop + 1]  # counts the EOS, as vLLM and servers do
            finish = "stop"
        text = str(self.tokenizer.decode(produced, skip_special_tokens=True))
        return GenerationResult(
            uid,
            text,
            finish,
            usage={"prompt_tokens": n_prompt, "completion_tokens": len(produced)},
            latency_s=latency,
        )


def _has_accelerate() -> bool:
    import importlib.util

    return importlib.util.find_spec("accelerate") is not None
