"""Accuracy of response-language identification on our own test texts.

    python benchmarks/langid_accuracy.py            # our identifier (fixed mode)
    python benchmarks/langid_accuracy.py --all      # also langdetect as the authors call it
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "langid"


def load_texts() -> list[dict]:
    texts = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        texts += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return texts


def accuracy(identify, texts) -> tuple[dict, list]:
    per = defaultdict(lambda: [0, 0])
    errors = []
    for t in texts:
        got = identify(t["text"])
        key = t["lang"] if t["kind"] != "hard" else f"{t['lang']} (hard)"
        per[key][1] += 1
        if got == t["lang"]:
            per[key][0] += 1
        else:
            errors.append((t["lang"], t["kind"], got, t["text"][:60]))
    return dict(per), errors


def _langdetect(text: str):
    from indicifeval.text.langdetect_compat import NoFeatures, detect

    try:
        return detect(text)
    except NoFeatures:
        return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--all", action="store_true", help="also measure langdetect (paper mode)")
    parser.add_argument("--errors", action="store_true", help="list misidentified texts")
    args = parser.parse_args()
    from indicifeval.text.langid import identify_language

    texts = load_texts()
    systems = [("ours", identify_language)] + ([("langdetect", _langdetect)] if args.all else [])
    results = {name: accuracy(fn, texts) for name, fn in systems}
    keys = sorted(results["ours"][0], key=lambda k: ("hard" in k, k))
    print(f"{'language':14}" + "".join(f"{name:>14}" for name, _ in systems))
    totals = {name: [0, 0] for name, _ in systems}
    for k in keys:
        cells = []
        for name, _ in systems:
            ok, n = results[name][0][k]
            totals[name][0] += ok
            totals[name][1] += n
            cells.append(f"{ok:>5}/{n:<3} {100 * ok / n:5.1f}%"[-14:].rjust(14))
        print(f"{k:14}" + "".join(cells))
    print(f"{'all':14}" + "".join(
        f"{totals[n][0]:>5}/{totals[n][1]:<3} {100 * totals[n][0] / totals[n][1]:5.1f}%".rjust(14)
        for n, _ in systems))
    if args.errors:
        for name, _ in systems:
            for e in results[name][1]:
                print(name, *e)


if __name__ == "__main__":
    main()
