"""Corpus mining speed and memory for `build ground`: the vocab, features and select stages,
run as the pipeline runs them (``run_stage`` on a build folder), beside a floor, at growing
corpus sizes and with each executor; every measurement in a fresh process.

    python benchmarks/bench_ground.py                    # 10k and 100k documents (a few minutes)
    python benchmarks/bench_ground.py --full             # and 1M documents (about 1.4 GB of JSONL)
    python benchmarks/bench_ground.py --sizes 20000 --executors serial,processes

The corpus is real Hindi paragraphs (../shared/data/indic-corpus/hi.jsonl) recombined into
documents of one to three paragraphs; without that file, the bundled sample's Hindi prompts
(the figures are then not comparable). The floor reads the same JSONL and does one word split
(the keyword matcher's runs of letters, marks and digits) and one sentence split (on the
terminators) per document: the least any mining pass must do. CPU seconds count every process
the stage used (pool workers, Ray's workers and daemons); peak MB is the driver's and the
largest worker's peak resident memory. The memory budget: a worker's peak at most 1.5 x the
shard size above its warm baseline (a worker of that executor that has mined a tiny shard: the
interpreter, the code, its compiled patterns and caches)."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED_HI = Path(__file__).resolve().parents[2] / "shared" / "data" / "indic-corpus" / "hi.jsonl"
STAGES = ("vocab", "features", "select")
EXECUTORS = ("serial", "processes", "ray")
TARGET_RATIO = 2.5  # features and select, CPU against the floor
BUDGET_FACTOR = 1.5  # a worker's peak above its baseline, in shard sizes
_TICK = os.sysconf("SC_CLK_TCK")


# -- the corpus -----------------------------------------------------------------------------------
def paragraph_pool() -> tuple[list[str], str]:
    """Real paragraphs from ../shared, else the bundled sample's Hindi prompts (and why)."""
    if SHARED_HI.is_file():
        lines = SHARED_HI.read_text(encoding="utf-8").splitlines()
        pool = [p.strip() for line in lines for p in json.loads(line)["text"].split("\n\n") if p.strip()]
        return pool, f"{len(pool)} real paragraphs of {SHARED_HI.name} (../shared), recombined"
    from indicifeval.dataset import load_rows

    print(f"{SHARED_HI} is not there: using the bundled sample's Hindi prompts instead (figures not comparable)")
    pool = [p.strip() for r in load_rows("sample") if r.language == "hi" for p in r.prompt.split("\n\n") if p.strip()]
    return pool, f"{len(pool)} paragraphs of the bundled sample, recombined"


def write_corpus(path: Path, n: int, pool: list[str], seed: int = 0) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            text = "\n\n".join(rng.choices(pool, k=rng.choice((1, 1, 2, 3))))
            fh.write(json.dumps({"doc_id": f"d{i:07d}", "text": text}, ensure_ascii=False) + "\n")


# -- what a process tree used ---------------------------------------------------------------------
def _descendants(root: int | None = None) -> list[int]:
    """The live processes below ``root`` (default: this one; pool workers, a local Ray's daemons
    and workers, a server's worker processes)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    out, frontier = [], [os.getpid() if root is None else root]
    while frontier:
        kids = parents.get(frontier.pop(), [])
        out += kids
        frontier += kids
    return out


def _proc_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / _TICK  # utime stime cutime cstime


def _peak_mb(pid: int | str = "self") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _is_ray_worker(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::")
    except OSError:
        return False


def tree_cpu() -> float:
    """CPU seconds of this process, its finished children and every live descendant."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + done.ru_utime + done.ru_stime + sum(map(_proc_cpu, _descendants()))


# -- one measurement, in its own process ----------------------------------------------------------
def measure_floor(corpus: str) -> dict:
    import regex

    words, stops = regex.compile(r"[\p{L}\p{M}\p{N}]+"), re.compile("[।॥.?!]+")
    cpu, wall = tree_cpu(), time.perf_counter()
    docs = 0
    with open(corpus, "rb") as fh:
        for line in fh:
            text = json.loads(line)["text"]
            words.findall(text)
            stops.split(text)
            docs += 1
    return {"docs": docs, "cpu_s": tree_cpu() - cpu, "wall_s": time.perf_counter() - wall, "driver_mb": _peak_mb()}


def warm_worker(sample: str) -> float:
    """(in a worker) Its peak memory once it has mined a tiny shard: the interpreter, the code,
    its compiled patterns and caches; what a shard adds is measured above this."""
    from indicifeval.builder.ground import mining

    shard = mining.Shard("warm", sample, "jsonl")
    with tempfile.TemporaryDirectory() as tmp:
        if hasattr(mining, "write_features"):
            mining.write_vocab(mining.VocabTask(shard, "hi", out=f"{tmp}/v.json"))
            mining.write_features(mining.FeatureTask(shard, "hi", ("भारत",), out=f"{tmp}/f.jsonl"))
        else:  # a version whose workers send their parts back
            mining.map_vocab(mining.VocabTask(shard, "hi"))
            mining.map_features(mining.FeatureTask(shard, "hi", ("भारत",)))
    return _peak_mb()


def measure_baseline(executor: str, sample: str) -> dict:
    if executor == "ray":
        import ray

        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
        try:
            return {"worker_mb": ray.get(ray.remote(warm_worker).remote(sample))}
        finally:
            ray.shutdown()
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return {"worker_mb": pool.submit(warm_worker, sample).result()}


def _calls(folder: Path, stage: str, plan: str = "default") -> tuple[dict, dict]:
    from indicifeval.builder.ground import stages
    from indicifeval.builder.ground.mining import stop_fingerprint
    from indicifeval.builder.ground.select import plan_path

    if stage == "vocab":
        return {}, {"language": "hi", "min_length": 4, "top_k": 500, "min_df": 2, "skip_top": 0,
                    "stop_words": stop_fingerprint("hi")}
    if stage == "features":
        return {"keywords": folder / stages.KEYWORDS}, {"language": "hi", "max_chars": 1000}
    return {"plan": plan_path(plan)}, {"language": "hi", "plan": plan}


def measure_stage(folder: str, corpus: str, stage: str, executor: str, workers: int, plan: str = "default") -> dict:
    from indicifeval.builder.executors import create_executor
    from indicifeval.builder.project import BuildFolder
    from indicifeval.builder.stages import run_stage

    build = BuildFolder(folder)
    start = {"start_s": 0.0, "start_cpu_s": 0.0}
    made = []
    if executor == "ray":  # started for real, before the stage: a running cluster's cost is apart
        cpu, wall = tree_cpu(), time.perf_counter()
        made.append(create_executor("ray", workers))
        start = {"start_s": time.perf_counter() - wall, "start_cpu_s": tree_cpu() - cpu}

    def factory():
        if not made:
            made.append(create_executor(executor, workers))
        return made[0]

    inputs, params = _calls(Path(folder), stage, plan)
    cpu, wall = tree_cpu(), time.perf_counter()
    record = run_stage(build, "ground", stage, inputs=inputs, params=params, executor=factory,
                       sources={"corpus": corpus})
    out = {"cpu_s": tree_cpu() - cpu, "wall_s": time.perf_counter() - wall, "driver_mb": _peak_mb(), **start}
    workers_mb = [_peak_mb(p) for p in _descendants() if _is_ray_worker(p)]
    for ex in made:
        ex.shutdown()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 if executor == "processes" else 0
    # serial, and processes given one shard, run it in the driver
    out["worker_mb"] = max(workers_mb + [children]) or out["driver_mb"]
    out["shards"] = record.counts.get("shards", 0)
    return out


def _run(*args: str) -> dict:
    done = subprocess.run([sys.executable, __file__, "--measure", *args], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"measurement {args[:3]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- the runs and the report ----------------------------------------------------------------------
def prepare(folder: Path, corpus: Path, shard_bytes: int) -> list[dict]:
    """A build folder whose shards stage is done (not measured); returns the shards."""
    from indicifeval.builder.ground import stages  # noqa: F401  (registers the Ground stages)
    from indicifeval.builder.project import BuildFolder
    from indicifeval.builder.stages import run_stage

    build = BuildFolder(folder).create("hi")
    run_stage(build, "ground", "shards", inputs={"corpus": corpus},
              params={"corpus": corpus.name, "revision": None, "shard_bytes": shard_bytes}, sources={"corpus": corpus})
    return json.loads((folder / "ground" / "shards.json").read_text(encoding="utf-8"))["shards"]


def _row(n: int, stage: str, executor: str, r: dict, floor: dict) -> str:
    ratio = r["cpu_s"] / floor["cpu_s"]
    return (f"{n:>10,} {stage:>9} {executor:>10} {r['cpu_s']:>8.2f} {r['wall_s']:>8.2f} {r['driver_mb']:>9.0f} "
            f"{r['worker_mb']:>9.0f} {floor['cpu_s']:>8.2f} {ratio:>6.2f}x")


def _verdict(ok: bool) -> str:
    return "target met" if ok else "target NOT met"


def report(results: dict, floors: dict, sizes: list[int], executors: list[str], shard_mb: dict,
           baseline: dict, workers: int) -> None:
    print()
    for stage in ("features", "select"):
        ratios = [results[n, stage, "serial"]["cpu_s"] / floors[n]["cpu_s"] for n in sizes]
        shown = ", ".join(f"{r:.2f}x at {n:,}" for r, n in zip(ratios, sizes))
        print(f"{stage} CPU <= {TARGET_RATIO}x the floor (serial): {shown}: {_verdict(max(ratios) <= TARGET_RATIO)}")
    if len(sizes) > 1:
        for stage in STAGES:
            per_doc = [results[n, stage, "serial"]["cpu_s"] / n for n in sizes]
            growth = per_doc[-1] / per_doc[0]
            print(f"{stage} CPU per document, {sizes[-1]:,} against {sizes[0]:,}: {growth:.2f}x "
                  f"(linear: {_verdict(growth <= 1.25)})")
    for n in sizes:
        shards = results[n, "features", "serial"]["shards"]
        print(f"{n:,} documents: {shards} shards of at most {shard_mb[n]:.1f} MB for {workers} workers: "
              f"{_verdict(shards >= workers)}")
    for executor, base in baseline.items():
        over = [(results[n, s, executor]["worker_mb"] - base) / shard_mb[n] for n in sizes for s in STAGES[:2]]
        shown = ", ".join(f"{s} {x:.2f}" for s, x in zip([f"{s} at {n:,}" for n in sizes for s in STAGES[:2]], over))
        print(f"{executor} worker peak above its warm baseline ({base:.0f} MB), in shard sizes: {shown}: "
              f"<= {BUDGET_FACTOR}: {_verdict(max(over) <= BUDGET_FACTOR)}")
    if {"ray", "processes"} <= set(executors):
        n = sizes[-1]
        for stage in ("vocab", "features"):
            ray, proc = results[n, stage, "ray"], results[n, stage, "processes"]
            speed = proc["wall_s"] / ray["wall_s"]
            print(f"ray against processes, {stage} at {n:,}, the cluster running: {speed:.2f}x the speed "
                  f"(within 5%: {_verdict(speed >= 0.95)}); counting its start ({ray['start_s']:.1f} s): "
                  f"{proc['wall_s'] / (ray['wall_s'] + ray['start_s']):.2f}x; driver {ray['driver_mb']:.0f} MB")
            for other in ("serial", "processes"):
                print(f"  ray started for the run catches up with {other} {_crossover(results, sizes, stage, other)}")


def _crossover(results: dict, sizes: list[int], stage: str, other: str) -> str:
    """Where ray, its start counted, takes no longer than ``other``: from the wall time's growth
    per document (the two largest sizes) and what is left fixed."""
    if len(sizes) < 2:
        return "(needs two sizes)"
    (n1, n2) = sizes[-2:]

    def line(executor: str, extra: float = 0.0) -> tuple[float, float]:
        w1, w2 = results[n1, stage, executor]["wall_s"], results[n2, stage, executor]["wall_s"]
        slope = (w2 - w1) / (n2 - n1)
        return slope, w2 - slope * n2 + extra

    ray_slope, ray_fixed = line("ray", results[n2, stage, "ray"]["start_s"])
    slope, fixed = line(other)
    if ray_fixed <= fixed:
        return "at once"
    if ray_slope >= slope:
        return "never here (no faster per document)"
    return f"from about {(ray_fixed - fixed) / (slope - ray_slope):,.0f} documents"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="corpus sizes in documents")
    parser.add_argument("--full", action="store_true", help="add 1,000,000 documents (about 1.4 GB, minutes)")
    parser.add_argument("--executors", default=",".join(EXECUTORS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shard-mb", type=float, default=64.0, help="the configured shard size (--shard-mb)")
    parser.add_argument("--keep", help="keep the corpora and build folders here")
    parser.add_argument("--plan", default="default", help="the plan select runs (beyond: the instructions beyond the "
                        "paper, whose contexts are judged by their checkers) (default: default)")
    parser.add_argument("--measure", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        kind, *rest = args.measure
        out = (measure_floor(*rest) if kind == "floor" else measure_baseline(*rest) if kind == "baseline"
               else measure_stage(rest[0], rest[1], kind, rest[2], int(rest[3]), rest[4]))
        print(json.dumps(out))
        return 0
    sizes = sorted({int(s) for s in args.sizes.split(",") if s} | ({1_000_000} if args.full else set()))
    executors = [e for e in args.executors.split(",") if e]
    if "serial" not in executors:  # the reference every ratio and growth figure is read against
        executors.insert(0, "serial")
    if "ray" in executors:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("ray is not installed: the ray executor is left out")
            executors.remove("ray")
    pool, source = paragraph_pool()
    root = Path(args.keep or tempfile.mkdtemp(prefix="bench-ground-"))
    root.mkdir(parents=True, exist_ok=True)
    sample = root / "warm.jsonl"
    write_corpus(sample, 100, pool, seed=1)
    baseline = {e: _run("baseline", e, str(sample))["worker_mb"] for e in executors if e != "serial"}
    results: dict = {}
    floors: dict = {}
    shard_mb: dict = {}
    print(f"corpus: {source}; {args.workers} workers; configured shard size {args.shard_mb:g} MB; plan {args.plan}")
    print(f"{'documents':>10} {'stage':>9} {'executor':>10} {'CPU s':>8} {'wall s':>8} {'driver MB':>9} "
          f"{'worker MB':>9} {'floor s':>8} {'ratio':>7}")
    try:
        for n in sizes:
            corpus = root / f"corpus-{n}.jsonl"
            write_corpus(corpus, n, pool)
            ready = root / f"build-{n}"
            shards = prepare(ready, corpus, int(args.shard_mb * 2**20))
            size = corpus.stat().st_size
            shard_mb[n] = max((s["end"] or size) - s["start"] for s in shards) / 2**20
            floors[n] = _run("floor", str(corpus))
            for executor in executors:
                folder = root / f"build-{n}-{executor}"
                shutil.rmtree(folder, ignore_errors=True)
                shutil.copytree(ready, folder)
                for stage in STAGES if executor == "serial" else STAGES[:2]:
                    r = results[n, stage, executor] = _run(stage, str(folder), str(corpus), executor,
                                                           str(args.workers), args.plan)
                    print(_row(n, stage, executor, r, floors[n]), flush=True)
            print(f"{n:>10,} {'floor':>9} {'':>10} {floors[n]['cpu_s']:>8.2f} {floors[n]['wall_s']:>8.2f} "
                  f"{floors[n]['driver_mb']:>9.0f}   ({size / 2**20:,.0f} MB of JSONL, {len(shards)} shards)")
            if not args.keep:
                corpus.unlink()
        report(results, floors, sizes, executors, shard_mb, baseline, args.workers)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
