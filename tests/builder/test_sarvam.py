"""The sarvam engine against the loopback fake of Sarvam's /translate API: faults retried,
long texts cut and rejoined exactly, refusals as per-item errors, the key never shown."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("aiohttp")

from indicifeval.builder.trans.translator import translator as bound_translator  # noqa: E402
from indicifeval.core.errors import InputError  # noqa: E402
from indicifeval.runs.backends.base import BackendError  # noqa: E402
from indicifeval.runs.backends.sarvam import SarvamOptions, SarvamTranslator, TooLong, split_text  # noqa: E402
from indicifeval.runs.backends.spec import ModelSpec  # noqa: E402
from indicifeval.runs.requests import GenerationRequest  # noqa: E402
from indicifeval.testing.fake_sarvam import FakeSarvamServer, SarvamConfig, fake_translation  # noqa: E402
from indicifeval.testing.fake_server import FaultPlan  # noqa: E402

KEY = "sk-test-0123456789abcdef"


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("SARVAM_API_KEY", KEY)


def translator(url: str, target: str = "hi", **options) -> SarvamTranslator:
    opts = {"base_url": url, "target_language": target, "backoff_base_s": 0.01, **options}
    return SarvamTranslator("sarvam-translate:v1", SarvamOptions(**opts))


def run(backend, texts: dict[str, str]) -> dict:
    results: dict = {}

    def on_result(result):
        assert result.uid not in results, "one result per item"
        results[result.uid] = result

    backend.generate([GenerationRequest(uid, [{"role": "user", "content": t}]) for uid, t in texts.items()], on_result)
    return results


def test_every_item_translated_once_through_faults():
    plan = FaultPlan(rate=0.7, kinds=("429", "500", "drop"), max_faults_per_prompt=2, retry_after_s=0.25, seed=1)
    texts = {f"en/trans/{i}": f"Write {i} lines about {{{{{i}}}}} and the sea." for i in range(24)}
    with FakeSarvamServer(SarvamConfig(api_key=KEY, faults=plan, latency_s=0.01)) as server:
        results = run(translator(server.url, concurrency=3), texts)
    assert set(results) == set(texts)
    for uid, text in texts.items():
        assert results[uid].error is None
        assert results[uid].output == fake_translation(text, "hi-IN")  # placeholders kept as sent
        assert results[uid].finish_reason == "stop"
        assert server.translated[text] == 1
    assert set(server.faults_served) == {"429", "500", "drop"}
    assert sum(r.attempts for r in results.values()) == len(server.log)
    assert server.max_in_flight <= 3
    # a 429 is followed by a wait of at least its Retry-After before that text comes again
    for i, (when, text, status) in enumerate(server.log):
        if status == 429:
            following = next(t for t, x, _ in server.log[i + 1:] if x == text)
            assert following - when >= 0.25 - 0.02


def test_long_text_is_cut_at_paragraphs_and_rejoined_exactly():
    paragraphs = [(f"Paragraph {i} says {{{{{i}}}}} things. " * 18).strip() for i in range(8)]
    text = "\n\n".join(paragraphs[:3]) + " \n\n\n" + "\n\n".join(paragraphs[3:])  # odd whitespace at a cut
    assert 4400 < len(text) < 4700 and all(len(p) < 600 for p in paragraphs)
    with FakeSarvamServer(SarvamConfig(api_key=KEY)) as server:
        result = run(translator(server.url), {"en/trans/0": text})["en/trans/0"]
    sent = [b["input"] for b in server.seen_bodies]
    assert len(sent) == 3 and all(len(s) <= 2000 for s in sent)
    assert sent[0] == "\n\n".join(paragraphs[:3])  # the whitespace at the cut is kept out and put back
    assert all(s.split("\n\n")[0] in paragraphs for s in sent)  # every piece starts at a paragraph
    assert result.error is None and result.usage["requests"] == 3
    assert result.output.replace("[hi-IN] ", "") == text


def test_split_falls_back_to_lines_then_sentences_and_keeps_protected_spans():
    lines = "\n".join(f"Line {i} is here." for i in range(30))
    pieces, seps = split_text(lines, 100)
    assert all(len(p) <= 100 for p in pieces) and set(seps) == {"\n"}
    assert pieces[0] + "".join(s + p for s, p in zip(seps, pieces[1:])) == lines
    sentences = " ".join(f"Sentence {i} ends here." for i in range(20))
    pieces, seps = split_text(sentences, 80)
    assert all(len(p) <= 80 and p.endswith(".") for p in pieces) and set(seps) == {" "}
    fenced = "Intro.\n\n```\nx = 1\n\ny = 2\n```\n\nOutro."
    pieces, _ = split_text(fenced, 25)
    assert "```\nx = 1\n\ny = 2\n```" in pieces  # the blank line inside the block is no cut point
    with pytest.raises(TooLong):
        split_text("Intro.\n\n```\n" + "z = 1\n" * 10 + "```", 30)
    # a sentence end just before a placeholder with spaces inside is no cut point within it
    assert split_text("Stop. {{ 1. 2 }} go.", 14) == (["Stop.", "{{ 1. 2 }} go."], [" "])
    with pytest.raises(TooLong):
        split_text("A{{ 1. 2 }}B", 5)


def test_a_piece_that_cannot_be_cut_is_a_per_item_error():
    texts = {"en/trans/0": "a" * 2500, "en/trans/1": "Short."}
    with FakeSarvamServer(SarvamConfig(api_key=KEY)) as server:
        results = run(translator(server.url), texts)
    assert results["en/trans/0"].error and "2,500" in results["en/trans/0"].error
    assert results["en/trans/0"].output == ""
    assert results["en/trans/1"].output == "[hi-IN] Short."
    assert [b["input"] for b in server.seen_bodies] == ["Short."]  # the long one is never sent


def test_422_is_a_per_item_error_with_the_api_message_and_no_retry():
    long_text = "b" * 2100
    with FakeSarvamServer(SarvamConfig(api_key=KEY)) as server:
        results = run(translator(server.url, max_chars=5000), {"en/trans/0": long_text, "en/trans/1": "Fine."})
    error = results["en/trans/0"].error
    assert error and "422" in error and "over the limit of 2000" in error
    assert server.attempts[long_text] == 1
    assert results["en/trans/1"].error is None


def test_the_key_is_never_in_describe_or_error_text():
    def echo_key(body):
        if body["input"] == "refuse":
            return 422, json.dumps({"error": {"message": f"bad text for key {KEY}"}}).encode()
        if body["input"] == "stop":
            return 400, json.dumps({"error": {"message": f"key {KEY} may not do this"}}).encode()
        return None

    backend = translator("http://127.0.0.1:1")
    described = json.dumps(backend.describe())
    assert KEY not in described and "SARVAM_API_KEY" in described
    with FakeSarvamServer(SarvamConfig(api_key=KEY, raw_fn=echo_key)) as server:
        backend = translator(server.url, concurrency=1)
        error = run(backend, {"en/trans/0": "refuse"})["en/trans/0"].error
        assert error and KEY not in error and "***" in error
        with pytest.raises(BackendError) as info:
            run(backend, {"en/trans/1": "stop"})
    assert KEY not in str(info.value) and "HTTP 400" in str(info.value)
    assert server.attempts["stop"] == 1  # another 4xx is not retried


def test_a_wrong_key_stops_the_run(monkeypatch):
    monkeypatch.setenv("SARVAM_API_KEY", "not-the-key")
    with FakeSarvamServer(SarvamConfig(api_key=KEY)) as server:
        with pytest.raises(BackendError, match="HTTP 403"):
            run(translator(server.url), {"en/trans/0": "Hello."})
    monkeypatch.delenv("SARVAM_API_KEY")
    with pytest.raises(BackendError, match=r"\$SARVAM_API_KEY"):
        run(translator(server.url), {"en/trans/0": "Hello."})


def test_odia_through_the_model_spec():
    with FakeSarvamServer(SarvamConfig(api_key=KEY)) as server:
        given = ModelSpec.of("sarvam", "sarvam-translate:v1", {"base_url": server.url}, language="or")
        spec = bound_translator(given, "or")
        backend = spec.open()
        results: list = []
        backend.generate([spec.request("or/trans/0", "Hello {{1}}.")], results.append)
    assert server.seen_bodies == [{"input": "Hello {{1}}.", "source_language_code": "en-IN",
                                   "target_language_code": "od-IN", "model": "sarvam-translate:v1",
                                   "mode": "formal", "numerals_format": "international"}]
    assert results[0].output == "[od-IN] Hello {{1}}."
    assert backend.describe()["target_language_code"] == "od-IN"
    identity = spec.identity()
    assert identity["options"]["target_language"] == "or" and KEY not in json.dumps(identity)


def test_options_are_checked():
    with pytest.raises(InputError, match="NAME of an environment variable"):
        SarvamOptions(target_language="hi", api_key_env=KEY)
    with pytest.raises(InputError, match="mode"):
        SarvamOptions(target_language="hi", mode="casual")
    with pytest.raises(InputError, match="target language"):
        SarvamOptions()
    assert SarvamOptions(target_language="hi").output_settings() == {
        "target_language": "hi", "source_language": "en", "mode": "formal", "max_chars": 2000}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_fake_runs_as_a_module():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "indicifeval.testing.fake_sarvam", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ})
    try:
        assert proc.stdout is not None and b"serving" in proc.stdout.readline()
        body = json.dumps({"input": "Hi.", "source_language_code": "en-IN", "target_language_code": "ta-IN"})
        request = urllib.request.Request(f"http://127.0.0.1:{port}/translate", body.encode(), method="POST",
                                         headers={"api-subscription-key": "test-key",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert json.loads(response.read())["translated_text"] == "[ta-IN] Hi."
    finally:
        proc.terminate()
        proc.wait(5)
