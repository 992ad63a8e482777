"""Whole processes measured as a user runs them: the floor (what any pure-Python scorer must at
least do), a bare launcher that reports a child's own CPU and peak memory, one core each."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# What any pure-Python scorer must do at least: read the same two files, split each answer once
# with one regular expression, and write one JSON line per row.
FLOOR = r'''
import json, re, sys
rows_file, responses_file, out_file = sys.argv[1:4]
word = re.compile(r"\w+")
answers = {}
for line in open(responses_file, encoding="utf-8"):
    r = json.loads(line)
    answers[(r["language"], r["subset"], str(r["key"]))] = r["response"]
with open(out_file, "w", encoding="utf-8") as out:
    for line in open(rows_file, encoding="utf-8"):
        row = json.loads(line)
        n = len(word.findall(answers[(row["language"], row["subset"], str(row["key"]))]))
        out.write(json.dumps({"key": row["key"], "language": row["language"], "words": n,
                              "followed": [n > 10] * len(row["instruction_id_list"])}) + "\n")
print("{}")
'''

# Starts the measured process and reports its own CPU time and peak memory: a process forked
# from this benchmark (which holds the workload) would start with this benchmark's memory
# counted as its peak; the launcher is a bare interpreter (about 10 MB), the least any peak shows.
LAUNCHER = r'''
import json, os, subprocess, sys, time
report, argv = sys.argv[1], sys.argv[2:]
started = time.perf_counter()
proc = subprocess.Popen(argv)
_, status, usage = os.wait4(proc.pid, 0)
with open(report, "w") as fh:
    json.dump({"status": os.waitstatus_to_exitcode(status), "cpu_s": usage.ru_utime + usage.ru_stime,
               "wall_s": time.perf_counter() - started, "peak_mb": usage.ru_maxrss / 1024}, fh)
'''


def _pinned(argv: list[str]) -> list[str]:
    return (["taskset", "-c", "0"] if shutil.which("taskset") else []) + argv


# An installed package has its byte code compiled; a machine that sets PYTHONDONTWRITEBYTECODE
# would otherwise have every measured process compile the sources again (40-60 ms).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(argv: list[str], cwd: str | None = None, env: dict | None = None) -> dict:
    """CPU seconds (user + system), wall seconds and peak RSS of one process pinned to one
    core, and the last line of its stdout."""
    env = _ENV if env is None else env
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryFile("w+", encoding="utf-8") as out_fh, \
            tempfile.TemporaryFile("w+", encoding="utf-8") as err_fh:  # files: a chatty child never blocks
        report = Path(tmp) / "usage.json"
        subprocess.run(_pinned([sys.executable, "-c", LAUNCHER, str(report), *argv]), stdout=out_fh, stderr=err_fh,
                       text=True, cwd=cwd, env=env, check=False)
        out_fh.seek(0)
        err_fh.seek(0)
        out, err = out_fh.read(), err_fh.read()
        usage = json.loads(report.read_text()) if report.is_file() else {"status": -1}
    if usage["status"] != 0:
        raise SystemExit(f"{' '.join(argv[:3])} failed:\n{err[-2000:]}")
    last = out.strip().splitlines()[-1] if out.strip() else ""
    return {**usage, "out": last}


def _least(runs: list[dict]) -> dict:
    """The run of least CPU (what the machine's noise added least to), with the others' CPU."""
    best = min(runs, key=lambda r: r["cpu_s"])
    return {**best, "cpu_runs": [r["cpu_s"] for r in runs]}
