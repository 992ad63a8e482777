"""``results export|verify``: two mock models, one loopback-served model and a run of two
samples per row, on the bundled sample. Every Eval Ever exports validate (structurally always,
against the schemas where ../shared has them), hold one instance line per prompt, sample and
result with the answer exactly as scored, re-export to the same bytes, and ``results verify``
reproduces every score and interval; the .eval_results YAML names dataset, metric and value."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.results.metrics import METRICS
from tests.results.conftest import API_KEY
from tests.results.schema_check import read_export, schemas_present, validate

RUNS = ("echo", "sample", "loopback", "two-samples")


def _export(run: Path, out: Path, fmt: str = "every-eval-ever", *extra: str) -> Path:
    assert main(["results", "export", str(run), "--format", fmt, "--out", str(out), *extra]) == 0
    return out


def _generations(run: Path) -> dict[str, dict]:
    lines = (run / "generations.jsonl").read_text(encoding="utf-8").splitlines()
    return {g["uid"]: g for g in map(json.loads, lines)}


@pytest.mark.parametrize("name", RUNS)
def test_every_eval_ever_export_validates_and_is_reproduced(runs, name, tmp_path, capsys):
    run = runs[name]
    out = _export(run, tmp_path / "eee")
    [(record, lines)] = read_export(out)
    validate(record, lines)
    rows = len((run / "rows.jsonl").read_text(encoding="utf-8").splitlines())
    samples = 2 if name == "two-samples" else 1
    assert len(lines) == rows * samples * len(METRICS)
    per_answer = Counter((line["sample_id"], line["metadata"]["sample"]) for line in lines)
    assert len(per_answer) == rows * samples and set(per_answer.values()) == {len(METRICS)}
    per_result = Counter(line["evaluation_result_id"] for line in lines)
    assert set(per_result) == {r["evaluation_result_id"] for r in record["evaluation_results"]}
    # the answer exactly as scored, the raw output beside it
    generations = _generations(run)
    for line in lines:
        sample = int(line["metadata"]["sample"])
        g = generations[line["sample_id"] + (f"#s{sample}" if sample else "")]
        assert line["answer_attribution"][-1]["extracted_value"] == g["answer"]
        assert line["output"]["raw"] == [g["output"]]
    # the scores are the run's own (summary.json), the mean over samples where there are two
    summaries = ([runs["echo"], runs["sample"]] if name == "two-samples" else [run])
    cells = [json.loads((r / "summary.json").read_text())["per_language_subset"] for r in summaries]
    for result in record["evaluation_results"]:
        language, subset, metric = result["evaluation_result_id"].split("/")
        expected = sum(c[f"{language}/{subset}"][metric] for c in cells) / len(cells)
        assert result["score_details"]["score"] == pytest.approx(expected, abs=1e-12)
        interval = result["score_details"]["uncertainty"]["confidence_interval"]
        assert interval["lower"] <= result["score_details"]["score"] <= interval["upper"]
        assert result["metric_config"]["metric_parameters"]["samples"] == samples
    details = record["evaluation_results"][0]["generation_config"]["additional_details"]
    assert details["samples_per_prompt"] == str(samples) and details["scoring_mode"] == "fixed"
    assert details["sample_seeds"] == ("[0, 1]" if samples == 2 else "not recorded")
    capsys.readouterr()
    assert main(["results", "verify", str(out)]) == 0
    assert f"reproduced exactly: {len(record['evaluation_results'])} results" in capsys.readouterr().out


def test_both_schema_versions_and_stable_ids(runs, tmp_path):
    first = _export(runs["echo"], tmp_path / "a")
    again = _export(runs["echo"], tmp_path / "b")
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for name in files:  # re-exported: the same names, the same bytes
        assert (first / name).read_bytes() == (again / name).read_bytes()
    old = _export(runs["echo"], tmp_path / "old", "every-eval-ever", "--schema-version", "0.2.3")
    [(record, lines)] = read_export(old)
    assert record["schema_version"] == "0.2.3" and {line["schema_version"] for line in lines} == {"0.2.3"}
    validate(record, lines)
    [(echo, _)] = read_export(first)
    [(other, _)] = read_export(_export(runs["sample"], tmp_path / "c"))
    assert echo["evaluation_id"] == record["evaluation_id"] != other["evaluation_id"]
    # several runs in one folder, each in its model's place
    both = _export(runs["sample"], _export(runs["echo"], tmp_path / "both"))
    assert len(read_export(both)) == 2 and main(["results", "verify", str(both)]) == 0


def test_verify_names_every_difference(runs, tmp_path, capsys):
    out = _export(runs["sample"], tmp_path / "eee")
    [path] = sorted((out / "data").rglob("*.json"))
    record = json.loads(path.read_text(encoding="utf-8"))
    sidecar = out / record["detailed_evaluation_results"]["file_path"]
    # an answer changed (and the checksum made to match): its verdicts and its results differ
    lines = [json.loads(t) for t in sidecar.read_text(encoding="utf-8").splitlines()]
    target = next(line for line in lines if line["evaluation"]["is_correct"])
    for line in lines:
        if line["sample_id"] == target["sample_id"]:
            line["answer_attribution"][-1]["extracted_value"] = "no"
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    sidecar.write_text(text, encoding="utf-8")
    import hashlib

    record["detailed_evaluation_results"]["checksum"] = hashlib.sha256(text.encode()).hexdigest()
    path.write_text(json.dumps(record), encoding="utf-8")
    capsys.readouterr()
    assert main(["results", "verify", str(out)]) == 1
    err = capsys.readouterr().err
    language, subset = target["sample_id"].split("/")[:2]
    assert f"{target['sample_id']} sample 0: strict verdicts" in err
    assert f"{language}/{subset}/prompt_level_strict_acc: score" in err and "differences in 1 records" in err
    # a score changed in the record, the sidecar left as it was
    clean = _export(runs["sample"], tmp_path / "clean")
    [path] = sorted((clean / "data").rglob("*.json"))
    record = json.loads(path.read_text(encoding="utf-8"))
    record["evaluation_results"][3]["score_details"]["score"] += 0.01
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["results", "verify", str(clean)]) == 1
    assert f"{record['evaluation_results'][3]['evaluation_result_id']}: score" in capsys.readouterr().err
    assert main(["results", "verify", str(tmp_path / "nothing")]) == 1


@pytest.mark.parametrize("name", ("echo", "loopback", "two-samples"))
def test_eval_results_yaml_names_dataset_metric_and_value(runs, name, tmp_path):
    yaml = pytest.importorskip("yaml")
    out = _export(runs[name], tmp_path / "hf", "hf-eval-results")
    [(record, _)] = read_export(_export(runs[name], tmp_path / "eee"))
    scores = {r["evaluation_result_id"]: r["score_details"]["score"] for r in record["evaluation_results"]}
    files = sorted((out / ".eval_results").glob("*.yaml"))
    cells = {tuple(rid.split("/")[:2]) for rid in scores}
    assert [f.name for f in files] == sorted(f"indicifeval-{s}-{lang}.yaml" for lang, s in cells)
    for path in files:
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert len(entries) == len(METRICS)
        for entry in entries:
            assert entry["dataset"]["id"] == "ai4bharat/IndicIFEval"
            prefix, subset, language, metric = entry["dataset"]["task_id"].split("/")
            assert prefix == "sample" and path.name == f"indicifeval-{subset}-{language}.yaml"
            assert metric in {m for m, *_ in METRICS} and metric in entry["notes"]
            assert entry["value"] == round(100 * scores[f"{language}/{subset}/{metric}"], 2)
            assert "bundled sample" in entry["notes"] and "percent" in entry["notes"]


def test_a_hub_run_names_the_hub_dataset(runs, tmp_path):
    yaml = pytest.importorskip("yaml")
    run = shutil.copytree(runs["echo"], tmp_path / "hub-run")
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["data"] = {**manifest["data"], "source": "hub", "repo": "ai4bharat/IndicIFEval", "revision": "abc123"}
    (run / "manifest.json").write_text(json.dumps(manifest))
    [(record, lines)] = read_export(_export(run, tmp_path / "eee"))
    validate(record, lines)
    source = record["evaluation_results"][0]["source_data"]
    assert source["source_type"] == "hf_dataset" and source["hf_repo"] == "ai4bharat/IndicIFEval"
    assert source["additional_details"]["revision"] == "abc123" and source["hf_split"] in source["additional_details"][
        "language"]
    out = _export(run, tmp_path / "hf", "hf-eval-results")
    entry = yaml.safe_load((out / ".eval_results" / "indicifeval-trans-hi.yaml").read_text())[0]
    assert entry["dataset"] == {"id": "ai4bharat/IndicIFEval", "task_id": "trans/hi/prompt_level_strict_acc",
                                "revision": "abc123"}
    assert "the hub dataset ai4bharat/IndicIFEval at revision abc123" in entry["notes"]


def test_no_exported_file_holds_a_local_path_or_a_key(runs, tmp_path):
    # a model named by a local path: the export names it by its last part
    weights = tmp_path / "private-disk" / "my-weights"
    weights.mkdir(parents=True)
    assert main(["run", "--backend", "mock", "--model", str(weights), "--data", "sample", "--languages", "hi",
                 "--out", str(tmp_path / "local-model"), "--quiet"]) == 0
    assert str(weights.resolve()) in (tmp_path / "local-model" / "manifest.json").read_text()
    out = tmp_path / "exports"
    for run in [*runs.values(), tmp_path / "local-model"]:
        _export(run, out)
        _export(run, out, "hf-eval-results")
    assert main(["results", "verify", str(out)]) == 0
    forbidden = {str(tmp_path), str(tmp_path.resolve()), str(Path.home()), "private-disk", API_KEY,
                 *(str(p.parent) for p in runs.values())}
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        for bad in forbidden:
            assert bad not in text, (path, bad)
    assert any('"id": "my-weights"' in p.read_text() for p in files if p.suffix == ".json")


def test_the_schemas_themselves_reject_a_broken_record(runs, tmp_path):
    """Where ../shared holds the schemas, ``validate`` really validates: a record the schema
    forbids (a number in an additional_details map) is refused."""
    if not schemas_present():
        pytest.skip("../shared/data/results-formats is absent: the structural check alone runs")
    jsonschema = pytest.importorskip("jsonschema")
    [(record, lines)] = read_export(_export(runs["echo"], tmp_path / "eee"))
    record["evaluation_results"][0]["generation_config"]["additional_details"]["seed"] = 0
    with pytest.raises((AssertionError, jsonschema.ValidationError)):
        validate(record, lines)


def test_missing_answers_and_another_scoring_mode_are_reproduced(runs, tmp_path):
    run = shutil.copytree(runs["echo"], tmp_path / "partial")
    lines = (run / "generations.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (run / "generations.jsonl").write_text("".join(lines[5:]), encoding="utf-8")  # five rows never answered
    assert main(["score", "--run", str(run), "--scoring", "fixed", "--quiet"]) == 0
    assert main(["score", "--run", str(run), "--scoring", "paper", "--quiet"]) == 0
    for mode in ("fixed", "paper"):
        out = _export(run, tmp_path / mode, "every-eval-ever", "--scoring", mode)
        [(record, lines_)] = read_export(out)
        validate(record, lines_)
        missing = {line["sample_id"] for line in lines_ if line["metadata"]["response_missing"] == "true"}
        assert len(missing) == 5 and all(line["error"] == "no usable answer" for line in lines_
                                         if line["sample_id"] in missing)
        assert {line["metadata"]["scoring_mode"] for line in lines_} == {mode}
        assert record["evaluation_results"][0]["generation_config"]["additional_details"]["missing_answers"] == "5"
        assert main(["results", "verify", str(out)]) == 0
    assert main(["results", "export", str(runs["sample"]), "--format", "every-eval-ever", "--scoring", "paper",
                 "--out", str(tmp_path / "never")]) == 1  # never scored in paper mode: said, nothing written
    assert not (tmp_path / "never").exists()
