"""The file names of the folders the tools write, in one place: a run folder (``run``), a
score folder (``score``) and a report folder (``report``) each hold a ``manifest.json`` that
names the tool, then their own files."""

from __future__ import annotations

from indicifeval.core.names import MANIFEST

ROWS = "rows.jsonl"  # the rows as asked / scored
RESPONSES = "responses.jsonl"  # a score folder: the answers as scored
GENERATIONS = "generations.jsonl"  # a run folder: one line per generated item
SCORES = "scores.jsonl"
SUMMARY = "summary.json"


# A build folder (``build``): one folder per pipeline, each with the files of its stages.
TRANS_SOURCE, TRANS_PLANS = "trans/source.jsonl", "trans/plans.jsonl"
TRANS_PHRASE_LOG, TRANS_PHRASES = "trans/phrases-mt.jsonl", "trans/pretranslations.jsonl"
TRANS_MT_LOG, TRANS_CANDIDATES = "trans/mt.jsonl", "trans/candidates.jsonl"
TRANS_VALIDATION, TRANS_ROWS = "trans/validation.jsonl", "trans/rows.jsonl"
GROUND_SHARDS, GROUND_VOCAB, GROUND_KEYWORDS = "ground/shards.json", "ground/vocab.json", "ground/keywords.jsonl"
# the sha256 of the keyword list as the vocab stage last wrote it; the fresh ranking beside an edited list
GROUND_KEYWORDS_MADE, GROUND_KEYWORDS_RANKED = "ground/.keywords-made.sha256", "ground/keywords.ranked.jsonl"
GROUND_CONTEXTS, GROUND_SELECT_REJECTED = "ground/contexts.jsonl", "ground/select-rejected.jsonl"
GROUND_REQUESTS, GROUND_GENERATIONS = "ground/requests.jsonl", "ground/generations.jsonl"
GROUND_ROWS, GROUND_REJECTED = "ground/rows.jsonl", "ground/rejected.jsonl"
GROUND_VALIDATION = "ground/validation.jsonl"
GROUND_SELECT_FILL = "ground/select-fill.json"  # per kind: contexts asked, filled; the keywords used
# a multi-turn build: turn 1's Trans rows, the drawn follow-ups (their English the Trans stages'
# source, translated into trans/), then the conversations with a status and their validation
MULTITURN_TURN1, MULTITURN_DRAFTS = "multiturn/turn1.jsonl", "multiturn/drafts.jsonl"
MULTITURN_FOLLOW_UPS, MULTITURN_ROWS = "multiturn/follow-ups.en.jsonl", "multiturn/conversations.jsonl"
MULTITURN_VALIDATION = "multiturn/validation.jsonl"
# what `indicifeval validate BUILD` writes there: the findings over every pipeline's rows
BUILD_VALIDATION = "validation.jsonl"
# Human review, in the build folder: the app's database, and what export writes from it
REVIEW_DB, REVIEW_VERDICTS, REVIEW_AGREEMENT = "review/review.sqlite", "review/verdicts.jsonl", "review/agreement.json"
REVIEW_GUIDELINES = "review/guidelines.md"  # written by the project's lead, shown beside every item
# pipeline -> (final rows, assembled rows, the rows they were made from): what `validate` reads
BUILD_ROWS: dict[str, tuple[str, str, str | None]] = {"trans": (TRANS_ROWS, TRANS_CANDIDATES, TRANS_SOURCE),
                                                      "ground": (GROUND_ROWS, GROUND_ROWS, None)}
# a release folder: `build finalize` writes its rows and release.json, `build publish` the hub layout
RELEASE_ROWS, RELEASE_INFO, RELEASE_HUB = "rows.jsonl", "release.json", "hub"
# ... and the conversations it releases: our own lines (with their release tags) and Multi-IF's format
RELEASE_CONVERSATIONS, RELEASE_MULTI_IF = "conversations.jsonl", "conversations.multi-if.jsonl"


def ground_part(kind: str, shard: str) -> str:
    """One shard's part of a Ground shard-level stage (``vocab`` or ``features``)."""
    return f"ground/{kind}/part-{shard}.{'json' if kind == 'vocab' else 'jsonl'}"


def score_file_names(mode: str, primary: str | None) -> tuple[str, str]:
    """(scores, summary) file names of ``mode`` in a folder made with ``primary``: the
    folder's own mode keeps the plain names, another mode's scores sit beside them."""
    if primary is None or mode == primary:
        return SCORES, SUMMARY
    return f"scores.{mode}.jsonl", f"summary.{mode}.json"


__all__ = ["BUILD_ROWS", "BUILD_VALIDATION", "GENERATIONS", "GROUND_CONTEXTS", "GROUND_GENERATIONS", "GROUND_KEYWORDS",
           "GROUND_KEYWORDS_MADE", "GROUND_KEYWORDS_RANKED", "GROUND_REJECTED", "GROUND_REQUESTS", "GROUND_ROWS",
           "GROUND_SELECT_FILL", "GROUND_SELECT_REJECTED", "GROUND_SHARDS", "GROUND_VALIDATION", "GROUND_VOCAB",
           "MANIFEST", "MULTITURN_DRAFTS", "MULTITURN_FOLLOW_UPS", "MULTITURN_ROWS", "MULTITURN_TURN1",
           "MULTITURN_VALIDATION", "RELEASE_CONVERSATIONS", "RELEASE_HUB",
           "RELEASE_MULTI_IF",
           "RELEASE_INFO", "RELEASE_ROWS", "RESPONSES", "REVIEW_AGREEMENT", "REVIEW_DB", "REVIEW_GUIDELINES",
           "REVIEW_VERDICTS", "ROWS",
           "SCORES", "SUMMARY", "TRANS_CANDIDATES", "TRANS_MT_LOG", "TRANS_PHRASES", "TRANS_PHRASE_LOG", "TRANS_PLANS",
           "TRANS_ROWS", "TRANS_SOURCE", "TRANS_VALIDATION", "ground_part", "score_file_names"]
