"""Sarvam's translation REST API (``POST /translate``) with a small aiohttp client, so the
build needs no SDK.

One engine per target language. Texts over the API's per-request limit are cut at paragraph,
then line, then sentence boundaries (never inside a placeholder or a fenced block), sent piece
by piece and joined with the separators they were cut at. Retried: 429 (Retry-After), 5xx,
timeouts, dropped connections; 422 is that text's own problem (a per-item error); any other
4xx is the caller's mistake and stops the run, and so does an API never reached (refused, or an
unknown host), at once. The key comes from an environment variable
and travels only in the request header."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from indicifeval.core.errors import InputError
from indicifeval.core.json_types import JsonObject
from indicifeval.core.safe_text import sanitize
from indicifeval.core.secrets import check_env_name, env_key_problem, redact_text, redact_url, url_secrets
from indicifeval.languages import get_profile
from indicifeval.runs.backends.base import BackendError, MissingDependency, OnResult
from indicifeval.runs.backends.openai_http import _read_capped, endpoint, parse_retry_after
from indicifeval.runs.backends.options import BackendOptions, option
from indicifeval.runs.backends.pool import (
    Retryable,
    Unreachable,
    backoff_wait,
    cannot_connect,
    failure_message,
    run_in_session,
)
from indicifeval.runs.requests import GenerationRequest, GenerationResult

DEFAULT_BASE_URL = "https://api.sarvam.ai"
MODES = ("formal", "modern-colloquial", "classic-colloquial", "code-mixed")
RETRY_STATUS = {408, 425, 429, 500, 502, 503, 504}
MAX_BODY_BYTES = 16 * 1024 * 1024  # a translation of 2,000 characters is far smaller
# cut points, coarsest first; each separator is whitespace only, so the pieces rejoin exactly
_LEVELS = (re.compile(r"[ \t]*\n[ \t]*\n\s*"), re.compile(r"[ \t]*\n\s*"), re.compile(r"(?<=[.!?।॥])[ \t]+"))
_PROTECTED = re.compile(r"\{\{[^{}\n]*\}\}|```.*?```", re.DOTALL)  # never cut inside these


@dataclass(frozen=True)
class SarvamOptions(BackendOptions):
    """Where the API is, how hard to push it, and the language pair (the build sets the target)."""

    backend: ClassVar[str] = "sarvam"
    base_url: str = option(DEFAULT_BASE_URL, "API URL (e.g. a loopback fake in tests)")
    api_key_env: str = option("SARVAM_API_KEY", "environment variable holding the key (its name, never the key)")
    target_language: str | None = option(None, "target language code (set by the build)", flag=None,
                                         affects_output=True)
    source_language: str = option("en", "source language code", affects_output=True)
    mode: str = option("formal", "translation style", affects_output=True, choices=MODES)
    concurrency: int = option(4, "requests in flight")
    timeout_s: float = option(120.0, "seconds per request", flag="--timeout")
    max_retries: int = option(8, "retries per request")
    max_chars: int = option(2000, "characters per request (the API's limit); longer texts are cut at paragraphs",
                            affects_output=True)
    backoff_base_s: float = option(0.5, "first backoff between retries", flag=None)
    backoff_max_s: float = option(60.0, "longest backoff between retries", flag=None)

    def __post_init__(self) -> None:
        if not self.base_url:
            raise InputError("the sarvam engine needs --base-url")
        check_env_name(self.api_key_env)
        if not self.target_language:
            raise InputError("the sarvam engine needs a target language")
        if self.mode not in MODES:
            raise InputError(f"the sarvam engine has no mode {self.mode!r}; choose from {', '.join(MODES)}")
        if int(self.max_chars) < 1 or int(self.concurrency) < 1:
            raise InputError("the sarvam engine's max_chars and concurrency must be at least 1")


def sarvam_code(language: str) -> str:
    """The Sarvam code of a profiled language (``od-IN`` for Odia)."""
    code = get_profile(language).codes.get("sarvam")
    if not code:
        raise InputError(f"the sarvam engine does not serve {get_profile(language).name} ({language}): "
                         "its profile has no Sarvam code")
    return code


class TooLong(Exception):
    """A piece that no allowed cut brings under the limit."""


def _cuts(text: str, level: re.Pattern[str]) -> list[tuple[int, int]]:
    """(start, end) of each separator at ``level`` that lies outside every protected span."""
    shielded = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]
    return [(m.start(), m.end()) for m in level.finditer(text) if m.end() > m.start()
            and not any(s < m.end() and m.start() < e for s, e in shielded)]


def split_text(text: str, limit: int, depth: int = 0) -> tuple[list[str], list[str]]:
    """``text`` as (pieces, separators): ``pieces[0] + seps[0] + pieces[1] + ...`` is ``text``,
    every piece at most ``limit`` characters, cut as coarsely as possible. Raises TooLong."""
    if len(text) <= limit:
        return [text], []
    if depth >= len(_LEVELS):
        raise TooLong(f"a piece of {len(text):,} characters has no paragraph, line or sentence break "
                      f"that brings it under {limit:,} (starts {text[:40]!r})")
    atoms, seps, last = [], [], 0
    for start, end in _cuts(text, _LEVELS[depth]):
        atoms.append(text[last:start])
        seps.append(text[start:end])
        last = end
    atoms.append(text[last:])
    pieces: list[str] = []
    out_seps: list[str] = []
    current: str | None = None
    for i, atom in enumerate(atoms):
        joined = atom if current is None else current + seps[i - 1] + atom
        if len(joined) <= limit:
            current = joined
            continue
        if current is not None:  # close the piece so far; ``atom`` starts the next
            pieces.append(current)
            out_seps.append(seps[i - 1])
        if len(atom) <= limit:
            current = atom
            continue
        sub, sub_seps = split_text(atom, limit, depth + 1)
        pieces.extend(sub[:-1])
        out_seps.extend(sub_seps)
        current = sub[-1]
    pieces.append(current or "")
    return pieces, out_seps


class _ItemError(Exception):
    """The API refused this text (422, an answer without a translation): a per-item error."""


class SarvamTranslator:
    name = "sarvam"

    def __init__(self, model: str, options: SarvamOptions):
        try:
            import aiohttp  # noqa: F401
        except ImportError:
            raise MissingDependency("sarvam", "aiohttp", "sarvam") from None
        self.model = model or "sarvam-translate:v1"
        self.options = options
        self.base_url = options.base_url.rstrip("/")
        self.source_code = sarvam_code(options.source_language)
        self.target_code = sarvam_code(options.target_language or "")
        self.concurrency = int(options.concurrency)
        self.max_chars = int(options.max_chars)
        self._rng = random.Random()  # jitter only; never affects what is translated
        self._reached = False  # whether the API ever answered: until then, no connection is a wrong URL

    def describe(self) -> JsonObject:
        return {"name": self.name, "model": self.model, "base_url": redact_url(self.base_url),
                "api_key_env": self.options.api_key_env, "source_language_code": self.source_code,
                "target_language_code": self.target_code, "mode": self.options.mode,
                "numerals_format": "international", "max_chars": self.max_chars, "concurrency": self.concurrency,
                "chat_template_hash": None}

    def redact(self, text: str) -> str:
        return redact_text(text, [os.environ.get(self.options.api_key_env) or "", *url_secrets(self.base_url)])

    def payload(self, text: str) -> dict[str, Any]:
        return {"input": text, "source_language_code": self.source_code, "target_language_code": self.target_code,
                "model": self.model, "mode": self.options.mode, "numerals_format": "international"}

    def generate(self, requests: Sequence[GenerationRequest], on_result: OnResult) -> None:
        if not requests:
            return
        key = os.environ.get(self.options.api_key_env)
        if not key:
            raise BackendError(f"the sarvam engine needs an API key in ${self.options.api_key_env}")
        problem = env_key_problem(self.options.api_key_env)
        if problem:
            raise BackendError(problem)
        asyncio.run(self._generate_all(list(requests), on_result, key))

    async def _generate_all(self, requests: list[GenerationRequest], on_result: OnResult, key: str) -> None:
        headers = {"Content-Type": "application/json", "api-subscription-key": key}
        failures = await run_in_session(requests, self.concurrency, self.options.timeout_s, headers, self._item,
                                        on_result)
        if failures:
            raise BackendError(self.redact(failure_message(failures)))

    async def _item(self, session, request: GenerationRequest) -> GenerationResult:
        """One text: its pieces translated in turn and rejoined."""
        text = str(request.messages[-1]["content"])
        started = time.monotonic()
        try:
            pieces, seps = split_text(text, self.max_chars)
        except TooLong as exc:
            return GenerationResult(request.uid, "", None, error=str(exc), latency_s=0.0)
        out: list[str] = []
        attempts = 0
        for piece in pieces:
            if not piece.strip():  # nothing to translate: kept as it is, never sent
                out.append(piece)
                continue
            try:
                translated, tries = await self._post(session, request.uid, piece)
            except _ItemError as exc:
                return GenerationResult(request.uid, "", None, error=self.redact(str(exc)),
                                        latency_s=time.monotonic() - started, attempts=max(1, attempts))
            attempts += tries
            out.append(translated)
        joined = out[0] + "".join(sep + piece for sep, piece in zip(seps, out[1:]))
        usage: JsonObject = {"input_characters": len(text), "output_characters": len(joined),
                 "requests": sum(1 for p in pieces if p.strip())}
        return GenerationResult(request.uid, joined, "stop", usage=usage, latency_s=time.monotonic() - started,
                                attempts=max(1, attempts))

    async def _post(self, session, uid: str, text: str) -> tuple[str, int]:
        """(the translation, attempts made), retrying what may pass on a second try."""
        import aiohttp

        url = endpoint(self.base_url, "translate")
        opts = self.options
        last = ""
        for attempt in range(1, opts.max_retries + 2):
            try:
                async with session.post(url, json=self.payload(text)) as response:
                    self._reached = True
                    status, retry_after = response.status, response.headers.get("Retry-After")
                    raw = await _read_capped(response, MAX_BODY_BYTES)
                if raw is None:
                    raise _ItemError(f"the answer is over {MAX_BODY_BYTES:,} bytes")
                if status in RETRY_STATUS:
                    raise Retryable(f"HTTP {status}", parse_retry_after(retry_after))
                if status == 422:
                    raise _ItemError(f"the API refused the text (HTTP 422): {_message(raw)}")
                if status >= 400:
                    raise BackendError(self.redact(f"{uid}: HTTP {status}: {_message(raw)}"))
                try:
                    body = json.loads(raw)
                except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
                    raise Retryable("malformed JSON") from None
                translated = body.get("translated_text") if isinstance(body, dict) else None
                if not isinstance(translated, str):
                    raise _ItemError("the API's answer has no 'translated_text'")
                return sanitize(translated), attempt
            except (Retryable, asyncio.TimeoutError, aiohttp.ClientError) as exc:
                why = None if self._reached else cannot_connect(exc)
                if why is not None:  # a wrong --base-url or no server: said now, not after nine attempts
                    raise Unreachable(redact_url(self.base_url), self.redact(why)) from None
                last = self.redact(f"{exc.__class__.__name__}: {exc}")
                if attempt > opts.max_retries:
                    break
                await asyncio.sleep(backoff_wait(self._rng, exc, attempt, opts.backoff_base_s, opts.backoff_max_s))
        raise BackendError(f"{uid}: gave up after {opts.max_retries + 1} attempts ({last})")


def _message(raw: bytes) -> str:
    """The API's error message (``{"error": {"message": ...}}``), or the start of the body."""
    try:
        body = json.loads(raw)
        error = body.get("error") if isinstance(body, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        if isinstance(message, str) and message:
            return sanitize(message)[:300]
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        pass
    return sanitize(raw[:300].decode("utf-8", "replace"))


__all__ = ["DEFAULT_BASE_URL", "MODES", "SarvamOptions", "SarvamTranslator", "TooLong", "sarvam_code", "split_text"]
