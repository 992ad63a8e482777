"""What the shipped ``scripts.json`` says of each writing system: the Unicode ranges its letters
lie in, the language identification falls back to inside it, and how much one of its
characters weighs against a Latin letter."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


def _read_scripts() -> dict:
    path = resources.files("indicifeval.languages").joinpath("scripts.json")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def script_fallbacks() -> dict[str, str]:
    """Script -> the language identification falls back to inside that script."""
    table = _read_scripts()
    return {code: info["fallback"] for code, info in table.items() if not code.startswith("_") and "fallback" in info}


@cache
def script_weights() -> dict[str, int]:
    """Script -> how many letters one of its characters counts for when scripts are weighed
    (a Han character or a Hangul syllable carries about what a short Latin word does)."""
    table = _read_scripts()
    return {code: int(info["letter_weight"]) for code, info in table.items()
            if not code.startswith("_") and "letter_weight" in info}


@cache
def script_ranges() -> dict[str, tuple[tuple[int, int], ...]]:
    table = _read_scripts()
    return {
        code: tuple((int(lo, 16), int(hi, 16)) for lo, hi in info["ranges"])
        for code, info in table.items()
        if not code.startswith("_")
    }


__all__ = ["script_fallbacks", "script_ranges", "script_weights"]
