"""``indicifeval serve``: the scorer behind HTTP, for RL trainers that call a verifier.

``POST /verify`` answers NeMo Gym's instruction-following verify request as its own resource
server does (``rewards.nemo_gym``; with ``/seed_session`` and ``/reverify_mode``, the routes its
agents call); ``POST /score`` scores a batch (JSON or
JSON lines); ``GET /health`` and ``GET /instructions`` say what it is and what it verifies.
Bad input is a 4xx naming the item and the field; an answer's content is never a 5xx: the
checkers never raise, and run in time linear in the answer, which is capped in length."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from indicifeval._version import __version__
from indicifeval.core.errors import InputError, Source
from indicifeval.core.jsonl import where_in
from indicifeval.core.modes import ScoringMode
from indicifeval.rewards import nemo_gym
from indicifeval.rewards.verdicts import RewardScorer

SETTINGS_ENV = "INDICIFEVAL_SERVE_SETTINGS"  # how the settings reach uvicorn's worker processes
_JSONL = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json-lines")


@dataclass(frozen=True)
class ServeSettings:
    """The server's settings, by name: they reach uvicorn's worker processes as JSON, and
    ``RewardScorer`` turns them into a mode and a reward once, where the app is made."""

    scoring: str = "fixed"
    reward: str = "all"
    strip_reasoning: bool = True
    data: str | None = None
    max_body_bytes: int = 32 * 2**20
    max_batch: int = 4096
    max_answer_chars: int = 1_000_000
    unknown_ids: str = "error"  # an instruction id no checker knows: a 422 naming it, or "zero": not followed


class HTTPError(Exception):
    def __init__(self, status: int, message: str, field: str | None = None, item: int | None = None):
        super().__init__(message)
        self.status, self.message, self.field, self.item = status, message, field, item


def _json(data: Any, status: int = 200, jsonl: bool = False) -> Response:
    """JSON (or JSON lines) as UTF-8; an answer with a lone surrogate is written escaped."""
    lines = data if jsonl else [data]
    try:
        body = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines).encode("utf-8")
    except UnicodeEncodeError:
        body = "".join(json.dumps(x) + "\n" for x in lines).encode("ascii")
    media = "application/x-ndjson" if jsonl else "application/json"
    return Response(body, status, media_type=media)


def _error(exc: HTTPError) -> Response:
    detail = {"error": exc.message, **({"field": exc.field} if exc.field else {}),
              **({"item": exc.item} if exc.item is not None else {})}
    return _json(detail, exc.status)


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused past ``limit`` bytes without reading the rest."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise HTTPError(413, f"the body is {int(declared):,} bytes, over the limit of {limit:,}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPError(413, f"the body is over the limit of {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(body: bytes, jsonl: bool) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HTTPError(400, f"the body is not UTF-8 (byte {exc.start + 1})") from None
    if jsonl:  # each line parsed alone: an error names the body's line, not the line's own (always 1)
        return [_loads(line, number, " lines") for number, line in enumerate(text.splitlines(), start=1)
                if line.strip()]
    return _loads(text, 1, "")


def _loads(text: str, first_line: int, kind: str) -> Any:
    """``text`` (which starts at the body's line ``first_line``) as JSON, or a 400 naming the
    body's line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        line, column = where_in(text, exc.pos)
        raise HTTPError(400, f"the body is not valid JSON{kind}: {exc.msg} at line {first_line + line - 1}, "
                        f"column {column}") from None
    except RecursionError:
        raise HTTPError(400, "the body is nested too deeply") from None


def _from_input(exc: InputError) -> HTTPError:
    return HTTPError(422, exc.message, exc.field, exc.line)


class Verifier:
    """The app's state: one scorer for the settings, made when the app starts."""

    def __init__(self, settings: ServeSettings):
        self.settings = settings
        self.scorer = RewardScorer(settings.scoring, settings.reward, settings.strip_reasoning, settings.data,
                                   settings.max_answer_chars, settings.unknown_ids)

    async def health(self, request: Request) -> Response:
        s = self.settings
        return _json({"status": "ok", "version": __version__, "scoring": str(self.scorer.mode), "reward": s.reward,
                      "strip_reasoning": s.strip_reasoning, "unknown_ids": s.unknown_ids,
                      "data": os.path.basename(s.data) if s.data else None})

    async def instructions(self, request: Request) -> Response:
        from indicifeval.checkers import REGISTRY, available_ids
        from indicifeval.languages import get_profile, list_languages

        paper = self.scorer.mode is ScoringMode.PAPER
        languages = {}
        for code in list_languages():
            profile = get_profile(code)
            languages[code] = [i for i in available_ids(profile) if not (paper and REGISTRY[i].fixed_only)]
        return _json({"scoring": str(self.scorer.mode), "languages": languages})

    async def score(self, request: Request) -> Response:
        try:
            jsonl = request.headers.get("content-type", "").split(";")[0].strip().lower() in _JSONL
            data = _parse(await _body(request, self.settings.max_body_bytes), jsonl)
            items = data.get("items") if isinstance(data, dict) else data
            if not isinstance(items, list):
                raise HTTPError(422, 'the body is a list of items, {"items": [...]}, or JSON lines', "items")
            if len(items) > self.settings.max_batch:
                raise HTTPError(413, f"{len(items):,} items, over the batch limit of {self.settings.max_batch:,}",
                                "items")
            verdicts = self.scorer.score(items, where="item")
        except HTTPError as exc:
            return _error(exc)
        except InputError as exc:
            return _error(_from_input(exc))
        results = [v.to_json() for v in verdicts]
        return _json(results, jsonl=True) if jsonl else _json({"results": results})

    async def verify(self, request: Request) -> Response:
        try:
            body = _parse(await _body(request, self.settings.max_body_bytes), False)
            if not isinstance(body, dict):
                raise HTTPError(422, "the verify request is a JSON object")
            answer = nemo_gym.verify(self.scorer, body, Source("verify request", None))
        except HTTPError as exc:
            return _error(exc)
        except InputError as exc:
            return _error(_from_input(exc))
        return _json(answer)

    async def seed_session(self, request: Request) -> Response:
        """NeMo Gym's agents open a rollout with it; a stateless verifier has nothing to seed."""
        return _json({})

    async def reverify_mode(self, request: Request) -> Response:
        return _json("stateless")


def create_app(settings: ServeSettings | None = None) -> Any:
    verifier = Verifier(settings or ServeSettings())

    async def not_found(request: Request, exc: Exception) -> Response:
        return _json({"error": f"no such endpoint: {request.method} {request.url.path}; see GET /health"}, 404)

    async def wrong_method(request: Request, exc: Exception) -> Response:
        return _json({"error": f"{request.method} is not allowed on {request.url.path}"}, 405)

    async def internal(request: Request, exc: Exception) -> Response:  # a bug: said so, and the worker lives on
        return _json({"error": f"internal error ({exc.__class__.__name__}); please report it"}, 500)

    routes = [Route("/health", verifier.health), Route("/instructions", verifier.instructions),
              Route("/score", verifier.score, methods=["POST"]), Route("/verify", verifier.verify, methods=["POST"]),
              Route("/seed_session", verifier.seed_session, methods=["POST"]),
              Route("/close_session", verifier.seed_session, methods=["POST"]),
              Route("/reverify_mode", verifier.reverify_mode)]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: wrong_method, Exception: internal})
    return _RolloutPrefix(app)


class _RolloutPrefix:
    """NeMo Gym's agents may call ``/ng-rollout/<id>/verify``: the prefix is dropped, as its
    servers drop it."""

    def __init__(self, app: Starlette):
        self.app = app

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/ng-rollout/"):
            rest = path[len("/ng-rollout/"):].partition("/")[2]
            scope = {**scope, "path": "/" + rest, "raw_path": ("/" + rest).encode()}
        await self.app(scope, receive, send)


def settings_to_env(settings: ServeSettings) -> str:
    return json.dumps(asdict(settings))


def app_from_env() -> Any:
    """The app of one of uvicorn's worker processes, its settings from the environment."""
    raw = os.environ.get(SETTINGS_ENV)
    return create_app(ServeSettings(**json.loads(raw)) if raw else None)


__all__ = ["SETTINGS_ENV", "ServeSettings", "app_from_env", "create_app", "settings_to_env"]
