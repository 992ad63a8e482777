"""A simulated two-annotator review round through the real app (HTTP, Starlette's test
client): every item seen by both annotators, the second disagreeing with the first on a share
of the answers, then export and agreement, as `build review export|agreement` do.

    python benchmarks/review_round.py                       # the bundled sample's English rows, in hi
    python benchmarks/review_round.py --source ../shared/data/indicifeval-en-source/verified_dataset-en.jsonl

Prints the time per verdict (server side, through HTTP) and the agreement table."""

from __future__ import annotations

import argparse
import random
import re
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default="sample", help="English rows for the Trans build (default: the sample)")
    parser.add_argument("--lang", default="hi")
    parser.add_argument("--flip", type=float, default=0.03, help="share of answers the second annotator flips")
    parser.add_argument("--bad", type=float, default=0.05, help="share of items both judge incorrect")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from starlette.testclient import TestClient

    from indicifeval.builder.review.app import create_app
    from indicifeval.builder.review.serve import export_verdicts, open_review, write_agreement
    from indicifeval.builder.trans.pipeline import EngineSpec, build_trans

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / args.lang
        build_trans(folder, args.lang, args.source, EngineSpec("mock", "fake", {"answers": "fake:0"}))
        tokens = {"asha": ("asha-token-0123456789", "annotator"), "ravi": ("ravi-token-0123456789", "annotator")}
        review = open_review([folder], tokens, overlap=1.0, seed=args.seed)
        bad_items = {i.id for i in review.stores[0].items() if rng.random() < args.bad}
        clients = {}
        for name, (token, _) in tokens.items():
            c = TestClient(create_app(review), follow_redirects=False)
            c.post("/login", data={"token": token})
            clients[name] = c
        timings, n = 0.0, 0
        for name, c in clients.items():
            while True:
                location = c.get("/next").headers.get("location")
                if not location:
                    break
                page = c.get(location).text
                item = re.search(r'data-item="([^"]+)"', page).group(1)
                data = {"item": item, "csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1)}
                for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
                    values = re.findall(rf'name="{q}" value="([^"]+)"', page)
                    good, worse = values[0], values[-1]
                    answer = worse if item in bad_items and q == "q_meaningful" else good
                    if name == "ravi" and rng.random() < args.flip:
                        answer = good if answer == worse else worse
                    data[q] = answer
                started = time.perf_counter()
                c.post("/verdict", data=data)
                timings += time.perf_counter() - started
                n += 1
        export_verdicts(folder)
        _, table = write_agreement(folder, bootstrap=1000, seed=args.seed)
    print(f"{n} verdicts on {n // 2} items, {timings / max(n, 1) * 1000:.1f} ms per verdict (HTTP, SQLite commit)")
    names = ("raw_agreement", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1")
    print(f"{'language':>8} {'question':>12} {'items':>6} " + " ".join(f"{n:>22}" for n in names))
    for row in table:
        cells = []
        for name in names:
            e = row[name]
            cells.append("—" if e["value"] is None else f"{e['value']:.3f} [{e['low']:.2f},{e['high']:.2f}]"
                         if e["low"] is not None else f"{e['value']:.3f}")
        print(f"{row['language']:>8} {row['question']:>12} {row['items_rated_twice']:>6} "
              + " ".join(f"{c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
