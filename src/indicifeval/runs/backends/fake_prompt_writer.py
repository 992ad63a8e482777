"""A deterministic stand-in for the LLM that writes Ground prompts: it reads the request (the
constraint line, whether the context slot is wanted, the example context) and answers with the
JSON object asked for, in the context's language (its words are the context's own). With
``faults`` > 0 it spoils that share of the replies, each in one of the ways real models do, so
tests and demos see the rows stage reject them: the word left out, the number left out, fenced
JSON, truncated JSON, meta-language, an unsafe flag, the context slot wrongly used."""

from __future__ import annotations

import hashlib
import json
import re

FAULTS = ("no_word", "no_number", "fenced", "truncated", "meta", "unsafe", "slot")
_CONTEXT = re.compile(r"<<<\n(.*?)\n>>>", re.S)
_CONSTRAINT = re.compile(r"^Constraint: (.*)$", re.M)
_QUOTED = re.compile(r"\"([^\"]+)\"")
_NUMBER = re.compile(r"exactly (\d+)")
SLOT = "[INSERT CONTEXT HERE]"


def _unit(*parts: str) -> float:
    return int.from_bytes(hashlib.sha256("\n".join(parts).encode("utf-8")).digest()[:8], "big") / 2**64


def _group(match: re.Match | None) -> str | None:
    return match.group(1) if match else None


class FakePromptWriter:
    def __init__(self, faults: float = 0.0):
        self.faults = faults
        self.spoiled: dict[str, str] = {}  # constraint text -> the fault applied

    def __call__(self, user: str) -> str:
        context = _group(_CONTEXT.search(user)) or ""
        constraint = _group(_CONSTRAINT.search(user)) or ""
        word = _group(_QUOTED.search(constraint))
        numbers = _NUMBER.findall(constraint)  # "exactly S sentence(s) in exactly P paragraph(s)": both
        needs_slot = "must contain the exact text [INSERT CONTEXT HERE]" in user
        fault = None
        if self.faults and _unit("fault", user) < self.faults:
            fault = FAULTS[int(_unit("kind", user) * len(FAULTS))]
            self.spoiled[user] = fault
        words = context.split()
        theme = " ".join(words[:12]) if words else ""
        parts = [theme]
        if word and fault != "no_word":
            parts.append(f"'{word}'")
        if numbers and fault != "no_number":
            parts += numbers
        if "***" in constraint and numbers and int(numbers[-1]) > 1:
            parts.append("***")
        if (needs_slot and fault != "slot") or (not needs_slot and fault == "slot"):
            parts.append(SLOT)
        if fault == "meta":
            parts.append("AI")
        instruction = " ".join(p for p in parts if p)
        reply = json.dumps({"instruction": instruction, "constraint": constraint, "unsafe": fault == "unsafe"},
                           ensure_ascii=False)
        if fault == "fenced":
            return "```json\n" + reply + "\n```"
        if fault == "truncated":
            return reply[: len(reply) // 2]
        return reply


__all__ = ["FAULTS", "SLOT", "FakePromptWriter"]
