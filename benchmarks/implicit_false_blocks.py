"""How often the implicit constraints block an honest answer (issue: at most 0.5 %).

Honest answers: the bundled sample's answers that pass their instructions (every suite, all
15 languages); with ../shared/data present, IFEval's English GPT-4 responses that pass their instructions and the shared
Indic corpus's documents (each read as an answer to a prompt of its language with no
instructions: what language, plausibility, padding and echo make of real text). Prints the rate
per source and every blocked answer's reason.

    python benchmarks/implicit_false_blocks.py [--shared ../shared/data] [--show 20]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from indicifeval.dataset import load_rows
from indicifeval.dataset.responses import load_responses
from indicifeval.dataset.rows import SAMPLES
from indicifeval.records import Row
from indicifeval.scoring.engine import resolve_row, score_row
from indicifeval.scoring.implicit import implicit_failures


def sample_answers():
    for name in SAMPLES:
        answers = load_responses(name)
        for row in load_rows(name):
            args = resolve_row(row, "fixed")
            answer = answers.lookup(row)
            if answer is not None and score_row(row, answer, "fixed", args).prompt_strict:
                yield f"sample {row.language}", row, args, answer


def english_answers(shared: Path):
    path = shared / "ifeval-en" / "input_response_data_gpt4_20231107_145030.jsonl"
    rows = {r.key: r for r in load_rows(shared / "ifeval-en" / "input_data.jsonl", language="en", subset="trans")}
    for line in open(path, encoding="utf-8"):
        record = json.loads(line)
        row = next((r for r in rows.values() if r.prompt == record["prompt"]), None)
        if row is not None and score_row(row, record["response"], "fixed").prompt_strict:
            yield "IFEval English GPT-4", row, resolve_row(row, "fixed"), record["response"]


def corpus_answers(shared: Path):
    for path in sorted((shared / "indic-corpus").glob("*.jsonl")):
        language = path.stem
        for n, line in enumerate(open(path, encoding="utf-8")):
            text = json.loads(line)["text"]
            yield f"corpus {language}", Row(n, "", (), (), language, "ground"), [], text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data",
                        help="the shared data folder (default: %(default)s)")
    parser.add_argument("--show", type=int, default=20, help="blocked answers to print (default: %(default)s)")
    args = parser.parse_args()
    sources = [sample_answers()]
    if args.shared.is_dir():
        sources += [english_answers(args.shared), corpus_answers(args.shared)]
    totals: Counter[str] = Counter()
    blocked: Counter[str] = Counter()
    why: Counter[str] = Counter()
    shown = 0
    for source in sources:
        for name, row, row_args, answer in source:
            group = name.split(" ")[0] if name.startswith(("sample", "corpus")) else name
            totals[group] += 1
            failures = implicit_failures(row, row_args, answer)
            if failures:
                blocked[group] += 1
                why.update(f.split(":")[1] for f in failures)
                if shown < args.show:
                    shown += 1
                    print(f"  {name} {row.key}: {failures[0][:160]}")
    print(f"{'source':<24}{'answers':>9}{'blocked':>9}{'rate':>8}")
    for group, n in totals.items():
        print(f"{group:<24}{n:>9}{blocked[group]:>9}{blocked[group] / n:>8.2%}")
    n, b = sum(totals.values()), sum(blocked.values())
    print(f"{'all':<24}{n:>9}{b:>9}{b / n:>8.2%}")
    print("by constraint:", dict(why))


if __name__ == "__main__":
    main()
