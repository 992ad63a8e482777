"""The package's own data files (benchmark.json, scripts.json), read beside this module with
json alone: importlib.resources, dataclasses and the profiles would cost the command line's
start-up several milliseconds, and ``--help`` needs only the subsets' names."""

from __future__ import annotations

import json
import os
from functools import cache


def read_data(name: str) -> dict:
    with open(os.path.join(os.path.dirname(__file__), name), encoding="utf-8") as fh:
        return json.load(fh)


@cache
def subset_names() -> tuple[str, ...]:
    """The benchmark's subsets in its order (``composition().subsets``, without the rest)."""
    return tuple(read_data("benchmark.json")["subsets"])
