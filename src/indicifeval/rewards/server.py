"""``indicifeval serve``: the scorer behind HTTP, for RL trainers that call a verifier.

``POST /verify`` answers NeMo Gym's instruction-following verify request as its own resource
server does (``rewards.nemo_gym``; with ``/seed_session`` and ``/reverify_mode``, the routes its
agents call); ``POST /score`` scores a batch (JSON or
JSON lines); ``GET /health`` and ``GET /instructions`` say what it is and what it verifies.
Bad input is a 4xx naming the item and the field; an answer's content is never a 5xx: the
checkers never raise, and run in time linear in the answer, which is capped in length."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from indicifeval._version import __version__
from indicifeval.core.errors import InputError, Source
from indicifeval.core.modes import ScoringMode
from indicifeval.rewards import nemo_gym
from indicifeval.rewards.http_input import Gone, HTTPError, check_item, max_values, parse, split_path
from indicifeval.rewards.judging import DEFAULT_WEIGHT, Judge
from indicifeval.rewards.openrlhf import openrlhf_rewards
from indicifeval.rewards.row_cache import bound_rows
from indicifeval.rewards.verdicts import RewardScorer
from indicifeval.scoring.implicit import warm_up

SETTINGS_ENV = "INDICIFEVAL_SERVE_SETTINGS"  # how the settings reach uvicorn's worker processes
_JSONL = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json-lines")
_log = logging.getLogger("uvicorn.error")
SWITCH_SECONDS = 0.001  # a served process's GIL switch interval (Python's default: 5 ms)


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
    max_batch_seconds: float = 120.0  # to send a body, and again to score it (0: no limit)
    max_cache_bytes: int = 128 * 2**20  # the rows remembered, by the approximate size of their fields
    implicit: str = "all"  # the implicit constraints (scoring.implicit): all, none, or names
    # the LLM judge (backend, model, options, cache, timeout_s, weight): made by the CLI, which may reach the backends
    judge: dict[str, Any] | None = None


class _TooSlow(Exception):
    pass


def _encode(data: Any, jsonl: bool = False) -> bytes:
    """Strict JSON (or JSON lines) as UTF-8; an answer with a lone surrogate is written escaped."""
    lines = data if jsonl else [data]
    try:
        return "".join(json.dumps(x, ensure_ascii=False, allow_nan=False) + "\n" for x in lines).encode("utf-8")
    except UnicodeEncodeError:
        return "".join(json.dumps(x, allow_nan=False) + "\n" for x in lines).encode("ascii")


def _json(data: Any, status: int = 200, jsonl: bool = False) -> Response:
    return _raw(_encode(data, jsonl), status, jsonl)


def _raw(body: bytes, status: int = 200, jsonl: bool = False) -> Response:
    return Response(body, status, media_type="application/x-ndjson" if jsonl else "application/json")


def _error(exc: HTTPError) -> Response:
    return _json(exc.to_json(), exc.status)


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused past ``limit`` bytes without reading the rest: the length it
    declares first, then what arrives, chunk by chunk."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise HTTPError(413, f"the body is {int(declared):,} bytes, over the limit of {limit:,}",
                        limit="max_body_bytes")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise HTTPError(413, f"the body is over the limit of {limit:,} bytes", limit="max_body_bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise Gone() from None
    return b"".join(chunks)


def _from_input(exc: InputError) -> HTTPError:
    return HTTPError(422, exc.message, exc.field, exc.line)


def _gone(request: Request) -> Response:
    """A client that went away mid-request: one line, no traceback (no one reads the answer)."""
    client = f"{request.client.host}:{request.client.port}" if request.client else "a client"
    _log.warning("%s went away before its %s %s was answered", client, request.method, request.url.path)
    return Response(status_code=499)


class Verifier:
    """The app's state: one scorer for the settings, made when the app starts. A request's body
    is read on the event loop; it is parsed and scored in a worker thread, so ``/health`` is
    answered while a batch is scored, and a batch over its time limit is a 503."""

    def __init__(self, settings: ServeSettings, judge: Judge | None = None):
        self.settings = settings
        self.scorer = RewardScorer(settings.scoring, settings.reward, settings.strip_reasoning, settings.data,
                                   settings.max_answer_chars, settings.unknown_ids, settings.implicit, judge,
                                   float((settings.judge or {}).get("weight", DEFAULT_WEIGHT)))
        bound_rows(self.scorer, settings.max_cache_bytes)
        if self.scorer.implicit:
            warm_up()
        self.most_values = max_values(settings.max_batch)
        # One batch scored at a time (a worker process's CPU is one core's anyway): the event
        # loop then vies for the GIL with one thread, and answers /health within milliseconds.
        self.scoring = anyio.CapacityLimiter(1)

    async def health(self, request: Request) -> Response:
        s = self.settings
        return _json({"status": "ok", "version": __version__, "scoring": str(self.scorer.mode), "reward": s.reward,
                      "strip_reasoning": s.strip_reasoning, "unknown_ids": s.unknown_ids, "implicit": s.implicit,
                      "judge": (s.judge or {}).get("model"),
                      "max_batch_seconds": s.max_batch_seconds,
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

    async def _answer(self, request: Request, work: Callable[[bytes, float | None], Response]) -> Response:
        """The body read (within the time limit), then ``work(body, deadline)`` in a thread; the
        limit's errors named."""
        limit = self.settings.max_batch_seconds or None
        try:
            try:
                with anyio.fail_after(limit):
                    body = await _body(request, self.settings.max_body_bytes)
            except TimeoutError:
                raise HTTPError(408, f"the body did not arrive within the limit of {limit:g} s (--max-batch-seconds)",
                                limit="max_batch_seconds") from None
            deadline = time.monotonic() + limit if limit else None  # (the wait for a batch before it counts)
            try:
                with anyio.fail_after(limit):
                    return await anyio.to_thread.run_sync(work, body, deadline, abandon_on_cancel=True,
                                                          limiter=self.scoring)
            except (TimeoutError, _TooSlow):
                raise HTTPError(503, f"scoring took over the limit of {limit:g} s (--max-batch-seconds): send fewer "
                                "or shorter items", "items", limit="max_batch_seconds") from None
        except HTTPError as exc:
            return _error(exc)
        except Gone:
            return _gone(request)

    async def score(self, request: Request) -> Response:
        jsonl = request.headers.get("content-type", "").split(";")[0].strip().lower() in _JSONL
        return await self._answer(request, partial(self._score, jsonl))

    def _score(self, jsonl: bool, body: bytes, deadline: float | None) -> Response:
        try:
            data = parse(body, jsonl, self.most_values, self.settings.max_batch)
            items = data.get("items") if isinstance(data, dict) else data
            if not isinstance(items, list):
                raise HTTPError(422, 'the body is a list of items, {"items": [...]}, or JSON lines', "items")
            if len(items) > self.settings.max_batch:
                raise HTTPError(413, f"{len(items):,} items, over the batch limit of {self.settings.max_batch:,}",
                                "items", limit="max_batch")
            sources = [Source("item", n) for n in range(1, len(items) + 1)]
            items = [check_item(item, where) for item, where in zip(items, sources)]

            def in_time() -> None:
                if deadline is not None and time.monotonic() > deadline:
                    raise _TooSlow()
            results = [v.to_json() for v in self.scorer.score(items, before_each=in_time)]
        except HTTPError as exc:
            if exc.item is None and exc.field is not None and not jsonl:
                exc.item, exc.field = split_path(exc.field)
            return _error(exc)
        except InputError as exc:
            return _error(_from_input(exc))
        except RecursionError:
            return _error(HTTPError(422, "a field is nested too deeply"))
        return _raw(_encode(results, True), jsonl=True) if jsonl else _raw(_encode({"results": results}))

    async def verify(self, request: Request) -> Response:
        return await self._answer(request, self._verify)

    def _verify(self, body: bytes, deadline: float | None) -> Response:
        return self._one(body, "the verify request",
                         lambda data: nemo_gym.verify(self.scorer, data, Source("verify request", None)))

    async def openrlhf(self, request: Request) -> Response:
        """OpenRLHF's remote reward request (``--reward.remote_url http://HOST:PORT/openrlhf``)."""
        return await self._answer(request, self._openrlhf)

    def _openrlhf(self, body: bytes, deadline: float | None) -> Response:
        return self._one(body, "OpenRLHF's reward request", partial(openrlhf_rewards, self.scorer))

    def _one(self, body: bytes, what: str, answer: Callable[[dict], Any]) -> Response:
        """A request that is one JSON object, answered by ``answer``; its errors named."""
        try:
            data = parse(body, False, self.most_values)
            if not isinstance(data, dict):
                raise HTTPError(422, f"{what} is a JSON object")
            return _raw(_encode(answer(data)))
        except HTTPError as exc:
            return _error(exc)
        except InputError as exc:
            return _error(_from_input(exc))
        except RecursionError:
            return _error(HTTPError(422, "a field is nested too deeply"))

    async def seed_session(self, request: Request) -> Response:
        """NeMo Gym's agents open a rollout with it; a stateless verifier has nothing to seed."""
        return _json({})

    async def reverify_mode(self, request: Request) -> Response:
        return _json("stateless")


def create_app(settings: ServeSettings | None = None, judge: Judge | None = None) -> Any:
    verifier = Verifier(settings or ServeSettings(), judge)

    async def not_found(request: Request, exc: Exception) -> Response:
        return _json({"error": f"no such endpoint: {request.method} {request.url.path}; see GET /health"}, 404)

    async def wrong_method(request: Request, exc: Exception) -> Response:
        return _json({"error": f"{request.method} is not allowed on {request.url.path}"}, 405)

    async def internal(request: Request, exc: Exception) -> Response:  # a bug: said so, and the worker lives on
        return _json({"error": f"internal error ({exc.__class__.__name__}); please report it"}, 500)

    routes = [Route("/health", verifier.health), Route("/instructions", verifier.instructions),
              Route("/score", verifier.score, methods=["POST"]), Route("/verify", verifier.verify, methods=["POST"]),
              Route("/openrlhf", verifier.openrlhf, methods=["POST"]),
              Route("/seed_session", verifier.seed_session, methods=["POST"]),
              Route("/close_session", verifier.seed_session, methods=["POST"]),
              Route("/reverify_mode", verifier.reverify_mode)]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: wrong_method, Exception: internal})
    app.state.verifier = verifier
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
    sys.setswitchinterval(SWITCH_SECONDS)
    return create_app(ServeSettings(**json.loads(raw)) if raw else None)


__all__ = ["SETTINGS_ENV", "SWITCH_SECONDS", "ServeSettings", "app_from_env", "create_app", "settings_to_env"]
