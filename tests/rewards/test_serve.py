"""``indicifeval serve`` for real: uvicorn on loopback, started as a user starts it. Its
verdicts are score_batch's; bad input is a 4xx naming the item and field; fuzzed and
degenerate answers are verdicts, never a 5xx or a hung worker; a killed worker is replaced."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from indicifeval.dataset import load_rows  # noqa: E402
from indicifeval.rewards import score_batch  # noqa: E402
from indicifeval.rewards.export import ground_truth  # noqa: E402
from tests.rewards.test_rewards_api import _responses  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *args: str):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "indicifeval", "serve", "--port", str(self.port), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.client = httpx.Client(base_url=self.url, timeout=60)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.client.get("/health").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
            if self.proc.poll() is not None:
                raise AssertionError(f"the server ended: {self.proc.stderr.read() if self.proc.stderr else ''}")
        raise AssertionError("the server did not answer /health in 60 s")

    def children(self) -> list[int]:
        """The worker processes (multiprocessing's resource tracker is a child too, not a worker)."""
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        out = []
        for pid in (path.read_text().split() if path.exists() else []):
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"resource_tracker" not in cmdline:
                out.append(int(pid))
        return out

    def stop(self) -> str:
        self.client.close()
        self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return err


@pytest.fixture(scope="module")
def server():
    s = Server("--max-body-mb", "4", "--max-batch", "300", "--max-answer-chars", "1100000", "--data", "sample")
    yield s
    err = s.stop()
    assert "Traceback" not in err, err


def _items(name="sample", step=1):
    rows, responses = load_rows(name)[::step], _responses(name)
    return [{**ground_truth(r), "response": responses[r.key]} for r in rows]


def test_health_and_instructions(server):
    health = server.client.get("/health").json()
    assert health["status"] == "ok" and health["scoring"] == "fixed" and health["reward"] == "all"
    langs = server.client.get("/instructions").json()["languages"]
    assert len(langs) == 15 and "numbers:native_digits" in langs["hi"] and "numbers:native_digits" not in langs["en"]
    assert "keywords:frequency" in langs["en"]


def test_score_answers_as_score_batch_does_in_json_and_json_lines(server):
    items = _items(step=2)
    expected = [v.to_json() for v in score_batch(items)]
    got = server.client.post("/score", json={"items": items})
    assert got.status_code == 200 and got.json()["results"] == expected
    assert server.client.post("/score", json=items).json()["results"] == expected
    lines = "".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items)
    got = server.client.post("/score", content=lines.encode(), headers={"content-type": "application/x-ndjson"})
    assert [json.loads(x) for x in got.text.splitlines()] == expected


def test_score_by_key_against_the_loaded_data(server):
    rows, responses = load_rows("sample")[:5], _responses("sample")
    items = [{"key": r.key, "response": responses[r.key]} for r in rows]
    got = server.client.post("/score", json=items).json()["results"]
    assert [g["reward"] for g in got] == [v.reward for v in score_batch(_items()[:5])]


@pytest.mark.parametrize("body, status, field", [
    (b"{not json", 400, None),
    (b"\xff\xfe", 400, None),
    (b'"a string"', 422, "items"),
    (json.dumps([{"language": "hi", "instruction_id_list": ["no:such"], "kwargs": [{}], "response": "x"}]).encode(),
     422, "instruction_id_list"),
    (json.dumps([{"language": "zz", "instruction_id_list": ["punctuation:no_comma"], "response": "x"}]).encode(),
     422, "language"),
    (json.dumps([{"language": "hi", "instruction_id_list": ["keywords:frequency"], "kwargs": [{"frequency": "two"}],
                  "response": "x"}]).encode(), 422, "kwargs[0].frequency"),
    (json.dumps([{"language": "hi", "instruction_id_list": "punctuation:no_comma", "response": "x"}]).encode(),
     422, "instruction_id_list"),
    (json.dumps([7]).encode(), 422, None),
    (b"[" * 100_000, 400, None),
])
def test_bad_input_is_a_4xx_naming_the_field(server, body, status, field):
    got = server.client.post("/score", content=body, headers={"content-type": "application/json"})
    assert got.status_code == status, got.text
    assert "error" in got.json() and got.json().get("field") == field


def test_limits(server):
    item = {"language": "hi", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    too_many = server.client.post("/score", json=[{**item, "response": "x"}] * 301)
    assert too_many.status_code == 413 and too_many.json()["field"] == "items"
    too_long = server.client.post("/score", json=[{**item, "response": "x" * 1_100_001}])
    assert too_long.status_code == 422 and too_long.json()["field"] == "response"
    too_big = server.client.post("/score", content=b" " * (4 * 2**20 + 1), headers={"content-type": "application/json"})
    assert too_big.status_code == 413
    assert server.client.get("/score").status_code == 405 and server.client.get("/nowhere").status_code == 404


@pytest.mark.parametrize("answer", ["\ud800 a lone surrogate", "ऀ" * 1_000_000, "*" * 500_000 + "\n" * 500_000,
                                    "<<" * 500_000, "1," * 500_000, "\u0000" * 1000])
def test_degenerate_answers_get_verdicts(server, answer):
    item = {"language": "hi", "instruction_id_list": ["detectable_format:title", "numbers:indian_system",
                                                      "length_constraints:number_sentences", "language:romanized"],
            "kwargs": [{}, {}, {"num_sentences": 3, "relation": "at least"}, {}]}
    lone = "\ud800" in answer  # a lone surrogate travels as \ud800 (it is not UTF-8)
    body = json.dumps([{**item, "response": answer}], ensure_ascii=lone)
    started = time.monotonic()
    got = server.client.post("/score", content=body.encode(), headers={"content-type": "application/json"})
    assert got.status_code == 200, got.text
    assert len(got.json()["results"][0]["strict"]) == 4 and time.monotonic() - started < 30
    assert server.client.get("/health").status_code == 200


_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) \
    | st.text(max_size=20)
_NAMES = st.sampled_from(["language", "instruction_id_list", "kwargs", "response", "key", "items", "x"])
_JSONISH = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_NAMES, inner, max_size=5), max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_JSONISH)
def test_fuzzed_bodies_never_give_a_5xx(server, body):
    for path in ("/score", "/verify"):
        got = server.client.post(path, json=body)
        assert got.status_code < 500, (path, body, got.text)


def test_a_killed_worker_is_replaced_and_the_rest_go_on():
    if not Path("/proc/self/task").exists():
        pytest.skip("needs /proc to find the workers")
    s = Server("--workers", "2")
    try:
        deadline = time.monotonic() + 30
        while len(s.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        before = s.children()
        assert len(before) == 2, before
        os.kill(before[0], signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (len(s.children()) < 2 or before[0] in s.children()):
            time.sleep(0.2)
        after = s.children()
        assert len(after) == 2 and before[0] not in after, (before, after)
        item = {"language": "en", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}], "response": "ok"}
        for _ in range(10):
            assert s.client.post("/score", json=[item]).json()["results"][0]["reward"] == 1.0
    finally:
        s.stop()


_NEMO = Path(__file__).parent.parent / "fixtures" / "nemo_gym"


def _nemo_cases() -> list[tuple[dict, dict]]:
    requests = [json.loads(x) for x in (_NEMO / "verify_requests.jsonl").read_text(encoding="utf-8").splitlines()]
    expected = [json.loads(x) for x in (_NEMO / "verify_expected.jsonl").read_text(encoding="utf-8").splitlines()]
    return list(zip(requests, expected))


def test_nemo_gyms_own_verify_requests_get_the_response_it_expects(server):
    """Every instruction of NeMo Gym's instruction-following mix (IFEval's 25 and open-instruct's
    RL-training ids) has a checker: its own example requests get the verdicts its tests expect."""
    cases = _nemo_cases()
    assert len(cases) >= 10
    for body, expected in cases:
        got = server.client.post("/verify", json=body)
        assert got.status_code == 200, got.text
        answer = got.json()
        for name, value in body.items():  # the request comes back as it was sent ...
            if name != "verifier_metadata":
                assert answer[name] == value, name
        meta = answer["verifier_metadata"]  # ... with the verifier's fields gathered, its own first
        assert meta["instruction_id_list"] == (body.get("verifier_metadata") or body)["instruction_id_list"]
        assert isinstance(answer["reward"], float) and isinstance(answer["follow_all_instructions"], bool)
        follow = answer["follow_instruction_list"]
        assert len(follow) == len(meta["instruction_id_list"]) and all(isinstance(f, bool) for f in follow)
        assert answer["follow_all_instructions"] == all(follow)
        for iid, mine, theirs, why in zip(meta["instruction_id_list"], follow, expected["follow_instruction_list"],
                                          answer["explanations"]):
            assert "no checker" not in why and mine == theirs, (body.get("id"), iid, why)
        assert answer["reward"] == expected["reward"]
    prefixed = server.client.post("/ng-rollout/r-17/verify", json=cases[5][0]).json()
    assert prefixed["follow_instruction_list"] == cases[5][1]["follow_instruction_list"]
    assert prefixed["mask_sample"] is False and prefixed["failure_kind"] is None
    assert server.client.post("/seed_session", json={}).json() == {}
    assert server.client.post("/close_session", json={}).json() == {}
    assert server.client.get("/reverify_mode").json() == "stateless"


def test_a_bad_verify_request_is_a_4xx(server):
    body, _ = _nemo_cases()[5]
    for bad, field in (({**body, "verifier_metadata": {**body["verifier_metadata"], "grading_mode": "sum"}},
                        "grading_mode"),
                       ({**body, "verifier_metadata": {"prompt": "x"}}, "instruction_id_list"),
                       ({**body, "verifier_metadata": {**body["verifier_metadata"], "kwargs": [{}, {}]}}, "kwargs"),
                       ({**body, "response": "not an object"}, "response")):
        got = server.client.post("/verify", json=bad)
        assert got.status_code == 422 and got.json()["field"] == field, got.text


def test_verify_in_an_indic_language(server):
    body, _ = _nemo_cases()[5]
    meta = {"instruction_id_list": ["numbers:native_digits"], "kwargs": [{}], "prompt": "…", "language": "hi"}
    for text, follows in (("सन १९९८ में हम गए।", True), ("सन 1998 में हम गए।", False)):
        response = {**body["response"], "output": [{"type": "message", "role": "assistant",
                                                    "content": [{"type": "output_text", "text": text}]}]}
        answer = server.client.post("/verify", json={**body, "verifier_metadata": meta, "response": response}).json()
        assert answer["follow_instruction_list"] == [follows] and answer["reward"] == float(follows)


def test_a_busy_port_is_one_line_before_anything_starts():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "indicifeval", "serve", "--port", str(port)], capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 1 and f"port {port} on 127.0.0.1 is in use" in done.stderr
    assert "Traceback" not in done.stderr
    assert "serve:" not in done.stdout  # no banner for a server that never started


@pytest.mark.parametrize("body, jsonl, where", [
    (b'{"a": 1}\n\n{"b": 2}\n{"c": \n', True, "at line 4, column 7"),  # the body's line, blank lines counted
    (b'{"items": [\n  {"a": 1},\n  {"b": \n', False, "at line 3, column 9"),
    (b'\xff', False, "(byte 1)"),
])
def test_a_malformed_body_names_its_own_line_and_column(body, jsonl, where):
    from indicifeval.rewards.http_input import HTTPError, parse

    with pytest.raises(HTTPError) as err:
        parse(body, jsonl, 10**6)
    assert err.value.status == 400 and where in err.value.message, err.value.message


def test_an_id_no_checker_knows_is_a_422_naming_it_unless_asked_to_reward_it_zero(tmp_path):
    """A malformed request is not a zero reward: by default an unknown id is a 422 naming it;
    with --unknown-ids zero (NeMo Gym's own behaviour) it is not followed, with the reason, and
    the other instructions are still checked in their places."""
    from starlette.testclient import TestClient

    from indicifeval.rewards.server import ServeSettings, create_app

    body = {"responses_create_params": {"input": [{"role": "user", "content": "Write"}]},
            "response": {"output": [{"type": "message", "role": "assistant",
                                     "content": [{"type": "output_text", "text": "hello there world"}]}]},
            "verifier_metadata": {"instruction_id_list": ["made:up", "punctuation:no_comma"], "kwargs": [{}, {}]}}
    strict = TestClient(create_app(ServeSettings()))
    refused = strict.post("/verify", json=body)
    assert refused.status_code == 422 and "'made:up'" in refused.json()["error"]
    assert refused.json()["field"] == "instruction_id_list"
    item = {"language": "en", "instruction_id_list": ["made:up"], "kwargs": [{}], "response": "x"}
    assert strict.post("/score", json=[item]).status_code == 422
    lenient = TestClient(create_app(ServeSettings(unknown_ids="zero", reward="fraction")))
    answer = lenient.post("/verify", json=body).json()
    assert answer["follow_instruction_list"] == [False, True] and answer["reward"] == 0.5  # the server's reward
    assert "no checker for 'made:up'" in answer["explanations"][0] and answer["explanations"][1]
    scored = lenient.post("/score", json=[item, {**item, "instruction_id_list": ["made:up", "punctuation:no_comma"],
                                                 "kwargs": [{}, {}]}]).json()["results"]
    assert scored[0]["strict"] == [False] and scored[0]["reward"] == 0.0
    assert scored[1]["strict"] == [False, True] and scored[1]["reward"] == 0.5
    assert lenient.get("/health").json()["unknown_ids"] == "zero"
