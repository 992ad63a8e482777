"""Failed logins under concurrency, on the real app served on loopback (uvicorn, in a thread,
one event loop as in production): 40 wrong tokens at once are each counted, so at most the
limit of them are answered as a wrong token and the rest 429; and while a flood of wrong
tokens names an annotator from many addresses, that annotator's right token still gets in."""

from __future__ import annotations

import asyncio
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

from indicifeval.builder.review.app import create_app  # noqa: E402
from indicifeval.builder.review.auth import FAILURES, Auth, TokenStore  # noqa: E402
from indicifeval.builder.review.serve import open_review, read_annotators  # noqa: E402
from indicifeval.core.sockets import listen  # noqa: E402
from tests.builder.review_fixtures import trans_folder  # noqa: E402

FLOOD = 40


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return trans_folder(tmp_path_factory.mktemp("flood"), "hi")


@pytest.fixture
def served(built, tmp_path):
    """The app on 127.0.0.1, behind itself as a trusted proxy (so a test can speak for many
    client addresses with X-Forwarded-For), with fresh tokens."""
    folder = Path(shutil.copytree(built, tmp_path / "hi-trans"))
    roster = tmp_path / "team.yaml"
    roster.write_text("asha: annotator\nravi: annotator\nlead: admin\n", encoding="utf-8")
    annotators = read_annotators(roster)
    auth = Auth(TokenStore(None), {n: r for n, (_, r) in annotators.items()}, trusted_proxies=["127.0.0.1"])
    tokens = auth.issue()
    review = open_review([folder], annotators, auth=auth)
    sock = listen("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(review), log_level="warning", access_log=False,
                                           proxy_headers=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", tokens
    server.should_exit = True
    thread.join(10)
    sock.close()
    review.desk.close()


async def _form(web: httpx.AsyncClient) -> dict[str, str]:
    """The login form's cookie and token: one pair serves every post (an earlier tab's form stays good)."""
    page = await web.get("/login")
    value = page.headers["set-cookie"].split(";", 1)[0].split("=", 1)[1]
    return {"cookie": f"review_login={value}", "csrf": re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)}


async def _login(web: httpx.AsyncClient, form: dict[str, str], token: str, address: str) -> int:
    r = await web.post("/login", data={"token": token, "csrf": form["csrf"]},
                       headers={"cookie": form["cookie"], "x-forwarded-for": address})
    return r.status_code


def _flood(base: str, attempts: list[tuple[str, str]]) -> list[int]:
    """Every (token, client address) posted at once; their status codes, in order."""
    async def run() -> list[int]:
        async with httpx.AsyncClient(base_url=base, follow_redirects=False, timeout=60,
                                     limits=httpx.Limits(max_connections=len(attempts) + 5)) as web:
            form = await _form(web)
            return list(await asyncio.gather(*(_login(web, form, t, a) for t, a in attempts)))

    return asyncio.run(run())


def test_concurrent_wrong_tokens_are_each_counted(served):
    base, _ = served
    codes = _flood(base, [(f"guess-{i}-0123456789abcdef", "203.0.113.5") for i in range(FLOOD)])
    assert codes.count(403) == FAILURES and codes.count(429) == FLOOD - FAILURES, codes


def test_a_right_token_gets_in_during_a_flood_naming_its_annotator(served):
    base, tokens = served
    wrong = [(f"asha.wrong-secret-{i}", f"192.0.2.{i + 1}") for i in range(FLOOD)]  # each from its own address
    codes = _flood(base, wrong)
    assert codes.count(403) == FAILURES and codes.count(429) == FLOOD - FAILURES, codes
    # asha is held for wrong tokens now; a second flood with her right token in the middle of it
    codes = _flood(base, wrong[:FLOOD // 2] + [(tokens["asha"], "198.51.100.9")] + wrong[FLOOD // 2:])
    assert codes[FLOOD // 2] == 303, codes
    others = codes[:FLOOD // 2] + codes[FLOOD // 2 + 1:]
    assert set(others) <= {403, 429} and others.count(403) <= FAILURES, codes  # her login restarts her count
    assert _flood(base, [(tokens["asha"], "192.0.2.1")]) == [303]  # even from an address that failed
    assert _flood(base, [("ravi.wrong-secret", "198.51.100.10")]) == [403]  # ravi is not held
