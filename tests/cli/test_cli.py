"""The command line end to end: outputs, exit codes, error messages, --allow-missing."""

import json
import os
import subprocess
import sys

from indicifeval.cli import main

GOOD = {"key": 1, "prompt": "p", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}], "language": "hi"}


def write(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_score_sample_writes_outputs(tmp_path, capsys):
    assert main(["score", "--data", "sample", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "overall" in out and "Keyword" in out
    lines = [json.loads(x) for x in (tmp_path / "scores.jsonl").read_text(encoding="utf-8").splitlines()]
    required = {"key", "language", "subset", "instruction_id_list", "strict", "loose", "prompt_strict",
                "prompt_loose", "explanations", "scoring", "version"}
    assert lines and all(required <= set(line) for line in lines)
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["scoring"] == "fixed" and summary["version"]
    assert set(summary["per_category"]) <= {"English", "Keyword", "Format", "Length", "Language"}
    assert len(summary["per_language"]) == 15


def test_paper_mode_recorded(tmp_path):
    assert main(["score", "--data", "sample", "--scoring", "paper", "--out", str(tmp_path), "--quiet"]) == 0
    assert json.loads((tmp_path / "summary.json").read_text())["scoring"] == "paper"


def test_missing_response_is_an_error_unless_allowed(tmp_path, capsys):
    data = write(tmp_path / "d.jsonl", [GOOD, GOOD | {"key": 2}])
    resp = write(tmp_path / "r.jsonl", [{"key": 1, "response": "बिना अल्पविराम"}])
    assert main(["score", "--data", data, "--responses", resp, "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "d.jsonl" in err and "line 2" in err and "response" in err
    assert not (tmp_path / "o" / "scores.jsonl").exists()
    assert main(["score", "--data", data, "--responses", resp, "--out", str(tmp_path / "o"), "--allow-missing"]) == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["missing_responses"] == 1 and summary["overall"]["prompt_level_strict_acc"] == 0.5
    assert "1 rows had no response" in capsys.readouterr().err


def test_bad_kwarg_type_exit_code(tmp_path, capsys):
    data = write(tmp_path / "d.jsonl", [GOOD | {"instruction_id_list": ["length_constraints:number_words"],
                                                "kwargs": [{"num_words": "many", "relation": "at least"}]}])
    resp = write(tmp_path / "r.jsonl", [{"key": 1, "response": "x"}])
    assert main(["score", "--data", data, "--responses", resp, "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "line 1" in err and "num_words" in err


def test_console_script_and_new_language_profile(tmp_path):
    """A language added as one JSON profile (no code) scores through the installed command."""
    profile = json.loads(
        (__import__("indicifeval.languages", fromlist=["x"]).__path__[0] + "/profiles/hi.json") and
        open(os.path.join(__import__("indicifeval.languages", fromlist=["x"]).__path__[0], "profiles", "hi.json"),
             encoding="utf-8").read()
    )
    profile.update(code="bho", name="Bhojpuri", native_name="भोजपुरी")
    profile["paper"]["langdetect_code"] = None
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "bho.json").write_text(json.dumps(profile, ensure_ascii=False), encoding="utf-8")
    data = write(tmp_path / "d.jsonl", [GOOD | {"language": "bho",
                                                "instruction_id_list": ["length_constraints:number_sentences"],
                                                "kwargs": [{"num_sentences": 2, "relation": "exactly"}]}])
    resp = write(tmp_path / "r.jsonl", [{"key": 1, "response": "हम घरे जात बानी। तू कहाँ जात बाड़?"}])
    env = dict(os.environ, INDICIFEVAL_PROFILE_PATH=str(tmp_path / "profiles"))
    proc = subprocess.run([sys.executable, "-m", "indicifeval.cli", "score", "--data", data, "--responses", resp,
                           "--out", str(tmp_path / "o"), "--quiet"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    line = json.loads((tmp_path / "o" / "scores.jsonl").read_text(encoding="utf-8"))
    assert line["language"] == "bho" and line["strict"] == [True]


def test_reasoning_is_cut_off_response_files(tmp_path):
    data = write(tmp_path / "d.jsonl", [GOOD])
    resp = write(tmp_path / "r.jsonl", [{"key": 1, "response": "<think>hmm, commas, commas</think>\n\nबिना अल्पविराम"}])
    assert main(["score", "--data", data, "--responses", resp, "--out", str(tmp_path / "a"), "--quiet"]) == 0
    assert json.loads((tmp_path / "a" / "scores.jsonl").read_text())["strict"] == [True]
    assert main(["score", "--data", data, "--responses", resp, "--out", str(tmp_path / "b"), "--quiet",
                 "--keep-reasoning"]) == 0
    assert json.loads((tmp_path / "b" / "scores.jsonl").read_text())["strict"] == [False]
