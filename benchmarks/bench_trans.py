"""Throughput of `build trans`'s online route (``--engine openai``) against the loopback server:
every unit of every English prompt through plan, pretranslate and translate, the server (in a
process of its own, as a real one is) answering after a fixed latency with the deterministic
fake translation.

    python benchmarks/bench_trans.py                         # ../shared's 490 English rows (else the sample's)
    python benchmarks/bench_trans.py --source sample --latency 0.05 --concurrency 1,16,64

Two ideals, both printed: ``flat`` is concurrency / latency calls per second, as if every call
could be in flight at once; ``rounds`` is what the stages allow, since translate asks only
after pretranslate has answered (its texts carry the pretranslated words): each engine stage
takes ceil(calls / concurrency) round trips, summed. The wall clock is the whole command
(`build trans --until translate`, plan stage included); ``engine %`` is the rounds ideal over
the time of the engine stages alone. The target (the issue's): online generation, the engine
stages, at 85% of the rounds ideal at concurrency 64; the whole command's share beside it.
Each level is run ``--repeat`` times and the median shown: the machine's other processes
(printed as the load average) move single runs by several percent."""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TARGET, TARGET_AT = 0.85, 64


@dataclass
class Level:
    """One concurrency's run: calls per engine stage (in order), and what it cost."""

    concurrency: int
    stage_calls: list[int]
    wall_s: float
    engine_s: float  # the engine stages alone
    cpu_s: float  # this process (the client)
    server_cpu_s: float

    @property
    def calls(self) -> int:
        return sum(self.stage_calls)

    def rounds_ideal_s(self, latency: float) -> float:
        return sum(math.ceil(n / self.concurrency) for n in self.stage_calls) * latency


def header(what: str) -> None:
    print(what)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores at the end (other processes make "
          f"the figures noisy); server and client on this machine")
    print(f"{'concurrency':>11} {'calls':>6} {'rounds':>6} {'wall s':>7} {'CPU s':>6} {'server CPU s':>12} "
          f"{'calls/s':>8} {'ideal/s flat':>12} {'% flat':>6} {'ideal/s rounds':>14} {'% rounds':>8} "
          f"{'engine %':>8}")


def row(level: Level, latency: float) -> float:
    """Print one level; returns its share of the rounds ideal."""
    rounds = sum(math.ceil(n / level.concurrency) for n in level.stage_calls)
    flat = level.concurrency / latency
    staged = level.calls / level.rounds_ideal_s(latency)
    rate = level.calls / level.wall_s
    share = level.rounds_ideal_s(latency) / level.wall_s
    engine = level.rounds_ideal_s(latency) / level.engine_s
    print(f"{level.concurrency:>11} {level.calls:>6} {rounds:>6} {level.wall_s:>7.3f} {level.cpu_s:>6.2f} "
          f"{level.server_cpu_s:>12.2f} {rate:>8.1f} {flat:>12.1f} {100 * rate / flat:>5.1f}% {staged:>14.1f} "
          f"{100 * share:>7.1f}% {100 * engine:>7.1f}%")
    return share


def verdict(levels: list[Level], latency: float) -> None:
    busiest = max(levels, key=lambda lv: lv.concurrency)
    per_call = busiest.server_cpu_s / busiest.calls if busiest.calls else 0.0
    if per_call:
        print(f"server alone, at concurrency {busiest.concurrency}: {1000 * per_call:.3f} ms CPU per call, so one "
              f"core answers {1 / per_call:,.0f} calls/s (not the bottleneck while far above the ideal)")
    at = [lv for lv in levels if lv.concurrency == TARGET_AT]
    if at:
        engine = at[-1].rounds_ideal_s(latency) / at[-1].engine_s
        whole = at[-1].rounds_ideal_s(latency) / at[-1].wall_s
        met = "met" if engine >= TARGET else "not met"
        print(f"target {met}: online generation (the engine stages) at {100 * engine:.1f}% of the rounds ideal at "
              f"concurrency {TARGET_AT} (target {100 * TARGET:.0f}%); the whole command at {100 * whole:.1f}%")


def measure(levels: list[int], latency: float, run: Callable[[int, str, Path], tuple[list[int], float]],
            server_args: list[str], repeat: int = 1, work: str | None = None) -> list[Level]:
    """``run(concurrency, url, folder)`` -> (calls per engine stage, seconds in the engine stages),
    ``repeat`` times per level, timed; the median run by wall clock is kept (other tenants of a
    shared machine make single runs noisy). The server's CPU is read before and after each run."""
    from indicifeval.testing.fake_server import ServerProcess

    out: list[Level] = []
    with ServerProcess(["--latency", str(latency), *server_args]) as server, \
            tempfile.TemporaryDirectory(dir=work) as tmp:
        run(max(levels), server.url, Path(tmp) / "warm-up")  # imports and first connections, not timed
        for n, concurrency in enumerate(levels):
            tries = []
            for attempt in range(repeat):
                before = server.stats()
                wall, cpu = time.perf_counter(), time.process_time()
                calls, engine_s = run(concurrency, server.url, Path(tmp) / f"{n}-{attempt}-c{concurrency}")
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                after = server.stats()
                if after["requests"] - before["requests"] != sum(calls):
                    raise RuntimeError(f"the server saw {after['requests'] - before['requests']} calls, "
                                       f"the stages asked {sum(calls)}")
                tries.append(Level(concurrency, calls, wall, engine_s, cpu, after["cpu_s"] - before["cpu_s"]))
            out.append(sorted(tries, key=lambda lv: lv.wall_s)[len(tries) // 2])
    return out


def _trans_run(language: str, source: str) -> Callable[[int, str, Path], tuple[list[int], float]]:
    from indicifeval.builder.trans.pipeline import build_trans
    from indicifeval.runs.backends.spec import ModelSpec

    def run(concurrency: int, url: str, folder: Path) -> tuple[list[int], float]:
        spec = ModelSpec.of("openai", "fake", {"base_url": url, "concurrency": concurrency})
        marks: dict[str, float] = {}
        records = build_trans(folder, language, source, spec, until="translate",
                              on_stage=lambda name, _: marks.setdefault(name, time.perf_counter()))
        return [records[s].counts["asked"] for s in ("pretranslate", "translate")], marks["translate"] - marks["plan"]

    return run


def parse_load(parser: argparse.ArgumentParser, argv: list[str] | None) -> tuple[argparse.Namespace, list[int]]:
    """The load flags both online benchmarks take, parsed: (arguments, concurrency levels)."""
    parser.add_argument("--latency", type=float, default=0.05, help="server seconds per request (default 0.05)")
    parser.add_argument("--concurrency", default="1,16,64", help="requests in flight (default 1,16,64)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per concurrency, the median shown (default 3)")
    parser.add_argument("--work", help="where the build folders go (default: the system's temporary folder; "
                        "/dev/shm leaves the disk's fsyncs out)")
    args = parser.parse_args(argv)
    if args.latency <= 0:
        parser.error("--latency must be above 0 (the ideal is concurrency / latency)")
    levels = [int(c) for c in args.concurrency.split(",") if c]
    return args, levels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    english = SHARED / "indicifeval-en-source" / "verified_dataset-en.jsonl"
    parser.add_argument("--source", default=str(english) if english.is_file() else "sample",
                        help="English rows (default: ../shared's source, else the bundled sample's)")
    parser.add_argument("--lang", default="hi", help="target language (default hi)")
    args, levels = parse_load(parser, argv)
    results = measure(levels, args.latency, _trans_run(args.lang, args.source),
                                  ["--answers", "fake-translator", "--lang", args.lang], args.repeat, args.work)
    header(f"build trans --until translate, {Path(args.source).name}, latency {1000 * args.latency:g} ms, "
           f"median of {args.repeat}; rounds: pretranslate, then translate")
    for level in results:
        row(level, args.latency)
    verdict(results, args.latency)
    return 0


if __name__ == "__main__":
    sys.exit(main())
