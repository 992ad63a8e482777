"""``indicifeval serve`` for real, under hostile clients (issue 35): uvicorn on loopback, a few
clients posting malformed and slow bodies at once, and ``/health`` polled throughout: no 5xx,
and ``/health`` always answered within 100 ms; idle connections closed; a client that goes
away mid-request one quiet line, not a traceback."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from tests.rewards.test_serve import Server  # noqa: E402
from tests.rewards.test_serve_hostile import HOSTILE, ITEM, _random_bodies  # noqa: E402


@pytest.fixture(scope="module")
def server():
    s = Server("--keep-alive", "1", "--max-batch-seconds", "3", "--max-body-mb", "4", "--max-batch", "64")
    yield s
    s.stop()


def _slow_batch() -> bytes:
    """Answers that keep the numeral checkers busy (about a second a batch), in JSON lines."""
    ids = ["numbers:native_digits", "numbers:indian_system", "units:metric", "units:imperial"]
    item = {"language": "hi", "instruction_id_list": ids, "kwargs": [{}] * 4}
    shapes = ["$1", "1 km ", "१.", "दस लाख ", "1-"]
    return "".join(json.dumps({**item, "response": shape * (40_000 // len(shape))}, ensure_ascii=False) + "\n"
                   for shape in shapes * 4).encode()


def test_hostile_clients_get_no_5xx_and_health_stays_quick(server):
    slow = _slow_batch()
    warm = server.client.post("/score", content=slow, headers={"content-type": "application/x-ndjson"})
    assert warm.status_code == 200, warm.text  # (the checkers' tables loaded, their patterns compiled)
    waits = _under_load(server, slow, seconds=6)
    if waits[-1] >= 0.1:  # a shared machine's scheduler can stall any process once: again, to tell it from a stall
        waits = _under_load(server, slow, seconds=6)
    assert len(waits) > 100 and waits[-1] < 0.1, (waits[-5:], len(waits))


def _under_load(server, slow_body: bytes, seconds: float) -> list[float]:
    """/health's answer times (sorted) while three hostile clients post for ``seconds``."""
    bodies = [(path, body.encode(), False) for path, body, _ in HOSTILE]
    bodies += [(path, body, False) for path, body in _random_bodies(60)]
    slow = ("/score", slow_body, True)
    stop = time.monotonic() + seconds
    failures: list[str] = []
    statuses: list[int] = []
    waits: list[float] = []

    def hostile(offset: int) -> None:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            n = offset
            while time.monotonic() < stop:
                path, body, jsonl = slow if n % 7 == 0 else bodies[n % len(bodies)]
                n += 3
                kind = "application/x-ndjson" if jsonl else "application/json"
                got = client.post(path, content=body, headers={"content-type": kind})
                statuses.append(got.status_code)
                if got.status_code >= 500 and got.status_code != 503:
                    failures.append(f"{path} {got.status_code} {got.text[:200]} {body[:100]!r}")
                if got.status_code == 503:
                    assert got.json()["limit"] == "max_batch_seconds"

    def poll() -> None:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            while time.monotonic() < stop:
                started = time.perf_counter()
                assert client.get("/health").status_code == 200
                waits.append(time.perf_counter() - started)
                time.sleep(0.02)

    threads = [threading.Thread(target=hostile, args=(i,)) for i in range(3)] + [threading.Thread(target=poll)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:5]
    assert len(statuses) > 50 and any(s == 200 for s in statuses) and any(400 <= s < 500 for s in statuses)
    return sorted(waits)


def test_an_idle_connection_is_closed(server):
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port)) as idle, \
            socket.create_connection(("127.0.0.1", server.port)) as trickle:
        idle.settimeout(10)
        trickle.settimeout(0.3)
        trickle.sendall(b"POST /score HTTP/1.1\r\n")
        closed = None
        while time.monotonic() - started < 10 and closed is None:  # a header a byte at a time: closed all the same
            try:
                trickle.sendall(b"X")
                if trickle.recv(1024) == b"":
                    closed = time.monotonic() - started
            except TimeoutError:
                continue
            except OSError:
                closed = time.monotonic() - started
        assert closed is not None and closed < 5, closed
        assert idle.recv(1024) == b"" and time.monotonic() - started < 5  # never a request: closed


def test_a_client_that_goes_away_mid_request_is_one_quiet_line():
    s = Server()
    try:
        with socket.create_connection(("127.0.0.1", s.port)) as gone:
            gone.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100000\r\n\r\n[{\"language\": ")
            time.sleep(0.3)
        time.sleep(0.3)
        assert s.client.post("/score", json=[ITEM]).status_code == 200  # the worker lives on
    finally:
        err = s.stop()
    assert "Traceback" not in err and err.count("went away before its POST /score was answered") == 1, err
