"""The review app as an attacker meets it (Starlette's test client on the real app, and a real
server for the command line): login CSRF, the login rate limit per address and per annotator,
how tokens and sessions are stored, session expiry and revocation, Secure cookies behind
HTTPS, and the modes of the files the review writes whatever the umask."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from indicifeval.builder.review.app import CSP, create_app  # noqa: E402
from indicifeval.builder.review.auth import MAX_FORM, SCRYPT, Auth, LoginLimit, TokenStore, auth_path  # noqa: E402
from indicifeval.builder.review.serve import (  # noqa: E402
    export_verdicts,
    open_auth,
    open_review,
    read_annotators,
    write_agreement,
)
from indicifeval.cli import main  # noqa: E402
from tests.builder.review_fixtures import trans_folder  # noqa: E402

ROSTER = "asha: annotator\nravi: annotator\nlead: admin\n"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return trans_folder(tmp_path_factory.mktemp("security"), "hi")


@pytest.fixture
def team(built, tmp_path):
    """A fresh copy of the build folder, a roster without tokens, and a clock to move."""
    folder = Path(shutil.copytree(built, tmp_path / "hi-trans"))
    roster = tmp_path / "team.yaml"
    roster.write_text(ROSTER, encoding="utf-8")
    return folder, roster, Clock()


def guard(roster: Path, clock: Clock, **options) -> Auth:
    annotators = read_annotators(roster)
    return Auth(TokenStore(auth_path(roster), clock), {n: r for n, (_, r) in annotators.items()}, **options)


def app_for(team, **options):
    folder, roster, clock = team
    auth = guard(roster, clock, **options)
    tokens = auth.issue()
    review = open_review([folder], read_annotators(roster), overlap=0.5, auth=auth)
    return review, tokens


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def client(review, address: str = "198.51.100.7", **kw) -> TestClient:
    return TestClient(create_app(review), follow_redirects=False, client=(address, 40000), **kw)


def login_csrf(page: str) -> str:
    """The login form's own token (a logged-in page also has the logout form's)."""
    return re.search(r'action="/login">\s*<input type="hidden" name="csrf" value="([^"]+)"', page).group(1)


def login(c: TestClient, token: str, headers: dict | None = None):
    form = c.get("/login")
    return c.post("/login", data={"token": token, "csrf": login_csrf(form.text)}, headers=headers or {})


def verdict_form(c: TestClient) -> tuple[str, dict]:
    """The logged-in client's next item and the form that judges it (every first answer)."""
    page = c.get(c.get("/next").headers["location"]).text
    item = re.search(r'data-item="([^"]+)"', page).group(1)
    answers = {q: re.search(rf'name="{q}" value="([^"]+)"', page).group(1)
               for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page))}
    return item, {"item": item, "csrf": csrf(page), **answers}


def logged_in(c: TestClient) -> bool:
    return c.get("/next").headers.get("location", "/login") != "/login"


# -- login CSRF ------------------------------------------------------------------------------
def test_a_cross_site_login_post_is_refused_and_a_same_site_one_accepted(team):
    review, tokens = app_for(team)
    page = client(review).get("/login")
    assert page.headers["content-security-policy"] == CSP and "frame-ancestors 'none'" in CSP
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "same-origin"  # no-referrer would make our own posts' Origin "null"
    cookie = page.headers["set-cookie"]
    assert cookie.startswith("review_login=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    # the attacker's page posts the attacker's token from the victim's browser
    for headers in ({"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"},
                    {"origin": "https://evil.example"}, {"origin": "null"},
                    {"referer": "https://evil.example/login-csrf.html"}):
        victim = client(review)
        r = login(victim, tokens["asha"], headers)
        assert r.status_code == 403 and "set-cookie" not in r.headers, headers
        assert not logged_in(victim)
    # no pre-session cookie (the attacker cannot read or set the victim's), or a wrong form token
    fresh = client(review)
    r = fresh.post("/login", data={"token": tokens["asha"], "csrf": csrf(page.text)})
    assert r.status_code == 403 and "review_session" not in r.headers.get("set-cookie", "")
    other = client(review)
    other.get("/login")
    assert other.post("/login", data={"token": tokens["asha"], "csrf": "forged"}).status_code == 403
    assert other.post("/login", data={"token": tokens["asha"]}).status_code == 403
    # the app's own form, from the app's own page
    same = client(review)
    r = login(same, tokens["asha"], {"sec-fetch-site": "same-origin", "origin": "http://testserver"})
    assert r.status_code == 303 and r.headers["location"] == "/next" and logged_in(same)
    r = login(client(review), tokens["ravi"], {"origin": "http://testserver", "referer": "http://testserver/login"})
    assert r.status_code == 303


def test_a_cross_site_post_with_the_right_csrf_token_is_still_refused(team):
    review, tokens = app_for(team)
    c = client(review)
    assert login(c, tokens["asha"]).status_code == 303
    item, data = verdict_form(c)
    assert c.post("/verdict", data=data, headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert c.post("/verdict", data=data, headers={"origin": "https://evil.example"}).status_code == 403
    assert not review.desk.latest()
    assert c.post("/verdict", data=data, headers={"sec-fetch-site": "same-origin"}).status_code == 303
    assert (item, "asha") in review.desk.latest()


def test_an_oversized_or_unmeasured_post_is_refused_before_its_body_is_read(team):
    review, tokens = app_for(team)
    c = client(review)
    assert login(c, tokens["asha"]).status_code == 303
    item, data = verdict_form(c)
    big = c.post("/verdict", data={**data, "comment": "x" * (MAX_FORM + 1)})
    assert big.status_code == 413 and "64 KiB" in big.text and not review.desk.latest()
    chunked = c.post("/verdict", content=iter([b"item=" + item.encode()]),  # no Content-Length: a stream
                     headers={"content-type": "application/x-www-form-urlencoded"})
    assert chunked.status_code == 413 and not review.desk.latest()
    fresh = client(review)
    form = fresh.get("/login")
    r = fresh.post("/login", data={"token": "y" * (MAX_FORM + 1), "csrf": login_csrf(form.text)})
    assert r.status_code == 413 and "set-cookie" not in r.headers
    # a long comment within the limit is kept, cut to the length a comment may have
    assert c.post("/verdict", data={**data, "comment": "z" * 5000}).status_code == 303
    assert review.desk.latest()[item, "asha"].comment == "z" * 2000


# -- the rate limit --------------------------------------------------------------------------
def test_failed_logins_are_limited_per_address(team):
    review, tokens = app_for(team)
    clock = team[2]
    attacker = client(review, "203.0.113.5")
    for i in range(5):
        assert login(attacker, f"guess-{i}-0123456789abcdef").status_code == 403
    r = login(attacker, "guess-5-0123456789abcdef")  # the sixth failure waits
    assert r.status_code == 429 and 0 < int(r.headers["retry-after"]) <= 60
    assert "too many failed logins" in r.text and not logged_in(attacker)
    assert login(attacker, tokens["asha"]).status_code == 303  # a right token is never refused
    assert login(client(review, "203.0.113.6"), "guess-x-0123456789abcdef").status_code == 403  # another address
    assert login(client(review, "203.0.113.5"), "guess-y-0123456789abcdef").status_code == 429
    clock.now += 61
    assert login(client(review, "203.0.113.5"), "guess-z-0123456789abcdef").status_code == 403


def test_failed_logins_are_limited_per_annotator_from_any_address(team):
    review, tokens = app_for(team)
    name, _ = tokens["asha"].rsplit(".", 1)
    for i in range(5):  # one try from each of five addresses
        assert login(client(review, f"192.0.2.{i + 1}"), f"{name}.wrong-secret-{i}").status_code == 403
    r = login(client(review, "192.0.2.98"), f"{name}.wrong-secret-5")
    assert r.status_code == 429 and int(r.headers["retry-after"]) <= 60
    assert login(client(review, "192.0.2.99"), tokens["asha"]).status_code == 303  # asha is not locked out
    assert login(client(review, "192.0.2.97"), "ravi.wrong-secret").status_code == 403  # ravi is not held


def test_a_success_resets_the_annotators_count_not_the_addresss(team):
    review, tokens = app_for(team)
    for i in range(4):
        assert login(client(review, f"192.0.2.{i + 1}"), f"asha.wrong-{i}").status_code == 403
    assert login(client(review, "192.0.2.50"), tokens["asha"]).status_code == 303
    for i in range(4):
        assert login(client(review, f"192.0.2.{i + 10}"), f"asha.wrong-{i}").status_code == 403
    assert login(client(review, "192.0.2.51"), tokens["asha"]).status_code == 303  # asha's count started again
    # an insider's own good logins do not buy more guesses at the others' tokens
    insider = client(review, "198.51.100.77")
    for i in range(4):
        assert login(insider, f"ravi.guess-{i}").status_code == 403
    assert login(insider, tokens["lead"]).status_code == 303
    r4 = login(insider, "ravi.guess-4")
    assert r4.status_code == 403, r4.text
    r5 = login(insider, "ravi.guess-5")
    assert r5.status_code == 429, r5.text


def test_the_limit_believes_forwarded_addresses_only_from_a_trusted_proxy(team):
    review, _ = app_for(team, trusted_proxies=["10.0.0.2"])
    proxy = client(review, "10.0.0.2")
    for i in range(5):
        login(proxy, f"guess-{i}-0123456789abcdef", {"x-forwarded-for": "203.0.113.9"})
    assert login(proxy, "guess-x-0123456789abcdef", {"x-forwarded-for": "203.0.113.9"}).status_code == 429
    assert login(proxy, "guess-y-0123456789abcdef", {"x-forwarded-for": "203.0.113.10"}).status_code == 403
    direct = client(review, "198.51.100.200")  # not a proxy: its X-Forwarded-For changes nothing
    for i in range(5):
        login(direct, f"guess-{i}-0123456789abcdef", {"x-forwarded-for": f"192.0.2.{i}"})
    assert login(direct, "guess-z-0123456789abcdef", {"x-forwarded-for": "192.0.2.200"}).status_code == 429


def test_the_limiter_counts_a_window():
    clock = Clock()
    limit = LoginLimit(3, 10.0, clock)
    key = [("address", "a")]
    for _ in range(3):
        assert limit.wait(key) == 0
        limit.failed(key)
        clock.now += 1
    assert limit.wait(key) == 7  # failures at 0, 1 and 2 s; now 3 s: the first leaves the window at 10 s
    clock.now += 6.5
    assert limit.wait(key) == 1
    clock.now += 0.5
    assert limit.wait(key) == 0


# -- how tokens are stored -------------------------------------------------------------------
def _every_file(*roots: Path) -> list[Path]:
    return [p for root in roots for p in root.rglob("*") if p.is_file()]


def test_tokens_are_random_shown_once_and_kept_only_as_salted_scrypt(team, capsys):
    folder, roster, _ = team
    assert main(["build", "review", "issue", "--annotators", str(roster)]) == 0
    shown = dict(re.findall(r"^\s+(\w+): (\S+)$", capsys.readouterr().out, re.M))
    assert set(shown) == {"asha", "ravi", "lead"}
    assert all(t.startswith(f"{n}.") and len(t.split(".", 1)[1]) >= 43 for n, t in shown.items())
    assert main(["build", "review", "issue", "--annotators", str(roster)]) == 0  # nobody lacks one: none shown
    assert not re.findall(r"^\s+(\w+): (\S+)$", capsys.readouterr().out, re.M)
    review = open_review([folder], read_annotators(roster), auth=open_auth(roster, read_annotators(roster)))
    c = client(review)
    assert login(c, shown["asha"]).status_code == 303
    export_verdicts(folder)
    db = sqlite3.connect(auth_path(roster))
    rows = db.execute("SELECT name, kdf, n, r, p, salt, hash FROM tokens").fetchall()
    db.close()
    assert {r[0] for r in rows} == set(shown) and len({r[5] for r in rows}) == 3  # a salt each
    for name, kdf, n, r, p, salt, digest in rows:
        assert (kdf, n, r, p) == ("scrypt", SCRYPT["n"], SCRYPT["r"], SCRYPT["p"]) and len(salt) == 16
        assert hashlib.scrypt(shown[name].encode(), salt=salt, n=n, r=r, p=p, dklen=32) == digest
    sid = next(v for k, v in c.cookies.items() if k == "review_session")
    for path in _every_file(folder, roster.parent):
        data = path.read_bytes()
        assert sid.encode() not in data, path  # sessions are kept as their SHA-256 only
        for secret in shown.values():
            assert secret.encode() not in data, path
            assert hashlib.sha256(secret.encode()).hexdigest().encode() not in data, path
            assert hashlib.sha256(secret.encode()).digest() not in data, path
    assert main(["build", "review", "issue", "--annotators", str(roster), "asha"]) == 0  # a new one replaces it
    new = re.search(r"asha: (\S+)", capsys.readouterr().out).group(1)
    assert not logged_in(c)  # the old token's session ended with it
    assert login(client(review), shown["asha"]).status_code == 403
    assert login(client(review), new).status_code == 303


def test_a_token_written_in_the_annotators_file_still_works_and_is_named(team, capsys):
    folder, roster, _ = team
    roster.write_text('asha: {token: "asha-chosen-0123456789"}\nlead: admin\n', encoding="utf-8")
    code = main(["build", "review", "issue", "--annotators", str(roster), "asha"])
    assert code != 0 and "delete it there first" in capsys.readouterr().err
    review = open_review([folder], read_annotators(roster), auth=open_auth(roster, read_annotators(roster)))
    assert login(client(review), "asha-chosen-0123456789").status_code == 303


def test_old_review_databases_lose_their_unsalted_token_hashes(team):
    folder, roster, _ = team
    old = hashlib.sha256(b"asha-token-0123456789").hexdigest()
    (folder / "review").mkdir(exist_ok=True)
    db = sqlite3.connect(folder / "review" / "review.sqlite")
    db.execute("CREATE TABLE annotators (name TEXT PRIMARY KEY, token_sha256 TEXT, role TEXT)")
    db.execute("INSERT INTO annotators VALUES ('asha', ?, 'annotator')", (old,))
    db.commit()
    db.close()
    assert old.encode() in (folder / "review" / "review.sqlite").read_bytes()
    open_review([folder], read_annotators(roster))
    assert all(old.encode() not in p.read_bytes() for p in _every_file(folder))


# -- sessions --------------------------------------------------------------------------------
def test_sessions_expire(team):
    review, tokens = app_for(team, session_hours=2)
    clock = team[2]
    c = client(review)
    r = login(c, tokens["asha"])
    assert "Max-Age=7200" in r.headers["set-cookie"]
    clock.now += 2 * 3600 - 1
    assert logged_in(c)
    clock.now += 2
    assert not logged_in(c)
    assert login(c, tokens["asha"]).status_code == 303 and logged_in(c)


def test_logout_and_revoke_end_sessions_on_the_server(team, capsys):
    review, tokens = app_for(team)
    folder, roster, _ = team
    c = client(review)
    login(c, tokens["asha"])
    sid = c.cookies["review_session"]
    page = c.get("/progress").text
    assert c.post("/logout", data={"csrf": csrf(page)}).status_code == 303
    replay = client(review, cookies={"review_session": sid})  # the old cookie, kept by someone
    assert not logged_in(replay)
    phone, laptop = client(review, "192.0.2.1"), client(review, "192.0.2.2")
    login(phone, tokens["asha"])
    login(laptop, tokens["asha"])
    login(ravi := client(review), tokens["ravi"])
    assert main(["build", "review", "revoke", "--annotators", str(roster), "asha", "--sessions-only"]) == 0
    assert "2 session(s) ended" in capsys.readouterr().out
    assert not logged_in(phone) and not logged_in(laptop) and logged_in(ravi)
    assert login(phone, tokens["asha"]).status_code == 303  # the token still works
    assert main(["build", "review", "revoke", "--annotators", str(roster), "asha"]) == 0  # while the server runs
    assert "token voided; 1 session(s) ended" in capsys.readouterr().out
    assert not logged_in(phone) and login(phone, tokens["asha"]).status_code == 403


# -- HTTPS -----------------------------------------------------------------------------------
def test_cookies_are_secure_behind_https_and_not_without(team):
    plain, tokens = app_for(team)
    c = client(plain)
    assert "secure" not in c.get("/login").headers["set-cookie"].lower()
    assert "secure" not in login(c, tokens["asha"]).headers["set-cookie"].lower()
    assert "strict-transport-security" not in c.get("/login").headers  # plain HTTP: HSTS would be ignored
    secure, _ = app_for(team, behind_https=True)  # the same team: the tokens issued above
    s = client(secure, base_url="https://testserver")
    page = s.get("/login")
    assert page.headers["strict-transport-security"] == "max-age=31536000"
    assert page.headers["content-security-policy"] == CSP  # the app's own headers are all still there
    cookie = page.headers["set-cookie"]
    assert cookie.startswith("__Host-review_login=") and "Secure" in cookie and "HttpOnly" in cookie
    r = login(s, tokens["ravi"], {"origin": "https://testserver", "sec-fetch-site": "same-origin"})
    assert r.status_code == 303
    session = next(h for h in r.headers.get_list("set-cookie") if h.startswith("__Host-review_session="))
    assert "Secure" in session and "HttpOnly" in session and "SameSite=strict" in session and "Path=/" in session
    assert logged_in(s)


def test_a_trusted_proxy_saying_https_makes_cookies_secure(team):
    review, _ = app_for(team, trusted_proxies=["10.0.0.2"])
    https = {"x-forwarded-proto": "https"}
    assert "Secure" in client(review, "10.0.0.2").get("/login", headers=https).headers["set-cookie"]
    assert "Secure" not in client(review, "10.0.0.3").get("/login", headers=https).headers["set-cookie"]


# -- file modes ------------------------------------------------------------------------------
def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o000, 0o077, 0o022])
def test_the_review_files_have_their_modes_whatever_the_umask(built, tmp_path, umask):
    folder = Path(shutil.copytree(built, tmp_path / "hi-trans"))
    shutil.rmtree(folder / "review", ignore_errors=True)
    roster = tmp_path / "team.yaml"
    roster.write_text(ROSTER, encoding="utf-8")
    old = os.umask(umask)
    try:
        auth = open_auth(roster, read_annotators(roster))
        tokens = auth.issue()
        review = open_review([folder], read_annotators(roster), auth=auth)
        c = client(review)
        login(c, tokens["asha"])
        page = c.get(c.get("/next").headers["location"]).text
        item = re.search(r'data-item="([^"]+)"', page).group(1)
        answers = {q: re.search(rf'name="{q}" value="([^"]+)"', page).group(1)
                   for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page))}
        assert c.post("/verdict", data={"item": item, "csrf": csrf(page), **answers}).status_code == 303
        verdicts, _ = export_verdicts(folder)
        agreement, _ = write_agreement(folder, bootstrap=10)
        review_dir = folder / "review"
        secrets_files = [p for p in tmp_path.iterdir() if p.name.startswith("team.auth.sqlite")]
        databases = [p for p in review_dir.iterdir() if p.name.startswith("review.sqlite")]
        assert len(databases) >= 2 and secrets_files  # the database and its WAL, the secrets file
        for path in databases + secrets_files:
            assert _mode(path) == 0o600, (path, oct(_mode(path)))
        assert _mode(verdicts) == 0o640 and _mode(agreement) == 0o640
        assert _mode(review_dir) == 0o777 & ~umask  # everything else: the umask's
        assert json.loads(verdicts.read_text(encoding="utf-8").splitlines()[0])["item_id"] == item
    finally:
        os.umask(old)


# -- the command line, on a real server ------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(argv: list[str], port: int) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "indicifeval", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    out = ""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        out += line
        if line.startswith("review:") or proc.poll() is not None:
            break
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, out
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(out + proc.stdout.read()) from None
            time.sleep(0.1)
    raise RuntimeError("the review server did not start: " + out)


def test_serve_issues_tokens_once_and_behind_https_sets_secure_cookies(team):
    pytest.importorskip("uvicorn")
    folder, roster, _ = team
    port = _free_port()
    argv = ["build", "review", "serve", str(folder), "--annotators", str(roster), "--port", str(port),
            "--behind-https", "--session-hours", "1"]
    proc, out = _start(argv, port)
    try:
        shown = dict(re.findall(r"^\s+(\w+): (\S+)$", out, re.M))
        assert set(shown) == {"asha", "ravi", "lead"}, out
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, follow_redirects=False) as web:
            form = web.get("/login")
            login_cookie = form.headers["set-cookie"]
            assert "Secure" in login_cookie and login_cookie.startswith("__Host-review_login=")
            value = login_cookie.split(";", 1)[0].split("=", 1)[1]
            headers = {"cookie": f"__Host-review_login={value}", "origin": base, "sec-fetch-site": "same-origin"}
            r = web.post("/login", data={"token": shown["lead"], "csrf": csrf(form.text)}, headers=headers)
            assert r.status_code == 303, r.text
            session = next(h for h in r.headers.get_list("set-cookie") if h.startswith("__Host-review_session="))
            assert "Secure" in session and "Max-Age=3600" in session
            spoofed = {**headers, "x-forwarded-for": "192.0.2.1"}  # uvicorn believes no forwarded address
            for i in range(5):
                web.post("/login", data={"token": f"x-{i}-0123456789abcdef", "csrf": csrf(form.text)}, headers=spoofed)
            spoofed["x-forwarded-for"] = "192.0.2.2"
            assert web.post("/login", data={"token": "y-0123456789abcdef", "csrf": csrf(form.text)},
                            headers=spoofed).status_code == 429
    finally:
        proc.terminate()
        proc.wait(10)
    assert _mode(auth_path(roster)) == 0o600
    proc, out = _start(argv, port)  # a restart shows no token again
    proc.terminate()
    proc.wait(10)
    assert not re.findall(r"^\s+(\w+): (\S+)$", out, re.M), out


def test_a_real_browser_is_not_logged_in_by_another_sites_page(team, tmp_path):
    """Login CSRF as it happens: a page on another site auto-posts the attacker's token to the
    app from the victim's Chromium; the victim's browser must not end up logged in."""
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = os.environ.get("INDICIFEVAL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.skip("no Chromium executable (Debian: apt install chromium)")
    pytest.importorskip("uvicorn")
    import functools
    import http.server
    import threading

    folder, roster, _ = team
    port = _free_port()
    proc, out = _start(["build", "review", "serve", str(folder), "--annotators", str(roster), "--port", str(port)],
                       port)
    evil = tmp_path / "evil"
    evil.mkdir()
    attacker_token = dict(re.findall(r"^\s+(\w+): (\S+)$", out, re.M))["ravi"]
    (evil / "index.html").write_text(
        f'<form id="f" method="post" action="http://127.0.0.1:{port}/login">'
        f'<input name="token" value="{attacker_token}"><input name="csrf" value="guessed"></form>'
        '<script>document.getElementById("f").submit()</script>', encoding="utf-8")
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(evil))
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            victim = browser.new_context()
            page = victim.new_page()
            page.goto(f"http://127.0.0.1:{port}/login")  # the victim has the app open already
            page.goto(f"http://localhost:{site.server_address[1]}/index.html")  # and visits the attacker's page
            page.wait_for_load_state()
            assert "login refused" in page.content() or page.url.endswith("/index.html")
            page.goto(f"http://127.0.0.1:{port}/next")
            assert page.url.endswith("/login")  # not logged in as the attacker
            browser.close()
    finally:
        site.shutdown()
        proc.terminate()
        proc.wait(10)
