"""Sequence-to-sequence MT models in this process with transformers: M2M100, NLLB-200 and
IndicTrans2 (the last with IndicTransToolkit's IndicProcessor).

One engine per target language: the target is forced as the first generated token (M2M100,
NLLB) or written into the input by the processor (IndicTrans2). Batched and greedy by
default; a translation that used all of ``max_tokens`` without an end-of-sequence token is
reported with finish "length", never passed on as if complete. A local model folder is loaded
without touching the network, and a model's own code runs only when the user opts in."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from indicifeval.core.errors import InputError
from indicifeval.core.json_types import JsonObject
from indicifeval.languages import get_profile
from indicifeval.runs.backends.base import (
    BackendError,
    MissingDependency,
    OnResult,
    batches,
    sampling_kwargs,
)
from indicifeval.runs.backends.options import BackendOptions, option
from indicifeval.runs.backends.transformers_models import eos_token_ids
from indicifeval.runs.requests import GenerationRequest, GenerationResult, SamplingSettings

FAMILIES = ("auto", "m2m100", "nllb", "indictrans2")
DTYPES = ("auto", "bfloat16", "float16", "float32")
# family -> the profile's code table holding that family's language codes
CODE_TABLES = {"m2m100": "m2m100", "nllb": "nllb", "indictrans2": "indictrans2"}


@dataclass(frozen=True)
class Seq2SeqOptions(BackendOptions):
    """How the model is loaded and decoded, and the language pair (the build sets the target)."""

    backend: ClassVar[str] = "seq2seq"
    device: str = option("auto", "auto, cpu, cuda, cuda:1 ...", affects_output=True)
    dtype: str = option("auto", "auto, bfloat16, float16, float32", affects_output=True, choices=DTYPES)
    batch_size: int = option(8, "texts per generate() call (padding can change outputs)", affects_output=True)
    trust_remote_code: bool = option(False, "run the model repository's own code (IndicTrans2 needs it)",
                                     affects_output=True)
    family: str = option("auto", "model family: auto (from the model's config), m2m100, nllb, indictrans2",
                         affects_output=True, choices=FAMILIES)
    target_language: str | None = option(None, "target language code (set by the build)", flag=None,
                                         affects_output=True)
    source_language: str = option("en", "source language code", affects_output=True)
    num_beams: int = option(1, "beam width (1: greedy)", affects_output=True)

    def __post_init__(self) -> None:
        if not self.target_language:
            raise InputError("the seq2seq engine needs a target language")
        if self.family not in FAMILIES:
            raise InputError(f"the seq2seq engine has no family {self.family!r}; choose from {', '.join(FAMILIES)}")
        if self.dtype not in DTYPES:
            raise InputError(f"unknown dtype {self.dtype!r}; choose from {', '.join(DTYPES)}")
        if int(self.batch_size) < 1 or int(self.num_beams) < 1:
            raise InputError("the seq2seq engine's batch_size and num_beams must be at least 1")


def language_code(family: str, language: str) -> str:
    """The code ``family`` uses for a profiled language (``hi`` for M2M100, ``hin_Deva`` else)."""
    profile = get_profile(language)
    code = profile.codes.get(CODE_TABLES[family])
    if not code and family != "m2m100":  # NLLB and IndicTrans2 both use FLORES-200 codes
        code = profile.codes.get("flores")
    if not code:
        raise InputError(f"the seq2seq engine's {family} models do not cover {profile.name} ({language}): its "
                         f"profile has no {CODE_TABLES[family]} code; choose another engine or model")
    return code


def detect_family(model_type: str, tokenizer_class: str) -> str:
    """The family from the config's model_type (NLLB is an M2M100 with an NllbTokenizer)."""
    kind = model_type.lower().replace("-", "_")
    if kind == "indictrans":
        return "indictrans2"
    if kind == "m2m_100":
        return "nllb" if "nllb" in tokenizer_class.lower() else "m2m100"
    raise BackendError(f"cannot tell the translation family of a model of type {model_type!r}; "
                       f"choose one with --family ({', '.join(FAMILIES[1:])})")


def forced_token_id(family: str, tokenizer: Any, code: str) -> int | None:
    """The id of the target-language token generation starts with (none for IndicTrans2)."""
    if family == "indictrans2":
        return None
    if family == "m2m100":
        try:
            return int(tokenizer.get_lang_id(code))
        except (KeyError, AttributeError):
            raise InputError(f"the model's tokenizer has no language token for {code!r}") from None
    token_id = tokenizer.convert_tokens_to_ids(code)
    if token_id is None or token_id == tokenizer.unk_token_id:
        raise InputError(f"the model's tokenizer has no language token for {code!r}")
    return int(token_id)


def _indic_processor() -> Any:
    """IndicTransToolkit's IndicProcessor (its import path moved between releases)."""
    import importlib

    for module in ("IndicTransToolkit", "IndicTransToolkit.processor", "IndicTransToolkit.IndicTransToolkit"):
        with contextlib.suppress(ImportError, AttributeError):
            return importlib.import_module(module).IndicProcessor(inference=True)
    raise MissingDependency("seq2seq", "IndicTransToolkit (for IndicTrans2)", "indictrans")


class Seq2SeqTranslator:
    name = "seq2seq"

    def __init__(self, model: str, options: Seq2SeqOptions):
        try:
            import torch
            import transformers
            from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, PretrainedConfig
        except ImportError:
            raise MissingDependency("seq2seq", "torch and transformers", "hf") from None
        self.model_name = model
        self.options = options
        self.batch_size = int(options.batch_size)
        self._torch = torch
        self._lock = threading.Lock()  # IndicProcessor keeps state between pre- and postprocessing
        common: dict[str, Any] = {"trust_remote_code": bool(options.trust_remote_code)}
        if os.path.isdir(model):
            common["local_files_only"] = True
        try:
            config, _ = PretrainedConfig.get_config_dict(model, local_files_only="local_files_only" in common)
        except (OSError, ValueError) as exc:
            raise BackendError(f"cannot read the config of {model!r}: {exc}") from None
        model_type = str(config.get("model_type") or "")
        family = options.family
        if family == "indictrans2" or (family == "auto" and model_type.lower() == "indictrans"):
            family = "indictrans2"
            if not options.trust_remote_code:
                raise BackendError(f"{model!r} is an IndicTrans2 model, which runs its repository's own code: "
                                   "pass --trust-remote-code (trust_remote_code=True) if you trust it")
        self.processor = _indic_processor() if family == "indictrans2" else None
        try:
            tokenizer = AutoTokenizer.from_pretrained(model, **common)
        except (OSError, ValueError) as exc:
            raise BackendError(f"cannot load the tokenizer of {model!r}: {exc}") from None
        self.family = family if family != "auto" else detect_family(model_type, type(tokenizer).__name__)
        self.source_code = language_code(self.family, options.source_language)
        self.target_code = language_code(self.family, options.target_language or "")
        self.forced_bos_token_id = forced_token_id(self.family, tokenizer, self.target_code)
        if self.family != "indictrans2":
            tokenizer.src_lang = self.source_code
        self.tokenizer = tokenizer
        # language tokens are not always "special" to the tokenizer (M2M100 in transformers 5)
        self._drop_ids = set(getattr(tokenizer, "lang_token_to_id", {}).values())
        if self.forced_bos_token_id is not None:
            self._drop_ids.add(self.forced_bos_token_id)

        device = options.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        if options.dtype == "auto":  # the checkpoint's dtype on a GPU; float32 on CPU, where half is slow
            torch_dtype: Any = "auto" if device.startswith("cuda") else torch.float32
        else:
            torch_dtype = getattr(torch, options.dtype)
        dtype_key = "dtype" if _version_tuple(transformers.__version__) >= (4, 56) else "torch_dtype"
        try:
            loaded: Any = AutoModelForSeq2SeqLM.from_pretrained(model, **common, **{dtype_key: torch_dtype})
        except (OSError, ValueError) as exc:
            raise BackendError(f"cannot load the model {model!r}: {exc}") from None
        self.model = loaded.to(device).eval()
        self.device = device
        gen = loaded.generation_config
        self.eos_token_ids = eos_token_ids(gen, tokenizer, model)
        self.decoder_start_token_id = getattr(gen, "decoder_start_token_id", None)
        if self.decoder_start_token_id is None:
            self.decoder_start_token_id = getattr(loaded.config, "decoder_start_token_id", None)

    def describe(self) -> JsonObject:
        return {"name": self.name, "family": self.family, "device": str(self.model.device),
                "dtype": str(self.model.dtype).removeprefix("torch."), "batch_size": self.batch_size,
                "num_beams": int(self.options.num_beams), "source_code": self.source_code,
                "target_code": self.target_code, "forced_bos_token_id": self.forced_bos_token_id,
                "trust_remote_code": bool(self.options.trust_remote_code), "chat_template_hash": None}

    def _generation_kwargs(self, settings: SamplingSettings) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "max_new_tokens": settings.max_tokens,
            "num_beams": int(self.options.num_beams),
            "eos_token_id": self.eos_token_ids,
            "pad_token_id": self.tokenizer.pad_token_id,
            "forced_eos_token_id": None,  # a forced EOS at the limit would hide a cut translation
        }
        if self.forced_bos_token_id is not None:
            kwargs["forced_bos_token_id"] = self.forced_bos_token_id
        kwargs.update(sampling_kwargs(settings))  # greedy (or beam search) when the temperature is 0
        return kwargs

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        """Batches of up to ``batch_size`` texts that share their settings, in order."""
        for batch in batches(requests, self.batch_size):
            with self._lock:
                self._generate_batch(batch, on_result)

    def _generate_batch(self, batch: list[GenerationRequest], on_result: OnResult) -> None:
        texts = [str(r.messages[-1]["content"]) for r in batch]
        todo = [i for i, t in enumerate(texts) if t.strip()]
        results: dict[int, GenerationResult] = {
            i: GenerationResult(r.uid, texts[i], "stop", usage={"prompt_tokens": 0, "completion_tokens": 0},
                                latency_s=0.0)
            for i, r in enumerate(batch) if i not in todo}  # nothing to translate: kept as it is
        if todo:
            for i, result in zip(todo, self._translate([texts[i] for i in todo], batch[0])):
                result.uid = batch[i].uid
                results[i] = result
        for i in range(len(batch)):
            on_result(results[i])

    def _translate(self, texts: list[str], first: GenerationRequest) -> list[GenerationResult]:
        torch = self._torch
        settings = first.settings
        inputs = texts
        if self.processor is not None:
            inputs = self.processor.preprocess_batch(texts, src_lang=self.source_code, tgt_lang=self.target_code)
        started = time.monotonic()
        enc = self.tokenizer(inputs, return_tensors="pt", padding=True)
        enc = {k: v.to(self.model.device) for k, v in enc.items()}
        if settings.temperature != 0:
            torch.manual_seed(settings.seed)  # the same batch samples the same way
        try:
            with torch.inference_mode():
                out = self.model.generate(**enc, **self._generation_kwargs(settings))
        except (RuntimeError, ValueError, TypeError, IndexError) as exc:
            raise BackendError(f"translation failed ({exc.__class__.__name__}: {exc}); finished items are kept, "
                               "run again to resume (a smaller --batch-size may help)") from None
        latency = time.monotonic() - started
        rows = out.tolist()
        prompt_counts = enc["attention_mask"].sum(dim=1).tolist()
        kept, finishes = [], []
        for row in rows:
            if row and row[0] == self.decoder_start_token_id:
                row = row[1:]  # the decoder's start token is not generated
            stop = next((i for i, t in enumerate(row) if t in self.eos_token_ids), None)
            if stop is None:
                kept.append(row)
                finishes.append("length" if len(row) >= settings.max_tokens else "stop")
            else:
                kept.append(row[: stop + 1])  # counts the EOS, as the hf backend does
                finishes.append("stop")
        decoding = getattr(self.tokenizer, "as_target_tokenizer", None)
        with decoding() if callable(decoding) else contextlib.nullcontext():
            decoded = [str(self.tokenizer.decode([t for t in row if t not in self._drop_ids], skip_special_tokens=True))
                       for row in kept]
        if self.processor is not None:
            decoded = list(self.processor.postprocess_batch(decoded, lang=self.target_code))
        return [GenerationResult("", text.strip(), finish,
                                 usage={"prompt_tokens": int(n), "completion_tokens": len(row)}, latency_s=latency)
                for text, finish, row, n in zip(decoded, finishes, kept, prompt_counts)]


def _version_tuple(version: str) -> tuple[int, int]:
    parts = [int("".join(ch for ch in piece if ch.isdigit()) or 0) for piece in version.split(".")[:2]]
    return (parts + [0, 0])[0], (parts + [0, 0])[1]


__all__ = ["FAMILIES", "Seq2SeqOptions", "Seq2SeqTranslator", "detect_family", "forced_token_id", "language_code"]
