"""indicifeval: verifiable instruction-following evaluation for 14 Indic languages and English.

    import indicifeval
    result = indicifeval.score("rows.jsonl", "responses.jsonl")      # or in-memory rows/answers
    model = indicifeval.ModelSpec.of("openai", "m", {"base_url": url})
    outcome = indicifeval.run(model, "runs/m", indicifeval.DataOptions(source="sample"))
    indicifeval.report(["runs/m"], "report/")
"""

from __future__ import annotations

from indicifeval._version import __version__

TYPE_CHECKING = False  # not typing's: importing typing costs every command's start-up
if TYPE_CHECKING:  # the lazy exports below, for type checkers and IDEs
    from typing import Any

    from indicifeval.checkers.rules import ScoringMode
    from indicifeval.core.errors import IndicIFEvalError, InputError
    from indicifeval.dataset import load_dataset, load_responses, load_rows
    from indicifeval.languages import get_profile, list_languages
    from indicifeval.reports.api import report
    from indicifeval.runs.backends.spec import ModelSpec
    from indicifeval.runs.requests import SamplingSettings
    from indicifeval.runs.runner import DataOptions, run
    from indicifeval.scoring.api import score, score_rows
    from indicifeval.scoring.output import ScoreResult

# name -> module it lives in; imported on first use so `import indicifeval` stays cheap
_EXPORTS = {
    "score": "indicifeval.scoring.api",
    "score_rows": "indicifeval.scoring.api",
    "ScoreResult": "indicifeval.scoring.output",
    "ScoringMode": "indicifeval.checkers.rules",
    "load_rows": "indicifeval.dataset",
    "load_responses": "indicifeval.dataset",
    "load_dataset": "indicifeval.dataset",
    "InputError": "indicifeval.core.errors",
    "IndicIFEvalError": "indicifeval.core.errors",
    "get_profile": "indicifeval.languages",
    "list_languages": "indicifeval.languages",
    "run": "indicifeval.runs.runner",
    "DataOptions": "indicifeval.runs.runner",
    "ModelSpec": "indicifeval.runs.backends.spec",
    "SamplingSettings": "indicifeval.runs.requests",
    "report": "indicifeval.reports.api",
}

__all__ = [
    "DataOptions",
    "IndicIFEvalError",
    "InputError",
    "ModelSpec",
    "SamplingSettings",
    "ScoreResult",
    "ScoringMode",
    "__version__",
    "get_profile",
    "list_languages",
    "load_dataset",
    "load_responses",
    "load_rows",
    "report",
    "run",
    "score",
    "score_rows",
]
assert set(__all__) == {"__version__", *_EXPORTS}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'indicifeval' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
