"""``indicifeval build ground``: Ground rows from a native corpus, stage by stage."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import HelpFormatter

WAITING = 3  # exit code while a batch file waits to be run and imported


def register(verbs: argparse._SubParsersAction) -> None:
    from indicifeval.builder.executors import EXECUTORS
    from indicifeval.builder.ground.pipeline import STAGES, MiningOptions
    from indicifeval.cli.build_common import add_stage_flags
    from indicifeval.cli.option_flags import add_model_flags
    from indicifeval.runs.backends.options import BATCH_FORMATS, OPTIONS

    d = MiningOptions()
    g = verbs.add_parser("ground", formatter_class=HelpFormatter, help="build the Ground split of a language",
                         description="Mine a native corpus and have an LLM write prompts grounded in it, stage by "
                         "stage (" + " -> ".join(STAGES) + "), resumably: run the same command again to go on. "
                         "ground/keywords.jsonl may be edited after the vocab stage (--until vocab, edit, run again). "
                         f"With a batch transport the command stops at generate (exit {WAITING}) until the "
                         "exported file's results are imported with --import.")
    g.add_argument("folder", help="the build folder (one per language)")
    g.add_argument("--lang", required=True, help="the language (a profile code, e.g. hi)")
    g.add_argument("--corpus", required=True, help="JSONL/Parquet documents {doc_id, text}: a file, a folder, a "
                   "hub path such as hf://datasets/ai4bharat/sangraha/verified/hin, or 'sample': the bundled "
                   "sample's prompts and answers in the language, a tiny corpus to try the build offline "
                   "(the project's own text, Apache-2.0)")
    g.add_argument("--revision", help="the hub corpus's revision (a commit, pinned in the manifest)")
    g.add_argument("--corpus-license", metavar="SPDX", help="the corpus's licence (e.g. CC-BY-SA-4.0 for FLORES): "
                   "recorded with the rows, and `build publish` licenses the dataset by it (a share-alike corpus "
                   "gives a share-alike dataset)")
    g.add_argument("--plan", help="a shipped plan by name (default; paper: the released IndicIFEval mix; "
                   "beyond: numbers, units and romanised answers) or a YAML or JSON plan file: contexts per "
                   "constraint, lengths, seed, context-required share "
                   "(default: default)")
    g.add_argument("--plan-scale", type=float, default=1.0, metavar="X", help="multiply every quota of the plan, "
                   "its mix kept (the paper plan is sized for a small corpus: --plan paper --plan-scale 3.75 asks "
                   "for the release's 341 rows from a large one)")
    g.add_argument("--keyword-choice", choices=("pool", "spread"), help="how keyword-count, forbidden-word and "
                   "first-word contexts choose their words, over the plan's keywords.choice: pool (one small pool "
                   "per language, each word reused, as the release; the paper plan's) or spread (many words, each "
                   "used once or twice; the default plan's). A folder made before this option keeps its choice")
    add_model_flags(g, OPTIONS, what="the LLM that writes the prompts, for --transport online (mock: "
                    "--mock-answers fake[:RATE], a fake writer spoiling RATE of its replies)", identity="stage",
                    alias=True)
    g.add_argument("--transport", default="online", choices=("online", *BATCH_FORMATS),
                   help="online through the backend, or export a provider batch file (for --model) and import its "
                   "results later")
    g.add_argument("--import", dest="imports", action="append", default=[], metavar="FILE",
                   help="batch results to import (output and error files); may be repeated")
    g.add_argument("--executor", default="processes", choices=EXECUTORS, help="who runs the shard tasks")
    g.add_argument("-j", "--workers", type=int, help="processes, or Ray CPUs (default: all cores)")
    g.add_argument("--ray-address", help="an existing Ray cluster (e.g. auto or ray://head:10001)")
    g.add_argument("--top-k", type=int, default=d.top_k, help="keyword candidates kept from the vocabulary")
    g.add_argument("--skip-top", type=int, metavar="K", help="leave out the K best-ranked words (after the stop "
                   "words), as the authors' --from_k. Default: 0; a folder made before this option keeps its ranking")
    g.add_argument("--keep-stop-words", action="store_true", help="rank the profile's stop words too (the authors' "
                   "ranking; by default they are left out, so keywords are content words, except in a folder made "
                   "before this option, which keeps its ranking)")
    g.add_argument("--min-length", type=int, default=d.min_length, help="letters a keyword has at least")
    g.add_argument("--max-chars", type=int, default=d.max_chars, help="the longest document kept as a context")
    g.add_argument("--shard-mb", type=float, default=d.shard_bytes / 2**20, help="a JSONL corpus is cut into "
                   "shards of at most this many MB (a smaller corpus into 32 shards, none under 2 MiB unless this is "
                   "less, so that every worker has work)")
    add_stage_flags(g, STAGES)
    g.set_defaults(handler=run)


def _tell_imports(args: argparse.Namespace) -> None:
    """A waiting stage ends in an exception, not a finished record: what it said (each imported
    file's replies, failures, junk lines and unknown ids) is read back from the folder."""
    from indicifeval.builder import BuildFolder
    from indicifeval.cli.output import err_console

    record = BuildFolder(args.folder).stages().get("generate")
    for note in record.notes if record is not None else ():
        err_console.print(f"generate: {note}", soft_wrap=True, markup=False)


def run(args: argparse.Namespace) -> int:
    from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
    from indicifeval.cli.build_common import finish_build, forced_stages, stage_reporter
    from indicifeval.cli.option_flags import model_spec
    from indicifeval.cli.output import console, progress_bar
    from indicifeval.core.errors import InputError
    from indicifeval.runs.backends.batch import BatchPending
    from indicifeval.runs.backends.options import OPTIONS
    from indicifeval.runs.backends.spec import ModelSpec

    model: ModelSpec | None = None
    if args.transport == "online":
        model = model_spec(args, OPTIONS) if args.backend is not None else None
    elif not args.model:
        raise InputError(f"name the model the {args.transport} file asks for with --model", field="model")
    elif args.backend is not None:
        raise InputError(f"--backend is for --transport online; a {args.transport} file names --model only",
                         field="backend")
    else:
        model = ModelSpec.of(args.transport, args.model, settings=None)
    mining = MiningOptions(args.top_k, args.min_length, max_chars=args.max_chars,
                           shard_bytes=max(1, int(args.shard_mb * 2**20)), skip_top=args.skip_top,
                           stop_words=False if args.keep_stop_words else None)
    forced = forced_stages(args)
    from indicifeval.builder.ground.corpus import SAMPLE, sample_corpus

    corpus = sample_corpus(args.lang) if args.corpus == SAMPLE else args.corpus

    try:
        done = build_ground(args.folder, args.lang, corpus, args.plan, model, imports=args.imports,
                            plan_scale=args.plan_scale, keyword_choice=args.keyword_choice,
                            executor=args.executor, workers=args.workers, ray_address=args.ray_address, mining=mining,
                            revision=args.revision, corpus_license=args.corpus_license, until=args.until,
                            force=forced, overwrite=args.overwrite,
                            on_stage=stage_reporter(args),
                            progress=lambda label, total: progress_bar(total, label, not args.quiet, 2))
    except BatchPending as pending:
        _tell_imports(args)
        console.print(f"{args.lang}: generate pending, waiting for batch results: {pending}", soft_wrap=True)
        return WAITING
    from indicifeval.builder.ground.pipeline import STAGES

    return finish_build(args, done, STAGES, ("rows", "rejected", "contexts"), {"rows": "ground/rows.jsonl"},
                        review=False)
