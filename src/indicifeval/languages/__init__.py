"""Language profiles: every per-language fact the scorer needs, loaded from JSON data.

The names below are imported on first use: importing the package reads no profile, and the
benchmark's composition reads them only when its languages are first asked for."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from typing import Any

    from indicifeval.languages.benchmark import Composition, script_fonts
    from indicifeval.languages.profile import (
        LanguageProfile,
        UnknownLanguageError,
        composition,
        get_profile,
        indic_codes,
        language_name,
        list_languages,
        reload_profiles,
        world_languages,
    )
    from indicifeval.languages.scripts import script_fallbacks, script_ranges, script_weights

_BENCHMARK = ("Composition", "script_fonts")
_SCRIPTS = ("script_fallbacks", "script_ranges", "script_weights")  # the rest: the profiles' module
__all__ = ["Composition", "LanguageProfile", "UnknownLanguageError", "composition", "get_profile", "indic_codes",
           "language_name", "list_languages", "reload_profiles", "script_fallbacks", "script_fonts", "script_ranges",
           "script_weights", "world_languages"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'indicifeval.languages' has no attribute {name!r}")
    import importlib

    module = "benchmark" if name in _BENCHMARK else "scripts" if name in _SCRIPTS else "profile"
    value = getattr(importlib.import_module(f"indicifeval.languages.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
