"""The packaged lm-eval tasks: generated files up to date, `lm-eval-path`, and an offline lm-eval run.

The lm-eval tests skip when lm-eval is not installed (``pip install 'indicifeval[lm-eval]'``).
"""

import json
import os
import sys
from pathlib import Path

import pytest

from indicifeval.checkers import KWARG_NAMES
from indicifeval.cli import main
from indicifeval.dataset import sample_path
from indicifeval.lmeval.task_folder import MARKER, packaged_folder, write_task_folder

INDIC = ("as", "bn", "gu", "hi", "kn", "ml", "mr", "ne", "or", "pa", "sa", "ta", "te", "ur")
TASKS = {f"indicifeval_trans_{x}" for x in ("en", *INDIC)} | {f"indicifeval_ground_{x}" for x in INDIC}
GROUPS = {"indicifeval", "indicifeval_trans", "indicifeval_ground"}
METRICS = ("prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc")
LANGS = ("hi", "ta")  # languages of the offline run


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()
            and p.name != MARKER and p.suffix != ".pyc"}


def test_packaged_folder_is_up_to_date(tmp_path):
    """The committed YAMLs are what write_task_folder writes (regenerate_packaged() after a change)."""
    fresh = _files(write_task_folder(tmp_path / "fresh"))
    assert _files(packaged_folder()) == fresh
    assert len([n for n in fresh if n.startswith("indicifeval_")]) == 29


def test_lm_eval_path_prints_the_packaged_folder(capsys):
    assert main(["lm-eval-path"]) == 0
    out = capsys.readouterr().out.strip()
    assert Path(out).is_absolute() and Path(out) == packaged_folder().resolve()
    assert (Path(out) / "indicifeval_trans_hi.yaml").is_file()


def test_lm_eval_path_refuses_a_folder_it_did_not_write(tmp_path, capsys):
    data = tmp_path / "data"
    write_local_hub(data)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "mine.txt").write_text("x")
    assert main(["lm-eval-path", "--data", str(data), "--dest", str(tmp_path / "busy")]) == 1
    assert "not empty" in capsys.readouterr().err
    assert main(["lm-eval-path", "--data", str(tmp_path / "nowhere")]) == 1
    assert main(["lm-eval-path", "--data", str(tmp_path / "busy")]) == 1  # no parquet files


def test_lm_eval_path_default_dest_is_a_cache_folder(tmp_path, capsys, monkeypatch):
    data = tmp_path / "data"
    write_local_hub(data)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["lm-eval-path", "--data", str(data)]) == 0
    out = Path(capsys.readouterr().out.strip())
    assert out.parent == tmp_path / "cache" / "indicifeval" / "lm_eval_tasks"
    assert main(["lm-eval-path", "--data", str(data)]) == 0  # rewritten in place
    assert Path(capsys.readouterr().out.strip()) == out


# --- the local hub-layout copy of the bundled sample -------------------------------------------

def sample_records() -> dict[tuple[str, str], list[dict]]:
    """{(subset, language): hub-shaped records} of the bundled sample: no language/subset
    fields, all 24 kwarg names with nulls."""
    out: dict[tuple[str, str], list[dict]] = {}
    for path in sample_path("rows"):
        for rec in map(json.loads, path.open(encoding="utf-8")):
            doc = {k: v for k, v in rec.items() if k not in ("language", "subset")}
            doc["kwargs"] = [{name: kw.get(name) for name in KWARG_NAMES} for kw in rec["kwargs"]]
            out.setdefault((rec["subset"], rec["language"]), []).append(doc)
    return out


def sample_responses() -> dict[str, str]:
    return {r["key"]: r["response"] for path in sample_path("responses")
            for r in map(json.loads, path.open(encoding="utf-8"))}


def write_local_hub(folder: Path, languages=LANGS) -> Path:
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    for (subset, lang), docs in sample_records().items():
        if lang not in languages:
            continue
        out = folder / f"indicifeval-{subset}" / f"{lang}-00000-of-00001.parquet"
        out.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(docs), out)
    return folder


# --- lm-eval ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lm_eval():
    return pytest.importorskip("lm_eval", reason="needs lm-evaluation-harness: pip install 'indicifeval[lm-eval]' "
                                                 "(after torch), as .ci/run does")


@pytest.fixture(scope="module")
def offline_hf(tmp_path_factory):
    """Fresh, offline Hugging Face caches for the whole module."""
    pytest.importorskip("datasets")
    import datasets.config

    root = tmp_path_factory.mktemp("hf")
    mp = pytest.MonkeyPatch()
    for name, value in {"HF_HOME": root / "home", "HF_DATASETS_CACHE": root / "datasets",
                        "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}.items():
        mp.setenv(name, str(value))
    # datasets reads these at import time, and it may have been imported already
    mp.setattr(datasets.config, "HF_DATASETS_CACHE", root / "datasets")
    mp.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    mp.delenv("INDICIFEVAL_SCORING", raising=False)
    yield root
    mp.undo()


def test_task_manager_knows_every_task_and_group(lm_eval):
    """With lm-eval's own tasks too, as `lm_eval --include_path` sees them: no name clashes."""
    from lm_eval.tasks import TaskManager

    tm = TaskManager(include_path=str(packaged_folder()))
    ours = {n for n in tm.all_tasks if n.startswith("indicifeval")}
    assert ours == TASKS | GROUPS
    assert GROUPS <= set(tm.all_groups)
    assert set(tm.all_subtasks) >= TASKS
    for name in TASKS:
        assert tm.task_index[name].yaml_path.parent == packaged_folder()


@pytest.fixture(scope="module")
def local_tasks(tmp_path_factory, offline_hf):
    root = tmp_path_factory.mktemp("lm_eval_local")
    data = write_local_hub(root / "data")
    dest = root / "tasks"
    assert main(["lm-eval-path", "--data", str(data), "--dest", str(dest)]) == 0
    return data, dest


def test_local_task_folder(local_tasks):
    data, dest = local_tasks
    names = {p.name for p in dest.iterdir()}
    assert names >= {"indicifeval_trans_hi.yaml", "indicifeval_ground_ta.yaml", "_template_yaml", "utils.py",
                     "_indicifeval.yaml", "_indicifeval_trans.yaml", "_indicifeval_ground.yaml"}
    assert "indicifeval_trans_bn.yaml" not in names  # only the splits DIR has
    text = (dest / "indicifeval_trans_hi.yaml").read_text(encoding="utf-8")
    assert str(data / "indicifeval-trans" / "hi-00000-of-00001.parquet") in text
    assert "dataset_path: parquet" in (dest / "_template_yaml").read_text(encoding="utf-8")


class _Thinker:
    """An lm-eval LM answering each doc with the sample's response for its key, after a <think>
    block that must not be scored. Made a real lm_eval LM subclass by ``canned_lm``."""

    thought = "hmm, let me think, in english, lower case, with commas, *stars* and words.\n" * 4

    def __init__(self):
        super().__init__()
        self.responses = sample_responses()
        self.keys = []

    def generate_until(self, requests, disable_tqdm=False):
        out = []
        for req in requests:
            context, gen_kwargs = req.args
            assert context == req.doc["prompt"]  # raw prompt, no template, no few-shot
            assert gen_kwargs["until"] == [] and gen_kwargs["max_gen_toks"] == 1280
            self.keys.append(req.doc["key"])
            out.append(f"<think>{self.thought}</think>\n\n{self.responses[req.doc['key']]}")
        return out

    def loglikelihood(self, requests, disable_tqdm=False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        raise NotImplementedError


@pytest.fixture(scope="module")
def canned_lm(lm_eval):
    from lm_eval.api.model import LM

    return type("CannedLM", (_Thinker, LM), {})


@pytest.fixture(scope="module")
def local_tm(lm_eval, local_tasks):
    from lm_eval.tasks import TaskManager

    return TaskManager(include_path=str(local_tasks[1]), include_defaults=False)


def evaluate(lm_eval, tm, model, mode):
    mp = pytest.MonkeyPatch()
    mp.setenv("INDICIFEVAL_SCORING", mode)
    try:
        # the group runs its tasks; lm-eval 0.4.13 refuses a task asked for both alone and in a group
        return lm_eval.simple_evaluate(model=model, tasks=["indicifeval"], task_manager=tm, bootstrap_iters=0,
                                       log_samples=True)
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def local_run(lm_eval, local_tm, canned_lm):
    model = canned_lm()
    return evaluate(lm_eval, local_tm, model, "fixed"), model


def our_summary(languages=LANGS, scoring="fixed"):
    import indicifeval

    docs = [(s, lang, d) for (s, lang), ds in sample_records().items() if lang in languages for d in ds]
    rows = [{**d, "language": lang, "subset": s} for s, lang, d in docs]
    return indicifeval.score(rows, "sample", scoring=scoring).summary


def assert_tasks_match(results, summary):
    for lang in LANGS:
        for subset in ("trans", "ground"):
            got = results["results"][f"indicifeval_{subset}_{lang}"]
            want = summary["per_language_subset"][f"{lang}/{subset}"]
            for m in METRICS:
                assert got[f"{m},none"] == pytest.approx(want[m]), (lang, subset, m)
            assert results["n-samples"][f"indicifeval_{subset}_{lang}"]["effective"] == want["prompts"]


def test_lm_eval_metrics_equal_indicifeval_score(local_run):
    results, model = local_run
    summary = our_summary()
    assert len(model.keys) == len(set(model.keys)) == summary["overall"]["prompts"]
    assert_tasks_match(results, summary)


def test_paper_mode_through_the_environment(lm_eval, local_tm, canned_lm, local_run):
    paper = evaluate(lm_eval, local_tm, canned_lm(), "paper")
    summary = our_summary(scoring="paper")
    assert_tasks_match(paper, summary)
    fixed = local_run[0]["results"]
    assert any(paper["results"][t] != fixed[t] for t in fixed)  # the sample tells the modes apart


def test_a_bad_scoring_mode_fails_before_generation(lm_eval, local_tasks, local_tm, canned_lm, monkeypatch):
    # as in a fresh process: lm-eval caches utils.py in sys.modules (under its path), and the
    # shim checks the mode when it is imported, i.e. when the tasks load
    monkeypatch.delitem(sys.modules, str(local_tasks[1] / "utils"), raising=False)
    model = canned_lm()
    with pytest.raises(Exception, match="INDICIFEVAL_SCORING"):
        evaluate(lm_eval, local_tm, model, "lenient")
    assert model.keys == []


def test_group_metrics_are_prompt_weighted_means(local_run):
    results, _ = local_run
    summary = our_summary()
    for group, subsets in {"indicifeval_trans": ("trans",), "indicifeval_ground": ("ground",),
                           "indicifeval": ("trans", "ground")}.items():
        blocks = [summary["per_language_subset"][f"{lang}/{s}"] for lang in LANGS for s in subsets]
        n = sum(b["prompts"] for b in blocks)
        for m in METRICS:
            want = sum(b[m] * b["prompts"] for b in blocks) / n
            assert results["results"][group][f"{m},none"] == pytest.approx(want), (group, m)
    # prompt level: the same as pooling every prompt of the subset
    assert results["results"]["indicifeval_trans"]["prompt_level_strict_acc,none"] == pytest.approx(
        summary["per_subset"]["trans"]["prompt_level_strict_acc"])


def test_logged_samples_score_the_answer_only(local_run):
    results, _ = local_run
    samples = results["samples"]["indicifeval_trans_hi"]
    assert samples and all(s["resps"][0][0].startswith("<think>") for s in samples)
    assert any(s["prompt_level_strict_acc"] for s in samples)
    assert os.environ.get("HF_DATASETS_OFFLINE") == "1"


def test_local_hf_model_through_lm_eval(lm_eval, local_tm, tmp_path):
    """lm-eval's own transformers model class, on a tiny random local model, offline."""
    pytest.importorskip("torch", reason="needs torch (the CPU build is enough: pip install torch, as .ci/run does)")
    pytest.importorskip("transformers")
    pytest.importorskip("accelerate")  # lm-eval's hf model needs it
    from tests.runs.tiny_model import build_tiny_model

    model_dir = build_tiny_model(tmp_path / "tiny")
    results = lm_eval.simple_evaluate(
        model="hf", model_args=f"pretrained={model_dir},dtype=float32", device="cpu", batch_size=2,
        tasks=["indicifeval_ground_hi"], task_manager=local_tm, limit=2, apply_chat_template=True,
        gen_kwargs="max_gen_toks=8", bootstrap_iters=0, log_samples=True,
    )
    metrics = results["results"]["indicifeval_ground_hi"]
    for name in METRICS:
        value = metrics[f"{name},none"]
        assert 0.0 <= value <= 1.0
    samples = results["samples"]["indicifeval_ground_hi"]
    assert len(samples) == 2 and all(isinstance(s["resps"][0][0], str) for s in samples)
