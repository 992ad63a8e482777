"""A loopback stand-in for Sarvam's translation API (``POST /translate``), so the sarvam
engine is tested without the network or a key.

It checks the ``api-subscription-key`` header and the language codes, refuses inputs over
2,000 characters with 422 (as the API does), and "translates" deterministically: a prefix
naming the target language, then the input as it is (placeholders kept). A seeded fault plan
(``FaultPlan`` of the OpenAI fake) injects 429 with Retry-After, 500 and dropped connections,
never more than ``max_faults_per_prompt`` times per input, so a client that retries enough
always finishes.

    python -m indicifeval.testing.fake_sarvam --port 8001 --api-key test-key --fault-rate 0.3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from indicifeval.testing.fake_server import FaultPlan
from indicifeval.testing.loopback import LoopbackServer

SARVAM_FAULTS = ("429", "500", "drop")
MAX_INPUT_CHARS = 2000
# Sarvam-Translate's codes: English and the 22 scheduled languages (Odia is od-IN, not or-IN)
LANGUAGE_CODES = frozenset({
    "en-IN", "as-IN", "bn-IN", "brx-IN", "doi-IN", "gu-IN", "hi-IN", "kn-IN", "ks-IN", "kok-IN", "mai-IN", "ml-IN",
    "mni-IN", "mr-IN", "ne-IN", "od-IN", "pa-IN", "sa-IN", "sat-IN", "sd-IN", "ta-IN", "te-IN", "ur-IN",
})
_REASONS = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 422: "Unprocessable Entity",
            429: "Too Many Requests", 500: "Internal Server Error"}


@dataclass
class SarvamConfig:
    api_key: str | None = "test-key"  # None: any key (or none) is accepted
    faults: FaultPlan = field(default_factory=lambda: FaultPlan(kinds=SARVAM_FAULTS))
    max_input_chars: int = MAX_INPUT_CHARS
    latency_s: float = 0.0
    # request body -> (status, raw body), or None for the normal answer (a 422 for one text,
    # an error that echoes the key, an answer without translated_text)
    raw_fn: Callable[[dict], tuple[int, bytes] | None] | None = None


def fake_translation(text: str, target: str) -> str:
    """What the fake answers for ``text``: a prefix naming the target, then the text as it is."""
    return f"[{target}] {text}"


class FakeSarvamServer(LoopbackServer):
    """Run it in a background thread: ``with FakeSarvamServer(config) as server: server.url``."""

    name = "fake-sarvam"
    backlog = 256

    def __init__(self, config: SarvamConfig | None = None, host: str = "127.0.0.1", port: int = 0):
        self.config = config or SarvamConfig()
        super().__init__(host, port)
        self.attempts: Counter[str] = Counter()  # input -> requests seen
        self.translated: Counter[str] = Counter()  # input -> 200 answers given
        self.faults_served: Counter[str] = Counter()
        self.log: list[tuple[float, str, int]] = []  # (monotonic time, input, status); status 0: dropped
        self.seen_bodies: list[dict] = []
        self.in_flight = self.max_in_flight = 0  # translate requests being answered at once

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @staticmethod
    def _send(writer, status: int, payload: dict | bytes, extra: dict | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload, ensure_ascii=False).encode("utf-8")
        head = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}", "Content-Type: application/json",
                f"Content-Length: {len(data)}", "Connection: keep-alive"]
        head += [f"{k}: {v}" for k, v in (extra or {}).items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data)

    @staticmethod
    def _error(message: str, code: str) -> dict:
        return {"error": {"message": message, "code": code}}

    async def _respond(self, method: str, path: str, headers: dict, body: bytes, writer) -> bool:
        cfg = self.config
        if cfg.api_key is not None and headers.get("api-subscription-key") != cfg.api_key:
            self._send(writer, 403, self._error("Invalid API key", "invalid_api_key_error"))
        elif method != "POST" or path.split("?", 1)[0].rstrip("/") != "/translate":
            self._send(writer, 404, self._error("not found", "not_found_error"))
        else:
            return await self._translate(body, writer)
        await writer.drain()
        return True

    async def _translate(self, body: bytes, writer) -> bool:
        cfg = self.config
        try:
            request = json.loads(body)
            text, source, target = request["input"], request["source_language_code"], request["target_language_code"]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            self._send(writer, 400, self._error("expected input, source_language_code, target_language_code",
                                                "invalid_request_error"))
            await writer.drain()
            return True
        with self._lock:
            attempt = self.attempts[text]
            self.attempts[text] += 1
            if len(self.seen_bodies) < 10000:
                self.seen_bodies.append(request)
        fault = cfg.faults.fault_for(text, attempt)
        if cfg.latency_s:
            self.in_flight += 1  # the loop's one thread is the only writer
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            await asyncio.sleep(cfg.latency_s)
            self.in_flight -= 1
        status, keep = 200, True
        if fault == "drop":
            status, keep = 0, False
            writer.transport.abort()
        elif fault == "429":
            status = 429
            self._send(writer, 429, self._error("rate limit exceeded", "rate_limit_exceeded_error"),
                       {"Retry-After": f"{cfg.faults.retry_after_s}"})
        elif fault == "500":
            status = 500
            self._send(writer, 500, self._error("internal error", "internal_server_error"))
        elif source not in LANGUAGE_CODES or target not in LANGUAGE_CODES:
            status = 400
            self._send(writer, 400, self._error(f"unsupported language pair {source} -> {target}",
                                                "invalid_request_error"))
        elif len(text) > cfg.max_input_chars:
            status = 422
            self._send(writer, 422, self._error(f"input is {len(text)} characters, over the limit of "
                                                f"{cfg.max_input_chars}", "unprocessable_entity_error"))
        elif cfg.raw_fn is not None and (raw := cfg.raw_fn(request)) is not None:
            status = raw[0]
            self._send(writer, raw[0], raw[1])
        else:
            self._send(writer, 200, {"request_id": f"fake-{len(self.log)}", "source_language_code": source,
                                     "translated_text": fake_translation(text, target)})
        with self._lock:
            self.log.append((time.monotonic(), text, status))
            if fault:
                self.faults_served[fault] += 1
            if status == 200:
                self.translated[text] += 1
        if keep:
            await writer.drain()
        return keep


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A loopback stand-in for Sarvam's /translate API.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--api-key", default="test-key", help="the key requests must carry ('' accepts any)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    config = SarvamConfig(api_key=args.api_key or None, latency_s=args.latency,
                          faults=FaultPlan(rate=args.fault_rate, kinds=SARVAM_FAULTS, seed=args.seed))
    server = FakeSarvamServer(config, args.host, args.port)
    server.serve_forever(f"serving on http://{args.host}:{args.port} (POST /translate)")


if __name__ == "__main__":
    main()


__all__ = ["LANGUAGE_CODES", "MAX_INPUT_CHARS", "SARVAM_FAULTS", "FakeSarvamServer", "SarvamConfig",
           "fake_translation"]
