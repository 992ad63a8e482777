"""Each backend's options, declared once: a frozen dataclass whose fields say their flag, help
and whether they can change what is generated. The CLI flags, the manifest and a run's
identity are all derived from these declarations.

Importing this module imports no backend library, so ``--help`` stays fast."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

from indicifeval.core.errors import InputError
from indicifeval.core.json_types import JsonObject, JsonValue
from indicifeval.core.secrets import check_env_name, redact_url


def option(default: JsonValue, help: str, *, flag: str | None = "", affects_output: bool = False,
           choices: tuple[str, ...] | None = None) -> Any:
    """A backend option. ``flag`` "" derives ``--name-with-dashes``; None keeps it off the
    command line (Python callers only)."""
    return field(default=default, metadata={"help": help, "flag": flag, "affects_output": affects_output,
                                            "choices": choices})


@dataclass(frozen=True)
class OptionSpec:
    name: str
    flag: str | None
    help: str
    default: JsonValue
    type: type
    affects_output: bool
    choices: tuple[str, ...] | None


_TYPES = {"int": int, "float": float, "str": str, "bool": bool, "int | None": int, "str | None": str,
          "float | None": float}


@dataclass(frozen=True)
class BackendOptions:
    backend: ClassVar[str] = ""

    @classmethod
    def specs(cls) -> list[OptionSpec]:
        out = []
        for f in fields(cls):
            meta = f.metadata
            flag = meta.get("flag", "")
            if flag == "":
                flag = "--" + f.name.replace("_", "-")
            default = None if f.default is MISSING else f.default
            out.append(OptionSpec(f.name, flag, meta.get("help", ""), default, _TYPES.get(str(f.type), str),
                                  bool(meta.get("affects_output")), meta.get("choices")))
        return out

    @classmethod
    def from_mapping(cls, values: Mapping[str, JsonValue] | None) -> BackendOptions:
        values = dict(values or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise InputError(f"the {cls.backend} backend takes no option {', '.join(unknown)} "
                             f"(its options: {', '.join(sorted(known))})")
        return cls(**values)

    def to_json(self) -> JsonObject:
        """The options as recorded in a manifest: credentials in URLs masked."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = redact_url(value) if f.name.endswith("url") and isinstance(value, str) else value
        return out

    def values(self) -> JsonObject:
        """Every option as given (nothing masked): what ``from_mapping`` takes back."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def output_settings(self) -> JsonObject:
        """The options that can change what is generated: part of a run's identity."""
        return {s.name: getattr(self, s.name) for s in self.specs() if s.affects_output}


@dataclass(frozen=True)
class OpenAIOptions(BackendOptions):
    """Any OpenAI-compatible server. Its URL only says where the model named by --model is
    served, so a restarted server on another port resumes the same run."""

    backend: ClassVar[str] = "openai"
    base_url: str | None = option(None, "server URL, e.g. http://127.0.0.1:8000/v1")
    api_key_env: str = option("OPENAI_API_KEY", "environment variable holding the key (its name, never the key)")
    concurrency: int = option(16, "requests in flight")
    timeout_s: float = option(600.0, "seconds per request", flag="--timeout")
    max_retries: int = option(8, "retries per request")
    backoff_base_s: float = option(0.5, "first backoff between retries", flag=None)
    backoff_max_s: float = option(60.0, "longest backoff between retries", flag=None)

    def __post_init__(self) -> None:
        if not self.base_url:
            raise InputError("the openai backend needs --base-url")
        check_env_name(self.api_key_env)


@dataclass(frozen=True)
class HFOptions(BackendOptions):
    backend: ClassVar[str] = "hf"
    device: str = option("auto", "auto, cpu, cuda, cuda:1 ...", affects_output=True)
    dtype: str = option("auto", "auto, bfloat16, float16, float32", affects_output=True)
    batch_size: int = option(8, "prompts per generate() call (padding can change outputs)", affects_output=True)
    trust_remote_code: bool = option(False, "run the model repository's own code", affects_output=True)


@dataclass(frozen=True)
class VLLMOptions(BackendOptions):
    backend: ClassVar[str] = "vllm"
    tensor_parallel_size: int = option(1, "GPUs per model replica", flag="--tensor-parallel", affects_output=True)
    pipeline_parallel_size: int = option(1, "pipeline stages (multi-node with ray)", flag="--pipeline-parallel",
                                         affects_output=True)
    data_parallel_size: int = option(1, "model replicas, each on its own GPUs", flag="--data-parallel")
    distributed_executor_backend: str | None = option(None, "'ray' for multi-node (default: vLLM's)",
                                                      flag="--distributed-backend", choices=("mp", "ray"))
    dtype: str = option("auto", "auto, bfloat16, float16, float32", affects_output=True)
    max_model_len: int | None = option(None, "context length (default: the model's)", affects_output=True)
    gpu_memory_utilization: float = option(0.9, "share of GPU memory to use")
    trust_remote_code: bool = option(False, "run the model repository's own code", affects_output=True)

    def __post_init__(self) -> None:
        for label, value in (("tensor parallel", self.tensor_parallel_size),
                             ("pipeline parallel", self.pipeline_parallel_size),
                             ("data parallel", self.data_parallel_size)):
            if int(value) < 1:
                raise InputError(f"{label} size must be at least 1, got {value}")


@dataclass(frozen=True)
class MockOptions(BackendOptions):
    """In-process answers for tests and demos, like inspect's mockllm: ``echo`` (the prompt
    back), ``sample`` (the bundled sample's passing answers) or a JSON-lines file of
    ``{prompt, response}``."""

    backend: ClassVar[str] = "mock"
    answers: str = option("echo", "echo, sample, a JSONL file of {prompt, response}, or a named script "
                          "(fake-translator[:RATE], fake-prompt-writer[:RATE]; build's fake[:RATE] picks its own)",
                          flag="--mock-answers",
                          affects_output=True)
    # the target language of the fake translator (set by ``ModelSpec.bound``, as a translator's)
    language: str | None = option(None, "the fake translator's target language (set by the build)", flag=None)


@dataclass(frozen=True)
class BatchOptions(BackendOptions):
    """A provider's batch file format (``--transport openai-batch``): no option of its own; the
    model named is written into every request line."""

    backend: ClassVar[str] = "batch"


BATCH_FORMATS: tuple[str, ...] = ("openai-batch", "gemini-batch")


OPTIONS: dict[str, type[BackendOptions]] = {c.backend: c for c in (OpenAIOptions, HFOptions, VLLMOptions, MockOptions)}


def options_for(backend: str, values: Mapping[str, JsonValue] | BackendOptions | None) -> BackendOptions:
    if isinstance(values, BackendOptions):
        return values
    if backend not in OPTIONS:
        raise InputError(f"unknown backend {backend!r}; choose from {', '.join(OPTIONS)}")
    return OPTIONS[backend].from_mapping(values)
