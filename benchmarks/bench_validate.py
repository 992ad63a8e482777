"""`indicifeval validate` on many rows: CPU time beside wall time and peak memory, side by side
with a floor that reads the same rows (one json.loads per line) and writes one line per row,
at growing sizes, so that growth shows: the time should grow with the rows, the memory not.

    python benchmarks/bench_validate.py                    # 10k and 100k rows
    python benchmarks/bench_validate.py --sizes 10000,100000,1000000

The rows are the bundled sample's (every language, both subsets) repeated under new keys, so
the findings per row are those of the sample."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from process_measure import measure  # noqa: E402  (the one measurement: a launcher, one core)

FLOOR = r'''
import json, sys
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in open(sys.argv[1], encoding="utf-8"):
        row = json.loads(line)
        out.write(json.dumps({"key": row["key"], "instructions": len(row["instruction_id_list"])}) + "\n")
'''
# the command as installed; exit 1 (the rows have errors: the sample's Ground rows lack relations,
# as the released ones do) is a result here, not a failure
VALIDATE = "import sys; from indicifeval.cli import main; rc = main(sys.argv[1:]); sys.exit(0 if rc in (0, 1) else rc)"
TARGET_GROWTH_MB = 30  # peak memory may grow by this much from the smallest size to the largest


def write_rows(path: Path, n: int) -> None:
    from indicifeval.dataset.rows import SAMPLE, load_rows

    sample = [r.to_json() for r in load_rows(SAMPLE)]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            row = dict(sample[i % len(sample)])
            row["key"] = f"{row['key']}-{i // len(sample)}"
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000", help="rows per measurement, comma-separated")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    print(f"{'rows':>9} {'validate CPU s':>15} {'wall s':>8} {'peak MB':>8} {'rows/s/core':>12} "
          f"{'floor CPU s':>12} {'floor MB':>9} {'ratio':>6}")
    peaks = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            rows = Path(tmp) / f"rows-{n}.jsonl"
            write_rows(rows, n)
            ours = measure([sys.executable, "-c", VALIDATE, "validate", str(rows), "--quiet", "--out",
                            str(Path(tmp) / f"findings-{n}.jsonl"), "--overwrite"])
            floor = measure([sys.executable, "-c", FLOOR, str(rows), str(Path(tmp) / f"floor-{n}.jsonl")])
            peaks.append(ours["peak_mb"])
            print(f"{n:>9} {ours['cpu_s']:>15.2f} {ours['wall_s']:>8.2f} {ours['peak_mb']:>8.0f} "
                  f"{n / ours['cpu_s']:>12,.0f} {floor['cpu_s']:>12.2f} {floor['peak_mb']:>9.0f} "
                  f"{ours['cpu_s'] / floor['cpu_s']:>6.1f}")
            rows.unlink()
    growth = peaks[-1] - peaks[0]
    met = "met" if growth <= TARGET_GROWTH_MB else "not met"
    print(f"peak memory from {sizes[0]:,} to {sizes[-1]:,} rows: {peaks[0]:.0f} -> {peaks[-1]:.0f} MB "
          f"(+{growth:.0f} MB; target: flat, at most +{TARGET_GROWTH_MB} MB): {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
