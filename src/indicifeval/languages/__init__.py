"""Language profiles: every per-language fact the scorer needs, loaded from JSON data.

The names below are imported on first use, so that ``languages.composition`` (the benchmark's
subsets, which the command line offers) is read without loading the profiles' module."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from typing import Any

    from indicifeval.languages.benchmark_mix import Composition, composition, indic_codes, script_fonts
    from indicifeval.languages.profile import (
        LanguageProfile,
        UnknownLanguageError,
        get_profile,
        language_name,
        list_languages,
        reload_profiles,
        script_fallbacks,
        script_ranges,
        script_weights,
        world_languages,
    )

_COMPOSITION = ("Composition", "composition", "indic_codes", "script_fonts")
__all__ = ["Composition", "LanguageProfile", "UnknownLanguageError", "composition", "get_profile", "indic_codes",
           "language_name", "list_languages", "reload_profiles", "script_fallbacks", "script_fonts", "script_ranges",
           "script_weights", "world_languages"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'indicifeval.languages' has no attribute {name!r}")
    import importlib

    module = "benchmark_mix" if name in _COMPOSITION else "profile"
    value = getattr(importlib.import_module(f"indicifeval.languages.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
