"""The review app: server-rendered pages over the build folders' review stores (Starlette,
Jinja2 with autoescaping, SQLite). Safe by default: every page needs a session from an
annotator's token; every state-changing request carries the session's CSRF token; a strict
Content-Security-Policy allows only the app's own script and styles (prompt text, however
hostile, is data in escaped HTML and can run nothing); an annotator sees only the items
assigned to them, an admin sees all and lands on the disagreements to adjudicate. A "correct"
on a row the validator refuses is saved only with the explicit override field."""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from anyio import to_thread
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from indicifeval.builder.review.auth import MAX_FORM, Auth, form_fits
from indicifeval.builder.review.context import context_view
from indicifeval.builder.review.desk import ReviewDesk
from indicifeval.builder.review.guidelines import guidelines_in
from indicifeval.builder.review.items import OVERRIDE, unanswered, validation_errors, workflows
from indicifeval.builder.review.pages import (
    dispute_view,
    fonts_css,
    item_view,
    language_attrs,
    missing_message,
    override_message,
)
from indicifeval.builder.review.store import ReviewStore
from indicifeval.core.errors import InputError

ADMIN_DISPUTES = 50  # disagreements shown on the admin page at once
HSTS = b"max-age=31536000"
THREADS = 4  # the thread pool the database work runs in: more threads on 2 cores only queue on the GIL and
# the writer's lock (benchmarks/review_round.py, 32 annotators at once: save p99 134 ms with 40, 46 ms with 4)
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class Review:
    """The web side of a review: the desk (the domain), the guard (tokens, sessions, login;
    ``auth.py``), and the page templates."""

    def __init__(self, desk: ReviewDesk, auth: Auth):
        self.desk = desk
        self.auth = auth
        self.env = Environment(loader=PackageLoader("indicifeval.builder.review", "templates"),
                               autoescape=select_autoescape(default=True, default_for_string=True))
        self.env.globals["language"] = language_attrs  # lang, dir and font of a language's text, on any page

    @property
    def stores(self) -> list[ReviewStore]:
        return self.desk.stores

    def render(self, name: str, request: Request, status: int = 200, **context: Any) -> Response:
        session = self.session(request)
        html = self.env.get_template(name).render(session=session, **context)
        return _secure(HTMLResponse(html, status_code=status))

    def session(self, request: Request) -> dict[str, str] | None:
        return self.auth.session(request)


def _secure(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    # same-origin, not no-referrer: other sites learn nothing, and the app's own posts keep their
    # Origin (no-referrer makes it "null"), which the cross-site check needs in browsers without Sec-Fetch-Site
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cache-Control"] = "no-store"
    return response


def _to(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


def create_app(review: Review) -> ASGIApp:
    desk = review.desk

    def needs_session(request: Request) -> dict[str, str] | Response:
        session = review.session(request)
        return session if session is not None else _to("/login")

    async def posted(request: Request, work: Callable[[dict[str, str], Any], Response]) -> Response:
        """A same-site POST of a bounded size whose CSRF token is the session's, then ``work(session,
        form)``: the session check and the work in one trip to the thread pool (the database's
        side; a second trip would double the wait for a thread under load)."""
        why = review.auth.cross_site(request)
        if why is not None:
            return _secure(PlainTextResponse(f"refused: {why}", status_code=403))
        if not form_fits(request):
            return _secure(PlainTextResponse(f"a form is at most {MAX_FORM // 1024} KiB", status_code=413))
        form = await request.form()

        def checked() -> Response:
            session = review.session(request)
            if session is None:
                return _secure(PlainTextResponse("not logged in", status_code=403))
            if not hmac.compare_digest(str(form.get("csrf", "")), session["csrf"]):
                return _secure(PlainTextResponse("bad or missing CSRF token", status_code=403))
            return work(session, form)

        return await run_in_threadpool(checked)

    async def item_post(request: Request, work: Callable[[dict[str, str], Any, str], Response]) -> Response:
        """A checked POST about an item this session may judge, then ``work(session, form, item id)``."""
        def on_item(session: dict[str, str], form: Any) -> Response:
            item_id = str(form.get("item", ""))
            if desk.store_of(item_id) is None or not desk.may_judge(session["annotator"], session["role"], item_id):
                return _secure(PlainTextResponse("no such item for you", status_code=404))
            return work(session, form, item_id)

        return await posted(request, on_item)

    async def login(request: Request) -> Response:
        def page(status: int, error: str | None, login_csrf: str) -> Response:
            return review.render("login.html", request, status=status, error=error, login_csrf=login_csrf)

        return _secure(await review.auth.login(request, page))

    async def logout(request: Request) -> Response:
        return await posted(request, lambda session, form: review.auth.logout(request, _to("/login")))

    def next_item(request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        item_id = desk.next_for(session["annotator"])
        if item_id is not None:
            return _to(f"/item/{quote(item_id)}")
        admin = session["role"] == "admin"
        if admin and desk.disagreement_count():  # an adjudicator's work: the items annotators disagree on
            return _to("/admin")
        return review.render("done.html", request, rows=desk.progress_rows(None if admin else session["annotator"]),
                             admin=admin)

    def item_page(request: Request) -> Response:
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        item_id = request.path_params["item_id"]
        found = desk.find(item_id)
        if found is None or not desk.may_judge(session["annotator"], session["role"], item_id):
            return review.render("message.html", request, status=404, message="no such item for you")
        return show_item(request, session, found, notice=request.query_params.get("notice"))

    def show_item(request: Request, session: dict[str, str], found: tuple[ReviewStore, Any], status: int = 200,
                  notice: str | None = None, submitted: tuple[dict[str, str], str] | None = None,
                  missing: list[dict] | None = None, refused: bool = False) -> Response:
        """The item page (with its Ground context and its folder's guidelines); after a refused
        save, with the answers and comment given and what was missing named (the questions
        left open, or ``refused``: the override a row failing validation needs)."""
        store, item = found
        queue = desk.queue(session["annotator"])  # a Sequence: read place by place
        view = item_view(item, workflows()[item.workflow], desk.mine(item.id, session["annotator"]),
                         session["annotator"], queue, desk.edits(item.id), context_view(store.folder, item.candidate),
                         submitted, missing, guidelines_in(store.folder))
        return review.render("item.html", request, status=status, item=view, notice=notice, refused=refused)

    async def save_verdict(request: Request) -> Response:
        return await item_post(request, lambda session, form, item_id: save(request, session, form, item_id))

    def save(request: Request, session: dict[str, str], form: Any, item_id: str) -> Response:
        answers = {k[2:]: str(v) for k, v in form.items() if k.startswith("q_")}
        comment = str(form.get("comment", ""))
        override = str(form.get(OVERRIDE, "")) == "yes"
        found = desk.find(item_id)  # there: item_form checked it
        if found is None:
            return _secure(PlainTextResponse("no such item for you", status_code=404))
        missing = unanswered(found[1].workflow, answers)
        if missing:  # the page again, 422, naming the questions left open; nothing saved
            return show_item(request, session, found, 422, missing_message(missing), (answers, comment), missing)
        try:
            desk.judge(session["annotator"], item_id, answers, comment, found, override)
        except InputError as exc:
            if exc.field != OVERRIDE:
                raise
            # the page again, 422, naming the override a "correct" on a refused row needs; nothing saved
            return show_item(request, session, found, 422, override_message(validation_errors(found[1])),
                             (answers, comment), refused=True)
        return _to("/next")

    async def undo(request: Request) -> Response:
        def withdraw(session: dict[str, str], _: Any, item_id: str) -> Response:
            desk.withdraw(session["annotator"], item_id)
            return _to(f"/item/{quote(item_id)}?notice=verdict+withdrawn")

        return await item_post(request, withdraw)

    async def fix(request: Request) -> Response:
        def fixed(session: dict[str, str], form: Any, item_id: str) -> Response:
            try:
                done = desk.fix_keyword(session["annotator"], item_id, str(form.get("old", "")),
                                        str(form.get("new", "")))
            except InputError as exc:
                if exc.message == "this workflow allows no edit":
                    return _secure(PlainTextResponse(exc.message, status_code=400))
                return _to(f"/item/{quote(item_id)}?notice={quote(str(exc))}")
            said = f"keyword fixed; re-validated: {done.errors} errors" + (
                f"; {done.reopened} verdicts reopened" if done.reopened else "")
            return _to(f"/item/{quote(item_id)}?notice={quote(said)}")

        return await item_post(request, fixed)

    def progress(request: Request) -> Response:
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        who = None if session["role"] == "admin" else session["annotator"]
        return review.render("progress.html", request, rows=desk.progress_rows(who))

    def admin(request: Request) -> Response:
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        if session["role"] != "admin":
            return review.render("message.html", request, status=403, message="for the admin only")
        disputes = []
        # the first few, each with the row and every annotator's answers and comment: the page stays
        # the same size however many are open (an adjudicated one makes room for the next)
        for dispute in desk.disagreements(limit=ADMIN_DISPUTES):
            found = desk.find(dispute["id"])
            item = found[1] if found else None
            disputes.append(dispute_view(dispute, item, workflows()[item.workflow] if item else None,
                                         desk.standing(dispute["id"])))
        return review.render("admin.html", request, rows=desk.progress_rows(None), disputes=disputes,
                             dispute_total=desk.disagreement_count())

    async def adjudicate(request: Request) -> Response:
        def settle(session: dict[str, str], form: Any) -> Response:
            if session["role"] != "admin":
                return _secure(PlainTextResponse("for the admin only", status_code=403))
            try:
                desk.adjudicate(session["annotator"], str(form.get("item", "")), str(form.get("verdict", "")),
                                str(form.get("comment", "")), str(form.get(OVERRIDE, "")) == "yes")
            except InputError as exc:
                if exc.field == OVERRIDE:
                    return review.render("message.html", request, status=422, message=str(exc), back="/admin")
                return _secure(PlainTextResponse("no such item or verdict", status_code=400))
            return _to("/admin")

        return await posted(request, settle)

    async def fonts(request: Request) -> Response:
        return _secure(Response(fonts_css(), media_type="text/css"))

    static = Path(str(__import__("importlib.resources").resources.files("indicifeval.builder.review"))) / "static"
    routes = [Route("/", next_item), Route("/login", login, methods=["GET", "POST"]),
              Route("/logout", logout, methods=["POST"]), Route("/next", next_item),
              Route("/item/{item_id:path}", item_page), Route("/verdict", save_verdict, methods=["POST"]),
              Route("/undo", undo, methods=["POST"]), Route("/fix", fix, methods=["POST"]),
              Route("/progress", progress), Route("/admin", admin), Route("/adjudicate", adjudicate, methods=["POST"]),
              Route("/fonts.css", fonts), Mount("/static", StaticFiles(directory=static), name="static")]
    app = Starlette(routes=routes, lifespan=_lifespan)
    return _strict_transport(app) if review.auth.behind_https else app


def _strict_transport(app: ASGIApp) -> ASGIApp:
    """Behind HTTPS, every response tells the browser to come back only over HTTPS (HSTS, a
    year): a network attacker cannot downgrade a later visit to plain HTTP and read the cookie."""
    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"strict-transport-security", HSTS)]
            await send(message)

        await app(scope, receive, sending if scope["type"] == "http" else send)

    return wrapped


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    to_thread.current_default_thread_limiter().total_tokens = THREADS
    yield


__all__ = ["CSP", "Review", "create_app"]
