"""Typed, versioned records: every shape the package writes or reads, each with its to/from
JSON in one place. Validation against the instruction registry is the dataset layer's; these
are the shapes.

Every JSON-lines line and every JSON file the package writes carries ``format_version``."""

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
from indicifeval.records.rows import ROW_FORMAT, Row
from indicifeval.records.runs import GENERATION_FORMAT, MANIFEST_FORMAT, Generation, RunManifest
from indicifeval.records.scores import SCORE_FORMAT, RowScore

__all__ = ["AUTO_OK", "GENERATION_FORMAT", "MANIFEST_FORMAT", "NEEDS_REVIEW", "ROW_FORMAT", "SCORE_FORMAT",
           "Candidate", "Generation", "GenerationTask", "HumanVerdict", "MinedContext", "ReviewItem", "Row", "RowId",
           "RowScore", "RunManifest", "TranslationItem", "layout"]
