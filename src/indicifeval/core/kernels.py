"""The optional compiled kernels (``setup.py`` builds them where a C compiler is found): each
has a pure-Python version beside it that computes the same, and ``INDICIFEVAL_PURE_PYTHON=1``
makes every one of them stand aside."""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def optional_kernel(name: str) -> ModuleType | None:
    """The compiled module ``name``, or None where it was not built or is turned off."""
    if os.environ.get("INDICIFEVAL_PURE_PYTHON"):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:  # built without a compiler: the caller's Python version
        return None


__all__ = ["optional_kernel"]
