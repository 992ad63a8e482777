"""Model family and size from a model name ("Qwen/Qwen3-8B" -> Qwen, 8), or from a mapping
file that overrides the guess ({"my-org/model-x": {"family": "X", "size_b": 7}})."""

from __future__ import annotations

import json
import re
from pathlib import Path

from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import json_error, where_in

_SIZE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*[bB](?![a-zA-Z])")
_MOE = re.compile(r"(\d+)[bB]-\d+[eE]")  # Llama-4 "17B-16E": active size
_LEADING_NAME = re.compile(r"[A-Za-z]+")
_NOISE = re.compile(r"[-_ ]?(instruct|chat|it|base|hf|awq|gptq|fp8|int4|int8)\b", re.IGNORECASE)


def guess_family(model: str) -> tuple[str, float | None]:
    name = model.rstrip("/").split("/")[-1]
    moe = _MOE.search(name)
    size_match = moe or _SIZE.search(name)
    size = float(size_match.group(1)) if size_match else None
    if size_match:
        stem = name[: size_match.start()]
    else:
        stem = name
    stem = _NOISE.sub("", stem).strip("-_ .")
    # the family is the name without versions: Llama-3.1/3.3/4 -> Llama, Qwen3 -> Qwen, gemma-3 -> Gemma
    letters = _LEADING_NAME.match(stem or name)
    family = letters.group(0) if letters else (stem or name)
    return family[:1].upper() + family[1:], size


def load_family_map(path: str | Path | None) -> dict[str, dict]:
    """``{"org/model": {"family": "X", "size_b": 7}}``, checked: errors name the entry."""
    if path is None:
        return {}
    name = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("file not found", name) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read ({exc})", name) from None
    except json.JSONDecodeError as exc:
        raise InputError(json_error(exc), name, where_in(exc.doc, exc.pos)[0]) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"malformed JSON ({str(exc).splitlines()[0][:120] or 'nested too deeply'})", name) from None
    if not isinstance(data, dict):
        raise InputError(f"expected an object of model -> {{family, size_b}}, got {type(data).__name__}", name)
    for model, entry in data.items():
        if not isinstance(entry, dict):
            raise InputError(f"expected {{family, size_b}}, got {type(entry).__name__}", name, field=model)
        unknown = set(entry) - {"family", "size_b"}
        if unknown:
            raise InputError(f"unknown keys {', '.join(sorted(unknown))} (only family and size_b)", name, field=model)
        if "family" in entry and not isinstance(entry["family"], str):
            raise InputError("family must be a string", name, field=f"{model}.family")
        size = entry.get("size_b")
        if size is not None and (isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0):
            raise InputError(f"size_b must be a positive number of billions, got {size!r}", name,
                             field=f"{model}.size_b")
    return data


def family_of(model: str, mapping: dict[str, dict] | None = None) -> tuple[str, float | None]:
    family, size = guess_family(model)
    entry = (mapping or {}).get(model)
    if entry:
        family = entry.get("family", family)
        size = entry.get("size_b", size)
    return family, size
