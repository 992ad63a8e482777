"""``indicifeval run``: generate answers with a model and score them, resumably."""

from __future__ import annotations

import argparse


from indicifeval.checkers import ScoringMode
from indicifeval.cli.common import add_parser, split_list
from indicifeval.runs.backends import BACKENDS
from indicifeval.runs.requests import DEFAULT_MAX_TOKENS

DEFAULT_MAX_ANSWER_CHARS = 1_000_000  # runs.runner's; not imported here to keep --help fast


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "run",
        help="run a model on the benchmark and score it (resumable)",
        description="Generate answers with a model (vLLM, transformers or an OpenAI-compatible server), "
        "write them to a run folder as they complete, then score them. Run the same command again to resume.",
    )
    p.add_argument("--model", required=True, help="model name (server) or path / hub id (hf, vllm)")
    p.add_argument("--backend", required=True, choices=BACKENDS, help="where the model runs")
    p.add_argument("--out", required=True, help="run folder (created, or resumed if it exists)")
    p.add_argument("--overwrite", action="store_true", help="use a non-empty --out that `run` did not make")
    data = p.add_argument_group("data")
    data.add_argument("--data", default="hub", help="'hub' (ai4bharat/IndicIFEval), a local folder in the hub's "
                      "parquet layout, a JSONL/JSON/Parquet file, or 'sample'")
    data.add_argument("--revision", help="hub revision (commit) to pin; recorded in the manifest")
    data.add_argument("--subsets", default="trans,ground", help="trans, ground or both")
    data.add_argument("--languages", default="all", help="'all' (14 Indic + en where present) or e.g. hi,bn")
    data.add_argument("--tags", default="", help="keep rows with all these tags, e.g. correct,parallel (default: "
                      "all rows)")
    data.add_argument("--limit", type=int, help="first N rows of each language and subset (default: all)")
    gen = p.add_argument_group("generation")
    gen.add_argument("--thinking", choices=["on", "off"], help="switch reasoning on/off where the model supports it")
    gen.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, help="generation budget, as in the paper")
    gen.add_argument("--temperature", type=float, default=0.0, help="0 = greedy")
    gen.add_argument("--top-p", type=float, default=1.0, help="nucleus sampling (with --temperature > 0)")
    gen.add_argument("--seed", type=int, default=0, help="sampling seed")
    gen.add_argument("--system-prompt", help="an optional system turn before the prompt")
    gen.add_argument("--gen-kwargs", metavar="K=V,...", help="further sampling settings passed to the backend as they "
                     "are, e.g. top_k=20,presence_penalty=0.5 (recorded; part of the run's identity)")
    gen.add_argument("--max-answer-chars", type=int, default=DEFAULT_MAX_ANSWER_CHARS,
                     help="answers longer than this are cut before they are stored (the cut is recorded)")
    be = p.add_argument_group("backend")
    be.add_argument("--base-url", help="openai: server URL, e.g. http://127.0.0.1:8000/v1")
    be.add_argument("--api-key-env", default="OPENAI_API_KEY", help="openai: environment variable holding the key")
    be.add_argument("--concurrency", type=int, default=16, help="openai: requests in flight")
    be.add_argument("--timeout", type=float, default=600.0, help="openai: seconds per request")
    be.add_argument("--max-retries", type=int, default=8, help="openai: retries per request")
    be.add_argument("--batch-size", type=int, default=8, help="hf: prompts per generate() call")
    be.add_argument("--device", default="auto", help="hf: auto, cpu, cuda, cuda:1 ...")
    be.add_argument("--dtype", default="auto", help="hf/vllm: auto, bfloat16, float16, float32")
    be.add_argument("--trust-remote-code", action="store_true", help="hf/vllm: run the model repository's own code")
    be.add_argument("--tensor-parallel", type=int, default=1, help="vllm: GPUs per model replica")
    be.add_argument("--pipeline-parallel", type=int, default=1, help="vllm: pipeline stages (multi-node with ray)")
    be.add_argument("--data-parallel", type=int, default=1, help="vllm: model replicas, each on its own GPUs")
    be.add_argument("--distributed-backend", choices=["mp", "ray"], help="vllm: 'ray' for multi-node (default: vLLM's)")
    be.add_argument("--max-model-len", type=int, help="vllm: context length (default: the model's)")
    be.add_argument("--gpu-memory-utilization", type=float, default=0.9, help="vllm: share of GPU memory to use")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed",
                   help="fixed: corrected semantics; paper: the authors' published scorer")
    p.add_argument("--quiet", action="store_true", help="no table, no progress bar")
    p.set_defaults(handler=run)


def backend_options(args: argparse.Namespace) -> dict:
    from indicifeval.core.errors import InputError
    from indicifeval.core.secrets import check_env_name

    if args.backend == "openai":
        if not args.base_url:
            raise InputError("--backend openai needs --base-url")
        check_env_name(args.api_key_env)
        return {"base_url": args.base_url, "concurrency": args.concurrency, "timeout_s": args.timeout,
                "max_retries": args.max_retries, "api_key_env": args.api_key_env}
    if args.backend == "hf":
        return {"device": args.device, "dtype": args.dtype, "batch_size": args.batch_size,
                "trust_remote_code": args.trust_remote_code}
    return {"tensor_parallel_size": args.tensor_parallel, "pipeline_parallel_size": args.pipeline_parallel,
            "data_parallel_size": args.data_parallel, "distributed_executor_backend": args.distributed_backend,
            "dtype": args.dtype, "max_model_len": args.max_model_len,
            "gpu_memory_utilization": args.gpu_memory_utilization, "trust_remote_code": args.trust_remote_code}


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import report_result, run_progress
    from indicifeval.runs.requests import GenerationConfig, parse_gen_kwargs
    from indicifeval.runs.runner import DataOptions, run as run_model

    thinking = None if args.thinking is None else args.thinking == "on"
    options = backend_options(args)
    config = GenerationConfig(model=args.model, backend=args.backend, max_tokens=args.max_tokens,
                              temperature=args.temperature, top_p=args.top_p, seed=args.seed, thinking=thinking,
                              system_prompt=args.system_prompt, gen_kwargs=parse_gen_kwargs(args.gen_kwargs))
    data = DataOptions(source=args.data, subsets=split_list(args.subsets), languages=args.languages,
                       tags=split_list(args.tags), limit=args.limit, revision=args.revision)
    with run_progress(enabled=not args.quiet) as (on_total, on_progress):
        outcome = run_model(config, args.out, data, scoring=args.scoring, backend_options=options,
                            on_total=on_total, on_progress=on_progress, max_answer_chars=args.max_answer_chars,
                            overwrite=args.overwrite)
    report_result(outcome.result.summary, outcome.notes,
                  f"{outcome.generated} generated, {outcome.resumed} already done; run folder {outcome.folder}",
                  quiet=args.quiet)
    return 0
