"""indicifeval: verifiable instruction-following evaluation for 14 Indic languages and English."""

from indicifeval._version import __version__

__all__ = [
    "__version__",
    "score",
    "score_rows",
    "load_rows",
    "load_responses",
    "load_dataset",
    "get_profile",
    "list_languages",
    "ScoreResult",
    "ScoringMode",
    "InputError",
]


def __getattr__(name: str):
    # Lazy so `import indicifeval` stays cheap and the CLI starts fast.
    if name in {"score", "score_rows", "ScoreResult"}:
        from indicifeval.scoring import api

        return getattr(api, name)
    if name == "ScoringMode":
        from indicifeval.checkers.rules import ScoringMode

        return ScoringMode
    if name in {"load_rows", "load_responses", "load_dataset", "InputError"}:
        from indicifeval import dataset

        return getattr(dataset, name)
    if name in {"get_profile", "list_languages"}:
        from indicifeval import languages

        return getattr(languages, name)
    raise AttributeError(f"module 'indicifeval' has no attribute {name!r}")
