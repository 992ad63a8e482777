"""Language profiles: every per-language fact the scorer needs, loaded from JSON data."""

from indicifeval.languages.composition import Composition, composition, indic_codes, script_fonts
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

__all__ = [
    "Composition",
    "LanguageProfile",
    "composition",
    "indic_codes",
    "script_fonts",
    "UnknownLanguageError",
    "get_profile",
    "list_languages",
    "language_name",
    "reload_profiles",
    "script_fallbacks",
    "script_ranges",
    "script_weights",
    "world_languages",
]
