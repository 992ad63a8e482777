"""Throughput of the Trans pipeline's `openai` route against the loopback server: every unit of
every English prompt through `build trans` (plan, pretranslate, translate), the server
answering after a fixed latency with a deterministic fake translation.

    python benchmarks/bench_trans.py                         # the bundled sample's English rows
    python benchmarks/bench_trans.py --source ../shared/data/indicifeval-en-source/verified_dataset-en.jsonl
    python benchmarks/bench_trans.py --latency 0.05 --concurrency 1,16,64

Prints, per concurrency: engine calls, wall and CPU seconds, calls per second, and the ideal
(concurrency / latency) for comparison."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default="sample", help="English rows (default: the bundled sample's)")
    parser.add_argument("--lang", default="hi", help="target language (default hi)")
    parser.add_argument("--latency", type=float, default=0.02, help="server seconds per request (default 0.02)")
    parser.add_argument("--concurrency", default="1,8,32", help="requests in flight, comma-separated (default 1,8,32)")
    args = parser.parse_args(argv)

    from indicifeval.builder.trans.pipeline import EngineSpec, build_trans
    from indicifeval.languages import get_profile
    from indicifeval.runs.backends.fake_translator import FakeTranslator
    from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig

    translator = FakeTranslator(get_profile(args.lang).default_letters)
    config = ServerConfig(answer_fn=lambda body: translator(body["messages"][-1]["content"]), latency_s=args.latency)
    print(f"{'concurrency':>11} {'calls':>7} {'wall s':>8} {'CPU s':>7} {'calls/s':>9} {'ideal/s':>9}")
    with FakeOpenAIServer(config) as server, tempfile.TemporaryDirectory() as tmp:
        for concurrency in (int(c) for c in args.concurrency.split(",") if c):
            spec = EngineSpec("openai", "fake", {"base_url": server.url, "concurrency": concurrency})
            before = server.requests
            wall, cpu = time.perf_counter(), time.process_time()
            build_trans(Path(tmp) / f"c{concurrency}", args.lang, args.source, spec, until="translate")
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            calls = server.requests - before
            ideal = concurrency / args.latency if args.latency else float("inf")
            print(f"{concurrency:>11} {calls:>7} {wall:>8.2f} {cpu:>7.2f} {calls / wall:>9.1f} {ideal:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
