"""``indicifeval run``: generate answers with a model and score them, resumably."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import add_parser, split_list
from indicifeval.cli.option_flags import add_option_flags, option_values
from indicifeval.core.modes import ScoringMode
from indicifeval.runs.backends.options import OPTIONS, BackendOptions
from indicifeval.runs.requests import DEFAULT_MAX_TOKENS

DEFAULT_MAX_ANSWER_CHARS = 1_000_000  # runs.runner's; not imported here to keep --help fast


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "run",
        description="Generate answers with a model (vLLM, transformers, an OpenAI-compatible server, or mock), "
        "write them to a run folder as they complete, then score them. Run the same command again to resume.",
    )
    p.add_argument("--model", required=True, help="model name (server) or path / hub id (hf, vllm); any label (mock)")
    p.add_argument("--backend", required=True, choices=list(OPTIONS), help="where the model runs (mock: in-process "
                   "answers for tests and demos)")
    p.add_argument("--out", required=True, help="run folder (created, or resumed if it exists)")
    p.add_argument("--overwrite", action="store_true", help="use a non-empty --out that `run` did not make")
    data = p.add_argument_group("data")
    data.add_argument("--data", default="hub", help="'hub' (ai4bharat/IndicIFEval), a local folder in the hub's "
                      "parquet layout, a JSONL/JSON/Parquet file, 'sample' or 'sample-beyond'")
    data.add_argument("--revision", help="hub revision (commit) to pin; recorded in the manifest")
    data.add_argument("--subsets", default="trans,ground", help="trans, ground or both")
    data.add_argument("--languages", default="all", help="'all' (14 Indic + en where present) or e.g. hi,bn")
    data.add_argument("--tags", default="", help="keep rows with all these tags (not:TAG: without it), e.g. "
                      "correct,parallel or not:beyond (default: all rows)")
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
    add_backend_flags(p.add_argument_group("backend (each flag applies to the backends it names)"))
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed",
                   help="fixed: corrected semantics; paper: the authors' published scorer")
    p.add_argument("--quiet", action="store_true", help="no table, no progress bar")
    p.set_defaults(handler=run, data_argument="--data")


def add_backend_flags(group: argparse._ArgumentGroup) -> None:
    """The backends' options as flags, from their declarations (runs/backends/options.py)."""
    add_option_flags(group, OPTIONS)


def backend_options(args: argparse.Namespace) -> BackendOptions:
    """The chosen backend's options from the flags; a flag of another backend is an error."""
    return OPTIONS[args.backend].from_mapping(option_values(args, args.backend, OPTIONS))


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import report_result, run_progress
    from indicifeval.runs.requests import GenerationConfig, parse_gen_kwargs
    from indicifeval.runs.runner import DataOptions
    from indicifeval.runs.runner import run as run_model

    thinking = None if args.thinking is None else args.thinking == "on"
    options = backend_options(args)
    config = GenerationConfig(model=args.model, backend=args.backend, max_tokens=args.max_tokens,
                              temperature=args.temperature, top_p=args.top_p, seed=args.seed, thinking=thinking,
                              system_prompt=args.system_prompt, gen_kwargs=parse_gen_kwargs(args.gen_kwargs))
    data = DataOptions(source=args.data, subsets=split_list(args.subsets), languages=args.languages,
                       tags=split_list(args.tags), limit=args.limit, revision=args.revision)
    with run_progress(enabled=not args.quiet) as (on_total, on_progress):
        outcome = run_model(config, args.out, data, scoring=ScoringMode(args.scoring), backend_options=options,
                            on_total=on_total, on_progress=on_progress, max_answer_chars=args.max_answer_chars,
                            overwrite=args.overwrite)
    from indicifeval.cli.next_steps import after_scores

    report_result(outcome.result.summary, outcome.notes,
                  f"{outcome.generated} generated, {outcome.resumed} already done; run folder {outcome.folder}"
                  + after_scores(outcome.folder), quiet=args.quiet)
    return 0
