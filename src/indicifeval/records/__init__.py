"""Typed, versioned records: every shape the package writes or reads, each with its to/from
JSON in one place. Validation against the instruction registry is the dataset layer's; these
are the shapes.

Every JSON-lines line and every JSON file the package writes carries ``format_version``.
The names below are imported on first use: the command line reads ``records.layout``'s file
names without loading the records (and the language data they read)."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from typing import Any

    from indicifeval.records import layout
    from indicifeval.records.build import (
        AUTO_OK,
        NEEDS_REVIEW,
        Candidate,
        GenerationTask,
        HumanVerdict,
        MinedContext,
        ReviewItem,
        TranslationItem,
    )
    from indicifeval.records.ids import RowId
    from indicifeval.records.rows import CONVERSATION_FORMAT, MULTITURN, ROW_FORMAT, Conversation, Row, Turn
    from indicifeval.records.runs import GENERATION_FORMAT, MANIFEST_FORMAT, Generation, RunManifest, model_facts
    from indicifeval.records.scores import SCORE_FORMAT, RowScore, read_scores, score_line

_HOMES = {"build": ("AUTO_OK", "NEEDS_REVIEW", "Candidate", "GenerationTask", "HumanVerdict", "MinedContext",
                    "ReviewItem", "TranslationItem"),
          "ids": ("RowId",), "rows": ("CONVERSATION_FORMAT", "MULTITURN", "ROW_FORMAT", "Conversation", "Row", "Turn"),
          "runs": ("GENERATION_FORMAT", "MANIFEST_FORMAT", "Generation", "RunManifest", "model_facts"),
          "scores": ("SCORE_FORMAT", "RowScore", "read_scores", "score_line")}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = ["AUTO_OK", "CONVERSATION_FORMAT", "Conversation", "MULTITURN", "Turn",
           "GENERATION_FORMAT", "MANIFEST_FORMAT", "NEEDS_REVIEW", "ROW_FORMAT", "SCORE_FORMAT",
           "Candidate", "Generation", "GenerationTask", "HumanVerdict", "MinedContext", "ReviewItem", "Row", "RowId",
           "RowScore", "RunManifest", "TranslationItem", "layout", "model_facts", "read_scores",
           "score_line"]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None and name != "layout":
        raise AttributeError(f"module 'indicifeval.records' has no attribute {name!r}")
    import importlib

    found = importlib.import_module(f"indicifeval.records.{module or name}")
    value = found if module is None else getattr(found, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
