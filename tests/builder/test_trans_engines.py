"""The Trans pipeline through real engine code paths: an OpenAI-compatible server with faults
(loopback), a kill in the middle of `translate` and a rerun (every unit translated once), and
the chat path of a tiny local model through `hf`."""

import json
import signal
import subprocess
import sys
import time

import pytest

from indicifeval.builder.trans.pipeline import build_trans
from indicifeval.cli import main
from indicifeval.languages import get_profile
from indicifeval.runs.backends.fake_translator import FakeTranslator
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.requests import SamplingSettings
from indicifeval.testing.fake_server import FakeOpenAIServer, FaultPlan, ServerConfig


def _translating(language, **kw):
    translator = FakeTranslator(get_profile(language).default_letters)
    return ServerConfig(answer_fn=lambda body: translator(body["messages"][-1]["content"]), **kw)


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_openai_route_through_faults(tmp_path):
    faults = FaultPlan(rate=0.3, max_faults_per_prompt=2, slow_s=0.3, retry_after_s=0.01)
    with FakeOpenAIServer(_translating("hi", faults=faults)) as server:
        spec = ModelSpec.of("openai", "sarvam-translate", {"base_url": server.url, "concurrency": 8, "timeout_s": 0.2,
                                                         "backoff_base_s": 0.01, "max_retries": 6})
        records = build_trans(tmp_path / "b", "hi", "sample", spec, until="assemble")
        served = dict(server.faults_served)
        bodies = list(server.seen_bodies)
    assert set(served) >= {"429", "500", "drop"} and records["assemble"].status == "complete"
    assert bodies[0]["messages"][0] == {"role": "system", "content": "Translate the text below to Hindi."}
    units = _lines(tmp_path / "b" / "trans" / "mt.jsonl")
    counts = records["translate"].counts  # the sample's pass/fail pairs share their prompts: each text asked once
    assert len(units) == len({u["content_hash"] for u in units}) == counts["asked"] < counts["items"]
    assert counts["asked"] + counts["reused"] == counts["items"] and counts["failed"] == 0
    candidates = _lines(tmp_path / "b" / "trans" / "candidates.jsonl")
    assert all(c["status"] == "auto-ok" for c in candidates), [c["reasons"] for c in candidates]


def test_sigkill_during_translate_then_rerun_translates_each_unit_once(tmp_path):
    out = tmp_path / "b"
    with FakeOpenAIServer(_translating("ta", latency_s=0.05)) as server:
        argv = ["build", "trans", str(out), "--lang", "ta", "--source", "sample", "--engine", "openai", "--model", "m",
                "--base-url", server.url, "--concurrency", "2", "--until", "translate", "--quiet"]
        proc = subprocess.Popen([sys.executable, "-m", "indicifeval", *argv], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        log = out / "trans" / "mt.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (log.exists() and log.read_bytes().count(b"\n") >= 10):
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        before = log.read_bytes().count(b"\n")
        assert main(argv) == 0  # resumes: the stage failed mid-way, the same identity goes on
        assert main(argv[:-1] + ["--until", "assemble", "--quiet"]) == 0
    units = _lines(log)
    uids, texts = [u["uid"] for u in units], [u["content_hash"] for u in units]
    assert len(uids) == len(set(uids)) == len(set(texts)) and 10 <= before < len(uids)  # each text asked once
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages"]["translate"]["status"] == "complete"
    counts = manifest["stages"]["translate"]["counts"]
    assert counts["failed"] == 0 and counts["items"] == counts["asked"] + counts["reused"]
    candidates = _lines(out / "trans" / "candidates.jsonl")
    assert not any("not translated" in r for c in candidates for r in c["reasons"])


def test_the_same_bytes_at_any_concurrency(tmp_path):
    """Replies journalled in the order they arrive make the same build at 1 or 32 in flight."""
    with FakeOpenAIServer(_translating("hi")) as server:
        for concurrency in (1, 32):
            spec = ModelSpec.of("openai", "m", {"base_url": server.url, "concurrency": concurrency})
            build_trans(tmp_path / f"c{concurrency}", "hi", "sample", spec)
    for name in ("plans.jsonl", "pretranslations.jsonl", "candidates.jsonl", "rows.jsonl", "validation.jsonl"):
        one, many = ((tmp_path / c / "trans" / name).read_text(encoding="utf-8").replace(str(tmp_path / c), "B")
                     for c in ("c1", "c32"))  # the validator names the folder's own path
        assert one == many, name


def test_chat_model_through_hf(tiny_model_dir, tmp_path):
    spec = ModelSpec.of("hf", str(tiny_model_dir), {"device": "cpu"}, settings=SamplingSettings(max_tokens=8))
    records = build_trans(tmp_path / "b", "hi", "sample", spec, until="assemble")
    mt = _lines(tmp_path / "b" / "trans" / "mt.jsonl")
    assert mt and all(g["finish_reason"] in ("stop", "length") for g in mt)
    # a random model does not keep placeholders or stop in time: every such row is flagged, none is guessed
    candidates = _lines(tmp_path / "b" / "trans" / "candidates.jsonl")
    assert records["assemble"].counts["needs-review"] == sum(c["status"] == "needs-review" for c in candidates)
    flagged = [c for c in candidates if c["status"] == "needs-review"]
    assert flagged and all(c["reasons"] for c in flagged)
    assert any("cut at the length limit" in r or "lost in translation" in r for c in flagged for r in c["reasons"])
    engine = records["translate"].identity["model"]  # the model's own chat template is part of its identity
    assert engine["model"] == str(tiny_model_dir.resolve()) and len(engine["chat_template_hash"]) == 16


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory):
    pytest.importorskip("torch", reason="needs torch (the CPU build is enough: pip install torch, as .ci/run does)")
    pytest.importorskip("transformers")
    from tests.runs.tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-chat"))
