"""Language profiles: every per-language fact the scorer needs, loaded from JSON data."""

from indicifeval.languages.profile import (
    INDIC_CODES,
    LanguageProfile,
    UnknownLanguageError,
    get_profile,
    list_languages,
    language_name,
    reload_profiles,
    script_fallbacks,
    script_ranges,
    world_languages,
)

__all__ = [
    "INDIC_CODES",
    "LanguageProfile",
    "UnknownLanguageError",
    "get_profile",
    "list_languages",
    "language_name",
    "reload_profiles",
    "script_fallbacks",
    "script_ranges",
    "world_languages",
]
