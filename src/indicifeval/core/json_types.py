"""What JSON holds, as a type: a stage's parameters, a model's identity and what a backend says
of itself are recorded in manifests, so they are JSON values and typed as such."""

from __future__ import annotations

from typing import Union

JsonValue = Union[str, int, float, bool, None, list["JsonValue"], dict[str, "JsonValue"]]  # noqa: UP007 (recursive)
JsonObject = dict[str, JsonValue]

__all__ = ["JsonObject", "JsonValue"]
