"""Gemini batch mode's file format (the REST ``GenerateContentRequest``): one request per line
named by ``key``, the system turn as ``systemInstruction``, sampling and the answer's schema in
``generationConfig``; one result per line with a response or an error.

The model is not named in the file (a Gemini batch job names it), and the schema is cut down to
the OpenAPI subset Gemini accepts: it answers ``additionalProperties`` and other JSON Schema
keywords with HTTP 400 for the whole job."""

from __future__ import annotations

from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.core.safe_text import sanitize
from indicifeval.records import GenerationTask
from indicifeval.runs.backends.batch_openai import error_text
from indicifeval.runs.requests import GenerationResult

KEY = "key"
ROLES = {"user": "user", "assistant": "model", "model": "model"}
PARAMS = {"max_tokens": "maxOutputTokens", "max_completion_tokens": "maxOutputTokens", "temperature": "temperature",
          "top_p": "topP", "top_k": "topK", "seed": "seed", "stop": "stopSequences",
          "presence_penalty": "presencePenalty", "frequency_penalty": "frequencyPenalty"}
# Gemini's Schema object; "properties" maps names to schemas, "items" is a schema, "anyOf" a list.
SCHEMA_KEYS = frozenset({"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
                         "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
                         "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"})
FINISH = {"STOP": "stop", "MAX_TOKENS": "length", "FINISH_REASON_UNSPECIFIED": None}


def gemini_schema(schema: Any) -> Any:
    """A JSON Schema in Gemini's subset: unknown keywords dropped, ``"type": [t, "null"]`` as
    ``nullable``, ``const`` as a one-value ``enum``. Types stay as written (Gemini accepts
    lower-case JSON Schema type names)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: gemini_schema(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = gemini_schema(value)
        elif key == "anyOf" and isinstance(value, list):
            out[key] = [gemini_schema(sub) for sub in value]
        elif key == "type" and isinstance(value, list):
            types = [t for t in value if t != "null"]
            out[key] = types[0] if len(types) == 1 else types
            if "null" in value:
                out["nullable"] = True
        elif key == "const":
            out.setdefault("enum", [value])
        elif key in SCHEMA_KEYS:
            out[key] = value
    return out


def _config(task: GenerationTask) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for name, value in task.params.items():
        if name not in PARAMS:
            raise InputError(f"parameter {name!r} has no Gemini equivalent (known: {', '.join(PARAMS)})",
                             field=f"{task.uid}.params")
        config[PARAMS[name]] = [value] if name == "stop" and isinstance(value, str) else value
    if task.response_schema is not None:
        config["responseMimeType"] = "application/json"
        config["responseSchema"] = gemini_schema(task.response_schema)
    return config


def request_line(task: GenerationTask, model: str) -> dict[str, Any]:
    """The batch line of ``task`` (``model`` is the job's, not the line's)."""
    system = [{"text": m["content"]} for m in task.messages if m.get("role") == "system"]
    contents = []
    for m in task.messages:
        if m.get("role") == "system":
            continue
        if m.get("role") not in ROLES:
            raise InputError(f"message role {m.get('role')!r} has no Gemini equivalent", field=f"{task.uid}.messages")
        contents.append({"role": ROLES[m["role"]], "parts": [{"text": m["content"]}]})
    request: dict[str, Any] = {"contents": contents}
    if system:
        request["systemInstruction"] = {"parts": system}
    request["generationConfig"] = _config(task)
    return {KEY: task.uid, "request": request}


def _get(record: dict, camel: str, snake: str) -> Any:
    """A field in the REST spelling, or in the Python SDK's (a file saved from it)."""
    return record.get(camel, record.get(snake))


def _usage(meta: Any) -> dict[str, Any]:
    """Gemini's token counts under the names the online route logs, so totals add up alike."""
    if not isinstance(meta, dict):
        return {}
    names = {"prompt_tokens": ("promptTokenCount", "prompt_token_count"),
             "completion_tokens": ("candidatesTokenCount", "candidates_token_count"),
             "reasoning_tokens": ("thoughtsTokenCount", "thoughts_token_count"),
             "total_tokens": ("totalTokenCount", "total_token_count")}
    return {name: value for name, (camel, snake) in names.items()
            if isinstance(value := _get(meta, camel, snake), int)}


def result_of(uid: str, record: dict[str, Any]) -> GenerationResult:
    """One result line as a result. Thought parts are reasoning, not the answer; MAX_TOKENS is
    a truncated answer; a blocked prompt, a candidate without parts, or one stopped for another
    reason (SAFETY, RECITATION, ...) is a failed item naming the reason."""
    if record.get("error") not in (None, "", {}):
        return GenerationResult(uid, "", error=error_text(record["error"]))
    response = record.get("response")
    if not isinstance(response, dict):
        status = record.get("status")
        return GenerationResult(uid, "", error=error_text(status) if status else "the result line has no response")
    usage = _usage(_get(response, "usageMetadata", "usage_metadata"))
    candidates = response.get("candidates")
    if not isinstance(candidates, list) or not candidates or not isinstance(candidates[0], dict):
        feedback = _get(response, "promptFeedback", "prompt_feedback")
        block = _get(feedback, "blockReason", "block_reason") if isinstance(feedback, dict) else None
        why = f"blocked (blockReason {block})" if block else "the response has no candidates"
        return GenerationResult(uid, "", usage=usage, error=why)
    candidate = candidates[0]
    reason = _get(candidate, "finishReason", "finish_reason")
    finish = FINISH.get(reason, reason) if isinstance(reason, str) else None
    content = candidate.get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    parts = [p for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)] if isinstance(parts, list) \
        else []
    if finish not in (None, "stop", "length"):
        return GenerationResult(uid, "", finish, usage=usage, error=f"stopped (finishReason {reason})")
    if not parts:
        why = f" (finishReason {reason})" if reason else ""
        return GenerationResult(uid, "", finish, usage=usage, error=f"the response has no content{why}")
    answer = "".join(p["text"] for p in parts if not p.get("thought"))
    thoughts = "".join(p["text"] for p in parts if p.get("thought"))
    return GenerationResult(uid, sanitize(answer), finish, sanitize(thoughts) if thoughts else None, usage)
