"""Runs survive SIGKILL: rerunning finishes the missing items only, each exactly once."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from indicifeval.cli import main
from indicifeval.dataset import InputError
from indicifeval.runs.runner import DataOptions, run
from indicifeval.runs.store import RunMismatch, RunStore
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig, sample_answers
from tests.runs.specs import spec


def _uids(folder):
    return [json.loads(x)["uid"] for x in (folder / "generations.jsonl").read_text(encoding="utf-8").splitlines() if x]


def test_sigkill_then_resume(tmp_path):
    out = tmp_path / "run"
    with FakeOpenAIServer(ServerConfig(answers=sample_answers(), latency_s=0.05)) as server:
        cmd = [sys.executable, "-m", "indicifeval.cli", "run", "--backend", "openai", "--base-url", server.url,
               "--model", "M", "--data", "sample", "--concurrency", "4", "--out", str(out), "--quiet"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        gens = out / "generations.jsonl"
        while time.monotonic() < deadline:
            if gens.exists() and gens.read_bytes().count(b"\n") >= 60:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        first = set(_uids(out)) if gens.read_bytes().endswith(b"\n") else None
        with gens.open("ab") as fh:  # and a torn last line, as a kill mid-write leaves
            fh.write(b'{"uid": "hi/trans/hi-trans-01-pass", "output": "torn')
        requests_before = server.requests
        assert main(cmd[3:]) == 0  # resume in this process
        resumed_requests = server.requests - requests_before
    uids = _uids(out)
    assert len(uids) == len(set(uids)) == 416  # every item exactly once
    done_before = len(first) if first is not None else None
    if done_before is not None:
        assert resumed_requests == 416 - done_before  # nothing regenerated
    assert 60 <= 416 - resumed_requests < 416
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete"


def test_rerun_of_finished_run_generates_nothing(tmp_path):
    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
        opts = {"base_url": server.url, "concurrency": 8}
        data = DataOptions(source="sample", languages="hi")
        first = run(spec("M", "openai", opts), tmp_path, data)
        n = server.requests
        again = run(spec("M", "openai", opts), tmp_path, data)
        assert server.requests == n
    assert (first.generated, again.generated, again.resumed) == (28, 0, 28)


def test_different_settings_are_refused(tmp_path, capsys):
    with FakeOpenAIServer(ServerConfig()) as server:
        base = ["run", "--backend", "openai", "--base-url", server.url, "--model", "M", "--data", "sample",
                "--languages", "hi", "--limit", "1", "--out", str(tmp_path), "--quiet"]
        assert main(base) == 0
        assert main(base + ["--max-tokens", "64"]) == 1
        err = capsys.readouterr().err
        assert "model.settings.max_tokens: 1280 in the folder, 64 now" in err
        assert main(base[:-3] + ["--languages", "ta", "--out", str(tmp_path), "--quiet"]) == 1
        assert "data.languages" in capsys.readouterr().err
        with pytest.raises(RunMismatch):
            run(spec("other", "openai", {"base_url": server.url}), tmp_path,
                DataOptions(source="sample", languages="hi", limit=1))


def test_repair_drops_only_a_torn_line(tmp_path):
    store = RunStore(tmp_path)
    path = store.generations_path
    path.write_text('{"uid": "a"}\n{"uid": "b"}\n{"uid": "c", "out', encoding="utf-8")
    assert store.repair() > 0
    assert [g["uid"] for g in store.read_generations()] == ["a", "b"]
    path.write_text('{"uid": "a"}\n{"uid": "b"}\n', encoding="utf-8")
    assert store.repair() == 0
    path.write_text('{"uid": "a"}\n{"uid": "b", "x\n', encoding="utf-8")  # newline landed, JSON did not
    store.repair()
    assert [g["uid"] for g in store.read_generations()] == ["a"]
    path.write_text('{"uid": "a"}\n{broken\n{"uid": "c"}\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(store.read_generations())
    assert err.value.line == 2


def test_rescore_in_the_other_mode(tmp_path, capsys):
    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
        run(spec("M", "openai", {"base_url": server.url}), tmp_path, DataOptions(source="sample", languages="ur"))
        requests = server.requests
        assert main(["score", "--run", str(tmp_path), "--scoring", "paper", "--quiet"]) == 0
        assert server.requests == requests
    paper = json.loads((tmp_path / "summary.paper.json").read_text())
    fixed = json.loads((tmp_path / "summary.json").read_text())
    assert paper["scoring"] == "paper" and fixed["scoring"] == "fixed"
    assert (tmp_path / "scores.paper.jsonl").exists()
    assert paper["run"]["items"] == fixed["run"]["items"] == 28


def test_score_run_rejects_other_folders(tmp_path, capsys):
    assert main(["score", "--run", str(tmp_path), "--quiet"]) == 1
    assert "not a run folder" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX only")
def test_no_generation_before_validation(tmp_path):
    bad = tmp_path / "rows.jsonl"
    bad.write_text(json.dumps({"key": 1, "prompt": "p", "instruction_id_list": ["nope"], "kwargs": [{}],
                               "language": "hi"}) + "\n", encoding="utf-8")
    with FakeOpenAIServer(ServerConfig()) as server:
        with pytest.raises(InputError) as err:
            run(spec("M", "openai", {"base_url": server.url}), tmp_path / "o", DataOptions(source=str(bad)))
        assert server.requests == 0
    assert err.value.field == "instruction_id_list"


@pytest.mark.parametrize(("data", "kept"), [
    (b'{"a":1}\n{"a":2}\n', 16), (b'{"a":1}\n{"a":2}\n{"a":', 16), (b'{"a":1}\n{"a":2}\n{"a"\n', 16),
    (b'{"a":', 0), (b"", 0), (b'{"a":1}\n{"x":"' + b"y" * 3_000_000, 8),
    (b'{"a":1}\n{"x":"' + b"y" * 3_000_000 + b'"}\n', 3_000_017)])
def test_repair_drops_exactly_a_torn_or_broken_last_line(tmp_path, data, kept):
    from indicifeval.core.log import JsonlLog

    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    assert JsonlLog(path).repair() == len(data) - kept and path.read_bytes() == data[:kept]


def test_a_rerun_clears_what_a_killed_run_left_and_nothing_else(tmp_path):
    """core.files' own temporary names go once the lock is held; a user's *.tmp stays."""
    data = DataOptions(source="sample", languages="hi")
    config = spec("M", "mock", {"answers": "sample"})
    run(config, tmp_path, data)
    stale = [tmp_path / ".scores.jsonl.ab12_x9z.tmp", tmp_path / ".manifest.json.0000aaaa.tmp"]
    mine = [tmp_path / "notes.tmp", tmp_path / ".scores.jsonl.tmp"]
    for path in stale + mine:
        path.write_text("left behind", encoding="utf-8")
    again = run(config, tmp_path, data)
    assert again.generated == 0 and not any(p.exists() for p in stale)
    assert all(p.read_text(encoding="utf-8") == "left behind" for p in mine)
