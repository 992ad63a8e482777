"""`lm-eval-path --data` on a hub-layout copy holding IFBench's rows: tasks indicifbench_<xx> and the
group indicifbench, scored by the same registry (lm-eval's numbers are `indicifeval score`'s); a
split holding IFEval's rows too gives each suite's task its own rows. The lm-eval run skips
without lm-eval."""

from __future__ import annotations

import json

import pytest

from indicifeval.checkers import REGISTRY
from indicifeval.cli import main
from indicifeval.dataset import sample_path
from indicifeval.lmeval.hooks import task_name
from indicifeval.lmeval.task_folder import local_data_files, local_sections
from tests.cli.test_lm_eval_tasks import METRICS, _Thinker

LANGS = ("en", "hi", "ta")
MIXED = "hi"  # its Trans split holds IFEval's sample rows too


def _records(name: str) -> dict[str, list[dict]]:
    """language -> the Trans rows of a sample, without language/subset fields."""
    out: dict[str, list[dict]] = {}
    for path in sample_path("rows", name):
        for rec in map(json.loads, path.open(encoding="utf-8")):
            if rec["subset"] == "trans" and rec["language"] in LANGS:
                out.setdefault(rec["language"], []).append({k: v for k, v in rec.items()
                                                            if k not in ("language", "subset")})
    return out


def _responses(*names: str) -> dict[str, str]:
    return {r["key"]: r["response"] for name in names for path in sample_path("responses", name)
            for r in map(json.loads, path.open(encoding="utf-8"))}


def _write_hub(folder):
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    ifbench, ifeval = _records("sample-ifbench"), _records("sample")
    for lang in LANGS:
        docs = ifbench[lang] + (ifeval[lang] if lang == MIXED else [])
        names = sorted({k for d in docs for kw in d["kwargs"] for k in kw})  # one struct for every row
        docs = [{**d, "kwargs": [{k: kw.get(k) for k in names} for kw in d["kwargs"]]} for d in docs]
        out = folder / "indicifeval-trans" / f"{lang}-00000-of-00001.parquet"
        out.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(docs), out)
    return folder


@pytest.fixture(scope="module")
def tasks(tmp_path_factory):
    root = tmp_path_factory.mktemp("ifbench_lm_eval")
    data = _write_hub(root / "data")
    assert main(["lm-eval-path", "--data", str(data), "--dest", str(root / "tasks")]) == 0
    return data, root / "tasks"


def test_ifbench_rows_get_their_own_tasks(tasks):
    data, dest = tasks
    sections = local_sections(local_data_files(data))
    assert sections[("trans", MIXED)] == ["ifeval", "ifbench"] and sections[("trans", "ta")] == ["ifbench"]
    names = {p.name for p in dest.iterdir()}
    assert {"indicifbench_hi.yaml", "indicifbench_ta.yaml", "indicifbench_en.yaml", "_indicifbench.yaml",
            "indicifeval_trans_hi.yaml"} <= names
    assert "indicifeval_trans_ta.yaml" not in names  # ta's split holds IFBench's rows only
    assert task_name("trans", "hi", "ifbench") == "indicifbench_hi"
    group = (dest / "_indicifbench.yaml").read_text(encoding="utf-8")
    assert "group: indicifbench" in group and "indicifbench_hi" in group and "indicifbench_en" not in group
    assert "process_docs" in (dest / "indicifbench_hi.yaml").read_text(encoding="utf-8")  # a split of two suites
    assert "process_docs" not in (dest / "indicifbench_ta.yaml").read_text(encoding="utf-8")


def _our_scores(lang: str, suite: str) -> dict:
    import indicifeval

    records = _records("sample-ifbench" if suite == "ifbench" else "sample")[lang]
    rows = [{**d, "language": lang, "subset": "trans"} for d in records]
    return indicifeval.score(rows, _responses("sample", "sample-ifbench")).summary["overall"]


def test_lm_eval_scores_ifbench_rows_as_indicifeval_does(tasks, tmp_path, monkeypatch):
    lm_eval = pytest.importorskip("lm_eval", reason="needs lm-evaluation-harness: pip install 'indicifeval[lm-eval]'")
    pytest.importorskip("datasets")
    import datasets.config
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    for name, value in {"HF_HOME": tmp_path / "home", "HF_DATASETS_CACHE": tmp_path / "datasets",
                        "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}.items():
        monkeypatch.setenv(name, str(value))
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "datasets")
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.delenv("INDICIFEVAL_SCORING", raising=False)

    class Canned(_Thinker, LM):
        def __init__(self):
            super().__init__()
            self.responses = _responses("sample", "sample-ifbench")

    tm = TaskManager(include_path=str(tasks[1]), include_defaults=False)
    assert {"indicifbench", "indicifbench_hi", "indicifeval_trans_hi"} <= set(tm.all_tasks)
    model = Canned()
    results = lm_eval.simple_evaluate(model=model, tasks=["indicifbench", "indicifeval_trans_hi", "indicifbench_en"],
                                      task_manager=tm, bootstrap_iters=0)
    for task, lang, suite in (("indicifbench_hi", "hi", "ifbench"), ("indicifbench_ta", "ta", "ifbench"),
                              ("indicifbench_en", "en", "ifbench"), ("indicifeval_trans_hi", "hi", "ifeval")):
        want = _our_scores(lang, suite)
        got = results["results"][task]
        assert results["n-samples"][task]["effective"] == want["prompts"], task
        for m in METRICS:
            assert got[f"{m},none"] == pytest.approx(want[m]), (task, m)
    assert len(set(model.keys)) == len(model.keys)  # every row asked once, by its own suite's task
    ifbench = {d["key"] for lang in LANGS for d in _records("sample-ifbench")[lang]}
    assert ifbench <= set(model.keys)
    asked = {iid for lang in LANGS for d in _records("sample-ifbench")[lang] for iid in d["instruction_id_list"]}
    assert {REGISTRY[iid].suite for iid in asked} == {"ifbench"}
