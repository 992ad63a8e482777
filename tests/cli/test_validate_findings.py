"""Where validate's findings go: into a build folder, or to --findings, never beside the data
(a data folder's readers would meet them there, and a read-only folder refuses them); and what
every reader does with a findings file an older validate left in a data folder: skips it, saying
so in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from indicifeval.cli import main

ROOT = Path(__file__).resolve().parents[2]
MOCK = ["--backend", "mock", "--model", "fake"]


def test_validate_never_writes_beside_its_data_and_never_over_a_file_it_did_not_write(tmp_path, capsys):
    data = tmp_path / "data" / "rows.jsonl"
    data.parent.mkdir()
    shutil.copy(ROOT / "src/indicifeval/sample/hi.rows.jsonl", data)
    assert main(["validate", str(data), "--quiet"]) in (0, 1)
    assert main(["validate", str(data.parent), "--quiet"]) in (0, 1)
    assert [p.name for p in data.parent.iterdir()] == ["rows.jsonl"]  # a read-only folder would do as well
    assert "wrote" not in capsys.readouterr().out
    ours = tmp_path / "findings.jsonl"
    assert main(["validate", str(data), "--findings", str(ours), "--quiet"]) in (0, 1)
    assert ours.is_file() and "wrote " + str(ours) in capsys.readouterr().out
    assert main(["validate", str(data), "--findings", str(ours), "--quiet"]) in (0, 1)  # its own file: replaced
    mine = tmp_path / "notes.jsonl"
    mine.write_text('{"my": "notes"}\n', encoding="utf-8")
    assert main(["validate", str(data), "--findings", str(mine), "--quiet"]) == 1
    assert "not a findings file that validate wrote" in capsys.readouterr().err
    assert mine.read_text(encoding="utf-8") == '{"my": "notes"}\n'  # untouched
    assert main(["validate", str(data), "--findings", str(mine), "--overwrite", "--quiet"]) in (0, 1)
    assert mine.read_text(encoding="utf-8") == ours.read_text(encoding="utf-8")
    assert main(["validate", str(data), "--findings", str(tmp_path), "--quiet"]) == 1  # a folder
    assert "is a folder" in capsys.readouterr().err
    assert main(["validate", str(data), "--out", str(ours), "--quiet"]) in (0, 1)  # its name before --findings


def test_validate_writes_a_build_folders_findings_into_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))
    folder = tmp_path / "hi"
    assert main(["build", "trans", str(folder), "--lang", "hi", "--source", "sample", *MOCK,
                 "--mock-answers", "fake:0.1", "--quiet"]) == 0
    capsys.readouterr()
    before = {p.name for p in tmp_path.iterdir()}
    assert main(["validate", str(folder), "--quiet"]) in (0, 1)
    ours = folder / "validation.jsonl"
    assert ours.is_file() and "wrote " + str(ours) in capsys.readouterr().out
    assert {p.name for p in tmp_path.iterdir()} == before  # nothing beside the folder
    lines = [json.loads(x) for x in ours.read_text(encoding="utf-8").splitlines()]
    assert lines and all(x["format_version"] == 1 and x["check"] for x in lines)
    assert main(["build", "status", str(folder)]) == 0  # the build is none the worse for it
    assert main(["build", "trans", str(folder), "--lang", "hi", "--source", "sample", *MOCK,
                 "--mock-answers", "fake:0.1", "--quiet"]) == 0


def test_findings_an_old_validate_left_in_a_data_folder_are_skipped_with_a_note(tmp_path, capsys):
    """validate used to write DATA.validation.jsonl beside the data: every reader of the folder
    then stopped at it ('field prompt: missing field'). It is told apart by its shape."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(ROOT / "src/indicifeval/sample/hi.rows.jsonl", data / "hi.rows.jsonl")
    assert main(["validate", str(data / "hi.rows.jsonl"), "--findings", str(data / "hi.rows.validation.jsonl"),
                 "--quiet"]) in (0, 1)
    capsys.readouterr()
    note = f"note: {data / 'hi.rows.validation.jsonl'}: skipped, it holds the findings of indicifeval validate"
    for argv in (["validate", str(data), "--quiet"], ["stats", str(data)],
                 ["score", "--data", str(data), "--responses", "sample", "--out", str(tmp_path / "s"), "--quiet"],
                 ["run", "--backend", "mock", "--mock-answers", "sample", "--model", "m", "--data", str(data),
                  "--out", str(tmp_path / "r"), "--quiet"],
                 ["export", str(data), "--format", "trl", "--out", str(tmp_path / "e")]):
        from indicifeval.dataset import readers

        readers._noted.clear()  # once per process: each command here is a process of its own
        assert main(argv) in ((0, 1) if argv[0] == "validate" else (0,)), argv
        err = capsys.readouterr().err
        said = [line for line in err.splitlines() if "findings of indicifeval validate" in line]
        assert len(said) == 1 and said[0].startswith(note) and "error" not in err, (argv, err)
    responses = tmp_path / "responses"
    responses.mkdir()
    shutil.copy(ROOT / "src/indicifeval/sample/hi.responses.jsonl", responses / "hi.jsonl")
    shutil.copy(data / "hi.rows.validation.jsonl", responses / "hi.validation.jsonl")
    assert main(["score", "--data", str(data), "--responses", str(responses), "--out", str(tmp_path / "s2"),
                 "--quiet"]) == 0
    assert main(["score", "--data", str(data / "hi.rows.validation.jsonl"), "--responses", "sample", "--out",
                 str(tmp_path / "s3")]) == 1  # named as the data: what it is, in one line
    err = capsys.readouterr().err
    assert "holds the findings of indicifeval validate (check, severity, message), not data" in err, err
