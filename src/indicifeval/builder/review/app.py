"""The review app: server-rendered pages over the build folders' review stores (Starlette,
Jinja2 with autoescaping, SQLite). Safe by default: every page needs a session from an
annotator's token; every state-changing request carries the session's CSRF token; a strict
Content-Security-Policy allows only the app's own script and styles (prompt text, however
hostile, is data in escaped HTML and can run nothing); an annotator sees only the items
assigned to them, an admin sees all and adjudicates."""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from indicifeval.builder.review.items import fix_keyword, revalidate, verdict_of, workflows
from indicifeval.builder.review.pages import fonts_css, item_view, progress_rows
from indicifeval.builder.review.store import ReviewStore, now_iso
from indicifeval.core.errors import InputError
from indicifeval.records import HumanVerdict

COOKIE = "review_session"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


class Review:
    """The app's state: the stores by build folder, the annotators' tokens (hashed), sessions."""

    def __init__(self, stores: list[ReviewStore], annotators: dict[str, tuple[str, str]]):
        self.stores = stores
        self.annotators = annotators  # token sha256 -> (name, role)
        self.sessions: dict[str, dict[str, str]] = {}
        self.env = Environment(loader=PackageLoader("indicifeval.builder.review", "templates"),
                               autoescape=select_autoescape(default=True, default_for_string=True))

    def store_of(self, item_id: str) -> tuple[ReviewStore, dict[str, Any]] | None:
        for store in self.stores:
            item = store.item(item_id)
            if item is not None:
                return store, item
        return None

    def assigned(self, annotator: str) -> list[str]:
        return [i for store in self.stores for i in store.assigned(annotator)]

    def latest(self) -> dict[tuple[str, str], HumanVerdict]:
        out: dict[tuple[str, str], HumanVerdict] = {}
        for store in self.stores:
            out.update(store.latest())
        return out

    def render(self, name: str, request: Request, status: int = 200, **context: Any) -> Response:
        session = self.session(request)
        html = self.env.get_template(name).render(session=session, **context)
        return _secure(HTMLResponse(html, status_code=status))

    def session(self, request: Request) -> dict[str, str] | None:
        sid = request.cookies.get(COOKIE)
        return self.sessions.get(sid) if sid else None


def _secure(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response


def _to(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


def create_app(review: Review) -> Starlette:
    def needs_session(request: Request) -> dict[str, str] | Response:
        session = review.session(request)
        return session if session is not None else _to("/login")

    async def checked_form(request: Request) -> tuple[dict[str, str], Any] | Response:
        """(session, form) of a POST whose CSRF token is the session's; a refusal otherwise."""
        session = review.session(request)
        if session is None:
            return _secure(PlainTextResponse("not logged in", status_code=403))
        form = await request.form()
        if not hmac.compare_digest(str(form.get("csrf", "")), session["csrf"]):
            return _secure(PlainTextResponse("bad or missing CSRF token", status_code=403))
        return session, form

    async def item_form(request: Request) -> tuple[dict[str, str], Any, ReviewStore, dict[str, Any]] | Response:
        """(session, form, store, item) of a checked POST about an item this session may judge."""
        checked = await checked_form(request)
        if isinstance(checked, Response):
            return checked
        session, form = checked
        item_id = str(form.get("item", ""))
        found = review.store_of(item_id)
        if found is None or (item_id not in review.assigned(session["annotator"]) and session["role"] != "admin"):
            return _secure(PlainTextResponse("no such item for you", status_code=404))
        return session, form, found[0], found[1]

    async def login(request: Request) -> Response:
        if request.method == "GET":
            return review.render("login.html", request)
        form = await request.form()
        from indicifeval.builder.review.store import token_hash

        who = review.annotators.get(token_hash(str(form.get("token", ""))))
        if who is None:
            return review.render("login.html", request, status=403, error="unknown token")
        sid = secrets.token_urlsafe(32)
        review.sessions[sid] = {"annotator": who[0], "role": who[1], "csrf": secrets.token_urlsafe(32)}
        response = _to("/next")
        response.set_cookie(COOKIE, sid, httponly=True, samesite="strict", path="/")
        return response

    async def logout(request: Request) -> Response:
        checked = await checked_form(request)
        if isinstance(checked, Response):
            return checked
        review.sessions.pop(request.cookies.get(COOKIE, ""), None)
        response = _to("/login")
        response.delete_cookie(COOKIE, path="/")
        return response

    async def next_item(request: Request) -> Response:
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        latest = review.latest()
        name = session["annotator"]
        for item_id in review.assigned(name):
            if (item_id, name) not in latest:
                return _to(f"/item/{quote(item_id)}")
        return review.render("done.html", request, rows=progress_rows(review, name))

    async def item_page(request: Request) -> Response:
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        item_id = request.path_params["item_id"]
        found = review.store_of(item_id)
        assigned = review.assigned(session["annotator"])
        if found is None or (item_id not in assigned and session["role"] != "admin"):
            return review.render("message.html", request, status=404, message="no such item for you")
        view = item_view(found[1], workflows()[found[1]["workflow"]], review.latest(), session["annotator"],
                         assigned, found[0].edits(item_id))
        return review.render("item.html", request, item=view, notice=request.query_params.get("notice"))

    async def save_verdict(request: Request) -> Response:
        checked = await item_form(request)
        if isinstance(checked, Response):
            return checked
        session, form, store, item = checked
        item_id = item["id"]
        flow = workflows()[item["workflow"]]
        answers = {q["id"]: str(form.get(f"q_{q['id']}", "")) for q in flow["questions"]}
        verdict = verdict_of(item["workflow"], answers)
        if verdict is None:
            return _to(f"/item/{quote(item_id)}?notice=answer+every+question")
        mine = [e["detail"] for e in store.edits(item_id) if e["annotator"] == session["annotator"]]
        edit = {"keywords": mine, "by": session["annotator"]} if mine else None
        store.save(HumanVerdict(item_id, session["annotator"], item["workflow"], answers,
                                str(form.get("comment", ""))[:2000], edit, now_iso(), verdict))
        return _to("/next")

    async def undo(request: Request) -> Response:
        checked = await item_form(request)
        if isinstance(checked, Response):
            return checked
        session, _, store, item = checked
        item_id = item["id"]
        store.undo(item_id, session["annotator"])
        return _to(f"/item/{quote(item_id)}?notice=verdict+withdrawn")

    async def fix(request: Request) -> Response:
        checked = await item_form(request)
        if isinstance(checked, Response):
            return checked
        session, form, store, item = checked
        item_id = item["id"]
        if workflows()[item["workflow"]].get("edit") != "keyword":
            return _secure(PlainTextResponse("this workflow allows no edit", status_code=400))
        old, new = str(form.get("old", "")), str(form.get("new", ""))
        try:
            row = fix_keyword(item["row"], old, new)
        except InputError as exc:
            return _to(f"/item/{quote(item_id)}?notice={quote(str(exc))}")
        findings = revalidate({**item, "row": row})
        reopened = store.save_edit(item_id, session["annotator"], "keyword", {"from": old.strip(), "to": new.strip()},
                                   row, findings)
        errors = sum(1 for f in findings if f.get("severity") == "error")
        said = f"keyword fixed; re-validated: {errors} errors" + (f"; {reopened} verdicts reopened" if reopened else "")
        return _to(f"/item/{quote(item_id)}?notice={quote(said)}")

    async def progress(request: Request) -> Response:
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        who = None if session["role"] == "admin" else session["annotator"]
        return review.render("progress.html", request, rows=progress_rows(review, who))

    async def admin(request: Request) -> Response:
        session = needs_session(request)
        if isinstance(session, Response):
            return session
        if session["role"] != "admin":
            return review.render("message.html", request, status=403, message="for the admin only")
        from indicifeval.builder.review.pages import disagreements

        return review.render("admin.html", request, rows=progress_rows(review, None),
                             disputes=disagreements(review))

    async def adjudicate(request: Request) -> Response:
        checked = await checked_form(request)
        if isinstance(checked, Response):
            return checked
        session, form = checked
        if session["role"] != "admin":
            return _secure(PlainTextResponse("for the admin only", status_code=403))
        item_id, verdict = str(form.get("item", "")), str(form.get("verdict", ""))
        found = review.store_of(item_id)
        if found is None or verdict not in ("correct", "incorrect"):
            return _secure(PlainTextResponse("no such item or verdict", status_code=400))
        found[0].save(HumanVerdict(item_id, session["annotator"], "adjudication", {"verdict": verdict},
                                   str(form.get("comment", ""))[:2000], None, now_iso(), verdict, True))
        return _to("/admin")

    async def fonts(request: Request) -> Response:
        return _secure(Response(fonts_css(), media_type="text/css"))

    static = Path(str(__import__("importlib.resources").resources.files("indicifeval.builder.review"))) / "static"
    routes = [Route("/", next_item), Route("/login", login, methods=["GET", "POST"]),
              Route("/logout", logout, methods=["POST"]), Route("/next", next_item),
              Route("/item/{item_id:path}", item_page), Route("/verdict", save_verdict, methods=["POST"]),
              Route("/undo", undo, methods=["POST"]), Route("/fix", fix, methods=["POST"]),
              Route("/progress", progress), Route("/admin", admin), Route("/adjudicate", adjudicate, methods=["POST"]),
              Route("/fonts.css", fonts), Mount("/static", StaticFiles(directory=static), name="static")]
    return Starlette(routes=routes)


__all__ = ["COOKIE", "CSP", "Review", "create_app"]
