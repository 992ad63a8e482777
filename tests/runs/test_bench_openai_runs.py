"""The OpenAI backend's benchmark still runs against the loopback server (it once called a
constructor that had changed): a short run, no figure asserted."""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_openai.py"


def test_bench_openai_runs_briefly():
    done = subprocess.run([sys.executable, str(BENCH), "--concurrency", "2", "--seconds", "0.2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "of ideal" in done.stdout
