"""What each implicit constraint buys: the hack matrix (``indicifeval.testing.hacks``: answers
that game the plain reward, made from the bundled sample in every language) scored with the
plain reward and with the implicit constraints, per hack type, with the constraints that
caught it. Prints a markdown table (docs/rewards.md holds one).

    python benchmarks/hack_matrix.py [--reward fraction]
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from indicifeval.languages import list_languages
from indicifeval.rewards import score_batch
from indicifeval.rewards.export import ground_truth
from indicifeval.testing.hacks import hack_cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reward", default="fraction", help="the reward kind (default: %(default)s)")
    args = parser.parse_args()
    cases = [c for language in sorted(list_languages()) for c in hack_cases(language)]
    items = [{**ground_truth(row), "response": answer} for _, row, answer in cases]
    plain = score_batch(items, reward=args.reward, implicit=None)
    guarded = score_batch(items, reward=args.reward)
    by_hack: dict[str, list] = defaultdict(list)
    for (hack, row, _), p, g in zip(cases, plain, guarded):
        by_hack[hack].append((row.language, p.reward, g.reward, g.implicit or []))
    print("| hack | answers | languages | plain reward above 0 | mean plain reward | mean reward | caught by |")
    print("|---|---|---|---|---|---|---|")
    for hack, results in by_hack.items():
        caught: Counter[str] = Counter(r.split(":")[1] for _, _, _, reasons in results for r in reasons[:1])
        n = len(results)
        print(f"| {hack} | {n} | {len({lang for lang, *_ in results})} | {sum(1 for _, p, *_ in results if p):>3} "
              f"| {sum(p for _, p, *_ in results) / n:.2f} | {sum(g for _, _, g, _ in results) / n:.2f} "
              f"| {', '.join(f'{k} {v}' for k, v in caught.most_common())} |")


if __name__ == "__main__":
    main()
