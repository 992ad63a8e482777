"""``indicifeval results export|verify|push``: a run's results in the common formats, checked
by scoring them again, and shared (docs/results.md)."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import HelpFormatter, add_parser

FORMATS = ("every-eval-ever", "hf-eval-results")


def _debug(p: argparse.ArgumentParser) -> None:
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                   help="show the full traceback of an error")


def _tracker(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tracker", choices=("tensorboard", "wandb"),
                   help="also log the metrics to TensorBoard or W&B (offline), whichever is installed (default: off)")
    p.add_argument("--tracker-dir", default="tracker-logs", help="where the tracker writes")


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(sub, "results", description="Export a run folder's results as Every Eval Ever records or the Hub's "
                   ".eval_results YAML, check an export by scoring it again, and push it to a hub dataset.")
    verbs = p.add_subparsers(dest="results_command", required=True, metavar="VERB", help="what to do")
    e = verbs.add_parser("export", formatter_class=HelpFormatter, help="a run's results in a common format",
                         description="every-eval-ever: the aggregate record (data/indicifeval/<developer>/<model>/"
                         "<uuid>.json) and its instance lines (<uuid>_samples.jsonl), validating against the schema; "
                         "hf-eval-results: .eval_results/indicifeval-<subset>-<language>.yaml, one per language and "
                         "subset. Several runs may be exported into one folder.")
    e.add_argument("run", metavar="RUN", help="a run folder (indicifeval run --out)")
    e.add_argument("--format", required=True, choices=FORMATS, help="every-eval-ever or hf-eval-results")
    e.add_argument("--out", required=True, help="the export folder (made if missing)")
    e.add_argument("--schema-version", choices=("0.3.0", "0.2.3"), default="0.3.0",
                   help="the Every Eval Ever schema version to write")
    e.add_argument("--scoring", choices=("fixed", "paper"),
                   help="the scoring mode whose verdicts to export (default: the run's own)")
    e.add_argument("--organization", default="unknown", help="who ran the evaluation (source_organization_name)")
    e.add_argument("--relationship", default="third_party",
                   choices=("first_party", "third_party", "collaborative", "other"),
                   help="the evaluator's relationship to the model")
    _tracker(e)
    _debug(e)
    e.set_defaults(handler=export)
    v = verbs.add_parser("verify", formatter_class=HelpFormatter, help="score an export again and compare",
                         description="Score every Every Eval Ever record under DIR again from its instance lines "
                         "alone and check that every verdict, score and interval is reproduced exactly; exit 1 "
                         "with the differences otherwise.")
    v.add_argument("folder", metavar="DIR", help="an export folder (results export --format every-eval-ever)")
    _debug(v)
    v.set_defaults(handler=verify)
    u = verbs.add_parser("push", formatter_class=HelpFormatter, help="upload an export to a hub dataset",
                         description="Upload an export folder to a hub dataset in one commit (as build publish "
                         "--push does); the token is read from --token-env.")
    u.add_argument("folder", metavar="DIR", help="an export folder")
    u.add_argument("--repo", required=True, metavar="ORG/NAME", help="the hub dataset to upload to")
    u.add_argument("--revision", help="the branch to upload to (made if missing)")
    u.add_argument("--token-env", default="HF_TOKEN", help="environment variable holding the hub token")
    _tracker(u)
    _debug(u)
    u.set_defaults(handler=push)


def _log(tracker: str | None, logdir: str, runs: list[tuple[str, dict[str, float], dict[str, str]]]) -> str:
    if not tracker:
        return ""
    from indicifeval.results.share import log_metrics

    for name, metrics, config in runs:
        log_metrics(metrics, tracker=tracker, name=name, logdir=logdir, config=config)
    return f"; logged to {tracker} in {logdir}"


def export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from indicifeval.cli.output import console
    from indicifeval.results.runfolder import load_run

    run = load_run(args.run, args.scoring)
    out = Path(args.out)
    if args.format == "every-eval-ever":
        from indicifeval.results import eee

        written = eee.write(run, out, schema_version=args.schema_version, organization=args.organization,
                            relationship=args.relationship)
    else:
        from indicifeval.results import hf_yaml

        written = hf_yaml.write(run, out)
    logged = ""
    if args.tracker:
        from indicifeval.results.eee import verdicts_of
        from indicifeval.results.metrics import compute
        from indicifeval.results.provenance import generation_config, model_name

        metrics = {rid: r.score for rid, r in compute(verdicts_of(a) for a in run.answers).items()}
        logged = _log(args.tracker, args.tracker_dir,
                      [(model_name(run), metrics, generation_config(run)["additional_details"])])
    console.print(f"wrote {len(written)} files in {out} ({args.format}, {len(run.answers)} scored answers){logged}",
                  soft_wrap=True)
    return 0


def verify(args: argparse.Namespace) -> int:
    import sys

    from indicifeval.cli.output import console
    from indicifeval.results.verify import verify as run

    checked, results, problems = run(args.folder)
    if problems:
        for line in problems[:200]:
            print(line, file=sys.stderr)
        more = " (the first 200 shown)" if len(problems) > 200 else ""
        print(f"{len(problems)} differences in {checked} records{more}", file=sys.stderr)
        return 1
    console.print(f"reproduced exactly: {results} results in {checked} records", soft_wrap=True)
    return 0


def push(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import console
    from indicifeval.results.share import push as run
    from indicifeval.results.share import record_metrics

    names = run(args.folder, args.repo, revision=args.revision, token_env=args.token_env)
    logged = _log(args.tracker, args.tracker_dir, record_metrics(args.folder))
    where = args.repo + (f"@{args.revision}" if args.revision else "")
    console.print(f"pushed {len(names)} files to {where}{logged}", soft_wrap=True)
    return 0
