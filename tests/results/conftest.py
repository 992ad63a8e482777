"""Run folders on the bundled sample, made once per session: two mock models, one model served
by the loopback fake OpenAI server (with an API key in the environment, which no export may
hold), and a run of two samples per row merged from two mock runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig, sample_answers

API_KEY = "sk-test-results-export-NOT-A-REAL-KEY-7f3a"


def _mock(folder: Path, model: str, answers: str) -> Path:
    assert main(["run", "--backend", "mock", "--model", model, "--mock-answers", answers, "--data", "sample",
                 "--out", str(folder), "--quiet"]) == 0
    return folder


def merge_samples(first: Path, second: Path, out: Path) -> Path:
    """A run of two samples per row: ``first``'s answers as sample 0 (seed 0), ``second``'s as
    sample 1 (seed 1, uid ``...#s1``), as ``run --samples 2`` records them."""
    shutil.copytree(first, out)
    with (out / "generations.jsonl").open("w", encoding="utf-8") as fh:
        for sample, folder in enumerate((first, second)):
            for line in (folder / "generations.jsonl").read_text(encoding="utf-8").splitlines():
                g = json.loads(line)
                g["seed"] = sample
                if sample:
                    g["uid"], g["sample"] = f"{g['uid']}#s{sample}", sample
                fh.write(json.dumps(g, ensure_ascii=False) + "\n")
    with (out / "scores.jsonl").open("w", encoding="utf-8") as fh:
        for sample, folder in enumerate((first, second)):
            for line in (folder / "scores.jsonl").read_text(encoding="utf-8").splitlines():
                s = json.loads(line)
                if sample:
                    s["sample"] = sample
                fh.write(json.dumps(s, ensure_ascii=False) + "\n")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["samples"] = 2
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("result-runs")
    out = {"echo": _mock(base / "mock-echo", "mock-echo", "echo"),
           "sample": _mock(base / "mock-sample", "org/mock-sample", "sample")}
    mp = pytest.MonkeyPatch()
    mp.setenv("OPENAI_API_KEY", API_KEY)
    try:
        with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
            assert main(["run", "--backend", "openai", "--base-url", server.url, "--model", "served/loopback-m",
                         "--data", "sample", "--out", str(base / "loopback"), "--quiet"]) == 0
    finally:
        mp.undo()
    out["loopback"] = base / "loopback"
    out["two-samples"] = merge_samples(out["echo"], out["sample"], base / "two-samples")
    return out
