"""Who may use the review app, and for how long. Annotator tokens are random, shown once and
kept only as scrypt hashes (per-token salt, parameters recorded); sessions are server-side
(random ids kept as their SHA-256), expire, and can be ended from the command line while the
server runs; the login form has its own CSRF guard, and failed logins a limit (``throttle.py``)
that never refuses a right token. These secrets live in their own SQLite file (0600) beside the
annotators file, never in a build folder, so the verdict store and its exports carry none."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from indicifeval.builder.review.modes import DB_MODE, create_private
from indicifeval.builder.review.throttle import FAILURES, WINDOW, LoginLimit
from indicifeval.core.errors import InputError

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

SESSION_COOKIE, LOGIN_COOKIE = "review_session", "review_login"
MAX_FORM = 64 * 1024  # bytes in a posted form: a comment (2,000 characters) or a keyword fix fits many times
SCRYPT = {"n": 1 << 14, "r": 8, "p": 1}  # 16 MiB, ~60 ms: ample for 256-bit random tokens
LOGIN_THREADS = 2  # token checks (scrypt) run here, not in the pages' pool: a flood of logins cannot starve pages
_DUMMY_SALT = os.urandom(16)  # a token naming nobody is hashed as much as one naming someone

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tokens (name TEXT PRIMARY KEY, kdf TEXT, n INTEGER, r INTEGER, p INTEGER,
    salt BLOB, hash BLOB, issued REAL);
CREATE TABLE IF NOT EXISTS sessions (id_sha256 TEXT PRIMARY KEY, name TEXT, csrf TEXT, created REAL);
CREATE INDEX IF NOT EXISTS sessions_by_name ON sessions (name);
"""


def auth_path(annotators_file: str | Path) -> Path:
    """The secrets of a team: ``annotators.yaml`` -> ``annotators.auth.sqlite`` beside it."""
    path = Path(annotators_file)
    return path.with_name(path.stem + ".auth.sqlite")


def form_fits(request: Request) -> bool:
    """Whether a post says it is at most ``MAX_FORM`` bytes, checked before the body is read (a
    post without a length is refused: the app's own forms always send one)."""
    try:
        return 0 <= int(request.headers.get("content-length", "")) <= MAX_FORM
    except ValueError:
        return False


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _scrypt(token: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(token.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * r * n + (1 << 20), dklen=32)


class TokenStore:
    """The secrets file: one scrypt hash per annotator, and the open sessions. ``path`` None:
    in memory (tests, the Python API). Safe to use from the server's threads, and from a
    second process (``build review revoke``) while the server runs."""

    def __init__(self, path: str | Path | None, clock: Callable[[], float] = time.time):
        self.clock = clock
        self._lock = threading.Lock()
        if path is not None:
            path = create_private(path, DB_MODE)
        try:
            self._db = sqlite3.connect(":memory:" if path is None else path, check_same_thread=False,
                                       isolation_level=None, timeout=10)
            with self._lock:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA secure_delete=ON")  # a voided hash or ended session leaves no trace
                self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise InputError(f"cannot open the review's secrets file: {exc}", str(path)) from None

    def _run(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return list(self._db.execute(sql, args))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def issue(self, name: str) -> str:
        """A new random token for ``name`` (``NAME.SECRET``), replacing any earlier one and
        ending their sessions. Returned once; only its scrypt hash is kept."""
        token = f"{name}.{secrets.token_urlsafe(32)}"
        salt = os.urandom(16)
        digest = _scrypt(token, salt, **SCRYPT)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT OR REPLACE INTO tokens VALUES (?,?,?,?,?,?,?,?)",
                             (name, "scrypt", SCRYPT["n"], SCRYPT["r"], SCRYPT["p"], salt, digest, self.clock()))
            self._db.execute("DELETE FROM sessions WHERE name = ?", (name,))
            self._db.execute("COMMIT")
        return token

    def names(self) -> set[str]:
        """The annotators holding an issued token."""
        return {r[0] for r in self._run("SELECT name FROM tokens")}

    def verify(self, name: str | None, token: str) -> bool:
        """Whether ``token`` is ``name``'s; as much work for a name with no token (or none), so
        the time taken says nothing of who holds one."""
        rows = self._run("SELECT kdf, n, r, p, salt, hash FROM tokens WHERE name = ?", (name,)) if name else []
        if not rows or rows[0][0] != "scrypt":
            _scrypt(token, _DUMMY_SALT, **SCRYPT)
            return False
        _, n, r, p, salt, digest = rows[0]
        return hmac.compare_digest(_scrypt(token, salt, n, r, p), digest)

    def revoke(self, name: str, sessions_only: bool = False) -> tuple[bool, int]:
        """End every session of ``name`` and (unless ``sessions_only``) void their token:
        (a token was voided, sessions ended)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            ended = self._db.execute("DELETE FROM sessions WHERE name = ?", (name,)).rowcount
            voided = 0 if sessions_only else self._db.execute("DELETE FROM tokens WHERE name = ?", (name,)).rowcount
            self._db.execute("COMMIT")
        return bool(voided), int(ended)

    def start_session(self, name: str, max_age: float) -> tuple[str, str]:
        """(session id, its CSRF token) for ``name``; sessions older than ``max_age`` go."""
        sid, csrf, now = secrets.token_urlsafe(32), secrets.token_urlsafe(32), self.clock()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM sessions WHERE created <= ?", (now - max_age,))
            self._db.execute("INSERT INTO sessions VALUES (?,?,?,?)", (_sha256(sid), name, csrf, now))
            self._db.execute("COMMIT")
        return sid, csrf

    def session(self, sid: str, max_age: float) -> tuple[str, str] | None:
        """(name, CSRF token) of an open session not older than ``max_age`` seconds."""
        rows = self._run("SELECT name, csrf, created FROM sessions WHERE id_sha256 = ?", (_sha256(sid),))
        if not rows:
            return None
        name, csrf, created = rows[0]
        if created + max_age <= self.clock():
            self.end_session(sid)
            return None
        return name, csrf

    def end_session(self, sid: str) -> None:
        self._run("DELETE FROM sessions WHERE id_sha256 = ?", (_sha256(sid),))


class Auth:
    """The app's guard: login and logout, the session of a request, whether a post is from
    this site, the client's address and whether its connection is HTTPS."""

    def __init__(self, store: TokenStore, roster: Mapping[str, str], clear_tokens: Mapping[str, str] | None = None,
                 session_hours: float = 12.0, behind_https: bool = False, trusted_proxies: Iterable[str] = (),
                 limit: LoginLimit | None = None):
        """``roster``: name -> role; ``clear_tokens``: name -> a token written in the
        annotators file (older files; works while it is there)."""
        if not session_hours > 0:
            raise InputError("sessions must last more than 0 hours", field="session-hours")
        self.store, self.roster, self.clear = store, dict(roster), dict(clear_tokens or {})
        self.max_age, self.behind_https = session_hours * 3600, behind_https
        self.trusted = frozenset(trusted_proxies)
        self.limit = limit or LoginLimit(clock=store.clock)
        self._checks: ThreadPoolExecutor | None = None
        self._checks_lock = threading.Lock()
        prefix = "__Host-" if behind_https else ""  # a __Host- cookie cannot be planted by a sibling domain
        self.session_cookie, self.login_cookie = prefix + SESSION_COOKIE, prefix + LOGIN_COOKIE

    def missing(self) -> list[str]:
        """Annotators of the roster with no token at all."""
        issued = self.store.names()
        return [n for n in self.roster if n not in self.clear and n not in issued]

    def issue(self, names: Iterable[str] | None = None) -> dict[str, str]:
        """New tokens, name -> token (to be shown once): for ``names`` (each replacing their
        old one and ending their sessions), or for every annotator who has none."""
        chosen = list(dict.fromkeys(names)) if names is not None else self.missing()
        for name in chosen:
            if name not in self.roster:
                raise InputError(f"{name!r} is not in the annotators file: add them there first")
            if name in self.clear:
                raise InputError(f"{name}'s token is written in the annotators file: delete it there first")
        return {name: self.store.issue(name) for name in chosen}

    # -- the request ------------------------------------------------------------------------
    def client(self, request: Request) -> str:
        """The client's address: the connection's, or from a trusted proxy the last address
        in X-Forwarded-For that is not itself a trusted proxy."""
        peer = request.client.host if request.client else ""
        if peer in self.trusted:
            hops = [h.strip() for h in request.headers.get("x-forwarded-for", "").split(",") if h.strip()]
            return next((h for h in reversed(hops) if h not in self.trusted), peer)
        return peer

    def secure(self, request: Request) -> bool:
        if self.behind_https:
            return True
        peer = request.client.host if request.client else ""
        proto = request.headers.get("x-forwarded-proto", "").split(",")[-1].strip().lower()
        return peer in self.trusted and proto == "https"

    @staticmethod
    def cross_site(request: Request) -> str | None:
        """Why a post did not come from this site's own pages, or None. Browsers say so in
        Sec-Fetch-Site, older ones in Origin or Referer; a client sending none of them (not a
        browser) still needs the form's CSRF token."""
        site = request.headers.get("sec-fetch-site")
        if site is not None:
            return None if site in ("same-origin", "none") else f"a {site} request"
        host = request.headers.get("host", "").lower()
        for header in ("origin", "referer"):
            value = request.headers.get(header)
            if value:
                return None if urlsplit(value).netloc.lower() == host else f"{header} {value} is another site"
        return None

    def session(self, request: Request) -> dict[str, str] | None:
        """{annotator, role, csrf} of the request's session, or None (none, expired, ended,
        or its annotator is no longer in the annotators file)."""
        cached = getattr(request.state, "review_session", False)
        if cached is not False:
            return cached if isinstance(cached, dict) else None
        sid = request.cookies.get(self.session_cookie)
        found = self.store.session(sid, self.max_age) if sid else None
        out = None
        if found is not None and found[0] in self.roster:
            out = {"annotator": found[0], "role": self.roster[found[0]], "csrf": found[1]}
        request.state.review_session = out
        return out

    def _cookie(self, response: Response, request: Request, name: str, value: str, max_age: int | None) -> None:
        # SameSite=Strict for both: no cross-site request carries them, and the login form and
        # its post are always same-site; the cost is a fresh login after following an outside link
        response.set_cookie(name, value, max_age=max_age, path="/", secure=self.secure(request), httponly=True,
                            samesite="strict")

    # -- login and logout -------------------------------------------------------------------
    def _named(self, token: str) -> str | None:
        name = token.rsplit(".", 1)[0] if "." in token else None
        return name if name in self.roster else None

    def check(self, token: str) -> str | None:
        """The annotator whose token this is, or None: every clear token compared and the
        named one's hash computed (a dummy one for a token naming nobody), in constant time."""
        found = None
        for name, clear in self.clear.items():  # every one compared, in constant time
            if hmac.compare_digest(token.encode("utf-8"), clear.encode("utf-8")):
                found = name
        named = self._named(token)
        hashed = self.store.verify(named, token)  # also when a clear token matched: the same work
        return found if found is not None else named if hashed else None

    async def _off_loop(self, work: Callable[[], tuple[str, str] | None]) -> tuple[str, str] | None:
        """``work`` (scrypt and the secrets file) in the login threads, off the event loop."""
        with self._checks_lock:
            if self._checks is None:
                self._checks = ThreadPoolExecutor(LOGIN_THREADS, thread_name_prefix="review-login")
        return await asyncio.wrap_future(self._checks.submit(work))

    async def login(self, request: Request, page: Callable[[int, str | None, str], Response]) -> Response:
        """GET: the form, with a fresh pre-session CSRF cookie; POST: a same-site post whose
        form token matches that cookie, with a known token -> a new session. The token is
        checked first: a right one always gets in; a wrong one counts against the client's
        address and the annotator it names, and past the limit is answered 429 with
        Retry-After. ``page(status, error, csrf)`` renders the login page."""
        from starlette.responses import PlainTextResponse, RedirectResponse

        def form_page(status: int, error: str | None, value: str | None = None) -> Response:
            value = value or secrets.token_urlsafe(32)
            response = page(status, error, value)
            self._cookie(response, request, self.login_cookie, value, None)
            return response

        if request.method != "POST":  # an earlier tab's form stays good
            kept = request.cookies.get(self.login_cookie, "")
            return form_page(200, None, kept if len(kept) >= 43 else None)
        why = self.cross_site(request)
        if why is not None:
            return PlainTextResponse(f"login refused: {why}", status_code=403)
        if not form_fits(request):
            return PlainTextResponse(f"a form is at most {MAX_FORM // 1024} KiB", status_code=413)
        form = await request.form()
        expected = request.cookies.get(self.login_cookie, "")
        if not expected or not hmac.compare_digest(expected, str(form.get("csrf", ""))):
            return form_page(403, "this login form is stale or not this site's: log in again")
        token = str(form.get("token", "")).strip()
        named = self._named(token)
        old = request.cookies.get(self.session_cookie)

        def enter() -> tuple[str, str] | None:
            who = self.check(token)
            if who is None:
                return None
            if old:
                self.store.end_session(old)
            return who, self.store.start_session(who, self.max_age)[0]

        entered = await self._off_loop(enter)
        if entered is None:
            wait = self.limit.fail([("address", self.client(request))] + ([("name", named)] if named else []))
            if wait:
                response = form_page(429, f"too many failed logins: try again in {wait} s", expected)
                response.headers["Retry-After"] = str(wait)
                return response
            return form_page(403, "unknown token", expected)
        who, sid = entered
        self.limit.succeeded(("name", who))
        response = RedirectResponse("/next", status_code=303)
        self._cookie(response, request, self.session_cookie, sid, int(self.max_age))
        response.delete_cookie(self.login_cookie, path="/", secure=self.secure(request), httponly=True,
                               samesite="strict")
        return response

    def logout(self, request: Request, response: Response) -> Response:
        """End the request's session on the server, and its cookie."""
        sid = request.cookies.get(self.session_cookie)
        if sid:
            self.store.end_session(sid)
        response.delete_cookie(self.session_cookie, path="/", secure=self.secure(request), httponly=True,
                               samesite="strict")
        return response


__all__ = ["FAILURES", "LOGIN_COOKIE", "MAX_FORM", "SCRYPT", "SESSION_COOKIE", "WINDOW", "Auth", "LoginLimit",
           "TokenStore", "auth_path", "form_fits"]
