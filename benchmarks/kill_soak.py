"""SIGKILL soak of both build pipelines under server faults: each build is killed at seeded
random moments, run again until it completes, then (and after --force of every stage)
compared with an uninterrupted build of the same input. Prints, per pipeline: kills, requests
answered twice (paid twice), rows lost, and whether every output is byte-identical.

    python benchmarks/kill_soak.py [--kills 12] [--seed 0] [--out DIR]

The servers are loopback (testing.fake_server) with 429/500/dropped-connection faults; the
English source is ../shared's 490 rows when present, else the bundled sample."""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from indicifeval.languages import get_profile
from indicifeval.runs.backends.fake_prompt_writer import FakePromptWriter
from indicifeval.runs.backends.fake_translator import FakeTranslator
from indicifeval.testing.fake_server import FakeOpenAIServer, FaultPlan, ServerConfig

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TRANS_FILES = ("trans/rows.jsonl", "trans/candidates.jsonl", "trans/pretranslations.jsonl", "trans/plans.jsonl")
GROUND_FILES = ("ground/rows.jsonl", "ground/rejected.jsonl", "ground/contexts.jsonl", "ground/requests.jsonl")


def _server(answer, seed: int) -> FakeOpenAIServer:
    faults = FaultPlan(rate=0.15, kinds=("429", "500", "drop"), max_faults_per_prompt=2, retry_after_s=0.01, seed=seed)
    return FakeOpenAIServer(ServerConfig(answer_fn=lambda body: answer(body["messages"][-1]["content"]),
                                         faults=faults, latency_s=0.003))


def _argv(kind: str, folder: Path, url: str, source: str) -> list[str]:
    net = ["--backend", "openai", "--model", "m", "--base-url", url, "--concurrency", "4",
           "--max-retries", "8", "--quiet"]
    if kind == "trans":
        return ["build", "trans", str(folder), "--lang", "hi", "--source", source, *net]
    return ["build", "ground", str(folder), "--lang", "hi", "--corpus", source, "--executor", "serial", *net]


def _run(argv: list[str], kill_after: float | None) -> int | None:
    proc = subprocess.Popen([sys.executable, "-m", "indicifeval", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    if kill_after is None:
        return proc.wait(600)
    time.sleep(kill_after)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        return None
    return proc.returncode


def _paid_twice(log: Path) -> int:
    seen: Counter[str] = Counter()
    for line in log.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("error") is None:
                seen[record.get("content_hash") or record["uid"]] += 1
    return sum(n - 1 for n in seen.values() if n > 1)


def soak(kind: str, root: Path, source: str, kills: int, rng: random.Random) -> dict:
    answer = FakeTranslator(get_profile("hi").default_letters) if kind == "trans" else FakePromptWriter(0.2)
    files, log = (TRANS_FILES, "trans/mt.jsonl") if kind == "trans" else (GROUND_FILES, "ground/generations.jsonl")
    with _server(answer, 1) as server:
        whole = root / f"{kind}-whole"
        assert _run(_argv(kind, whole, server.url, source), None) == 0
        killed = root / f"{kind}-killed"
        argv = _argv(kind, killed, server.url, source)
        done, n = False, 0
        while n < kills:
            code = _run(argv, rng.uniform(0.3, 2.0) if kind == "trans" else rng.uniform(0.4, 1.2))
            if code is None:
                n += 1
            elif code == 0:
                done = True
                break
        if not done:
            assert _run(argv, None) == 0
        same = all((whole / f).read_bytes() == (killed / f).read_bytes() for f in files)
        rows = sum(1 for _ in (whole / files[0]).open()) - sum(1 for _ in (killed / files[0]).open())
        twice = _paid_twice(killed / log)
        stages = ("plan", "pretranslate", "translate", "assemble", "validate") if kind == "trans" else \
            ("shards", "vocab", "features", "select", "requests", "generate", "rows")
        before = (killed / log).read_bytes().count(b"\n")
        for name in stages:
            assert _run([*argv, "--force", name], None) == 0
        forced_same = all((whole / f).read_bytes() == (killed / f).read_bytes() for f in files)
        asked_after_force = (killed / log).read_bytes().count(b"\n") - before
    return {"pipeline": kind, "kills": n, "paid_twice": twice, "rows_lost": rows, "byte_identical": same,
            "forced_every_stage_identical": forced_same, "asked_after_forcing": asked_after_force}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="keep the build folders here (default: a temporary folder)")
    args = parser.parse_args()
    root = Path(args.out or tempfile.mkdtemp(prefix="indicifeval-soak-"))
    root.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    english = SHARED / "indicifeval-en-source" / "verified_dataset-en.jsonl"
    corpus = SHARED / "indic-corpus" / "hi.jsonl"
    if not corpus.is_file():
        sys.exit("needs ../shared/data/indic-corpus/hi.jsonl for the Ground soak")
    t0, c0 = time.perf_counter(), time.process_time()
    results = [soak("trans", root, str(english) if english.is_file() else "sample", args.kills, rng),
               soak("ground", root, str(corpus), args.kills, rng)]
    for r in results:
        print(json.dumps(r))
    print(f"wall {time.perf_counter() - t0:.1f} s, CPU (this process) {time.process_time() - c0:.1f} s; "
          f"folders in {root}")


if __name__ == "__main__":
    main()
