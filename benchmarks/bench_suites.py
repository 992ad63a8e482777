"""Scoring speed on the other suites' instructions (open-instruct's RL-training ids, IFBench's),
beside the same floor bench_scoring measures IFEval's workload against.

The workload is each suite's bundled sample (every id in every language where it is defined,
with a passing answer) repeated under fresh keys to about ``--rows`` rows per language; a
second copy of each answer, cut in half, makes half the rows fail somewhere. The whole
``indicifeval score`` process (fixed mode: the only one these ids have) is measured beside the
floor, each pinned to one core:

    python benchmarks/bench_suites.py                    # both suites, 800 rows a language
    python benchmarks/bench_suites.py --rows 200 --suite ifbench
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from process_measure import _ENV, FLOOR, measure

SUITES = ("open-instruct", "ifbench")


def write_workload(folder: Path, suite: str, rows_per_language: int) -> tuple[Path, Path, int]:
    from indicifeval.dataset import load_responses, load_rows

    rows = load_rows(f"sample-{suite}")
    answers = load_responses(f"sample-{suite}")
    by_language: dict[str, list] = defaultdict(list)
    for row in rows:
        by_language[row.language].append(row)
    out_rows, out_answers = [], []
    for language, own in sorted(by_language.items()):
        for n in range(rows_per_language):
            row = own[n % len(own)]
            text = answers.lookup(row) or ""
            key = f"{row.key}-{n}"
            out_rows.append({**row.to_record(), "key": key})
            out_answers.append({"key": key, "language": language, "subset": row.subset,
                                "response": text if n % 2 == 0 else text[: len(text) // 2]})
    rows_file, responses_file = folder / f"{suite}.rows.jsonl", folder / f"{suite}.responses.jsonl"
    for path, records in ((rows_file, out_rows), (responses_file, out_answers)):
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return rows_file, responses_file, len(out_rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=800, help="rows per language (default 800)")
    parser.add_argument("--suite", choices=SUITES, action="append", help="a suite (default: both)")
    args = parser.parse_args(argv)
    print(f"{'workload':36} {'rows':>6} {'CPU s':>7} {'wall s':>7} {'peak MB':>8} {'CPU vs floor':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        floor = Path(tmp) / "floor.py"
        floor.write_text(FLOOR, encoding="utf-8")
        warm_up = [sys.executable, "-m", "indicifeval", "score", "--data", "sample", "--out", str(Path(tmp) / "warm"),
                   "--quiet"]
        subprocess.run(warm_up, env=_ENV, check=True, stdout=subprocess.DEVNULL)  # compiles the byte code
        for suite in args.suite or SUITES:
            rows_file, responses_file, n = write_workload(Path(tmp), suite, args.rows)
            base = measure([sys.executable, str(floor), str(rows_file), str(responses_file),
                            str(Path(tmp) / f"floor-{suite}.jsonl")])
            score = measure([sys.executable, "-m", "indicifeval", "score", "--data", str(rows_file), "--responses",
                             str(responses_file), "--out", str(Path(tmp) / f"out-{suite}"), "--quiet"])
            for label, r in ((f"floor (I/O only), {suite}", base), (f"indicifeval score, {suite}", score)):
                print(f"{label:36} {n:>6} {r['cpu_s']:>7.2f} {r['wall_s']:>7.2f} {r['peak_mb']:>8.0f} "
                      f"{r['cpu_s'] / base['cpu_s']:>12.2f}x")


if __name__ == "__main__":
    main()
