"""vLLM in this process (offline ``LLM.chat``): the fastest way to run the whole benchmark.

Every pending item of every language and subset goes to the engine in ONE ``chat`` call, so
vLLM's scheduler batches them all. Tensor and pipeline parallelism are vLLM's own
(``--tensor-parallel``, ``--pipeline-parallel``, ``--distributed-backend ray`` across nodes).
Data parallelism (``--data-parallel N``) starts N processes, each with its own engine on its
own slice of the visible GPUs and its own contiguous share of the items.

Results arrive when an engine call finishes (vLLM's offline API returns them all at once), so
an interrupted run keeps what finished engines returned; run again to resume the rest.

The helpers at the top build what is passed to vLLM and read what comes back; they do not
import vLLM, so they are tested without it.
"""

from __future__ import annotations

import json
import os
import queue as queue_module
import sys
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from indicifeval.core.json_types import JsonObject
from indicifeval.runs.backends.base import BackendError, MissingDependency, OnResult
from indicifeval.runs.backends.options import VLLMOptions
from indicifeval.runs.requests import GenerationRequest, GenerationResult, SamplingSettings, stable_json, text_hash


# -- what goes to vLLM and what comes back (no vLLM import) -------------------------------------
def engine_kwargs(model: str, options: VLLMOptions) -> dict[str, Any]:
    """Keyword arguments for ``vllm.LLM``; settings left as None are vLLM's defaults. (Data
    parallelism is not an engine argument: one engine per process, see ``generate``.)"""
    kwargs = {
        "model": model,
        "tokenizer": model,
        "seed": 0,  # every request carries its own seed (SamplingParams)
        "dtype": options.dtype,
        "tensor_parallel_size": options.tensor_parallel_size,
        "pipeline_parallel_size": options.pipeline_parallel_size,
        "distributed_executor_backend": options.distributed_executor_backend,  # "ray" for multi-node
        "max_model_len": options.max_model_len,
        "gpu_memory_utilization": options.gpu_memory_utilization,
        "trust_remote_code": options.trust_remote_code,
    }
    return {k: v for k, v in kwargs.items() if v is not None}


def sampling_kwargs(settings: SamplingSettings) -> dict[str, Any]:
    """Keyword arguments for one request's ``vllm.SamplingParams`` (temperature 0 is greedy)."""
    return {"temperature": settings.temperature, "top_p": settings.top_p, "max_tokens": settings.max_tokens,
            "seed": settings.seed, "n": 1, **settings.gen_kwargs}


def chat_call_kwargs(settings: SamplingSettings) -> dict[str, Any]:
    """Extra keyword arguments for ``LLM.chat``: the thinking switch for the chat template."""
    return {"chat_template_kwargs": dict(settings.chat_template_kwargs)} if settings.thinking is not None else {}


def chat_groups(requests: Sequence[GenerationRequest]) -> list[list[GenerationRequest]]:
    """Requests grouped by their chat-template switches (one ``LLM.chat`` call each, since
    those apply to a whole call), keeping their order within each group."""
    groups: dict[str, list[GenerationRequest]] = {}
    for r in requests:
        groups.setdefault(stable_json(chat_call_kwargs(r.settings)), []).append(r)
    return list(groups.values())


def parse_request_output(uid: str, output: Any) -> GenerationResult:
    """A GenerationResult from a vLLM ``RequestOutput`` (first completion)."""
    try:
        completion = output.outputs[0]
        text = completion.text
        finish = completion.finish_reason
        completion_tokens = len(completion.token_ids or ())
    except (AttributeError, IndexError, TypeError) as exc:
        raise BackendError(f"{uid}: unexpected vLLM output ({exc})") from None
    prompt_ids = getattr(output, "prompt_token_ids", None)
    usage = {"prompt_tokens": len(prompt_ids) if prompt_ids is not None else None,
             "completion_tokens": completion_tokens}
    return GenerationResult(uid, text or "", None if finish is None else str(finish),
                            usage={k: v for k, v in usage.items() if v is not None},
                            latency_s=_latency(getattr(output, "metrics", None)))


def _latency(metrics: Any) -> float | None:
    """Seconds from arrival to the last token, where this vLLM version reports them."""
    arrival = getattr(metrics, "arrival_time", None)
    finished = getattr(metrics, "finished_time", None) or getattr(metrics, "last_token_time", None)
    if isinstance(arrival, (int, float)) and isinstance(finished, (int, float)) and finished >= arrival:
        return float(finished - arrival)
    return None


def split_for_data_parallel(requests: Sequence[GenerationRequest], n: int) -> list[list[GenerationRequest]]:
    """``n`` contiguous shares whose sizes differ by at most one (some empty if n > items)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    items = list(requests)
    size, extra = divmod(len(items), n)
    shares, start = [], 0
    for i in range(n):
        end = start + size + (i < extra)
        shares.append(items[start:end])
        start = end
    return shares


def device_slices(visible: Sequence[str], replicas: int, per_replica: int) -> list[str]:
    """``CUDA_VISIBLE_DEVICES`` for each replica: consecutive groups of ``per_replica``."""
    need = replicas * per_replica
    if len(visible) < need:
        raise BackendError(f"data parallel {replicas} x {per_replica} GPUs per replica needs {need} GPUs; "
                           f"{len(visible)} visible ({','.join(visible) or 'none'})")
    return [",".join(visible[i * per_replica:(i + 1) * per_replica]) for i in range(replicas)]


def local_chat_template(model: str) -> str | None:
    """The chat template of a local model folder (or of a hub model already in the local
    cache), read from its files without vLLM and without the network; None if not found."""
    folder = Path(model)
    files: dict[str, Path | None] = {}
    if folder.is_dir():
        files = {name: folder / name for name in ("chat_template.jinja", "tokenizer_config.json")}
    else:
        try:
            from huggingface_hub import try_to_load_from_cache
        except ImportError:
            return None
        for name in ("chat_template.jinja", "tokenizer_config.json"):
            try:
                hit = try_to_load_from_cache(model, name)
            except Exception:  # a name that is not a repo id, a broken cache: no hash
                hit = None
            files[name] = Path(hit) if isinstance(hit, str) else None
    jinja = files.get("chat_template.jinja")
    if jinja is not None and jinja.is_file():
        return jinja.read_text(encoding="utf-8")
    config_file = files.get("tokenizer_config.json")
    if config_file is None or not config_file.is_file():
        return None
    try:
        template = json.loads(config_file.read_text(encoding="utf-8")).get("chat_template")
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
        return None
    if isinstance(template, list):  # [{"name": "default", "template": ...}, ...]
        named = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}
        template = named.get("default") or next(iter(named.values()), None)
    return template if isinstance(template, str) else None


# -- running the engine ----------------------------------------------------------------------
def _import_vllm():
    try:
        import vllm
    except ImportError:
        raise MissingDependency("vllm", "vllm", "vllm") from None
    return vllm


def _vllm_installed() -> bool:
    if "vllm" in sys.modules:
        return sys.modules["vllm"] is not None
    import importlib.util

    try:
        return importlib.util.find_spec("vllm") is not None
    except (ImportError, ValueError):
        return False


def _run_engine(model: str, options: VLLMOptions, requests: Sequence[GenerationRequest]) -> Iterator[GenerationResult]:
    """One engine; one ``chat`` call per group of chat-template switches, each request with
    its own sampling parameters; yields the results group by group."""
    vllm = _import_vllm()
    llm = vllm.LLM(**engine_kwargs(model, options))
    for group in chat_groups(requests):
        try:
            params = [vllm.SamplingParams(**sampling_kwargs(r.settings)) for r in group]
        except (TypeError, ValueError) as exc:
            raise BackendError(f"vLLM does not accept these sampling settings (--gen-kwargs?): {exc}") from None
        outputs = list(llm.chat([r.messages for r in group], params, use_tqdm=True,
                                **chat_call_kwargs(group[0].settings)))
        if len(outputs) != len(group):
            raise BackendError(f"vLLM returned {len(outputs)} outputs for {len(group)} requests")
        for request, output in zip(group, outputs):
            yield parse_request_output(request.uid, output)


def _data_parallel_worker(rank: int, devices: str, model: str, options: VLLMOptions,
                          requests: list[GenerationRequest], results) -> None:
    """A spawned process: one engine on ``devices``, its results sent back on ``results``."""
    os.environ["CUDA_VISIBLE_DEVICES"] = devices  # before vLLM (and torch) are imported here
    try:
        for result in _run_engine(model, options, requests):
            results.put(("result", rank, result))
        results.put(("done", rank, None))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        results.put(("error", rank, f"{detail}\n{traceback.format_exc(limit=8)}"))


class VLLMBackend:
    name = "vllm"

    def __init__(self, model: str, options: VLLMOptions):
        if options.distributed_executor_backend not in (None, "mp", "ray", "uni", "external_launcher"):
            raise BackendError(f"unknown distributed executor backend {options.distributed_executor_backend!r}")
        if options.data_parallel_size > 1 and options.distributed_executor_backend == "ray":
            raise BackendError("--data-parallel starts local processes on this node's GPUs; with ray across "
                               "nodes use tensor/pipeline parallelism, or one run per node on part of the data")
        self.model = model
        self.options = options
        self.data_parallel_size = int(options.data_parallel_size)

    def describe(self) -> JsonObject:
        o = self.options
        return {
            "name": self.name,
            "tensor_parallel_size": o.tensor_parallel_size,
            "pipeline_parallel_size": o.pipeline_parallel_size,
            "data_parallel_size": self.data_parallel_size,
            "distributed_executor_backend": o.distributed_executor_backend,
            "dtype": o.dtype,
            "max_model_len": o.max_model_len,
            "chat_template_hash": text_hash(local_chat_template(self.model)),
        }

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        requests = list(requests)
        if not requests:
            return
        if self.data_parallel_size == 1:
            try:
                results = list(_run_engine(self.model, self.options, requests))
            except BackendError:
                raise
            except Exception as exc:  # engine start-up or generation failed
                raise BackendError(f"vLLM failed: {exc.__class__.__name__}: {exc}") from exc
            for result in results:
                on_result(result)
            return
        if not _vllm_installed():
            raise MissingDependency("vllm", "vllm", "vllm")
        self._generate_data_parallel(requests, on_result)

    # -- data parallel: one spawned process per replica ------------------------------------------
    def _visible_devices(self) -> list[str]:
        env = os.environ.get("CUDA_VISIBLE_DEVICES")
        if env is not None:
            return [d.strip() for d in env.split(",") if d.strip()]
        try:
            import torch

            return [str(i) for i in range(torch.cuda.device_count())]
        except ImportError:
            return []

    def _generate_data_parallel(self, requests: list[GenerationRequest], on_result: OnResult) -> None:
        import multiprocessing

        per_replica = self.options.tensor_parallel_size * self.options.pipeline_parallel_size
        slices = device_slices(self._visible_devices(), self.data_parallel_size, per_replica)
        shares = split_for_data_parallel(requests, self.data_parallel_size)
        ctx = multiprocessing.get_context("spawn")
        results = ctx.Queue()
        processes = {}
        for rank, (devices, share) in enumerate(zip(slices, shares)):
            if share:
                processes[rank] = ctx.Process(target=_data_parallel_worker, name=f"indicifeval-vllm-dp{rank}",
                                              args=(rank, devices, self.model, self.options, share, results))
                processes[rank].start()
        pending = set(processes)
        errors: dict[int, str] = {}

        def handle(message) -> None:
            kind, rank, payload = message
            if kind == "result":
                on_result(payload)
            else:
                pending.discard(rank)
                if kind == "error":
                    errors[rank] = payload

        try:
            while pending:
                try:
                    handle(results.get(timeout=1.0))
                    continue
                except queue_module.Empty:
                    pass
                dead = [r for r in pending if not processes[r].is_alive()]
                if dead:
                    # a process that sent everything and exited may still have messages in the pipe
                    while True:
                        try:
                            handle(results.get(timeout=0.5))
                        except queue_module.Empty:
                            break
                    for rank in dead:
                        if rank in pending:
                            pending.discard(rank)
                            errors[rank] = f"exited with code {processes[rank].exitcode} before finishing"
        finally:
            for process in processes.values():
                if process.is_alive() and (errors or pending):
                    process.terminate()
                process.join(timeout=30)
        if errors:
            first = min(errors)
            raise BackendError(f"{len(errors)} of {len(processes)} data-parallel engine(s) failed; finished items "
                               f"are kept, run again to resume. Replica {first} (GPUs {slices[first]}): "
                               f"{errors[first]}")
