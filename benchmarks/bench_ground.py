"""Corpus mining speed and memory for `build ground`: the vocab and features passes over a
large synthetic corpus that this script writes (Hindi-like documents of 1-3 paragraphs made
from the bundled sample's words), at growing sizes, each measured in a fresh process.

    python benchmarks/bench_ground.py                          # 100k, 300k and 1M documents
    python benchmarks/bench_ground.py --sizes 20000 --workers 1,2

Prints, per size and pass: documents, CPU seconds, wall seconds, documents per second per
core (CPU), and the process's peak memory; then the wall-clock speed-up of the processes
executor with more workers on the largest size. Peak memory should stay flat as the corpus
grows: shards are streamed, and only per-shard partial results are held."""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _vocabulary() -> list[str]:
    from indicifeval.dataset import load_rows
    from indicifeval.text.words import words

    found = {w for r in load_rows("sample") if r.language == "hi" for w in words(r.prompt)}
    return sorted(w for w in found if not w.isascii()) or ["शब्द"]


def write_corpus(path: Path, n: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    vocab = _vocabulary()
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            paras = []
            for _ in range(rng.choice((1, 1, 2, 3))):
                sentences = [" ".join(rng.choices(vocab, k=rng.randint(6, 14))) + "।" for _ in range(rng.randint(2, 5))]
                paras.append(" ".join(sentences))
            fh.write(json.dumps({"doc_id": f"d{i}", "text": "\n\n".join(paras)}, ensure_ascii=False) + "\n")


def measure(corpus: str, stage: str, workers: int, keywords: str | None) -> dict:
    """One pass in this process (the parent runs each in a fresh one)."""
    from indicifeval.builder.executors import create_executor
    from indicifeval.builder.ground.corpus import list_shards
    from indicifeval.builder.ground.mining import (
        FeatureTask,
        VocabTask,
        map_features,
        map_vocab,
        merge_vocab,
        rank_keywords,
    )

    shards = list_shards(corpus, shard_bytes=8 << 20)
    wall, cpu = time.perf_counter(), time.process_time()
    executor = create_executor("processes" if workers > 1 else "serial", workers)
    docs = 0
    if stage == "vocab":
        parts = executor.map(map_vocab, [VocabTask(s, "hi") for s in shards])
        total = merge_vocab(parts)
        docs = total.docs
        if keywords:
            Path(keywords).write_text("\n".join(k["word"] for k in rank_keywords(total, 500)), encoding="utf-8")
    else:
        words = tuple(Path(keywords or "").read_text(encoding="utf-8").split())
        counted: list[int] = []
        executor.map(map_features, [FeatureTask(s, "hi", words) for s in shards],
                     on_done=lambda i, part: counted.append(part["records"]), keep=False)
        docs = sum(counted)
    executor.shutdown()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {"docs": docs, "wall_s": time.perf_counter() - wall,
            "cpu_s": time.process_time() - cpu + children.ru_utime + children.ru_stime,
            "peak_mb": max(own.ru_maxrss, children.ru_maxrss) / 1024}


def _run(corpus: Path, stage: str, workers: int, keywords: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--measure", str(corpus), "--stage", stage, "--workers",
                          str(workers), "--keywords", str(keywords)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100000,300000,1000000", help="corpus sizes in documents")
    parser.add_argument("--workers", default="1,2", help="process counts for the speed-up on the largest size")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--stage", default="vocab", help=argparse.SUPPRESS)
    parser.add_argument("--keywords", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.stage, int(args.workers), args.keywords)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s]
    workers = [int(w) for w in args.workers.split(",") if w]
    print(f"{'documents':>10} {'pass':>9} {'workers':>7} {'CPU s':>8} {'wall s':>8} {'docs/s/core':>12} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            corpus = Path(tmp) / f"corpus-{n}.jsonl"
            write_corpus(corpus, n)
            keywords = Path(tmp) / f"keywords-{n}.txt"
            results = {}
            for stage in ("vocab", "features"):
                for w in (workers if n == sizes[-1] else [1]):
                    r = results[stage, w] = _run(corpus, stage, w, keywords)
                    print(f"{r['docs']:>10,} {stage:>9} {w:>7} {r['cpu_s']:>8.1f} {r['wall_s']:>8.1f} "
                          f"{r['docs'] / r['cpu_s']:>12,.0f} {r['peak_mb']:>8.0f}", flush=True)
            if n == sizes[-1] and len(workers) > 1:
                for stage in ("vocab", "features"):
                    base = results[stage, workers[0]]["wall_s"]
                    speedups = ", ".join(f"{w}: {base / results[stage, w]['wall_s']:.2f}x" for w in workers[1:])
                    print(f"speed-up of {stage} over {workers[0]} worker(s), wall clock: {speedups}")
            corpus.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
