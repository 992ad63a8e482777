"""Any OpenAI-compatible server (vLLM, SGLang, TGI, llama.cpp, hosted APIs) over
``/v1/chat/completions``: async, bounded concurrency, retries with backoff and jitter.

Retried: 429, 5xx, 408, timeouts, dropped connections and unreadable answers; a
``Retry-After`` header sets the wait. Other 4xx are the caller's mistake and stop the run, and
so does a server never reached (refused, or an unknown host: ``pool.Unreachable``) at once.
The API key comes from an environment variable and is sent only in the request header.
A plain ``http://`` server (one on this machine or its network) is reached by the lean
client (``http1``: a journalled request costs 0.11 ms of CPU instead of aiohttp's 0.21, and
that CPU is what limits a build at 64 in flight); ``https://`` by aiohttp.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from indicifeval.core.json_types import JsonObject
from indicifeval.core.safe_text import sanitize
from indicifeval.core.secrets import env_key_problem, redact_text, redact_url, url_secrets
from indicifeval.runs.backends.base import BackendError, MissingDependency, OnResult
from indicifeval.runs.backends.http1 import Http1Client, HttpError, within
from indicifeval.runs.backends.options import OpenAIOptions
from indicifeval.runs.backends.pool import (
    Retryable,
    Unreachable,
    backoff_wait,
    cannot_connect,
    failure_message,
    run_in_session,
    run_pool,
)
from indicifeval.runs.requests import GenerationRequest, GenerationResult

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
MAX_BODY_BYTES = 256 * 1024 * 1024  # an answer body beyond this is refused, not read into memory
# a request body -> (HTTP status, its Retry-After, the answer body or None when over the cap)
Post = Callable[[bytes], Awaitable[tuple[int, str | None, bytes | None]]]
LEAN_SCHEMES = ("http",)  # served by the lean client (http1); https keeps aiohttp


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def build_payload(model: str, request: GenerationRequest, extra_body: dict | None = None) -> dict:
    """The chat-completion body of one request, with that request's own settings."""
    settings = request.settings
    payload: dict[str, Any] = {
        "model": model,
        "messages": request.messages,
        "max_tokens": settings.max_tokens,
        "temperature": settings.temperature,
        "top_p": settings.top_p,
        "seed": settings.seed,
    }
    if settings.thinking is not None:
        # vLLM and SGLang pass these to the chat template (Qwen3, DeepSeek-R1 distills, ...)
        payload["chat_template_kwargs"] = {"enable_thinking": settings.thinking}
    payload.update(settings.gen_kwargs)  # --gen-kwargs: top_k, presence_penalty, stop, ...
    payload.update(extra_body or {})
    return payload


def _text_of(content: Any) -> str | None:
    """A message's content as text: a string, or the text parts of a list of content parts."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [str(p["text"]) for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "".join(parts) if parts else None
    return None


def parse_completion(uid: str, body: Any) -> GenerationResult:
    """The answer text, separate reasoning, finish reason and usage of a chat completion.

    An answer that is well-formed JSON but carries no text (``{"choices": [{}]}``, null
    content) is a failed item with its reason, not an empty answer: it is retried on resume.
    A body that is not a completion at all is retried at once (``Retryable``)."""
    if not isinstance(body, dict) or not isinstance(body.get("choices"), list):
        raise Retryable("the answer is not a chat completion (no 'choices')")
    usage: dict[str, Any] = body["usage"] if isinstance(body.get("usage"), dict) else {}
    if not body["choices"] or not isinstance(body["choices"][0], dict):
        return GenerationResult(uid, "", None, usage=usage, error="the server's answer has no choices")
    choice: dict[str, Any] = body["choices"][0]
    message: dict[str, Any] = choice["message"] if isinstance(choice.get("message"), dict) else {}
    finish = choice.get("finish_reason")
    finish = finish if isinstance(finish, str) else None
    content = _text_of(message.get("content"))
    if content is None and isinstance(choice.get("text"), str):
        content = choice["text"]
    reasoning = _text_of(message.get("reasoning_content")) or _text_of(message.get("reasoning"))
    if content is None and not reasoning:
        why = f" (finish_reason {finish})" if finish else ""
        return GenerationResult(uid, "", finish, usage=usage, error=f"the server's answer has no content{why}")
    return GenerationResult(uid, sanitize(content or ""), finish, sanitize(reasoning) if reasoning else None, usage)


def split_credentials(url: str) -> tuple[str, str | None, str | None]:
    """(the URL without user and password, user, password)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None, None
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=netloc)), unquote(parts.username or ""), \
        unquote(parts.password) if parts.password is not None else None


def endpoint(base_url: str, path: str) -> str:
    """``base_url`` + ``/path``, keeping its query (``...?key=``) after the path."""
    parts = urlsplit(split_credentials(base_url)[0])
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/" + path))


async def _read_capped(response: Any, limit: int) -> bytes | None:
    """The whole body, or None once it passes ``limit`` bytes (the rest is not read)."""
    chunks, size = [], 0
    async for chunk in response.content.iter_chunked(1 << 20):
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


class OpenAIBackend:
    name = "openai"

    def __init__(self, model: str, options: OpenAIOptions, extra_body: dict | None = None):
        try:
            import aiohttp  # noqa: F401
        except ImportError:
            raise MissingDependency("openai", "aiohttp", "openai") from None
        self.model = model
        self.options = options
        self.base_url = (options.base_url or "").rstrip("/")
        self.api_key_env = options.api_key_env
        problem = env_key_problem(self.api_key_env)
        if problem:
            raise BackendError(problem)
        self.concurrency = max(1, int(options.concurrency))
        self.timeout_s = options.timeout_s
        self.max_retries = options.max_retries
        self.backoff_base_s = options.backoff_base_s
        self.backoff_max_s = options.backoff_max_s
        self.extra_body = extra_body or {}
        self._rng = random.Random()  # jitter only; never affects what is generated
        self._reached = False  # whether the server ever answered: until then, no connection is a wrong URL

    def describe(self) -> JsonObject:
        return {"name": self.name, "base_url": redact_url(self.base_url), "concurrency": self.concurrency,
                "api_key_env": self.api_key_env, "chat_template_hash": None}

    def _secrets(self) -> list[str]:
        return [os.environ.get(self.api_key_env) or "", *url_secrets(self.base_url)]

    def redact(self, text: str) -> str:
        return redact_text(text, self._secrets())

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        if requests:
            asyncio.run(self._generate_all(list(requests), on_result))

    async def _generate_all(self, requests: list[GenerationRequest], on_result: OnResult) -> None:
        import aiohttp

        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        base, user, password = split_credentials(self.base_url)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        elif user is not None:  # https://user:password@host/v1 is HTTP basic authentication
            headers["Authorization"] = aiohttp.BasicAuth(user, password or "").encode()
        url = endpoint(self.base_url, "chat/completions")
        if urlsplit(base).scheme in LEAN_SCHEMES:  # a local server: its client's CPU is what limits
            try:
                client = Http1Client(base, headers, MAX_BODY_BYTES)
            except ValueError as exc:  # never names the header's value (a key)
                raise BackendError(str(exc)) from None
            parts = urlsplit(url)  # as aiohttp sends it: what a request line cannot hold, percent-encoded
            target = quote(parts.path + (f"?{parts.query}" if parts.query else ""), safe="/?&=%:@!$'()*+,;~")

            async def post(body: bytes) -> tuple[int, str | None, bytes | None]:
                reply = await within(self.timeout_s, client.post(target, body))
                return reply.status, reply.headers.get("retry-after"), reply.body

            try:
                failures = await run_pool(requests, self.concurrency, lambda r: self._one(post, r), on_result)
            finally:
                await client.close()
        else:
            async def post_in(session, body: bytes) -> tuple[int, str | None, bytes | None]:
                async with session.post(url, data=body) as response:
                    return response.status, response.headers.get("Retry-After"), \
                        await _read_capped(response, MAX_BODY_BYTES)

            failures = await run_in_session(requests, self.concurrency, self.timeout_s, headers,
                                            lambda session, r: self._one(lambda b: post_in(session, b), r), on_result)
        if failures:
            raise BackendError(self.redact(failure_message(failures)))

    async def _one(self, post: Post, request: GenerationRequest) -> GenerationResult:
        """One request, retried: ``post(body)`` -> (status, Retry-After, body or None if over the cap)."""
        import aiohttp

        body = json.dumps(build_payload(self.model, request, self.extra_body)).encode("utf-8")
        started = time.monotonic()
        last = ""
        for attempt in range(1, self.max_retries + 2):
            try:
                status, retry_after, raw = await post(body)
                self._reached = True
                if raw is None:
                    return GenerationResult(request.uid, "", None, error=f"the answer is over {MAX_BODY_BYTES:,} bytes",
                                            latency_s=time.monotonic() - started, attempts=attempt)
                if status in RETRY_STATUS:
                    raise Retryable(f"HTTP {status}", parse_retry_after(retry_after))
                if status >= 300:  # a redirect (the lean client follows none): the base URL is another
                    text = raw[:300].decode("utf-8", "replace")
                    hint = " (a redirect: give the URL it names as the base URL)" if status < 400 else ""
                    raise BackendError(self.redact(f"{request.uid}: HTTP {status}{hint}: {text}"))
                try:
                    answer = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
                    raise Retryable("malformed JSON") from None
                result = parse_completion(request.uid, answer)
                result.latency_s = time.monotonic() - started
                result.attempts = attempt
                return result
            except (Retryable, asyncio.TimeoutError, HttpError, aiohttp.ClientError) as exc:
                why = None if self._reached else cannot_connect(exc)
                if why is not None:  # a wrong --base-url or no server: said now, not after nine attempts
                    raise Unreachable(redact_url(self.base_url), self.redact(why)) from None
                last = self.redact(f"{exc.__class__.__name__}: {exc}")
                if attempt > self.max_retries:
                    break
                await asyncio.sleep(backoff_wait(self._rng, exc, attempt, self.backoff_base_s, self.backoff_max_s))
        raise BackendError(f"{request.uid}: gave up after {self.max_retries + 1} attempts ({last})")
