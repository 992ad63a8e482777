"""Throughput of the OpenAI-compatible backend against a loopback server with fixed latency.

The server runs in its own process and answers every request after ``--latency`` seconds, so
the ideal throughput at concurrency c is c / latency. Prints achieved vs ideal:

    python benchmarks/bench_openai.py                  # 50 ms, concurrency 1, 16, 64
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("server exited")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server did not start")


def measure(url: str, concurrency: int, n: int) -> float:
    from indicifeval.runs.backends.openai_http import OpenAIBackend
    from indicifeval.runs.backends.options import OpenAIOptions
    from indicifeval.runs.requests import GenerationRequest, SamplingSettings

    backend = OpenAIBackend("bench", OpenAIOptions(base_url=url, concurrency=concurrency, timeout_s=30))
    settings = SamplingSettings(max_tokens=64)
    requests = [GenerationRequest(f"r{i}", [{"role": "user", "content": f"prompt number {i} " * 20}], settings)
                for i in range(n)]
    done = []
    start = time.perf_counter()
    backend.generate(requests, done.append)
    elapsed = time.perf_counter() - start
    assert len(done) == n
    return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", default="1,16,64")
    parser.add_argument("--seconds", type=float, default=3.0, help="target duration per level")
    args = parser.parse_args()
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "indicifeval.testing.fake_server", "--port", str(port),
                               "--answers", "echo", "--latency", str(args.latency)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(port, server)
        url = f"http://127.0.0.1:{port}/v1"
        measure(url, 4, 20)  # warm up
        print(f"latency {args.latency * 1000:.0f} ms per request; server and client on this machine")
        print(f"{'concurrency':>11} {'requests':>8} {'req/s':>8} {'ideal':>8} {'of ideal':>8}")
        for c in (int(x) for x in args.concurrency.split(",")):
            ideal = c / args.latency
            n = max(c * 4, int(ideal * args.seconds))
            rate = measure(url, c, n)
            print(f"{c:>11} {n:>8} {rate:>8.1f} {ideal:>8.1f} {100 * rate / ideal:>7.1f}%")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
