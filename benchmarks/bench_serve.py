"""The scorer as a reward, measured: ``indicifeval serve``'s /score throughput per core at
batch sizes 1, 32 and 256, p50/p99 latency at 1, 16 and 64 concurrent clients on loopback,
two workers against one, and the in-process adapters' cost per answer beside ``score``'s own
(``scoring.api.score_rows``), all on bench_scoring's workload (15 languages, 150-600-word
answers following about 75% of their instructions) and in one run:

    python benchmarks/bench_serve.py              # 100 rows a language (1,500 answers)
    python benchmarks/bench_serve.py --rows 300
    python benchmarks/bench_serve.py --nemo-python /path/to/py313-venv/bin/python   # NeMo Gym's verify too

Throughput per core is answers over the server's own CPU seconds (its process tree, read from
/proc); the client runs in this process. On a machine with two cores the client shares them
with two workers, so the two-worker figure is a floor of what more cores give."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_ground import _descendants, _proc_cpu  # noqa: E402
from bench_scoring import build_workload  # noqa: E402

BATCHES = (1, 32, 256)
CLIENTS = (1, 16, 64)
WORKERS_TARGET = 1.6  # two workers against one, answers per second
IMPLICIT_TARGET = 0.10  # the implicit constraints' cost of /score's per-core throughput at batch 256
ADAPTER_TARGET = 1.10  # the in-process adapter against score's per-answer cost
# clients for the workers' comparison: a keep-alive connection stays with the worker that took
# it, so a few connections can all land on one worker; a trainer's many rollouts open many
PARALLEL_CLIENTS = 16


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants (with the children they reaped), from /proc."""
    return _proc_cpu(pid) + sum(map(_proc_cpu, _descendants(pid)))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, workers: int, *extra: str):
        import httpx

        self.port = _free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "indicifeval", "serve", "--port", str(self.port),
                                      "--workers", str(workers), "--max-batch", "100000", *extra],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/health").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        time.sleep(3.0 if workers > 1 else 0)  # every worker up (each loads the app), not only the first to answer

    def cpu(self) -> float:
        return _tree_cpu(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


async def _run_clients(url: str, items: list[dict], batch: int, clients: int) -> tuple[float, list[float]]:
    """All items in batches, ``clients`` at a time; (wall seconds, per-request latencies)."""
    import aiohttp  # (a core dependency; its client costs far less CPU a request than httpx's)

    bodies = [json.dumps(items[i:i + batch], ensure_ascii=False).encode() for i in range(0, len(items), batch)]
    latencies: list[float] = []
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(url, connector=connector, timeout=aiohttp.ClientTimeout(total=600)) as client:
        async def worker() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                started = time.perf_counter()
                async with client.post("/score", data=body, headers={"content-type": "application/json"}) as got:
                    text = await got.read()
                latencies.append(time.perf_counter() - started)
                assert got.status == 200, text[:300]

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        return time.perf_counter() - started, latencies


def measure_server(server: Server, items: list[dict], batch: int, clients: int, warm: bool = False) -> dict:
    if warm:  # every worker has scored every language (profiles and caches loaded) before the clock starts
        for _ in range(2):
            asyncio.run(_run_clients(server.url, items, 32, clients))
    cpu = server.cpu()
    wall, latencies = asyncio.run(_run_clients(server.url, items, batch, clients))
    used = server.cpu() - cpu
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return {"answers": len(items), "wall_s": wall, "server_cpu_s": used, "per_s": len(items) / wall,
            "per_core_s": len(items) / used if used else float("nan"), "p50_ms": q[49] * 1000, "p99_ms": q[98] * 1000}


def _cpu() -> float:
    return time.process_time()


def in_process(rows: list[dict], responses: list[dict], repeats: int = 3) -> dict:
    """CPU ms per answer: score's own path (rows read and checked, then scored; not the files),
    score_batch and the TRL function with the plain reward (what the adapters add), and the TRL
    function with the implicit constraints (its default), each given every row once."""
    from indicifeval.dataset import load_rows
    from indicifeval.dataset.responses import Responses
    from indicifeval.rewards import score_batch, trl
    from indicifeval.scoring.api import pair_responses, score_rows

    answers = Responses()
    for r in responses:
        answers.by_uid[(r["language"], r["subset"], r["key"])] = r["response"]

    def score() -> None:  # as the command does it: the rows read and checked, paired, scored
        pairs, _ = pair_responses(load_rows(rows), answers, allow_missing=False)
        score_rows(pairs, "fixed", workers=1)
    text = {r["key"]: r["response"] for r in responses}
    items = [{**row, "response": text[row["key"]]} for row in rows]
    columns = {"language": [r["language"] for r in rows], "kwargs": [json.dumps(r["kwargs"]) for r in rows],
               "instruction_id_list": [r["instruction_id_list"] for r in rows]}
    fn, plain = trl(), trl(implicit=None)
    completions = [text[r["key"]] for r in rows]
    runs = {"score": score, "score_batch": lambda: score_batch(items, implicit=None),
            "trl": lambda: plain(prompts=[""] * len(rows), completions=completions, **columns),
            "trl+implicit": lambda: fn(prompts=[""] * len(rows), completions=completions, **columns)}
    best = {name: float("inf") for name in runs}
    for _ in range(repeats):  # interleaved, the best of each: the machine's noise is the same for all
        for name, run in runs.items():
            started = _cpu()
            run()
            best[name] = min(best[name], _cpu() - started)
    return {name: seconds / len(rows) * 1000 for name, seconds in best.items()}


# NeMo Gym's verify, in process, under an interpreter that has nemo-gym (Python >= 3.13): the
# same English answers as verify requests, its CPU per answer (its checks that need NLTK's
# punkt_tab data raise without it and count as not followed, which only makes it faster)
NEMO = r'''
import asyncio, json, sys, time
from unittest.mock import MagicMock
from nemo_gym.server_utils import ServerClient
from resources_servers.instruction_following.app import (
    InstructionFollowingResourcesServer, InstructionFollowingResourcesServerConfig, InstructionFollowingVerifyRequest)
cfg = InstructionFollowingResourcesServerConfig(host="127.0.0.1", port=1, entrypoint="", name="",
                                                domain="instruction_following")
server = InstructionFollowingResourcesServer(config=cfg, server_client=MagicMock(spec=ServerClient))
bodies = [InstructionFollowingVerifyRequest.model_validate(json.loads(line)) for line in open(sys.argv[1])]
async def run():
    return [await server.verify(b) for b in bodies]
best = float("inf")
for _ in range(3):
    started = time.process_time()
    results = asyncio.run(run())
    best = min(best, time.process_time() - started)
print(json.dumps({"ms": best / len(bodies) * 1000, "rewards": [r.reward for r in results]}))
'''


def nemo_request(item: dict, index: int) -> dict:
    output = [{"id": f"msg_{index}", "type": "message", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": item["response"], "annotations": []}]}]
    return {"id": index, "responses_create_params": {"input": [{"role": "user", "content": item["prompt"]}]},
            "response": {"id": f"resp_{index}", "created_at": 0.0, "model": "bench", "object": "response",
                         "output": output, "parallel_tool_calls": False, "tool_choice": "auto", "tools": []},
            "verifier_metadata": {"instruction_id_list": item["instruction_id_list"], "kwargs": item["kwargs"],
                                  "prompt": item["prompt"], "grading_mode": "binary"}}


def side_by_side(nemo_python: str, items: list[dict]) -> None:
    import tempfile

    from indicifeval.rewards import score_batch

    english = [i for i in items if i["language"] == "en"]
    with tempfile.TemporaryDirectory() as folder:
        requests, script = Path(folder) / "requests.jsonl", Path(folder) / "nemo.py"
        requests.write_text("".join(json.dumps(nemo_request(i, n)) + "\n" for n, i in enumerate(english)))
        script.write_text(NEMO)
        done = subprocess.run([nemo_python, str(script), str(requests)], capture_output=True, text=True)
    if done.returncode:
        print(f"\nNeMo Gym's verify could not run: {done.stderr.strip().splitlines()[-1:]}")
        return
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    best = float("inf")
    for _ in range(3):
        started = _cpu()
        ours = score_batch(english, implicit=None)  # NeMo Gym has none
        best = min(best, _cpu() - started)
    mine = best / len(english) * 1000
    agree = sum(a == v.reward for a, v in zip(theirs["rewards"], ours)) / len(english)
    print(f"\nside by side, the {len(english)} English answers, CPU ms per answer (best of 3)")
    print(f"  NeMo Gym verify {theirs['ms']:7.3f} ms   indicifeval score_batch {mine:7.3f} ms   "
          f"({theirs['ms'] / mine:.1f}x); same reward on {agree:.0%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100, help="rows a language (15 languages)")
    parser.add_argument("--nemo-python", help="an interpreter with nemo-gym installed: its verify beside ours")
    parser.add_argument("--part", choices=("all", "implicit", "workers"), default="all",
                        help="what to measure: everything, the implicit constraints on and off, or 2 workers vs 1")
    args = parser.parse_args(argv)
    rows, responses = build_workload(args.rows)
    text = {r["key"]: r["response"] for r in responses}
    items = [{**row, "response": text[row["key"]]} for row in rows]
    print(f"workload: {len(items)} answers ({args.rows} a language), {os.cpu_count()} cores")

    if args.part == "implicit":
        return implicit_cost(items)
    if args.part == "workers":
        return workers_ratio(items)
    if args.nemo_python:
        side_by_side(args.nemo_python, items)
    costs = in_process(rows, responses)
    print("\nin process, CPU ms per answer (best of 3, interleaved)")
    for name, ms in costs.items():
        print(f"  {name:<12} {ms:7.3f} ms  ({ms / costs['score']:.2f}x score)")
    worst = max(costs["score_batch"], costs["trl"]) / costs["score"]
    print(f"  adapters within {ADAPTER_TARGET - 1:.0%} of score: {worst:.2f}x: "
          f"{'target met' if worst <= ADAPTER_TARGET else 'target NOT met'}")

    one = Server(1)
    try:
        measure_server(one, items, 32, 1, warm=True)
        print("\none worker, one client: throughput by batch size")
        print(f"  {'batch':>6} {'answers/s':>10} {'per core':>10} {'p50 ms':>8} {'p99 ms':>8}")
        for batch in BATCHES:
            r = measure_server(one, items if batch > 1 else items[:300], batch, 1)
            print(f"  {batch:>6} {r['per_s']:>10.0f} {r['per_core_s']:>10.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f}")
        print("\none worker, batch 1: latency by concurrent clients")
        print(f"  {'clients':>7} {'answers/s':>10} {'p50 ms':>8} {'p99 ms':>8}")
        for clients in CLIENTS:
            r = measure_server(one, items[:max(300, clients * 8)], 1, clients)
            print(f"  {clients:>7} {r['per_s']:>10.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f}")
    finally:
        one.stop()
    implicit_cost(items)
    return workers_ratio(items)


def workers_ratio(items: list[dict]) -> int:
    """Two workers against one at the default settings (the implicit constraints on)."""
    one = Server(1)
    try:
        single = measure_server(one, items * 6, 32, PARALLEL_CLIENTS, warm=True)
    finally:
        one.stop()
    two = Server(2)
    try:
        double = measure_server(two, items * 6, 32, PARALLEL_CLIENTS, warm=True)
    finally:
        two.stop()
    ratio = double["per_s"] / single["per_s"]
    print(f"\nbatch 32, {PARALLEL_CLIENTS} clients: 1 worker {single['per_s']:.0f}/s, 2 workers "
          f"{double['per_s']:.0f}/s: {ratio:.2f}x ({'target met' if ratio >= WORKERS_TARGET else 'target NOT met'}: "
          f">= {WORKERS_TARGET}x)")
    return 0


def implicit_cost(items: list[dict], rounds: int = 3) -> int:
    """/score's per-core throughput at batch 256, the implicit constraints on and off, the two
    servers measured in turn (the best round of each)."""
    servers = {"on": Server(1), "off": Server(1, "--implicit", "none")}
    best = {name: 0.0 for name in servers}
    try:
        for server in servers.values():
            measure_server(server, items, 32, 1, warm=True)
        for _ in range(rounds):
            for name, server in servers.items():
                best[name] = max(best[name], measure_server(server, items, 256, 1)["per_core_s"])
    finally:
        for server in servers.values():
            server.stop()
    cost = 1 - best["on"] / best["off"]
    print(f"\n/score, batch 256, one worker, answers per CPU second (best of {rounds}): implicit constraints off "
          f"{best['off']:.0f}, on {best['on']:.0f}: they cost {cost:.0%} "
          f"({'target met' if cost <= IMPLICIT_TARGET else 'target NOT met'}: <= {IMPLICIT_TARGET:.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
