"""Runs holding several suites' instructions get one report section per suite (IFEval's, IFBench's,
...), each with the paper-style tables over its own rows only: IFEval's numbers are the ones a
report of the IFEval rows alone shows, IFBench's are counted from the IFBench rows alone."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from importlib import resources

import pytest

from indicifeval.cli import main
from indicifeval.scoring.categories import section_categories, section_of


def _score(data: str, out, *extra: str) -> None:
    assert main(["score", "--data", data, "--out", str(out), "--quiet", *extra]) == 0


def _report(runs, out) -> None:
    assert main(["report", *map(str, runs), "--out", str(out), "--no-plots", "--bootstrap", "20", "--quiet"]) == 0


def _csv(path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    root = tmp_path_factory.mktemp("suites")
    _score("sample", root / "ifeval")
    _score("sample-ifbench", root / "ifbench")
    _report([root / "ifeval"], root / "alone")
    _report([root / "ifeval", root / "ifbench"], root / "both")
    return root


def test_each_suite_has_its_section(scored):
    both, alone = scored / "both", scored / "alone"
    names = {p.stem for p in (both / "tables").glob("*.csv")}
    assert {"trans_languages", "accuracy", "delta_category", "per_instruction", "ifbench_trans_languages",
            "ifbench_accuracy", "ifbench_delta_category", "ifbench_per_instruction"} <= names
    assert not any(n.startswith("ifbench_") for n in {p.stem for p in (alone / "tables").glob("*.csv")})
    assert "accuracy.csv" not in {p.name for p in (alone / "tables").iterdir()}  # one suite: as it always was
    # IFEval's section counts IFEval's rows only: the same numbers as a report of them alone
    for name in ("trans_languages", "ground_languages", "delta_category", "per_instruction", "keywords"):
        assert (both / "tables" / f"{name}.csv").read_text() == (alone / "tables" / f"{name}.csv").read_text(), name
    # each section's category table has its suite's categories only, and no paper rows outside IFEval's
    ifeval_cats = {r["category"] for r in _csv(both / "tables" / "delta_category.csv")}
    ifbench_cats = {r["category"] for r in _csv(both / "tables" / "ifbench_delta_category.csv")}
    assert ifeval_cats and not any(c.startswith("IFBench") for c in ifeval_cats)
    assert ifbench_cats and all(c.startswith("IFBench ") for c in ifbench_cats)
    assert not any(r["run"].startswith("paper") for r in _csv(both / "tables" / "ifbench_trans_languages.csv"))
    ids = {r["instruction"] for r in _csv(both / "tables" / "ifbench_per_instruction.csv")}
    assert ids and all(section_of([i]) == "ifbench" for i in ids)
    md = (both / "report.md").read_text(encoding="utf-8")
    assert md.index("## IFEval instructions") < md.index("## IFBench instructions")
    assert "## " not in (alone / "report.md").read_text(encoding="utf-8").replace("### ", "")
    page = (both / "report.html").read_text(encoding="utf-8")
    assert 'id="s-ifeval-instructions"' in page and 'id="s-ifbench-instructions"' in page
    assert 'id="t-ifbench_accuracy"' in page and 'href="#s-ifbench-instructions"' in page
    sections = {t["name"]: t.get("section") for t in json.loads((both / "report.json").read_text())["tables"].values()}
    assert sections["trans_languages"] == "IFEval instructions"
    assert sections["ifbench_accuracy"] == "IFBench instructions"


def _pooled_run(root):
    """One run whose rows are the IFEval sample's and the IFBench sample's, every third IFBench
    answer emptied (so it fails)."""
    sample = resources.files("indicifeval.sample")
    rows, answers = [], []
    for entry in sorted(sample.iterdir(), key=lambda e: e.name):
        name = entry.name
        if not name.endswith(".rows.jsonl") or ".beyond." in name or ".open-instruct." in name:
            continue
        rows += entry.read_text(encoding="utf-8").splitlines()
        replies = sample.joinpath(name.replace(".rows.", ".responses.")).read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(replies):
            reply = json.loads(line)
            if ".ifbench." in name and i % 3 == 0:
                reply["response"] = "-"
            answers.append(json.dumps(reply, ensure_ascii=False))
    (root / "rows.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (root / "answers.jsonl").write_text("\n".join(answers) + "\n", encoding="utf-8")
    _score(str(root / "rows.jsonl"), root / "pooled", "--responses", str(root / "answers.jsonl"))
    return root / "pooled"


def test_one_run_of_two_suites_is_split_by_row(tmp_path):
    run = _pooled_run(tmp_path)
    _report([run], tmp_path / "report")
    expected: dict[tuple, list[bool]] = defaultdict(list)
    for line in (run / "scores.jsonl").read_text(encoding="utf-8").splitlines():
        score = json.loads(line)
        for metric in ("prompt_strict", "prompt_loose"):
            expected[(section_of(score["instruction_id_list"]), score["subset"], score["language"], metric)].append(
                score[metric])
    assert not all(expected[("ifbench", "trans", "hi", "prompt_loose")])  # some IFBench answers fail
    metric_of = {"prompt-level strict": "prompt_strict", "prompt-level loose": "prompt_loose"}
    checked = 0
    for section, table in (("ifeval", "accuracy"), ("ifbench", "ifbench_accuracy")):
        for row in _csv(tmp_path / "report" / "tables" / f"{table}.csv"):
            if row["metric"] not in metric_of:
                continue
            for lang in ("hi", "en", "ta"):
                passes = expected.get((section, row["subset"], lang, metric_of[row["metric"]]))
                if not passes:  # Ground has no English
                    assert row[f"{lang} (%)"] == "" and (row["subset"], lang) == ("ground", "en")
                    continue
                assert float(row[f"{lang} (%)"]) == pytest.approx(100 * sum(passes) / len(passes)), (table, row)
                checked += 1
    assert checked == 2 * (3 + 2) + 2 * 3  # IFEval's Trans and Ground, IFBench's Trans; two metrics each
    trans = {r["run"]: r for r in _csv(tmp_path / "report" / "tables" / "ifbench_trans_languages.csv")}
    passes = expected[("ifbench", "trans", "hi", "prompt_loose")]
    assert float(trans["pooled"]["hi (%)"]) == pytest.approx(100 * sum(passes) / len(passes))


def test_sections_of_rows():
    assert section_of(["punctuation:no_comma"]) == "ifeval"
    assert section_of([]) == "ifeval" and section_of(["no:such_id"]) == "ifeval"
    assert section_of(["count:word_count_range", "punctuation:no_comma"]) == "ifbench"  # IFEval's ids go along
    ifbench = next(ids[0] for ids in section_categories("ifbench").values())
    rl = next(ids[0] for ids in section_categories("open-instruct").values())
    assert section_of([rl]) == "open-instruct" and section_of([rl, ifbench]) == "mixed"
    assert all(name.startswith("RL ") for name in section_categories("open-instruct"))
