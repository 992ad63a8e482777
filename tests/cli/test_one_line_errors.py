"""Inputs that once reached the user as "unexpected … (a bug)": each is now one line naming the
file (and line and field where there is one), exit 1, no traceback, nothing written."""

from __future__ import annotations

import json

import pytest

from indicifeval.cli import main
from indicifeval.reports.writers import md_cell


def _err(capsys) -> str:
    err = capsys.readouterr().err
    assert "unexpected" not in err and "Traceback" not in err, err
    return err


def _row(**kwargs) -> dict:
    return {"key": 1, "prompt": "नमस्ते दुनिया", "instruction_id_list": ["length_constraints:number_words"],
            "kwargs": [{"num_words": 5, "relation": "at least", **kwargs}], "language": "hi", "subset": "trans"}


def test_an_integer_too_long_to_read(tmp_path, capsys):
    data = tmp_path / "rows.jsonl"
    data.write_text(json.dumps(_row())[:-1].replace('"num_words": 5', '"num_words": ' + "9" * 5000) + "}\n")
    (tmp_path / "r.jsonl").write_text('{"key": 1, "response": "x"}\n')
    assert main(["score", "--data", str(data), "--responses", str(tmp_path / "r.jsonl"), "--out",
                 str(tmp_path / "out")]) == 1
    assert "rows.jsonl, line 1: malformed JSON (a number with too many digits)" in _err(capsys)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("mode", ["fixed", "paper"])
def test_negative_counts_are_refused_in_both_modes(tmp_path, capsys, mode):
    data = tmp_path / "rows.jsonl"
    data.write_text(json.dumps(_row(num_words=-3)) + "\n")
    (tmp_path / "r.jsonl").write_text('{"key": 1, "response": "x"}\n')
    assert main(["score", "--data", str(data), "--responses", str(tmp_path / "r.jsonl"), "--scoring", mode,
                 "--out", str(tmp_path / "out")]) == 1
    assert "field 'kwargs[0].num_words': num_words must not be negative" in _err(capsys)


@pytest.mark.parametrize("content", [b"seed: 1\n\xff\xfe\n", b"a: " + b"[" * 3000 + b"]" * 3000 + b"\n"])
def test_a_plan_with_invalid_utf8_or_nested_too_deeply(tmp_path, capsys, content):
    pytest.importorskip("yaml")
    plan = tmp_path / "plan.yaml"
    plan.write_bytes(content)
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"doc_id": "1", "text": "नदी बहती है।"}\n', encoding="utf-8")
    assert main(["build", "ground", str(tmp_path / "g"), "--lang", "hi", "--corpus", str(corpus), "--plan", str(plan),
                 "--quiet"]) == 1
    err = _err(capsys)
    assert "plan.yaml" in err and ("not UTF-8" in err or "nested too deeply" in err)


def test_a_report_on_a_scores_line_without_its_subset(tmp_path, capsys):
    out = tmp_path / "s"
    assert main(["score", "--data", "sample", "--languages", "hi", "--out", str(out)]) == 0
    lines = (out / "scores.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    del first["subset"]
    (out / "scores.jsonl").write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]) + "\n")
    capsys.readouterr()
    assert main(["report", str(out), "--out", str(tmp_path / "r"), "--quiet"]) == 1
    assert "scores.jsonl, line 1, field 'subset'" in _err(capsys)


def test_an_api_key_with_a_line_break_is_refused_unshown_before_a_run_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-secret-part\r\nX-Injected: 1")
    out = tmp_path / "run"
    assert main(["run", "--model", "m", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1",
                 "--api-key-env", "MY_KEY", "--data", "sample", "--limit", "1", "--out", str(out)]) == 1
    err = _err(capsys)
    assert "MY_KEY holds a line break" in err and "sk-secret" not in err and not out.exists()


def test_model_names_cannot_break_the_markdown_table():
    assert md_cell("a|b<script>x</script>") == "a\\|b&lt;script&gt;x&lt;/script&gt;"
    assert "\n" not in md_cell("two\nlines") and md_cell("[link](http://x)") == "\\[link\\](http://x)"


def test_a_manifest_with_an_integer_too_long_is_one_line(tmp_path, capsys):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "manifest.json").write_text('{"tool": "build", "n": ' + "9" * 5000 + "}")
    assert main(["build", "status", str(folder)]) == 1
    assert "manifest" in _err(capsys)

