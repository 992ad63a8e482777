"""Throughput of `build ground`'s online generation (the generate stage, ``--engine openai``)
against the loopback server, in a process of its own, answering after a fixed latency as the
deterministic fake prompt writer. The corpus is mined once (not timed); each concurrency then
runs the generate stage on a copy of that folder (every request asked: nothing cached).

    python benchmarks/bench_ground_online.py                 # ../shared's Hindi corpus, plan x10
    python benchmarks/bench_ground_online.py --corpus my.jsonl --lang ta --latency 0.05

Ideals as bench_trans prints them: ``flat`` concurrency / latency, ``rounds``
ceil(calls / concurrency) round trips (one stage, so the two differ only by the last, partly
filled round). The wall clock is the whole `build ground --until generate` command on a folder
mined up to requests (the earlier stages are checked, not run); ``engine %`` is the generate
stage alone. The target (the issue's): online generation, the generate stage, at 85% of the
rounds ideal at concurrency 64; the whole command's share beside it."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_trans import SHARED, header, measure, parse_load, row, verdict


def _synthetic(path: Path, language: str, documents: int = 3000) -> str:
    """A corpus from the bundled sample's words (when ../shared has none)."""
    from indicifeval.dataset import load_rows
    from indicifeval.languages import get_profile
    from indicifeval.text.words import words

    rng = random.Random(0)
    vocab = sorted({w for r in load_rows("sample") if r.language == language for w in words(r.prompt)
                    if not w.isascii() and not w.isdigit()})
    stop = get_profile(language).sentence_terminators[0]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(documents):
            text = "\n\n".join(" ".join(" ".join(rng.choices(vocab, k=rng.randint(5, 12))) + stop
                                        for _ in range(rng.randint(2, 5))) for _ in range(rng.choice((1, 2, 3))))
            fh.write(json.dumps({"doc_id": f"d{i}", "text": text}, ensure_ascii=False) + "\n")
    return str(path)


def _ground_run(base: Path, language: str, corpus: str, scale: float) -> Callable[[int, str, Path],
                                                                                  tuple[list[int], float]]:
    from indicifeval.builder.ground.pipeline import build_ground
    from indicifeval.runs.backends.spec import ModelSpec

    def run(concurrency: int, url: str, folder: Path) -> tuple[list[int], float]:
        shutil.copytree(base, folder)
        generator = ModelSpec.of("openai", "writer", {"base_url": url, "concurrency": concurrency})
        marks: dict[str, float] = {}
        records = build_ground(folder, language, corpus, None, generator, executor="serial", plan_scale=scale,
                               until="generate", on_stage=lambda name, _: marks.setdefault(name, time.perf_counter()))
        return [records["generate"].counts["asked"]], marks["generate"] - marks["requests"]

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", help="a JSONL corpus (default: ../shared's for --lang, else a synthetic one)")
    parser.add_argument("--lang", default="hi", help="language (default hi)")
    parser.add_argument("--plan-scale", type=float, default=10.0, help="every quota of the plan times this "
                        "(default 10: as many requests as the corpus allows)")
    args, levels = parse_load(parser, argv)
    from indicifeval.builder.ground.pipeline import build_ground

    with tempfile.TemporaryDirectory(dir=args.work) as tmp:
        shared = SHARED / "indic-corpus" / f"{args.lang}.jsonl"
        corpus = args.corpus or (str(shared) if shared.is_file() else _synthetic(Path(tmp) / "corpus.jsonl", args.lang))
        base = Path(tmp) / "mined"
        mined = build_ground(base, args.lang, corpus, None, None, executor="serial", plan_scale=args.plan_scale,
                             until="requests")
        results = measure(levels, args.latency, _ground_run(base, args.lang, corpus, args.plan_scale),
                                      ["--answers", "fake-prompt-writer:0.1"], args.repeat, args.work)
    header(f"build ground --until generate, {Path(corpus).name}, {mined['requests'].counts['requests']} requests, "
           f"latency {1000 * args.latency:g} ms, median of {args.repeat}")
    for level in results:
        row(level, args.latency)
    verdict(results, args.latency)
    return 0


if __name__ == "__main__":
    sys.exit(main())
