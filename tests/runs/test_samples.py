"""``run --samples N``: each sample its own seed and uid, resumable per sample after a kill,
scored one line per (row, sample), summarised as the mean over samples with intervals."""

import json
import signal
import subprocess
import sys
import time

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.records.scores import read_scores
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.runner import DataOptions, run
from indicifeval.runs.sampling import sample_uid
from indicifeval.scoring.samples import estimates, grids, two_level
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig, sample_answers
from tests.runs.specs import spec

HI = DataOptions(source="sample", languages="hi", limit=3)  # 3 Trans + 3 Ground rows


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]


def test_greedy_samples_are_refused_unless_asked(tmp_path):
    with pytest.raises(InputError, match="identical samples carry no information"):
        run(spec("echo", "mock"), tmp_path / "a", HI, samples=3)
    assert not (tmp_path / "a").exists()
    outcome = run(spec("echo", "mock"), tmp_path / "b", HI, samples=2, allow_greedy_samples=True)
    assert outcome.generated == 12
    with pytest.raises(InputError, match="at least 1"):
        run(spec("echo", "mock", temperature=0.5), tmp_path / "c", HI, samples=0)


def test_each_sample_has_its_uid_and_seed(tmp_path):
    backend = MockBackend("m")
    run(spec("m", "mock", temperature=0.8, seed=10), tmp_path, HI, samples=3, backend=backend)
    seeds = {(r.uid.partition("#")[2] or "s0"): r.settings.seed for r in backend.requests}
    assert seeds == {"s0": 10, "s1": 11, "s2": 12}
    lines = _lines(tmp_path / "generations.jsonl")
    assert len(lines) == 18
    first = lines[0]
    assert first["uid"] == "hi/trans/hi-trans-01-pass" and first["seed"] == 10 and "sample" not in first
    later = [x for x in lines if x["uid"].endswith("#s2")]
    assert len(later) == 6 and all(x["sample"] == 2 and x["seed"] == 12 for x in later)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["samples"] == 3 and manifest["items"] == 18
    scores = list(read_scores(tmp_path / "scores.jsonl"))
    assert sorted(s.sample for s in scores) == [0] * 6 + [1] * 6 + [2] * 6
    assert len({(s.language, s.subset, str(s.key), s.sample) for s in scores}) == 18
    summary = json.loads((tmp_path / "summary.json").read_text())
    block = summary["samples"]
    assert block["k"] == 3 and block["overall"]["prompts"] == 6
    for metric in ("prompt_level_strict_acc", "inst_level_loose_acc", "all_k_followed", "any_of_k"):
        est = block["overall"][metric]
        assert est["low"] <= est["value"] <= est["high"]
    assert block["overall"]["prompt_level_strict_acc"]["value"] == summary["overall"]["prompt_level_strict_acc"]


def test_one_sample_writes_as_before(tmp_path):
    run(spec("m", "mock"), tmp_path, HI)
    lines = _lines(tmp_path / "generations.jsonl")
    assert all("sample" not in x and "seed" not in x and "#" not in x["uid"] for x in lines)
    assert all("sample" not in x for x in _lines(tmp_path / "scores.jsonl"))
    assert "samples" not in json.loads((tmp_path / "summary.json").read_text())


class Killed(BaseException):
    """What a kill looks like from inside: nothing after it runs."""


def test_an_interrupted_run_resumes_per_sample(tmp_path):
    calls = []

    def dies(request):
        if len(calls) == 8:
            raise Killed
        calls.append(request.uid)
        return "Answer"

    with pytest.raises(Killed):
        run(spec("m", "mock", temperature=0.7), tmp_path, HI, samples=3, backend=MockBackend("m", script=dies))
    done = {x["uid"] for x in _lines(tmp_path / "generations.jsonl")}
    assert done == set(calls) and len(done) == 8
    again = MockBackend("m", script=lambda r: "Answer")
    outcome = run(spec("m", "mock", temperature=0.7), tmp_path, HI, samples=3, backend=again)
    asked = [r.uid for r in again.requests]
    assert len(asked) == 10 and not set(asked) & done  # only what was missing
    assert (outcome.generated, outcome.resumed) == (10, 8)
    # more samples later: only the new sample is asked, the earlier ones stay as they are
    more = MockBackend("m", script=lambda r: "Answer")
    run(spec("m", "mock", temperature=0.7), tmp_path, HI, samples=4, backend=more)
    assert {r.uid.rpartition("#")[2] for r in more.requests} == {"s3"} and len(more.requests) == 6
    assert len(list(read_scores(tmp_path / "scores.jsonl"))) == 24


def test_sigkill_then_resume_with_samples_on_the_loopback_server(tmp_path):
    out = tmp_path / "run"
    with FakeOpenAIServer(ServerConfig(answers=sample_answers(), latency_s=0.03)) as server:
        cmd = [sys.executable, "-m", "indicifeval.cli", "run", "--backend", "openai", "--base-url", server.url,
               "--model", "M", "--data", "sample", "--languages", "hi", "--samples", "3", "--temperature", "0.7",
               "--concurrency", "2", "--out", str(out), "--quiet"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        gens = out / "generations.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if gens.exists() and gens.read_bytes().count(b"\n") >= 30:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        before = server.requests
        assert main(cmd[3:]) == 0
        resumed = server.requests - before
    uids = [x["uid"] for x in _lines(gens)]
    assert len(uids) == len(set(uids)) == 84  # 28 rows × 3 samples, each exactly once
    assert 30 <= 84 - resumed < 84
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"
    assert len(list(read_scores(out / "scores.jsonl"))) == 84


def test_sample_uids():
    assert sample_uid("hi/trans/7", 0) == "hi/trans/7"
    assert sample_uid("hi/trans/7", 2) == "hi/trans/7#s2"


def test_the_estimator_on_known_grids():
    from indicifeval.records.scores import RowScore

    def score(key, sample, passed):
        return RowScore(key, "hi", "trans", ["a"], [passed], [passed], passed, passed, [], False, "fixed", "",
                        sample=sample)

    # prompt 1 always passes, prompt 2 never, prompt 3 passes in 1 of 3 samples
    scores = [score(k, s, p) for k, outcomes in ((1, (1, 1, 1)), (2, (0, 0, 0)), (3, (1, 0, 0)))
              for s, p in enumerate(map(bool, outcomes))]
    out = estimates(scores, 3, seed=0, label="t", n_boot=400)
    assert out["prompt_level_strict_acc"]["value"] == pytest.approx(4 / 9)
    assert out["all_k_followed"]["value"] == pytest.approx(1 / 3)
    assert out["any_of_k"]["value"] == pytest.approx(2 / 3)
    assert out == estimates(scores, 3, seed=0, label="t", n_boot=400)  # seeded
    # the interval holds the point and is neither empty nor the whole range
    _, found = grids(scores, 3)
    low, high = two_level(found["prompt_level_strict_acc"], seed=0, label="t", n_boot=400)
    assert low is not None and high is not None and low < 4 / 9 < high


def test_the_report_pools_samples_per_prompt(tmp_path):
    many, one = tmp_path / "many", tmp_path / "one"
    run(spec("m", "mock", {"answers": "noisy-sample:0.4"}, temperature=0.7), many, HI, samples=3)
    run(spec("m", "mock", {"answers": "sample"}), one, HI)
    assert main(["report", str(many), str(one), "--out", str(tmp_path / "rep"), "--no-html", "--no-plots"]) == 0
    tables = json.loads((tmp_path / "rep" / "report.json").read_text())["tables"]
    rows = tables["repeated_samples"]["rows"]
    assert [r[0].split(" ")[0] for r in rows] == ["m", "m"] and {r[2] for r in rows} == {3}  # only the sampled run
    summary = json.loads((many / "summary.json").read_text())
    hindi = tables["trans_languages"]["rows"][0][tables["trans_languages"]["columns"].index("hi")]
    assert hindi["n"] == 3  # prompts, not prompt × sample lines
    assert hindi["value"] == pytest.approx(summary["per_language_subset"]["hi/trans"]["prompt_level_loose_acc"])
