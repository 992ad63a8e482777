"""Separate a model's reasoning from its answer, so that only the answer is scored (used by
runs, by ``score`` on response files, and by the lm-eval hooks).

Reasoning arrives either separately (a server's ``reasoning_content``) or inline, as
``<think>…</think>`` before the answer; chat templates that open the think block in the
prompt leave only the closing tag in the output. A think block that never closes (the model
ran out of tokens while thinking) leaves no answer: the answer is empty and flagged.
"""

from __future__ import annotations

from dataclasses import dataclass

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"


@dataclass(frozen=True)
class SplitAnswer:
    answer: str
    reasoning: str | None
    unterminated: bool = False


def split_reasoning(output: str | None, separate_reasoning: str | None = None) -> SplitAnswer:
    text = output or ""
    inline = None
    close = text.find(CLOSE_TAG)
    if close != -1:
        inline = text[:close]
        start = inline.find(OPEN_TAG)
        if start != -1:
            inline = inline[start + len(OPEN_TAG) :]
        text = text[close + len(CLOSE_TAG) :]
    elif text.lstrip().startswith(OPEN_TAG):
        reasoning = text.lstrip()[len(OPEN_TAG) :]
        parts = [p for p in (separate_reasoning, reasoning) if p]
        return SplitAnswer("", "\n".join(parts) if parts else "", True)
    parts = [p.strip() for p in (separate_reasoning, inline) if p and p.strip()]
    return SplitAnswer(text.strip(), "\n\n".join(parts) if parts else None, False)
