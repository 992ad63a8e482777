"""The OpenAI Batch API's file format, which ``vllm run-batch`` reads and writes too: one
``/v1/chat/completions`` request per line, named by ``custom_id``, and one result per line with
either a response (its status code and a chat completion body) or an error.

A result's completion is read by the online backend's own parser, so a batch answer and an
online answer become the same record; only the text is carried, never parsed here."""

from __future__ import annotations

import json
from typing import Any

from indicifeval.records import GenerationTask
from indicifeval.runs.backends.openai_http import parse_completion
from indicifeval.runs.requests import GenerationResult

KEY = "custom_id"
URL = "/v1/chat/completions"
SCHEMA_NAME = "ground_prompt"
ERROR_CHARS = 300


def error_text(error: Any, prefix: str = "") -> str:
    """A provider's error object (``{"code", "message"}``, ``{"error": {...}}``, a string) as
    one short line: an error is shown to the user and kept in the log."""
    if isinstance(error, dict) and isinstance(error.get("error"), dict | str):
        error = error["error"]
    if isinstance(error, dict):
        code = error.get("code") if error.get("code") not in (None, "") else error.get("status")
        message = error.get("message")
        if message not in (None, ""):
            text = f"{code}: {message}" if code not in (None, "") else str(message)
        else:
            text = str(code) if code not in (None, "") else json.dumps(error, ensure_ascii=False)
    else:
        text = str(error)
    text = " ".join(text.split()) or "unknown error"
    text = prefix + text
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def request_line(task: GenerationTask, model: str) -> dict[str, Any]:
    """The batch line of ``task``. Its params are Chat Completions parameters already
    (``max_tokens``, ``temperature``, ``top_p``, ...) and go into the body as they are."""
    body: dict[str, Any] = {"model": model, "messages": [dict(m) for m in task.messages]}
    body.update(task.params)
    if task.response_schema is not None:
        body["response_format"] = {"type": "json_schema", "json_schema": {
            "name": SCHEMA_NAME, "schema": task.response_schema, "strict": True}}
    return {KEY: task.uid, "method": "POST", "url": URL, "body": body}


def result_of(uid: str, record: dict[str, Any]) -> GenerationResult:
    """One result line as a result: failed lines (an ``error``, a missing response, a status
    other than 200, a body that is not a completion) carry their reason and no text."""
    error = record.get("error")
    response = record.get("response")
    if error not in (None, "", {}):
        status = response.get("status_code") if isinstance(response, dict) else None
        return GenerationResult(uid, "", error=error_text(error, f"HTTP {status}: " if status else ""))
    if not isinstance(response, dict):
        return GenerationResult(uid, "", error="the result line has no response")
    status = response.get("status_code")
    body = response.get("body")
    if status not in (None, 200):
        return GenerationResult(uid, "", error=error_text(body if body else "no error body", f"HTTP {status}: "))
    if not isinstance(body, dict) or not isinstance(body.get("choices"), list):
        return GenerationResult(uid, "", error="the response body is not a chat completion (no 'choices')")
    return parse_completion(uid, body)
