"""``indicifeval serve`` under hostile input and load (issue 35): every malformed body is a 4xx
naming its field, never a 500; what the scorer remembers cannot let a bad ``key`` or ``prompt``
through; the output is strict JSON; a slow batch neither stalls ``/health`` nor runs past its
time limit; the rows remembered are bounded by their size."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from indicifeval.rewards.http_input import HTTPError, count_values, parse  # noqa: E402
from indicifeval.rewards.row_cache import BoundedRows  # noqa: E402
from indicifeval.rewards.server import ServeSettings, create_app  # noqa: E402

ITEM = {"language": "en", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}], "response": "ok"}
META = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}], "prompt": "Write", "language": "en"}
RESPONSE = {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}]}
VERIFY = {"responses_create_params": {"input": []}, "response": RESPONSE, "verifier_metadata": META}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(ServeSettings(max_body_bytes=2**20, max_batch=50)), raise_server_exceptions=False)


def _post(client, path: str, body: bytes | str, jsonl: bool = False):
    kind = "application/x-ndjson" if jsonl else "application/json"
    return client.post(path, content=body.encode() if isinstance(body, str) else body, headers={"content-type": kind})


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _hostile() -> list[tuple[str, str, str | None]]:
    """(path, body, the field its error must name, or None for a body that is not JSON)."""
    big = "9" * 5000
    cases: list[tuple[str, str, str | None]] = []
    for value in (big, "-" + big, "NaN", "Infinity", "-Infinity", "1e999"):
        for field in ("key", "prompt", "response", "language", "subset", "x"):
            cases.append(("/score", f'[{{"language": "en", "instruction_id_list": ["punctuation:no_comma"], '
                                    f'"kwargs": [{{}}], "response": "ok", "{field}": {value}}}]', field))
        cases.append(("/score", f'[{{"language": "en", "instruction_id_list": ["keywords:frequency"], "kwargs": '
                                f'[{{"keyword": "a", "frequency": {value}, "relation": "at least"}}], '
                                '"response": "a"}]', "kwargs[0].frequency"))
        cases.append(("/verify", json.dumps({**VERIFY, "verifier_metadata": {**META, "kwargs": ["X"]}})
                      .replace('"X"', value), "verifier_metadata.kwargs[0]"))
        cases.append(("/verify", json.dumps(VERIFY)[:-1] + f', "id": {value}}}', "id"))
    deep = json.dumps("[" * 3000 + "{}" + "]" * 3000)
    for kwargs, field in ((json.dumps(_nested(50_000)), "kwargs"), (deep, "kwargs"),
                          ('"[{\\"n\\": ' + big + '}]"', "kwargs[0].n"), ('"[{\\"n\\": NaN}]"', "kwargs[0].n"),
                          ('"not json"', "kwargs"), ('"[1e999]"', "kwargs[0]")):
        cases.append(("/score", f'[{{"language": "en", "instruction_id_list": ["punctuation:no_comma"], '
                                f'"kwargs": {kwargs}, "response": "ok"}}]', field))
    for grading in ([], ["binary"], {}, {"a": 1}, 1, True, 1.5, "sum", ""):
        meta = {**META, "grading_mode": grading}
        cases.append(("/verify", json.dumps({**VERIFY, "verifier_metadata": meta}), "grading_mode"))
    for name in ("prompt", "language"):
        for value in (0, 5, [], ["en"], {}, True, 1.5):
            cases.append(("/verify", json.dumps({**VERIFY, "verifier_metadata": {**META, name: value}}), name))
    for name, values in (("key", (True, False, 1.5, [], {}, "", " ", "a\nb", None)),
                         ("prompt", (0, 5, False, True, [], ["p"], {}, 1.5)),
                         ("response", (5, 0, True, False, 1.5))):
        for value in values:
            cases.append(("/score", json.dumps([{**ITEM, name: value}]), name))
    for kwargs in ([{"num_words": "3", "relation": "at least"}], [{"num_words": True, "relation": "at least"}],
                   [{"num_words": 3.5, "relation": "at least"}], [{"num_words": [3], "relation": "at least"}]):
        cases.append(("/score", json.dumps([{**ITEM, "instruction_id_list": ["length_constraints:number_words"],
                                             "kwargs": kwargs}]), "kwargs[0].num_words"))
    return cases


HOSTILE = _hostile()


def test_there_are_over_two_hundred_hostile_bodies():
    assert len(HOSTILE) + len(_random_bodies()) >= 200


@pytest.mark.parametrize("path, body, field", HOSTILE)
def test_a_hostile_body_is_a_4xx_naming_its_field(client, path, body, field):
    got = _post(client, path, body)
    assert 400 <= got.status_code < 500, (got.status_code, got.text[:300])
    error = got.json()
    assert "error" in error and error.get("field") == field, (error, body[:200])
    if path == "/score":
        assert error.get("item") == 1, error


def _random_bodies(n: int = 150) -> list[tuple[str, bytes]]:
    """Valid requests, cut, spliced and salted with the things JSON parsers choke on (seeded)."""
    rng = random.Random(35)
    good = [("/score", json.dumps([ITEM, {**ITEM, "key": 7}]).encode()), ("/verify", json.dumps(VERIFY).encode())]
    salt = [b"NaN", b"Infinity", b"9" * 4400, b"1e999", b"\xff", b"\x00", b"[" * 2000, b'"\\ud800"', b"{}", b"[]",
            b"true", b"null", b'"x"', b"-", b"\xe2\x80\xa8", b",", b":", b'"grading_mode": []', b"}" * 5]
    out = []
    for _ in range(n):
        path, body = rng.choice(good)
        cut = rng.randrange(len(body))
        choice = rng.random()
        if choice < 0.3:
            body = body[:cut]
        elif choice < 0.8:
            body = body[:cut] + rng.choice(salt) + body[cut + rng.randrange(3):]
        else:
            body = body.replace(b'"ok"', rng.choice(salt), 1).replace(b"{}", rng.choice(salt), 1)
        out.append((path, body))
    return out


def test_random_malformed_bodies_are_never_a_5xx(client):
    for path, body in _random_bodies():
        for jsonl in (False, True):
            got = _post(client, path, body, jsonl and path == "/score")
            assert got.status_code < 500, (path, body[:200], got.text[:300])
            if got.status_code >= 400:
                assert "error" in got.json()
            else:  # a 200 is strict JSON
                json.loads(got.text, parse_constant=lambda name: pytest.fail(f"{name} in the output"))


def test_a_bad_key_or_prompt_is_refused_however_often_its_instructions_were_seen(client):
    row = {**ITEM, "instruction_id_list": ["keywords:existence"], "kwargs": [{"keywords": ["seen-before"]}]}
    assert _post(client, "/score", json.dumps([row])).status_code == 200  # the row remembered
    for name, value in (("key", True), ("key", ""), ("key", 1.5), ("prompt", 5), ("prompt", [])):
        got = _post(client, "/score", json.dumps([row, {**row, name: value}]))
        assert got.status_code == 422 and got.json()["field"] == name and got.json()["item"] == 2, got.text
    for value in ("NaN", "Infinity", "-Infinity"):  # not echoed as NaN, which strict parsers refuse
        got = _post(client, "/score", json.dumps([row]).replace('"response"', f'"key": {value}, "response"'))
        assert got.status_code == 422 and got.json()["field"] == "key", got.text


def test_json_lines_split_on_newlines_only(client):
    answer = "one\u2028two\u2029three\u0085four\x1cfive\x0c six"
    lines = "\n".join(json.dumps({**ITEM, "response": answer}, ensure_ascii=False) for _ in range(3)) + "\r\n"
    got = _post(client, "/score", lines, jsonl=True)
    assert got.status_code == 200, got.text
    assert len(got.text.strip("\n").split("\n")) == 3


def test_a_bad_number_in_json_lines_names_its_item(client):
    lines = json.dumps(ITEM) + "\n" + json.dumps(ITEM).replace('"ok"', "NaN") + "\n"
    got = _post(client, "/score", lines, jsonl=True)
    assert got.status_code == 422 and got.json()["item"] == 2 and got.json()["field"] == "response", got.text


def test_a_body_that_would_parse_into_too_many_values_is_refused_before_parsing():
    settings = ServeSettings(max_body_bytes=8 * 2**20, max_batch=4)
    client = TestClient(create_app(settings))
    got = _post(client, "/score", "[" + "[]," * 1_500_000 + "[]]")
    assert got.status_code == 413 and "JSON values" in got.json()["error"]
    lines = (json.dumps(ITEM) + "\n") * 5
    got = _post(client, "/score", lines, jsonl=True)
    assert got.status_code == 413 and got.json()["field"] == "items"
    assert count_values(b'["a,b,[{", {"c": [1, 2]}]') == 5  # commas and brackets in strings do not count
    with pytest.raises(HTTPError):
        parse(b"[" + b"1," * 1_100_000 + b"1]", False, 1_000_000)


def test_paper_mode_scores_an_instruction_beyond_the_paper_as_not_followed():
    client = TestClient(create_app(ServeSettings(scoring="paper")))
    meta = {**META, "language": "hi", "instruction_id_list": ["numbers:native_digits", "punctuation:no_comma"],
            "kwargs": [{}, {}]}
    answer = client.post("/verify", json={**VERIFY, "verifier_metadata": meta}).json()
    assert answer["follow_instruction_list"] == [False, True] and answer["reward"] == 0.0
    assert "beyond the paper" in answer["explanations"][0]
    alone = client.post("/verify", json={**VERIFY, "verifier_metadata": {**meta, "instruction_id_list":
                                                                         ["numbers:native_digits"], "kwargs": [{}]}})
    assert alone.status_code == 200 and alone.json()["follow_instruction_list"] == [False]


def test_a_batch_over_its_time_limit_is_a_503_and_health_is_answered_meanwhile(monkeypatch):
    from indicifeval.rewards.verdicts import RewardScorer

    real = RewardScorer.verdict

    def slow(self, *args, **kwargs):
        time.sleep(0.05)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RewardScorer, "verdict", slow)
    with TestClient(create_app(ServeSettings(max_batch_seconds=1.0))) as client:  # one event loop for all
        _race(client)


def _race(client) -> None:
    answers: list = []
    worker = threading.Thread(target=lambda: answers.append(client.post("/score", json=[ITEM] * 200)))
    started = time.monotonic()
    worker.start()
    waits = []
    while worker.is_alive() and time.monotonic() - started < 10:
        t = time.monotonic()
        assert client.get("/health").status_code == 200
        waits.append(time.monotonic() - t)
        time.sleep(0.02)
    worker.join()
    assert answers[0].status_code == 503 and answers[0].json()["limit"] == "max_batch_seconds", answers[0].text
    assert time.monotonic() - started < 3
    assert len(waits) > 5 and max(waits) < 0.1, max(waits)


def test_the_rows_remembered_are_bounded_by_their_size():
    rows = BoundedRows(100_000)
    for n in range(1000):
        rows[f"key {n} " + "k" * 1000] = None
    assert rows.bytes <= 100_000 and 10 < len(rows) < 100 and f"key 999 {'k' * 1000}" in rows
    rows["huge" * 10_000] = None  # over an eighth of the bound: not kept
    assert "huge" * 10_000 not in rows
    client = TestClient(create_app(ServeSettings(max_cache_bytes=2**20)))
    for n in range(100):
        item = {**ITEM, "instruction_id_list": ["keywords:existence"], "kwargs": [{"keywords": [f"w{n}" * 5000]}]}
        assert client.post("/score", json=[item]).status_code == 200
    scorer_rows = client.app.app.state.verifier.scorer._rows  # noqa: SLF001
    assert scorer_rows.bytes <= 2**20 and len(scorer_rows) < 100


def test_the_checkers_caches_are_bounded_by_their_keys_size():
    import re

    from indicifeval.core.caches import bounded_cache

    calls = []

    @bounded_cache(maxsize=100, max_chars=10_000)
    def compiled(text: str) -> re.Pattern:
        calls.append(text)
        return re.compile(re.escape(text))

    for n in range(50):
        compiled(f"{n:04}" * 100)  # 400 characters each: 25 fit
    assert compiled.cache_chars() <= 10_000 and len(calls) == 50  # type: ignore[attr-defined]
    compiled("0049" * 100)
    assert len(calls) == 50  # the most recent kept
    compiled("0000" * 100)
    assert len(calls) == 51  # the oldest forgotten
    huge = "x" * 5_000
    compiled(huge)
    compiled(huge)
    assert calls.count(huge) == 2 and re.escape(huge) not in {k[1] for k in re._cache}  # noqa: SLF001
