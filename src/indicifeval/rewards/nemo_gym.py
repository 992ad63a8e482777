"""NeMo Gym's instruction-following verify request and response: the answer's text taken from
the OpenAI Responses object as its resource server takes it, and the request echoed back with
the verdicts in its fields (``reward``, ``follow_all_instructions``,
``follow_instruction_list``) and ours (``explanations``, ``follow_instruction_list_loose``)."""

from __future__ import annotations

from typing import Any

from indicifeval.core.errors import Source
from indicifeval.rewards.verdicts import Verdict


def response_text(response: Any, where: Source) -> str | None:
    """The assistant's text in a Responses object: the ``output_text`` parts of its message
    items, in order (reasoning items are not the answer); None when it has none."""
    if response is None:
        return None
    if isinstance(response, str):
        return response
    if not isinstance(response, dict):
        raise where.error(f"response must be an OpenAI Responses object, got {type(response).__name__}", "response")
    output = response.get("output")
    if output is None:
        return None
    if not isinstance(output, list):
        raise where.error("response.output must be a list of output items", "response.output")
    parts: list[str] = []
    for item in output:
        if not isinstance(item, dict) or item.get("type", "message") != "message":
            continue
        content = item.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [c["text"] for c in content if isinstance(c, dict) and c.get("type", "output_text")
                      == "output_text" and isinstance(c.get("text"), str)]
    return "".join(parts) if parts else None


def verify_response(body: dict, verdict: Verdict) -> dict:
    """The verify response: the request as sent, with the verdicts."""
    return {**body, "reward": verdict.reward, "follow_all_instructions": verdict.prompt_strict,
            "follow_instruction_list": list(verdict.strict), "follow_instruction_list_loose": list(verdict.loose),
            "explanations": list(verdict.explanations)}


__all__ = ["response_text", "verify_response"]
