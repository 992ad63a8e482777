"""Output folders: written whole or not at all (full disks included), owned by the tool that
made them, no stale files, each mode's scores side by side, reports that read score folders."""

import errno
import json
import os
import shutil
import subprocess
import uuid

import pytest

from indicifeval.cli import main
from indicifeval.core import files as core_files
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig, sample_answers

GOOD = {"key": 1, "prompt": "p", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}], "language": "hi"}


def write(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def _temps(folder):
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


# -- 8: atomic writes --------------------------------------------------------------------------
def test_injected_full_disk_keeps_the_previous_outputs(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    assert main(["score", "--data", "sample", "--out", str(out), "--quiet"]) == 0
    before = _snapshot(out)
    calls = {"n": 0}
    real_fsync = os.fsync

    def full_disk(fd):
        calls["n"] += 1
        if calls["n"] == 3:  # the third file of the set: two are already staged
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(core_files.os, "fsync", full_disk)
    assert main(["score", "--data", "sample", "--scoring", "paper", "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "no space left on the device" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert _snapshot(out) == before  # every file as it was: scores and summary agree
    assert not _temps(out)


def _tmpfs(path, size):
    path.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")


def test_real_full_disk_on_a_small_tmpfs(tmp_path, capsys):
    disk = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    _tmpfs(disk, "160k")
    try:
        out = disk / "out"
        rows = write(tmp_path / "rows.jsonl", [GOOD])
        resp = write(tmp_path / "resp.jsonl", [{"key": 1, "response": "बिना अल्पविराम"}])
        assert main(["score", "--data", rows, "--responses", resp, "--out", str(out), "--quiet"]) == 0
        before = _snapshot(out)
        assert main(["score", "--data", "sample", "--out", str(out), "--quiet"]) == 1  # far larger than 160 kB
        err = capsys.readouterr().err
        assert "no space left on the device" in err and "Traceback" not in err
        assert _snapshot(out) == before and not _temps(out)
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


# -- 9: tools own their folders ----------------------------------------------------------------
def test_score_refuses_a_folder_it_did_not_make_and_checks_out_before_work(tmp_path, capsys):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("keep me")
    assert main(["score", "--data", "sample", "--out", str(foreign), "--quiet"]) == 1
    assert "was not made by `indicifeval score`" in capsys.readouterr().err
    assert main(["score", "--data", "sample", "--out", str(foreign), "--overwrite", "--quiet"]) == 0
    assert (foreign / "mine.txt").read_text() == "keep me" and (foreign / "scores.jsonl").exists()
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for out in (a_file, a_file / "below"):
        assert main(["score", "--data", "sample", "--out", str(out), "--quiet"]) == 1
        assert "is a file" in capsys.readouterr().err
    assert main(["score", "--data", "sample", "--out", str(tmp_path / "s"), "--quiet"]) == 0
    assert main(["score", "--data", "sample", "--out", str(tmp_path / "s"), "--quiet"]) == 0  # its own: replaced


def test_report_replaces_its_previous_files_and_keeps_others_out(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["score", "--data", "sample", "--out", str(a), "--quiet"]) == 0
    assert main(["score", "--data", "sample", "--out", str(b), "--quiet"]) == 0
    rep = tmp_path / "rep"
    assert main(["report", str(a), str(b), "--out", str(rep), "--no-plots", "--bootstrap", "0", "--quiet"]) == 0
    assert (rep / "tables" / "comparison.csv").exists() and (rep / "report.html").exists()
    assert main(["report", str(a), "--out", str(rep), "--no-plots", "--no-html", "--bootstrap", "0", "--quiet"]) == 0
    assert not (rep / "tables" / "comparison.csv").exists()  # one run: no comparison, and no stale one
    assert not (rep / "report.html").exists()  # --no-html: no stale page either
    manifest = json.loads((rep / "manifest.json").read_text())
    on_disk = sorted(str(p.relative_to(rep)) for p in rep.rglob("*") if p.is_file() and p.name != "manifest.json")
    assert manifest["tool"] == "report" and manifest["files"] == on_disk
    assert main(["report", str(a), "--out", str(a), "--no-plots", "--quiet"]) == 1  # a score folder is not a report's
    assert "was not made by `indicifeval report`" in capsys.readouterr().err


# -- 2: each mode's scores side by side; reports choose and refuse to mix -----------------------
def _run(tmp_path, name, *extra):
    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
        assert main(["run", "--backend", "openai", "--base-url", server.url, "--model", name, "--data", "sample",
                     "--languages", "hi,ur", "--out", str(tmp_path / name), "--quiet", *extra]) == 0
    return tmp_path / name


def test_paper_rescore_sits_beside_fixed_and_reaches_the_report(tmp_path, capsys):
    run = _run(tmp_path, "m1")
    fixed = (run / "scores.jsonl").read_bytes()
    assert main(["score", "--run", str(run), "--scoring", "paper", "--quiet"]) == 0
    assert (run / "scores.jsonl").read_bytes() == fixed  # the run's own scores untouched
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["scoring"] == "fixed" and set(manifest["scored"]) == {"fixed", "paper"}
    assert manifest["scored"]["paper"]["scores"] == "scores.paper.jsonl"
    # run again with --scoring paper: fixed scores stay, paper ones refreshed, nothing replaced silently
    _run(tmp_path, "m1", "--scoring", "paper")
    assert (run / "scores.jsonl").read_bytes() == fixed
    rep = tmp_path / "rep"
    assert main(["report", str(run), "--scoring", "paper", "--out", str(rep), "--no-plots", "--bootstrap", "0",
                 "--quiet"]) == 0
    assert json.loads((rep / "report.json").read_text())["runs"][0]["scoring"] == "paper"
    assert main(["report", str(run), "--out", str(tmp_path / "rep2"), "--no-plots", "--bootstrap", "0",
                 "--quiet"]) == 0
    assert json.loads((tmp_path / "rep2" / "report.json").read_text())["runs"][0]["scoring"] == "fixed"


def test_report_refuses_to_mix_modes_unless_asked(tmp_path, capsys):
    fixed_run = _run(tmp_path, "m1")
    paper_run = _run(tmp_path, "m2", "--scoring", "paper")
    args = ["report", str(fixed_run), str(paper_run), "--no-plots", "--bootstrap", "0", "--quiet"]
    assert main(args + ["--out", str(tmp_path / "r1")]) == 1
    err = capsys.readouterr().err
    assert "different modes" in err and "--mixed-scoring" in err
    assert main(args + ["--out", str(tmp_path / "r2"), "--scoring", "paper"]) == 1
    assert "score --run" in capsys.readouterr().err  # m1 has no paper scores yet: say how to make them
    assert main(args + ["--out", str(tmp_path / "r3"), "--mixed-scoring"]) == 0
    assert main(["score", "--run", str(fixed_run), "--scoring", "paper", "--quiet"]) == 0
    assert main(args + ["--out", str(tmp_path / "r4"), "--scoring", "paper"]) == 0


def test_report_on_score_folders_shows_prompts_and_answers(tmp_path):
    out = tmp_path / "s"
    assert main(["score", "--data", "sample", "--out", str(out), "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["tool"] == "score" and manifest["inputs"]["data"] == {"name": "sample"}
    assert manifest["created_at"] and manifest["scoring"] == "fixed"
    from indicifeval.reports.api import build_report

    samples = build_report([out], n_boot=0).samples
    assert samples and all(s["prompt"] and s["answer"] is not None for s in samples)


def test_score_records_inputs_with_sha256(tmp_path):
    rows = write(tmp_path / "rows.jsonl", [GOOD])
    resp = write(tmp_path / "resp.jsonl", [{"key": 1, "response": "x"}])
    assert main(["score", "--data", rows, "--responses", resp, "--out", str(tmp_path / "o"), "--quiet"]) == 0
    inputs = json.loads((tmp_path / "o" / "manifest.json").read_text())["inputs"]
    import hashlib

    assert inputs["data"]["sha256"] == hashlib.sha256((tmp_path / "rows.jsonl").read_bytes()).hexdigest()
    assert inputs["responses"]["path"] == resp and len(inputs["responses"]["sha256"]) == 64


def test_overwrite_never_writes_over_another_tools_folder(tmp_path, capsys):
    run = _run(tmp_path, "m1")
    manifest = (run / "manifest.json").read_bytes()
    assert main(["score", "--data", "sample", "--out", str(run), "--overwrite", "--quiet"]) == 1
    assert "holds the output of `indicifeval run`" in capsys.readouterr().err
    assert (run / "manifest.json").read_bytes() == manifest
