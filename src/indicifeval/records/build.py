"""The records dataset building writes: phrases to translate, contexts mined from a corpus,
prompt-generation tasks for an LLM, and human verdicts. Each validates its enumerations, so a
hand-edited file with a typo is refused with the field named."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from indicifeval.records.rows import Row

BUILD_FORMAT = 1
TRANSLATION_ROLES = ("translate", "keep", "letter", "copy_of_prompt")
TRANSLATION_STATUSES = ("auto", "edited", "verified")
VERDICTS = ("correct", "incorrect")
# what the machine suggests for a built row (a human's verdict comes later, in review)
AUTO_OK, NEEDS_REVIEW = "auto-ok", "needs-review"
CANDIDATE_STATUSES = (AUTO_OK, NEEDS_REVIEW)


def _check(value: str, allowed: tuple[str, ...], name: str) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")


class _Record:
    def to_json(self) -> dict:
        return {"format_version": BUILD_FORMAT, **asdict(self)}  # type: ignore[call-overload]

    @classmethod
    def from_json(cls, data: dict) -> Any:
        known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass
class TranslationItem(_Record):
    """One line of ``pretranslations.jsonl``: a lexical phrase of the source prompts, its role
    and its translation, editable by hand between stages."""

    phrase: str
    role: str  # translate | keep (verbatim: the answer is in the source language) | letter | copy_of_prompt
    translation: str | None = None
    engine: str | None = None
    status: str = "auto"  # auto (machine) | edited (a person changed it) | verified (a person confirmed it)
    rows: list[Any] = field(default_factory=list)  # keys of the rows that use it

    def __post_init__(self) -> None:
        _check(self.role, TRANSLATION_ROLES, "role")
        _check(self.status, TRANSLATION_STATUSES, "status")


@dataclass
class MinedContext(_Record):
    """A passage of a native corpus that satisfies one constraint exactly as the scorer would
    judge it, with the features that show it."""

    id: str
    language: str
    doc_id: str
    text: str
    instruction_id: str
    kwargs: dict[str, Any]
    shard: str | None = None
    features: dict[str, Any] = field(default_factory=dict)


@dataclass
class GenerationTask(_Record):
    """A provider-neutral request to an LLM to write a prompt grounded in a context."""

    uid: str
    context_id: str
    instruction_id: str
    kwargs: dict[str, Any]
    messages: list[dict[str, str]]
    style: str | None = None
    context_required: bool = False
    response_schema: dict[str, Any] | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class HumanVerdict(_Record):
    """One annotator's answers about one item, in a workflow's predefined options."""

    item_id: str
    annotator: str
    workflow: str
    answers: dict[str, str]
    comment: str = ""
    edit: dict[str, Any] | None = None  # the one allowed edit: a keyword mapping
    at: str | None = None
    verdict: str | None = None  # correct | incorrect: what the answers mean, by the workflow's rules
    adjudication: bool = False  # an adjudicator's final word on an item annotators disagreed on

    def __post_init__(self) -> None:
        if self.verdict is not None:
            _check(self.verdict, VERDICTS, "verdict")


@dataclass(frozen=True)
class Candidate:
    """A built row with the machine's suggestion beside it: its status (``auto-ok`` or
    ``needs-review``), the reasons for a review, the validator's warnings, and where it came
    from. Stored flat (the hub's row fields plus these four), as ``candidates.jsonl`` and the
    pipelines' ``rows.jsonl`` hold it."""

    row: Row
    status: str = AUTO_OK
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    provenance: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check(self.status, CANDIDATE_STATUSES, "status")

    def with_findings(self, errors: list[str], warnings: list[str]) -> Candidate:
        """The validator's say: an error sends the row to review, a warning is kept beside it."""
        status = NEEDS_REVIEW if errors else self.status
        return replace(self, status=status, reasons=(*self.reasons, *errors), warnings=tuple(warnings))

    def to_json(self, row_record: dict[str, Any]) -> dict[str, Any]:
        """``row_record``: the row in the hub's schema (``dataset.hub_record``)."""
        return {**row_record, "language": self.row.language, "subset": self.row.subset, "status": self.status,
                "reasons": list(self.reasons), "warnings": list(self.warnings), "provenance": dict(self.provenance)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidate:
        return cls(Row.from_json(data), str(data.get("status") or AUTO_OK), tuple(data.get("reasons") or ()),
                   tuple(data.get("warnings") or ()), dict(data.get("provenance") or {}))


@dataclass(frozen=True)
class ReviewItem:
    """One row under review: its id (the text of its ``RowId``, ``language/subset/key``), its
    place, the workflow that asks about it, the candidate as reviewers see it (the built row,
    edits applied, with the machine's status and reasons), the English row it was made from, and
    the validator's findings on it. Human answers live apart, in verdicts and edits."""

    id: str
    position: int
    workflow: str
    candidate: Candidate
    source: Row | None = None
    findings: tuple[dict[str, Any], ...] = ()

    @property
    def row(self) -> Row:
        return self.candidate.row

    @property
    def status(self) -> str:
        return self.candidate.status

    @property
    def reasons(self) -> tuple[str, ...]:
        return self.candidate.reasons

    @property
    def language(self) -> str:
        return self.row.language

    @property
    def subset(self) -> str:
        return self.row.subset

    @property
    def key(self) -> str:
        return str(self.row.key)
