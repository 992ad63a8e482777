"""Input errors that say where (file, line, field); they live on the ground floor."""

from indicifeval.core.errors import InputError, Source

__all__ = ["InputError", "Source"]
